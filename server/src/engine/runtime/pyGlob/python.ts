/** Python's semantics the ported modules share: strings indexed by code point, iterators that signal their end. */

/** Code points: Python indexes `str` by code point, JavaScript by UTF-16 unit. */
export function codePoints(s: string): string[] {
  // `Array.from(s)` without the string iterator (which allocates a result per character until V8 optimises the
  // caller, and a cold CLI run compiles hundreds of patterns before that): code points, a lone surrogate alone.
  const out: string[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        out.push(s.slice(i, i + 2));
        i++;
        continue;
      }
    }
    out.push(s[i]!);
  }
  return out;
}

/** Signals mirroring the Python exceptions the ported code relies on for control flow (thrown as singletons). */
export class Signal {
  constructor(readonly name: string) {}
}
export const STOP_ITERATION = new Signal("StopIteration");

/** `util.StringIter` / `bracex.StringIter` over code points. */
export class CharIter {
  index = 0;
  constructor(readonly chars: readonly string[]) {}
  next(): string {
    if (this.index >= this.chars.length) throw STOP_ITERATION;
    return this.chars[this.index++]!;
  }
  rewind(count: number): void {
    this.index -= count;
  }
  advance(count: number): void {
    this.index += count;
  }
}
