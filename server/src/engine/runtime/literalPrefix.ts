/**
 * The literal text every string matched by a regular expression `^(?:BODY)$` must start with, read off the
 * regular expression itself (not the glob), so it can never claim more than the matcher does. Used to index
 * rules by prefix; a wrong (too long) prefix would hide a matching rule, so every doubt ends the prefix.
 */
const REGEX_SPECIALS = new Set([".", "*", "+", "?", "(", ")", "[", "]", "{", "}", "|", "^", "$"]);
const QUANTIFIERS = new Set(["*", "+", "?", "{"]);

export function literalPrefixOfRegex(source: string): string {
  const head = "^(?:";
  if (!source.startsWith(head) || !source.endsWith(")$")) return "";
  const body = source.slice(head.length, -2);
  if (hasTopLevelAlternation(body)) return "";
  let prefix = "";
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (QUANTIFIERS.has(c)) return prefix.slice(0, -1); // the last literal is optional or repeated
    if (c === "\\") {
      const next = body[i + 1];
      if (next === undefined || /[0-9A-Za-z]/.test(next)) return prefix; // \d, \b, \1, …: not a literal
      if (QUANTIFIERS.has(body[i + 2] ?? "")) return prefix;
      prefix += next;
      i++;
      continue;
    }
    if (REGEX_SPECIALS.has(c)) return prefix;
    if (QUANTIFIERS.has(body[i + 1] ?? "")) return prefix;
    prefix += c;
  }
  return prefix;
}

function hasTopLevelAlternation(body: string): boolean {
  return groupStructure(body).topLevelAlternation;
}

/**
 * How a regular expression's text nests (escapes and classes skipped): whether a `|` stands outside every group,
 * whether its groups are balanced (no `)` before its `(`, none left open, no class left open), and whether it holds
 * an escape that may name a group (a backslash before a digit from 1 or before `k`, in a class or not).
 */
export function groupStructure(body: string): { topLevelAlternation: boolean; balanced: boolean; backreference: boolean } {
  let depth = 0;
  let inClass = false;
  let topLevelAlternation = false;
  let balanced = true;
  let backreference = false;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === "\\") {
      const next = body.charCodeAt(i + 1);
      if ((next >= 0x31 && next <= 0x39) || next === 0x6b) backreference = true;
      i++;
      continue;
    }
    if (inClass) { if (c === "]") inClass = false; continue; }
    if (c === "[") inClass = true;
    else if (c === "(") depth++;
    else if (c === ")" && --depth < 0) balanced = false;
    else if (c === "|" && depth === 0) topLevelAlternation = true;
  }
  return { topLevelAlternation, balanced: balanced && depth === 0 && !inClass, backreference };
}

export function commonPrefix(a: string, b: string): string {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return a.slice(0, i);
}
