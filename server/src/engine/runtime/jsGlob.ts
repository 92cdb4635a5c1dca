import picomatch from "picomatch";
import type { BraceRangeReplacement, PlainPathRegex } from "./runtime";

/**
 * deepagents-js matches with `micromatch.isMatch(path, pattern, { dot: true })` (docs/reference/globs.md). micromatch 4.0.8 hands that
 * to picomatch 2.3.2: `picomatch(pattern, opts)(path)`, which tries plain string equality first (why `/data/{a,b}`
 * matches the literal path `/data/{a,b}`, G48) and then the compiled regular expression. We compile the same
 * regular expression once with the same options, so the answer is bit-for-bit the runtime's.
 */
const PICOMATCH_OPTIONS = { dot: true, windows: false } as const;

/** picomatch refuses patterns longer than this (`Input length: N, exceeds maximum allowed length: 65536`). */
export const PICOMATCH_MAX_LENGTH = 65536;

export interface CompiledJsGlob {
  readonly pattern: string;
  /** The regular expression picomatch builds; `undefined` when picomatch throws for this pattern. */
  readonly regex: RegExp | undefined;
  /** The error micromatch would throw at call time, word for word. */
  readonly error: string | undefined;
  matches(path: string): boolean;
  /** The same matcher on plain paths (runtime.ts `PlainPathRegex`), when the regular expression allows it. */
  readonly plain: PlainPathRegex | undefined;
}

export function compileJsGlob(pattern: string): CompiledJsGlob {
  let regex: RegExp | undefined;
  let error: string | undefined;
  try {
    regex = picomatch.makeRe(pattern, PICOMATCH_OPTIONS as picomatch.PicomatchOptions);
  } catch (e) {
    error = (e as Error).message;
  }
  const compiled = regex;
  let plain: PlainPathRegex | undefined | null = null;
  return {
    pattern,
    regex,
    error,
    // Computed on first use: only rule lists asked many questions need it (ruleList.ts).
    get plain() {
      if (plain === null) plain = compiled ? plainPathRegexOf(compiled.source, pattern) : undefined;
      return plain;
    },
    matches: compiled
      ? (path: string) => path === pattern || compiled.test(path)
      : () => false,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// picomatch's regular expression, restated for plain paths.
//
// The restatement reads the regular expression picomatch built (never the glob), token by token, and gives up on
// anything it does not know, so it can only cover less than picomatch, never disagree with it. The tokens picomatch
// 2.3.2 emits with `{dot: true}` and what each means on a plain path (runtime.ts `PlainPathRegex`):
//
//   (?!\.{1,2}(?:\/|$))                  "no `.`/`..` segment starts here": accepted only right after a literal `/`,
//                                        where a plain path always starts a non-empty segment that is not `.`/`..`:
//                                        always true, dropped.
//   (?=.)                                "a character follows": same place, same reason; dropped.
//   (?:(?!(?:^|\/)\.{1,2}(?:\/|$)).)*?   globstar body: any text that holds no `.`/`..` segment and no line
//                                        terminator. Every substring of a plain path qualifies (its `^` could only
//                                        fire at offset 0, and the expression must start with a literal `/`):
//                                        any text.
//   [^/]*?  [^/]                         as written (`*?` and `*` accept the same strings).
//   $                                    end of input (picomatch's `(?:\/…|$)` around a trailing `/**`).
//   \X, plain characters, [a-z0-9] classes, (…|…) and (?:…|…) groups, `?` after an escaped character: as written.
//
// picomatch also answers `true` when the path equals the pattern text (G48), whatever the expression says: that
// is added as one more alternative unless the expression is that very literal.

const NO_DOT_SEGMENT = String.raw`(?!\.{1,2}(?:\/|$))`;
const ONE_CHAR = "(?=.)";
const GLOBSTAR_BODY = String.raw`(?:(?!(?:^|\/)\.{1,2}(?:\/|$)).)*?`;
const NON_SLASH = "[^/]";
const REGEX_SYNTAX = new Set([".", "*", "+", "?", "{", "}", "^", "$", "|", "(", ")", "[", "]", "\\"]);

class NotPlain extends Error {}

function charSet(codes: Iterable<number>, others = false): Uint8Array {
  const set = new Uint8Array(129);
  for (const c of codes) set[c] = 1;
  if (others) set[128] = 1;
  return set;
}
const ANY_SET = new Uint8Array(129).fill(1);
const NON_SLASH_SET = (() => {
  const s = new Uint8Array(129).fill(1);
  s[47] = 0;
  return s;
})();
const literal = (code: number): PlainPathRegex => ({ kind: "set", set: charSet([code]) });
const EMPTY: PlainPathRegex = { kind: "seq", items: [] };

/** The restatement of `^(?:BODY)$`, or `undefined` when some token is not understood. */
export function plainPathRegexOf(source: string, pattern: string): PlainPathRegex | undefined {
  if (!source.startsWith("^(?:") || !source.endsWith(")$")) return undefined;
  const body = source.slice(4, -2);
  // A literal `/` first: so nothing can sit at offset 0 but that slash (the globstar body's `^` never fires).
  if (!body.startsWith("\\/")) return undefined;
  let i = 0;

  const alternatives = (afterSlash: boolean): PlainPathRegex => {
    const items = [sequence(afterSlash)];
    while (body[i] === "|") {
      i++;
      items.push(sequence(afterSlash));
    }
    return items.length === 1 ? items[0]! : { kind: "alt", items };
  };

  const sequence = (afterSlashAtStart: boolean): PlainPathRegex => {
    const items: PlainPathRegex[] = [];
    // True while the last character consumed is certainly a `/` (nothing but dropped assertions since).
    let afterSlash = afterSlashAtStart;
    while (i < body.length && body[i] !== "|" && body[i] !== ")") {
      if (body.startsWith(NO_DOT_SEGMENT, i) || body.startsWith(ONE_CHAR, i)) {
        const oneChar = body.startsWith(ONE_CHAR, i);
        i += oneChar ? ONE_CHAR.length : NO_DOT_SEGMENT.length;
        if (afterSlash) continue;
        // Right after a group such as `(?:\/…\/|\/|$)`: each alternative ends with a literal `/` (as above) or
        // at the end of input, where "no `.` segment follows" holds and "a character follows" fails.
        const last = items[items.length - 1];
        if (last?.kind !== "alt" || !last.items.every((a) => endingOf(a) !== "other")) throw new NotPlain();
        if (oneChar) {
          const kept = last.items.filter((a) => endingOf(a) === "slash");
          if (kept.length === 0) throw new NotPlain();
          items[items.length - 1] = kept.length === 1 ? kept[0]! : { kind: "alt", items: kept };
        }
        continue;
      }
      const slashBefore = afterSlash;
      afterSlash = false;
      if (body.startsWith(GLOBSTAR_BODY, i)) {
        i += GLOBSTAR_BODY.length;
        items.push({ kind: "star", item: { kind: "set", set: ANY_SET } });
        continue;
      }
      if (body.startsWith(NON_SLASH, i)) {
        i += NON_SLASH.length;
        const one: PlainPathRegex = { kind: "set", set: NON_SLASH_SET };
        if (body.startsWith("*?", i) || body[i] === "*") {
          i += body[i + 1] === "?" ? 2 : 1;
          items.push({ kind: "star", item: one });
        } else items.push(one);
        noQuantifier();
        continue;
      }
      const c = body[i]!;
      if (c === "(") {
        if (body.startsWith("(?:", i)) i += 3;
        else if (body[i + 1] === "?") throw new NotPlain();
        else i += 1;
        const group = alternatives(slashBefore);
        if (body[i] !== ")") throw new NotPlain();
        i++;
        items.push(group);
        noQuantifier();
        continue;
      }
      if (c === "[") {
        items.push(bracket());
        noQuantifier();
        continue;
      }
      if (c === "$") {
        i++;
        items.push({ kind: "end" });
        continue;
      }
      let code: number;
      if (c === "\\") {
        const next = body[i + 1];
        if (next === undefined || /[0-9A-Za-z]/.test(next)) throw new NotPlain();
        code = next.charCodeAt(0);
        i += 2;
      } else {
        if (REGEX_SYNTAX.has(c)) throw new NotPlain();
        code = c.charCodeAt(0);
        i += 1;
      }
      // One code unit per ASCII character only: the automaton gives all others one shared column.
      if (code >= 128) throw new NotPlain();
      if (body[i] === "?" && c === "\\") {
        i++;
        items.push({ kind: "alt", items: [literal(code), EMPTY] });
        noQuantifier();
        continue;
      }
      noQuantifier();
      items.push(literal(code));
      afterSlash = code === 47;
    }
    return items.length === 1 ? items[0]! : { kind: "seq", items };
  };

  const noQuantifier = () => {
    const q = body[i];
    if (q === "*" || q === "+" || q === "?" || q === "{") throw new NotPlain();
  };

  /** `[…]` with plain ASCII members and ranges; negation, escapes and nested brackets give up. */
  const bracket = (): PlainPathRegex => {
    const end = body.indexOf("]", i + 1);
    if (end < 0) throw new NotPlain();
    const content = body.slice(i + 1, end);
    if (content.length === 0 || content[0] === "^" || /[\\[\]]/.test(content)) throw new NotPlain();
    const codes: number[] = [];
    for (let k = 0; k < content.length; k++) {
      const lo = content.charCodeAt(k);
      if (lo >= 128 || lo < 32) throw new NotPlain();
      if (content[k + 1] === "-" && k + 2 < content.length) {
        const hi = content.charCodeAt(k + 2);
        if (hi >= 128 || hi < lo) throw new NotPlain();
        for (let x = lo; x <= hi; x++) codes.push(x);
        k += 2;
      } else codes.push(lo);
    }
    i = end + 1;
    return { kind: "set", set: charSet(codes) };
  };

  let re: PlainPathRegex;
  try {
    re = alternatives(false);
    if (i !== body.length) return undefined;
  } catch (e) {
    if (e instanceof NotPlain) return undefined;
    throw e;
  }
  if (re.kind === "alt") return undefined; // a top-level `|` would let an alternative start elsewhere than `/`
  // The string-equality test picomatch runs before the expression (G48).
  const text = literalOf(re);
  if (text === pattern) return re;
  const codes: PlainPathRegex[] = [];
  for (let k = 0; k < pattern.length; k++) {
    const code = pattern.charCodeAt(k);
    if (code >= 128) return undefined;
    codes.push(literal(code));
  }
  return { kind: "alt", items: [re, { kind: "seq", items: codes }] };
}

/** How an alternative ends, for the assertions that may follow its group. */
function endingOf(re: PlainPathRegex): "slash" | "end" | "other" {
  if (re.kind === "end") return "end";
  if (re.kind === "set") return re.set[47] === 1 && re.set.reduce((n, x) => n + x, 0) === 1 ? "slash" : "other";
  if (re.kind === "seq" && re.items.length > 0) return endingOf(re.items[re.items.length - 1]!);
  return "other";
}

/** The one string `re` matches when it is a plain sequence of single characters; `undefined` otherwise. */
function literalOf(re: PlainPathRegex): string | undefined {
  const items = re.kind === "seq" ? re.items : [re];
  let text = "";
  for (const item of items) {
    if (item.kind !== "set") return undefined;
    let only = -1;
    for (let c = 0; c < 129; c++) {
      if (item.set[c] !== 1) continue;
      if (only >= 0 || c === 128) return undefined;
      only = c;
    }
    if (only < 0) return undefined;
    text += String.fromCharCode(only);
  }
  return text;
}

/**
 * picomatch 2.3.2 (`lib/parse.js`, `expandRange`) does not expand a brace range: it sorts the range's parts as
 * strings and writes them into one class, `[${parts.join("-")}]`; when that is not a valid class it writes the parts
 * joined by an unescaped `..`, which in a regular expression means any two characters. This replays that function
 * through picomatch's own `expandRange` hook, and keeps the result only when the regular expression is the one the
 * runtime compiles (`undefined` otherwise, or when the pattern does not compile).
 */
export function picomatchRangeReplacements(pattern: string): BraceRangeReplacement[] | undefined {
  const calls: BraceRangeReplacement[] = [];
  let regex: RegExp;
  try {
    regex = picomatch.makeRe(pattern, {
      dot: true,
      windows: false,
      expandRange: (...args: unknown[]) => {
        const parts = args.slice(0, -1).map(String);
        const output = picomatchRangeOutput(parts);
        calls.push({ parts, output });
        return output;
      },
    } as picomatch.PicomatchOptions);
  } catch {
    return undefined;
  }
  return regex.source === compileJsGlob(pattern).regex?.source ? calls : undefined;
}

function picomatchRangeOutput(parts: string[]): string {
  const sorted = [...parts].sort();
  const value = `[${sorted.join("-")}]`;
  try {
    new RegExp(value);
  } catch {
    return sorted.map((v) => v.replace(/([-*+?.^${}(|)[\]])/g, "\\$1")).join("..");
  }
  return value;
}
