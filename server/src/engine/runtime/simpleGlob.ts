/**
 * The two runtimes' glob matchers restated for the simplest patterns on plain paths (runtime.ts `isPlainPath`),
 * read off the pattern text: nothing to compile. Building picomatch's regular expression and V8's first run of it,
 * or wcmatch's translation and its program, is most of what one first question to a pattern costs, and a check that
 * asks each of a few hundred patterns about one or two paths pays that for every pattern.
 *
 * A simple pattern starts with `/`, has no empty, `.` or `..` segment and no trailing `/`, and is made of letters,
 * digits, `_`, `-`, `.`, `/`, `*` and one level of `{a,b,…}` braces over such names (no `?`, class, escape,
 * extglob, range or empty alternative). Any other pattern gets `undefined`, and its caller compiles it.
 *
 * What such a pattern means on a plain path, in both runtimes: braces stand for their alternatives (picomatch's
 * alternation, bracex's expansions), `*` for any run of characters within a segment, `**` for whole segments. The
 * runtimes differ in what `SimpleGlobReading` says. Held to the compiled matchers (the JS one bit for bit with
 * picomatch, the Python one with our wcmatch port and its vectors) by test/engine/checkSpeedups.test.ts.
 */

export interface SimpleGlobReading {
  /**
   * Whether a `*` that starts a segment, and `**`, may stand for a name that starts with `.` (JS `dot: true`); in
   * Python they may not, though a `*` that matched nothing lets a literal `.` follow (`/*.ts` matches `/.ts`).
   */
  readonly wildcardsMatchDotNames: boolean;
  /** The fewest segments the `**` at `texts[k]` stands for (`texts` the pattern's segments). */
  globstarMinimum(texts: readonly string[], k: number): 0 | 1;
  /** Whether the path equal to the pattern text matches, whatever the glob says (picomatch, G48). */
  readonly textMatchesItself: boolean;
}

/** picomatch 2.3.2 with `{ dot: true }`. */
export const PICOMATCH_READING: SimpleGlobReading = {
  wildcardsMatchDotNames: true,
  // First, `**` needs at least one segment (`/**` + `/x` misses `/x`); last, after a segment that ends in `*`, too
  // (`/a*` + `/**` misses `/ab`, while `/a/**` matches `/a`). Anywhere else it may stand for none.
  globstarMinimum: (texts, k) => (k === 0 || (k === texts.length - 1 && texts[k - 1]!.endsWith("*")) ? 1 : 0),
  textMatchesItself: true,
};

/** wcmatch 11.0.1 `globmatch` with `BRACE | GLOBSTAR` (no `DOTGLOB`), as ported in pyGlob/. */
export const WCMATCH_READING: SimpleGlobReading = {
  wildcardsMatchDotNames: false,
  // Last, `**` needs at least one segment (`/a/**` misses `/a`); first or in the middle it may stand for none.
  globstarMinimum: (texts, k) => (k === texts.length - 1 ? 1 : 0),
  textMatchesItself: false,
};

/** At most this many brace alternatives: beyond that the compiled matcher is the cheaper way. */
const MAX_ALTERNATIVES = 64;

/**
 * A segment: the texts between its `*` wildcards (`*.test.ts` is `["", ".test.ts"]`), or `**` with the fewest
 * segments it stands for there.
 */
type Segment = readonly string[] | { readonly globstar: 0 | 1 };

/** The matcher of `pattern` on plain paths under `reading`, or `undefined` when the pattern is not simple. */
export function simpleGlobMatcher(pattern: string, reading: SimpleGlobReading): ((plainPath: string) => boolean) | undefined {
  const alternatives = expandBraces(pattern);
  if (!alternatives) return undefined;
  const parsed: Segment[][] = [];
  for (const alternative of alternatives) {
    if (!/^(?:\/[A-Za-z0-9_.*-]+)+$/.test(alternative)) return undefined;
    const texts = alternative.slice(1).split("/");
    const segments: Segment[] = [];
    for (let k = 0; k < texts.length; k++) {
      const text = texts[k]!;
      if (text === "**") {
        // `**/**` is left to the compiled matchers, which read it each their own way.
        if (texts[k - 1] === "**") return undefined;
        segments.push({ globstar: reading.globstarMinimum(texts, k) });
      } else if (text.includes("**") || /^\.{1,2}$/.test(text)) {
        return undefined;
      } else {
        segments.push(text.split("*"));
      }
    }
    parsed.push(segments);
  }
  const dotNames = reading.wildcardsMatchDotNames;
  return (path) => {
    if (reading.textMatchesItself && path === pattern) return true;
    const names = path.slice(1).split("/");
    return parsed.some((segments) => segmentsMatch(segments, 0, names, 0, dotNames));
  };
}

/**
 * The brace alternatives of `pattern` when its braces are one level of names (`/w/{dist,.cache}/**`), in bracex's
 * order (the first group varies slowest); the pattern alone without braces; `undefined` for any other braces, and
 * past 64 alternatives.
 */
export function expandBraces(pattern: string): string[] | undefined {
  let out = [""];
  let at = 0;
  while (at < pattern.length) {
    const open = pattern.indexOf("{", at);
    const plain = pattern.slice(at, open < 0 ? undefined : open);
    if (plain.includes("}") || plain.includes(",")) return undefined;
    out = out.map((head) => head + plain);
    if (open < 0) break;
    const close = pattern.indexOf("}", open);
    if (close < 0) return undefined;
    const names = simpleBraceNames(pattern.slice(open + 1, close));
    if (!names || out.length * names.length > MAX_ALTERNATIVES) return undefined;
    out = out.flatMap((head) => names.map((name) => head + name));
    at = close + 1;
  }
  return out;
}

/**
 * The alternatives of a brace group's inside (`a,b` of `{a,b}`) when they are two or more names, each a glob in
 * neither runtime nor a path of its own: no `{a}` (read literally), empty alternative, `..` range or all-dot name.
 * `undefined` otherwise. Both runtimes expand such a group into its names, in order.
 */
export function simpleBraceNames(inside: string): string[] | undefined {
  const names = inside.split(",");
  return names.length >= 2 && names.every((name) => /^[A-Za-z0-9_.-]+$/.test(name) && !/^\.+$/.test(name) && !name.includes("..")) ? names : undefined;
}

function segmentsMatch(segments: readonly Segment[], s: number, names: readonly string[], n: number, dotNames: boolean): boolean {
  if (s === segments.length) return n === names.length;
  const segment = segments[s]!;
  if (!Array.isArray(segment)) {
    for (let k = n; k <= names.length; k++) {
      if (k - n >= (segment as { readonly globstar: 0 | 1 }).globstar && segmentsMatch(segments, s + 1, names, k, dotNames)) return true;
      // The segments `**` has taken so far end with `names[k]`: a dot name there stops it (Python).
      if (k < names.length && !dotNames && names[k]!.charCodeAt(0) === 46) return false;
    }
    return false;
  }
  return n < names.length && starsMatch(segment, names[n]!, dotNames) && segmentsMatch(segments, s + 1, names, n + 1, dotNames);
}

/** Whether `name` is the texts of `parts` in order with anything between them (a `*` between each two). */
function starsMatch(parts: readonly string[], name: string, dotNames: boolean): boolean {
  const first = parts[0]!;
  if (parts.length === 1) return name === first;
  // A leading `*` that may not stand for a dot name can only stand for nothing before one.
  if (!dotNames && first === "" && name.charCodeAt(0) === 46) return starsMatch(parts.slice(1), name, dotNames);
  const last = parts[parts.length - 1]!;
  if (name.length < first.length + last.length || !name.startsWith(first) || !name.endsWith(last)) return false;
  let from = first.length;
  const until = name.length - last.length;
  // Leftmost is best: each text found as early as it can be leaves the most room to the ones after it.
  for (let k = 1; k < parts.length - 1; k++) {
    const at = name.indexOf(parts[k]!, from);
    if (at < 0 || at + parts[k]!.length > until) return false;
    from = at + parts[k]!.length;
  }
  return true;
}
