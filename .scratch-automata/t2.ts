import picomatch from "picomatch";
import { regexToDfa } from "../server/src/engine/automata/regexAutomaton";
import { Budget } from "../server/src/engine/automata/budget";
const pats = ["/workspace/**", "/**", "/*", "/src/**/*.ts", "/workspace/.env", "/a/**/b", "/**/node_modules/**", "/x/{a,b}/*.md", "/data/[abc].txt"];
for (let round = 0; round < 3; round++) {
  const t0 = performance.now();
  for (let k = 0; k < 20; k++) for (const p of pats) {
    const re = picomatch.makeRe(p + (k ? k : ""), { dot: true, windows: false } as any);
    regexToDfa(re, new Budget({ milliseconds: 5000, states: 100000 }));
  }
  console.log("round", round, ((performance.now() - t0) / (20 * pats.length)).toFixed(3), "ms/pattern");
}
