// Python `re` (the subset wcmatch emits): parsed once into a small AST, from which we emit an equivalent
// JavaScript `su` RegExp source and a Pike-VM program. The VM does the matching: it runs in
// O(path × pattern) whatever the pattern (V8's backtracking engine can go exponential on star-heavy globs, and
// its compiler overflows on the long atom sequences that 100k-character patterns produce).

/** Python `re.error` raised while parsing one regex fragment (`pos` is relative to that fragment). */
export class PyReError {
  constructor(
    readonly msg: string,
    readonly pos: number,
  ) {}
}

/** Python `re.error` as `str(error)` for the whole pattern. */
export class PyCompileError {
  constructor(readonly message: string) {}
}

export const PY_PREFIX = "^(?s:";
export const PY_SUFFIX = ")$";

/** Python `re.error(msg, pattern, pos)` formatting. */
export function pyReErrorMessage(msg: string, pattern: readonly string[], pos: number): string {
  let text = `${msg} at position ${pos}`;
  if (pattern.includes("\n")) {
    let line = 1;
    let lastNewline = -1;
    for (let k = 0; k < pos; k++) {
      if (pattern[k] === "\n") {
        line++;
        lastNewline = k;
      }
    }
    text += ` (line ${line}, column ${pos - lastNewline})`;
  }
  return text;
}

/** Code point ranges, optionally negated (`.` under DOTALL is the empty negated set). */
export interface CharSet {
  readonly negate: boolean;
  readonly ranges: ReadonlyArray<readonly [number, number]>;
}

export type Ast =
  | { readonly t: "lit"; readonly cps: readonly number[] }
  | { readonly t: "set"; readonly set: CharSet }
  | { readonly t: "dot" }
  | { readonly t: "seq"; readonly items: readonly Ast[] }
  | { readonly t: "alt"; readonly alts: readonly Ast[] }
  | { readonly t: "rep"; readonly body: Ast; readonly min: number; readonly max: number; readonly lazy: boolean }
  | { readonly t: "bol" }
  | { readonly t: "eol" }
  | { readonly t: "look"; readonly negate: boolean; readonly body: Ast };

export function setHas(set: CharSet, cp: number): boolean {
  // Indexed, not `for (const [lo, hi] of …)`: the VM asks this for every character it tries, and until V8 has
  // optimised it (a cold CLI run never gets there) each destructuring step allocates an iterator.
  const ranges = set.ranges;
  let inside = false;
  for (let i = 0; i < ranges.length; i++) {
    const range = ranges[i]!;
    if (cp >= range[0] && cp <= range[1]) {
      inside = true;
      break;
    }
  }
  return inside !== set.negate;
}

/** `sre_parse._class_escape` results reachable from wcmatch output (plus the plain escapes Python accepts). */
const PY_CLASS_ESCAPES: Readonly<Record<string, number>> = {
  a: 7,
  b: 8,
  f: 12,
  n: 10,
  r: 13,
  t: 9,
  v: 11,
  "\\": 92,
};

/**
 * Recursive descent over the regex text wcmatch produced. Character classes follow `sre_parse._parse` exactly,
 * including its errors, because wcmatch's class builder can emit text Python rejects (e.g.
 * `[a-[:alpha:][:upper:]]` becomes a class containing `\A`).
 */
export class PyRegexParser {
  private pos: number;

  constructor(
    private readonly py: readonly string[],
    start: number,
    private readonly end: number,
  ) {
    this.pos = start;
  }

  parse(): Ast {
    const ast = this.alternation();
    if (this.pos !== this.end) throw new Error(`pyGlob: unexpected ${this.py[this.pos]} in wcmatch output`);
    return ast;
  }

  private alternation(): Ast {
    const alts = [this.sequence()];
    while (this.pos < this.end && this.py[this.pos] === "|") {
      this.pos++;
      alts.push(this.sequence());
    }
    return alts.length === 1 ? alts[0]! : { t: "alt", alts };
  }

  private sequence(): Ast {
    const items: Ast[] = [];
    let run: number[] = [];
    const flush = () => {
      if (run.length) items.push({ t: "lit", cps: run });
      run = [];
    };
    while (this.pos < this.end && this.py[this.pos] !== "|" && this.py[this.pos] !== ")") {
      const atom = this.atom();
      const item = this.quantified(atom);
      // Unquantified literals are merged into runs: a 100k-character pattern is mostly one literal.
      if (item.t === "lit") {
        run.push(item.cps[0]!);
      } else {
        flush();
        items.push(item);
      }
    }
    flush();
    return items.length === 1 ? items[0]! : { t: "seq", items };
  }

  private quantified(atom: Ast): Ast {
    const c = this.py[this.pos];
    let min: number;
    let max: number;
    if (c === "*" || c === "+" || c === "?") {
      min = c === "+" ? 1 : 0;
      max = c === "?" ? 1 : Infinity;
      this.pos++;
    } else if (c === "{") {
      const close = this.py.indexOf("}", this.pos);
      const [lo, hi] = this.py.slice(this.pos + 1, close).join("").split(",");
      min = Number(lo);
      max = hi === undefined ? min : hi === "" ? Infinity : Number(hi);
      this.pos = close + 1;
    } else {
      return atom;
    }
    const lazy = this.py[this.pos] === "?";
    if (lazy) this.pos++;
    return { t: "rep", body: atom, min, max, lazy };
  }

  private atom(): Ast {
    const py = this.py;
    const c = py[this.pos]!;
    this.pos++;
    switch (c) {
      case "(": {
        let look: "=" | "!" | undefined;
        if (py[this.pos] === "?") {
          const kind = py[this.pos + 1]!;
          if (kind === "=" || kind === "!") look = kind;
          else if (kind !== ":") throw new Error(`pyGlob: unexpected group (?${kind} in wcmatch output`);
          this.pos += 2;
        }
        const body = this.alternation();
        if (py[this.pos] !== ")") throw new Error("pyGlob: unbalanced group in wcmatch output");
        this.pos++;
        return look ? { t: "look", negate: look === "!", body } : body;
      }
      case "[":
        return { t: "set", set: this.charClass(this.pos - 1) };
      case ".":
        return { t: "dot" };
      case "^":
        return { t: "bol" };
      case "$":
        return { t: "eol" };
      case "\\": {
        const d = py[this.pos]!;
        this.pos++;
        // Outside classes wcmatch only escapes via `re.escape`, which never escapes letters or digits.
        if (/^[A-Za-z0-9]$/.test(d)) throw new Error(`pyGlob: unexpected escape \\${d} in wcmatch output`);
        return { t: "lit", cps: [d.codePointAt(0)!] };
      }
      default:
        return { t: "lit", cps: [c.codePointAt(0)!] };
    }
  }

  /** One class item as `sre_parse` tokenises it: a character, or `\` plus one character (octal takes more). */
  private classItem(): { value: number; token: string; start: number } {
    const py = this.py;
    const start = this.pos;
    const c = py[start];
    if (c === undefined) throw new PyReError("unterminated character set", start);
    if (c !== "\\") {
      this.pos++;
      return { value: c.codePointAt(0)!, token: c, start };
    }
    const d = py[start + 1];
    if (d === undefined) throw new PyReError("bad escape (end of pattern)", start);
    const token = c + d;
    this.pos += 2;
    if (d in PY_CLASS_ESCAPES) return { value: PY_CLASS_ESCAPES[d]!, token, start };
    if (d >= "0" && d <= "7") {
      let digits = d;
      while (digits.length < 3 && py[this.pos] !== undefined && py[this.pos]! >= "0" && py[this.pos]! <= "7") {
        digits += py[this.pos++];
      }
      const value = parseInt(digits, 8);
      if (value > 0o377) {
        const msg = `octal escape value \\${digits} outside of range 0-0o377`;
        throw new PyReError(msg, start);
      }
      return { value, token, start };
    }
    // `\d`, `\x41`, … would be valid Python here, but wcmatch can only put `\A` / `\a` / `\0` / `\` + punctuation
    // after a backslash inside a class; any other ASCII letter or digit is Python's "bad escape".
    if (/^[A-Za-z0-9]$/.test(d)) throw new PyReError(`bad escape ${token}`, start);
    return { value: d.codePointAt(0)!, token, start };
  }

  /** wcmatch repeats the same few classes (`[/]`, `[^/]`, …); identical class text shares one set. */
  private readonly classCache = new Map<string, { set: CharSet; length: number }>();

  private charClass(open: number): CharSet {
    const close = this.py.indexOf("]", open + 2);
    const key = close > 0 ? this.py.slice(open, close + 1).join("") : "";
    const cached = key && !key.includes("\\") ? this.classCache.get(key) : undefined;
    if (cached) {
      this.pos = open + cached.length;
      return cached.set;
    }
    const set = this.parseClass(open);
    if (key && !key.includes("\\") && this.pos === close + 1) this.classCache.set(key, { set, length: close + 1 - open });
    return set;
  }

  private parseClass(open: number): CharSet {
    const py = this.py;
    let negate = false;
    if (py[this.pos] === "^") {
      negate = true;
      this.pos++;
    }
    const ranges: Array<[number, number]> = [];
    for (let first = true; ; first = false) {
      if (py[this.pos] === undefined) throw new PyReError("unterminated character set", open);
      if (py[this.pos] === "]" && !first) {
        this.pos++;
        break;
      }
      const a = this.classItem();
      if (py[this.pos] === "-") {
        this.pos++;
        if (py[this.pos] === undefined) {
          throw new PyReError("unterminated character set", open);
        }
        if (py[this.pos] === "]") {
          this.pos++;
          ranges.push([a.value, a.value], [45, 45]);
          break;
        }
        const b = this.classItem();
        if (b.value < a.value) {
          throw new PyReError(`bad character range ${a.token}-${b.token}`, a.start);
        }
        ranges.push([a.value, b.value]);
      } else {
        ranges.push([a.value, a.value]);
      }
    }
    return { negate, ranges };
  }
}

function jsCodePoint(cp: number): string {
  return `\\u{${cp.toString(16)}}`;
}

function jsLiteral(cp: number): string {
  const c = String.fromCodePoint(cp);
  // With the `u` flag only syntax characters may be backslash-escaped outside a class.
  if ("^$\\.*+?()[]{}|/".includes(c)) return "\\" + c;
  if (cp >= 0x20 && cp < 0x7f) return c;
  return jsCodePoint(cp);
}

/** JavaScript (`u` + `s` flags) source for the AST; Python's `$` becomes "end, or before a final newline". */
export function astToJs(ast: Ast): string {
  switch (ast.t) {
    case "lit":
      return ast.cps.map(jsLiteral).join("");
    case "dot":
      return ".";
    case "set": {
      const { negate, ranges } = ast.set;
      const body = ranges.map(([lo, hi]) => (lo === hi ? jsCodePoint(lo) : `${jsCodePoint(lo)}-${jsCodePoint(hi)}`));
      return `[${negate ? "^" : ""}${body.join("")}]`;
    }
    case "seq":
      return ast.items.map(astToJs).join("");
    case "alt":
      return `(?:${ast.alts.map(astToJs).join("|")})`;
    case "rep": {
      const q =
        ast.min === 0 && ast.max === Infinity
          ? "*"
          : ast.min === 1 && ast.max === Infinity
            ? "+"
            : ast.min === 0 && ast.max === 1
              ? "?"
              : `{${ast.min},${ast.max === Infinity ? "" : ast.max}}`;
      const body = astToJs(ast.body);
      const atom = ast.body.t === "set" || ast.body.t === "dot" || (ast.body.t === "lit" && ast.body.cps.length === 1);
      return `${atom ? body : `(?:${body})`}${q}${ast.lazy ? "?" : ""}`;
    }
    case "bol":
      return "^";
    case "eol":
      return "(?=\\n?$)";
    case "look":
      return `(?${ast.negate ? "!" : "="}${astToJs(ast.body)})`;
  }
}
