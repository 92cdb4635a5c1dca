/**
 * Python's `repr()` of a str and `type(x).__name__` of a JSON value, for messages the Python runtimes format with
 * `{value!r}` (deepagents-py's path errors, DeerFlow's validation messages).
 */

/** `type(value).__name__` for a JSON value (a whole number is an `int`: JSON does not keep `1.0` apart from `1`). */
export function pyTypeName(value: unknown): string {
  if (value === null || value === undefined) return "NoneType";
  if (typeof value === "boolean") return "bool";
  if (typeof value === "number") return Number.isInteger(value) ? "int" : "float";
  if (typeof value === "string") return "str";
  if (Array.isArray(value)) return "list";
  return "dict";
}

/** What `str.isprintable()` refuses: Unicode's "Other" and "Separator" categories, except the ASCII space. */
const NON_PRINTABLE = /^[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]$/u;

/** Printable ASCII without `'` and `\\`: `repr` only adds single quotes (role and tool names nearly always are). */
const PLAIN_ASCII = /^[\x20-\x26\x28-\x5b\x5d-\x7e]*$/;

/** `repr(s)` of a Python str: quote choice, escapes, and `str.isprintable()` for everything else. */
export function pyStrRepr(s: string): string {
  // The character walk below is the general case; a message listing 10,000 role names spent most of its time there.
  if (PLAIN_ASCII.test(s)) return `'${s}'`;
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    if (ch === "\\") out += "\\\\";
    else if (ch === quote) out += "\\" + quote;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (ch !== " " && NON_PRINTABLE.test(ch)) {
      const code = ch.codePointAt(0)!;
      if (code < 0x100) out += "\\x" + code.toString(16).padStart(2, "0");
      else if (code < 0x10000) out += "\\u" + code.toString(16).padStart(4, "0");
      else out += "\\U" + code.toString(16).padStart(8, "0");
    } else out += ch;
  }
  return out + quote;
}

/** deepagents-py's `{path!r}`. */
export const pyRepr = pyStrRepr;
