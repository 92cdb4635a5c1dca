import picomatch from "picomatch";
import { regexToDfa } from "../server/src/engine/automata/regexAutomaton";
import { Budget } from "../server/src/engine/automata/budget";
const pats = process.argv.slice(2);
const alphabet = ["a", "b", ".", "/", "x"];
function* strings(maxLen: number): Generator<string> {
  yield "";
  let layer = [""];
  for (let l = 1; l <= maxLen; l++) {
    const next: string[] = [];
    for (const s of layer) for (const c of alphabet) { next.push(s + c); }
    for (const s of next) yield s;
    layer = next;
  }
}
for (const p of pats) {
  const re = picomatch.makeRe(p, { dot: true, windows: false } as any);
  const t0 = performance.now();
  const dfa = regexToDfa(re, new Budget({ milliseconds: 5000, states: 100000 }));
  const t1 = performance.now();
  let bad = 0, n = 0;
  for (const s of strings(7)) {
    n++;
    const w = [...s].map((c) => c.charCodeAt(0));
    if (dfa.test(w as any) !== re.test(s)) { if (bad++ < 5) console.log("MISMATCH", p, JSON.stringify(s), dfa.test(w as any), re.test(s)); }
  }
  console.log(p.padEnd(24), "states", dfa.countNodes(), "ms", (t1 - t0).toFixed(2), "checked", n, "bad", bad);
}
