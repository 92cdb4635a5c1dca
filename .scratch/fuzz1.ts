import micromatch from "micromatch";
import { deepagentsJs } from "../server/src/engine/runtime/deepagentsJs";
import { neverMatchReason, repairedPattern } from "./pnm";
const segs = ["a","b",".env",".","x.txt","secrets","{a,b}","01","1"];
function universe(extra: string[]): string[] {
  const S = [...new Set([...segs, ...extra])];
  const out = ["/"];
  let level = [""];
  for (let d = 1; d <= 3; d++) {
    const next: string[] = [];
    for (const p of level) for (const s of S) next.push(p + "/" + s);
    out.push(...next); level = next;
  }
  return out.filter(p => { const c = deepagentsJs.canonicalToolPath(p, true); return c.ok && c.path === p; });
}
let seed = 12345; const rnd = () => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed / 0x7fffffff; };
const alpha = ["/","/","/","a","b","*","**","?","{","}",",","[","]","!","(",")","|","\\",".","@","+","secrets","-","1..3","x"];
let flagged = 0, bad = 0;
for (let n = 0; n < 20000; n++) {
  let p = "/"; const len = 1 + Math.floor(rnd()*7);
  for (let i = 0; i < len; i++) p += alpha[Math.floor(rnd()*alpha.length)];
  const reason = neverMatchReason(deepagentsJs, p);
  if (!reason) continue;
  flagged++;
  const words = p.split(/[^A-Za-z0-9._-]+/).filter(Boolean);
  const U = universe(words);
  const hit = U.find(u => micromatch.isMatch(u, p, { dot: true }));
  if (hit) { bad++; if (bad < 20) console.log("BAD", JSON.stringify(p), hit); }
}
console.log({ flagged, bad });
for (const p of ["/workspace/","/a//**","/**/","/x/**/","//**","/a//b/"]) console.log(p, "->", repairedPattern(p), neverMatchReason(deepagentsJs, p));
