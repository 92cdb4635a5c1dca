import { JS } from "refa";
import picomatch from "picomatch";
const re = picomatch.makeRe(process.argv[2]!, { dot: true, windows: false } as any);
const p = JS.Parser.fromLiteral({ source: re.source, flags: re.flags });
const r = p.parse({ backreferences: "throw", assertions: "parse" });
function show(n: any, d = 0): string {
  const pad = "  ".repeat(d);
  switch (n.type) {
    case "Expression": case "Alternation": return pad + n.type + "\n" + n.alternatives.map((a: any) => show(a, d + 1)).join("");
    case "Concatenation": return pad + "Concat\n" + n.elements.map((e: any) => show(e, d + 1)).join("");
    case "Quantifier": return pad + `Q{${n.min},${n.max}}${n.lazy ? "?" : ""}\n` + n.alternatives.map((a: any) => show(a, d + 1)).join("");
    case "Assertion": return pad + `Assert ${n.kind} ${n.negate ? "neg" : "pos"}\n` + n.alternatives.map((a: any) => show(a, d + 1)).join("");
    case "CharacterClass": return pad + "CC " + n.characters.toRangesString() + "\n";
    default: return pad + n.type + "\n";
  }
}
console.log(re.source, re.flags, r.maxCharacter);
console.log(show(r.expression));
