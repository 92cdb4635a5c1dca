// wcmatch `_wcparse.WcParse` for PATHNAME | GLOBSTAR (| BRACE), Unix, case-sensitive, no DOTMATCH / EXTMATCH.
import { CharIter, STOP_ITERATION, Signal, codePoints } from "./python";

/** Python `ord(s[1:2] if len(s) > 1 else s)` as used by `WcParse._sequence_range_check`. */
function ordSecondOrOnly(s: string): number {
  const cps = codePoints(s);
  return (cps.length > 1 ? cps[1]! : cps[0]!).codePointAt(0)!;
}

/** Signals mirroring wcmatch's own control-flow exceptions. */
const DOT_EXCEPTION = new Signal("DotException");
const PATHNAME_EXCEPTION = new Signal("PathNameException");

/** Characters Python's `re.escape` backslash-escapes (3.7+). */
const PY_RE_SPECIAL = new Set(codePoints("()[]{}?*+-|^$\\.&~# \t\n\r\v\f"));
const pyReEscape = (c: string): string => (PY_RE_SPECIAL.has(c) ? "\\" + c : c);

// The `_wcparse` fragments, formatted with `sep = re.escape('/')`.
const SEP = "[/]";
const NO_DIR = "(?!(?:\\.{1,2})(?:$|[/]))";
const PATH_NO_SLASH = "(?![/])";
const PATH_NO_SLASH_DOT = "(?![/.])";
const PATH_STAR = "[^/]*?";
const PATH_STAR_NO_DOTMATCH = NO_DIR + "(?:(?!\\.)" + PATH_STAR + ")?";
const PATH_GSTAR_DOTMATCH = "(?:(?!(?:[/]|^)(?:\\.{1,2})($|[/])).)*?";
const PATH_GSTAR_NO_DOTMATCH = "(?:(?!(?:[/]|^)\\.).)*?";
const NEED_CHAR_PATH = "(?=[^/])";
const GLOBSTAR_DIV = "(?:^|$|" + SEP + ")+";
const NEED_SEP = "(?=" + SEP + ")";
const PATH_TRAIL = SEP + "*?";
const ONE_OR_MORE_SEP = SEP + "+";
const QMARK = ".";

/** The fixed pieces `WcParse` emits, for the plain-path restatement (pyPlainPath.ts), which recognises them. */
export const WCMATCH_PIECES = {
  SEP,
  ONE_OR_MORE_SEP,
  NO_DIR,
  PATH_NO_SLASH,
  PATH_NO_SLASH_DOT,
  PATH_STAR,
  PATH_STAR_NO_DOTMATCH,
  PATH_GSTAR_NO_DOTMATCH,
  NEED_CHAR_PATH,
  GLOBSTAR_DIV,
  NEED_SEP,
  PATH_TRAIL,
  QMARK,
} as const;
/** `_wcparse.UNICODE_RANGE`: U+0000, `-`, U+10FFFF. */
const UNICODE_RANGE = "\u0000-\u{10FFFF}";

/** `wcmatch.posix.unicode_posix_properties` (the class bodies, with `\x5c` acting as a regex escape). */
const POSIX: Readonly<Record<string, string>> = {
  alnum: "\x30-\x39\x41-\x5a\x61-\x7a",
  alpha: "\x41-\x5a\x61-\x7a",
  ascii: "\x00-\x7f",
  blank: "\x09\x20",
  cntrl: "\x00-\x1f\x7f",
  digit: "\x30-\x39",
  graph: "\x21-\x5c\x7e",
  lower: "\x61-\x7a",
  print: "\x20-\x5c\x7e",
  punct: "\x21-\x2f\x3a-\x40\x5c\x5b-\x60\x7b-\x5c\x7e",
  space: "\x09-\x0d\x20",
  upper: "\x41-\x5a",
  word: "\x30-\x39\x41-\x5a\x5f\x61-\x7a",
  xdigit: "\x30-\x39\x41-\x46\x61-\x66",
};

/** End index of `RE_POSIX` (`:(alnum|…|xdigit):\]`) matched at `k`, if it matches. */
function posixEnd(chars: readonly string[], k: number): number | undefined {
  if (chars[k] !== ":") return undefined;
  let name = "";
  let j = k + 1;
  for (; j < chars.length && j - k <= 7 && chars[j]! >= "a" && chars[j]! <= "z"; j++) name += chars[j];
  if (!Object.hasOwn(POSIX, name) || chars[j] !== ":" || chars[j + 1] !== "]") return undefined;
  return j + 2;
}

export class WcParse {
  private dirStart = false;
  private afterStart = false;
  private readonly i: CharIter;
  /** `classEnd` memo: how a class body scan starting at an index ends (see `classBodyEnd`). */
  private classEnds: Int32Array | undefined;

  constructor(chars: readonly string[]) {
    this.i = new CharIter(chars);
  }

  private setAfterStart(): void {
    this.afterStart = true;
    this.dirStart = false;
  }

  private setStartDir(): void {
    this.dirStart = true;
    this.afterStart = false;
  }

  private resetDirTrack(): void {
    this.dirStart = false;
    this.afterStart = false;
  }

  private updateDirState(): void {
    if (this.dirStart && !this.afterStart) this.setAfterStart();
    else if (!this.dirStart && this.afterStart) this.resetDirTrack();
  }

  /** `_restrict_sequence`: at a segment start a class or `?` may not match `.`, `..` or a leading dot. */
  private restrictSequence(): string {
    let value = this.afterStart ? PATH_NO_SLASH_DOT : PATH_NO_SLASH;
    if (this.afterStart) value = NO_DIR + value;
    this.resetDirTrack();
    return value;
  }

  private sequenceRangeCheck(result: string[], last: string): boolean {
    const v1 = ordSecondOrOnly(result[result.length - 2]!);
    const v2 = ordSecondOrOnly(last);
    if (v2 < v1) {
      result.pop();
      result.pop();
      return true;
    }
    result.push(last);
    return false;
  }

  /** `_handle_posix`: `RE_POSIX` matched right after a `[` inside a class. */
  private handlePosix(result: string[], endRange: number): boolean {
    const chars = this.i.chars;
    const end = posixEnd(chars, this.i.index);
    if (end === undefined) return false;
    const name = chars.slice(this.i.index + 1, end - 2).join("");
    this.i.index = end;
    // wcmatch escapes the previous item when a POSIX class lands where a range end is expected.
    if (endRange && this.i.index - 1 >= endRange) result[result.length - 1] = "\\" + result[result.length - 1];
    result.push(POSIX[name]!);
    return true;
  }

  private sequence(): string {
    const i = this.i;
    let result = ["["];
    let endRange = 0;
    let escapeHyphen = -1;
    let removed = false;
    let lastPosix = false;

    let c = i.next();
    if (c === "!" || c === "^") {
      result.push("^");
      c = i.next();
    }
    if (c === "[") {
      lastPosix = this.handlePosix(result, 0);
      if (!lastPosix) result.push(pyReEscape(c));
      c = i.next();
    } else if (c === "-" || c === "]") {
      result.push(pyReEscape(c));
      c = i.next();
    }
    // A class that cannot close is abandoned only at the next `/` or the end: rescanning that tail from every
    // unclosed `[` is quadratic (in wcmatch too), so the outcome of the scan is memoised per position.
    if (this.classBodyEnd(i.index - 1) < 0) throw STOP_ITERATION;

    while (c !== "]") {
      if (c === "-") {
        if (lastPosix) {
          result.push("\\" + c);
          lastPosix = false;
        } else if (i.index - 1 > escapeHyphen) {
          // A range delimiter; the next two characters cannot be delimiters themselves.
          result.push(c);
          escapeHyphen = i.index + 1;
          endRange = i.index;
        } else if (endRange && i.index - 1 >= endRange) {
          if (this.sequenceRangeCheck(result, "\\" + c)) removed = true;
          endRange = 0;
        } else {
          result.push("\\" + c);
        }
        c = i.next();
        continue;
      }
      lastPosix = false;

      if (c === "[") {
        lastPosix = this.handlePosix(result, endRange);
        if (lastPosix) {
          c = i.next();
          continue;
        }
      }

      let value: string;
      if (c === "\\") {
        try {
          value = this.references(true);
        } catch (e) {
          if (e === DOT_EXCEPTION) value = pyReEscape(i.next());
          else if (e === PATHNAME_EXCEPTION) throw STOP_ITERATION;
          else throw e;
        }
      } else if (c === "/") {
        throw STOP_ITERATION; // PATHNAME: a class cannot span a separator
      } else if (c === "&" || c === "~" || c === "|") {
        value = "\\" + c;
      } else {
        value = c;
      }

      if (endRange && i.index - 1 >= endRange) {
        if (this.sequenceRangeCheck(result, value)) removed = true;
        endRange = 0;
      } else {
        result.push(value);
      }
      c = i.next();
    }

    result.push("]");
    if (removed) {
      const value = result.join("");
      if (value === "[]") result = ["[^" + UNICODE_RANGE + "]"];
      else if (value === "[^]") result = ["[" + UNICODE_RANGE + "]"];
      else result = [value];
    }
    return this.restrictSequence() + result.join("");
  }

  /**
   * Where the main loop of `_sequence`, entered with its current character at `start`, stops: the index after the
   * closing `]`, or -1 when it raises `StopIteration` (a `/`, `\/`, a trailing `\` or the end). Which characters
   * a step consumes depends only on the position (ranges change the output, never the consumption), so every
   * position visited in one scan shares its outcome.
   */
  private classBodyEnd(start: number): number {
    const chars = this.i.chars;
    const memo = (this.classEnds ??= new Int32Array(chars.length + 1).fill(-2));
    const visited: number[] = [];
    let p = start;
    let outcome: number;
    for (;;) {
      if (p >= chars.length) {
        outcome = -1;
        break;
      }
      if (memo[p] !== -2) {
        outcome = memo[p]!;
        break;
      }
      visited.push(p);
      const c = chars[p]!;
      if (c === "]") {
        outcome = p + 1;
        break;
      }
      if (c === "/") {
        outcome = -1;
        break;
      }
      if (c === "\\") {
        const d = chars[p + 1];
        if (d === undefined || d === "/") {
          outcome = -1;
          break;
        }
        p += 2;
      } else if (c === "[") {
        p = posixEnd(chars, p + 1) ?? p + 1;
      } else {
        p++;
      }
    }
    for (const v of visited) memo[v] = outcome;
    return outcome;
  }

  /** `_references` for Unix PATHNAME outside extglob lists. */
  private references(sequence: boolean): string {
    const c = this.i.next();
    if (c === "\\") return "\\\\";
    if (c === "/") {
      if (sequence) throw PATHNAME_EXCEPTION;
      this.setStartDir();
      return ONE_OR_MORE_SEP;
    }
    if (c === ".") {
      this.i.rewind(1);
      throw DOT_EXCEPTION;
    }
    return pyReEscape(c);
  }

  private handleStar(current: string[]): void {
    const i = this.i;
    const star = this.afterStart ? PATH_STAR_NO_DOTMATCH : PATH_STAR;
    const globstar = this.afterStart ? PATH_GSTAR_NO_DOTMATCH : PATH_GSTAR_DOTMATCH;
    let value = star;

    if (this.afterStart) {
      let skip = false;
      try {
        const c = i.next();
        if (c !== "*") {
          i.rewind(1);
          skip = true;
        }
      } catch (e) {
        if (e !== STOP_ITERATION) throw e;
        skip = true;
      }
      if (!skip) {
        // `**` is a globstar only when the segment ends right after it.
        try {
          const index = i.index;
          const c = i.next();
          if (c === "\\") {
            try {
              this.references(true);
            } catch (e) {
              if (e === PATHNAME_EXCEPTION || e === STOP_ITERATION) value = globstar;
              else if (e !== DOT_EXCEPTION) throw e;
            }
          } else if (c === "/") {
            value = globstar;
          }
          if (value !== globstar) i.rewind(i.index - index);
        } catch (e) {
          if (e !== STOP_ITERATION) throw e;
          value = globstar;
        }
      }
    }

    if (this.afterStart && value !== globstar) {
      value = NEED_CHAR_PATH + value;
      try {
        let c = i.next();
        while (c === "*") c = i.next();
        i.rewind(1);
      } catch (e) {
        if (e !== STOP_ITERATION) throw e;
      }
    }

    this.resetDirTrack();
    if (value === globstar) {
      if (current[current.length - 1] !== GLOBSTAR_DIV) {
        if (current[current.length - 1] === "") {
          current[current.length - 1] = value;
        } else {
          current[current.length - 1] = NEED_SEP;
          current.push(value);
        }
        this.consumePathSep();
        current.push(GLOBSTAR_DIV);
      }
      this.setStartDir();
    } else {
      current.push(value);
    }
  }

  private consumePathSep(): void {
    try {
      let c = "/";
      while (c === "/") c = this.i.next();
      this.i.rewind(1);
    } catch (e) {
      if (e !== STOP_ITERATION) throw e;
    }
  }

  private root(current: string[]): void {
    const i = this.i;
    this.setAfterStart();
    while (i.index < i.chars.length) {
      const c = i.next();
      if (c === ".") {
        current.push(pyReEscape("."));
      } else if (c === "*") {
        this.handleStar(current);
      } else if (c === "?") {
        current.push(this.restrictSequence() + QMARK);
      } else if (c === "/") {
        this.setStartDir();
        current.push(ONE_OR_MORE_SEP);
        this.consumePathSep();
      } else if (c === "\\") {
        const index = i.index;
        try {
          const value = this.references(false);
          if (this.dirStart) this.consumePathSep();
          current.push(value);
        } catch (e) {
          if (e === DOT_EXCEPTION) continue; // the `.` is handled next, without a state update
          if (e !== STOP_ITERATION) throw e;
          i.rewind(i.index - index); // a trailing backslash escapes nothing
        }
      } else if (c === "[") {
        const index = i.index;
        try {
          current.push(this.sequence());
        } catch (e) {
          if (e !== STOP_ITERATION) throw e;
          i.rewind(i.index - index);
          current.push(pyReEscape(c));
        }
      } else {
        current.push(pyReEscape(c));
      }
      this.updateDirState();
    }
    current.push(PATH_TRAIL);
  }

  /** `WcParse._parse` minus the `^(?s:` … `)$` wrapper, as the list of self-contained fragments it joins. */
  fragments(): string[] {
    const current = [""];
    const chars = this.i.chars;
    if (!(chars.length === 1 && chars[0] === "\\") && chars.length) this.root(current);
    return current;
  }
}
