import type { Runtime } from "./runtime";
import { cachesPerOwner } from "../caches";
import { expandBraces, simpleBraceNames } from "./simpleGlob";

/**
 * Reading glob text as picomatch and wcmatch tokenise it, shared by the pattern checks (pattern-never-matches,
 * pattern-root-globstar, pattern-runtime-syntax, pattern-class-negation, dot-segment-bypass,
 * dotfiles-unprotected). Nothing here is a claim about what a runtime matches: claims are asked of the runtime's
 * own matcher (`Runtime.compilePattern`); this only reads the text and proposes candidate paths.
 */

/**
 * Patterns longer than this are left to pattern-too-complex: no real rule is this long, and reading, compiling and
 * enumerating a 100,000-character pattern per check would cost seconds. Nothing is claimed about them here.
 */
export const MAX_ANALYSED_PATTERN = 2048;

export function analysable(pattern: unknown): pattern is string {
  return typeof pattern === "string" && pattern.length <= MAX_ANALYSED_PATTERN;
}

/** One character of a pattern, as picomatch and wcmatch tokenise it. */
export interface GlobChar {
  readonly ch: string;
  readonly index: number;
  /** A backslash that escapes the next character. */
  readonly escape: boolean;
  /** The character after an escaping backslash: always literal text. */
  readonly escaped: boolean;
  /** Part of a `[…]` class, brackets included. */
  readonly inClass: boolean;
  /** `{…}` groups (with a matching `}`) around this character; the braces count themselves. */
  readonly braceDepth: number;
  /** `(…)` groups (with a matching `)`) around this character; the parentheses count themselves. */
  readonly parenDepth: number;
  /** The index of the matching `}` / `)` / `]` for an opening one. */
  readonly close?: number;
}

/** Outside any class, not escaped: the character can be an operator. */
export function isStructural(c: GlobChar): boolean {
  return !c.escape && !c.escaped && !c.inClass;
}

/** A scanned character; every one has the same fields, set in the same order (one object shape for V8). */
class ScannedChar implements GlobChar {
  braceDepth = 0;
  parenDepth = 0;
  close: number | undefined = undefined;
  constructor(
    readonly ch: string,
    readonly index: number,
    readonly escape: boolean,
    readonly escaped: boolean,
    readonly inClass: boolean,
  ) {}
}

/**
 * A pattern's characters as picomatch and wcmatch tokenise them. Not cached, though most checks read each pattern:
 * with one object shape per character a scan costs about what a lookup would save (a cache of them made no
 * difference to the CLI's time on 1,000 rules, 51 interleaved runs of each build) and would keep some 17,000
 * objects alive per 1,000 rules.
 */
export function scanGlob(pattern: string): readonly GlobChar[] {
  const chars: ScannedChar[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === "\\" && i + 1 < pattern.length) {
      chars.push(new ScannedChar(c, i, true, false, false), new ScannedChar(pattern[i + 1]!, i + 1, false, true, false));
      i++;
      continue;
    }
    if (c === "[") {
      const end = classEnd(pattern, i);
      if (end > 0) {
        for (let j = i; j <= end; j++) chars.push(new ScannedChar(pattern[j]!, j, false, false, true));
        chars[chars.length - (end - i) - 1]!.close = end;
        i = end;
        continue;
      }
    }
    chars.push(new ScannedChar(c, i, false, false, false));
  }
  // Groups: a closing `}` / `)` pairs with the nearest open one of its kind; unmatched ones are text.
  const braces: number[] = [];
  const parens: number[] = [];
  for (let k = 0; k < chars.length; k++) {
    const c = chars[k]!;
    if (!isStructural(c)) continue;
    if (c.ch === "{") braces.push(k);
    else if (c.ch === "(") parens.push(k);
    else if (c.ch === "}" && braces.length > 0) group(chars, braces.pop()!, k, true);
    else if (c.ch === ")" && parens.length > 0) group(chars, parens.pop()!, k, false);
  }
  return chars;
}

function group(chars: ScannedChar[], open: number, close: number, brace: boolean): void {
  chars[open]!.close = chars[close]!.index;
  for (let k = open; k <= close; k++) {
    if (brace) chars[k]!.braceDepth++;
    else chars[k]!.parenDepth++;
  }
}

/** The `]` that closes a class opened at `start`, or -1 when the `[` is literal text. */
function classEnd(pattern: string, start: number): number {
  let j = start + 1;
  if (pattern[j] === "!" || pattern[j] === "^") j++;
  if (pattern[j] === "]") j++;
  while (j < pattern.length) {
    if (pattern[j] === "\\") j += 2;
    else if (pattern[j] === "[" && pattern[j + 1] === ":") {
      const k = pattern.indexOf(":]", j + 2);
      j = k < 0 ? j + 1 : k + 2;
    } else if (pattern[j] === "]") return j;
    else j++;
  }
  return -1;
}

/** `(…)` groups, extglobs and `|` are operators in picomatch and text in wcmatch (docs/reference/globs.md). */
export function hasGroupSyntax(chars: readonly GlobChar[]): boolean {
  return chars.some((c) => isStructural(c) && (c.ch === "|" || (c.ch === "(" && c.close !== undefined)));
}

export function outsideGroups(c: GlobChar): boolean {
  return !c.inClass && c.braceDepth === 0 && c.parenDepth === 0;
}

/** A `/` followed by `/` where both are plain text of the pattern (not inside a class, brace or group). */
export function hasDoubleSlash(chars: readonly GlobChar[]): boolean {
  const text = chars.filter((c) => !c.escape);
  return text.some((c, k) => c.ch === "/" && outsideGroups(c) && text[k + 1]?.ch === "/" && outsideGroups(text[k + 1]!));
}

/** Anything but plain text: wildcards, classes, braces, groups, and escapes (a path would not hold the backslash). */
function hasWildcards(chars: readonly GlobChar[]): boolean {
  return chars.some((c) => c.escape || c.inClass || (isStructural(c) && ("*?|".includes(c.ch) || ((c.ch === "{" || c.ch === "(") && c.close !== undefined))));
}

/** True when the pattern is plain text from `from` to `to` (exclusive). */
export function isLiteralText(chars: readonly GlobChar[], from = 0, to = Infinity): boolean {
  return !hasWildcards(chars.filter((c) => c.index >= from && c.index < to));
}

/** What wildcards stand for when `examplePaths` turns a pattern into concrete paths. */
export interface ExampleFill {
  /** A whole-segment `**`: any number of segments (`""` drops the segment). */
  readonly globstar: readonly string[];
  readonly star: readonly string[];
  readonly qmark: readonly string[];
  /** Characters tried in a `[…]` class; only those the class seems to accept are kept, unless `everyClassChar`. */
  readonly classChars: readonly string[];
  readonly everyClassChar?: boolean;
}

export const PLAIN_FILL: ExampleFill = { globstar: ["a", "", "a/b"], star: ["a", ""], qmark: ["a"], classChars: ["a", "b", "x", "0", "1", "!", "-", "_", "."] };

export type GlobNode =
  | { kind: "text"; text: string }
  | { kind: "star" }
  | { kind: "globstar" }
  | { kind: "qmark" }
  | { kind: "class"; source: string }
  | { kind: "alt"; options: GlobNode[][] };

/**
 * Concrete strings a pattern is likely to match, for looking for witnesses. Nothing here is a claim: every caller
 * keeps only the strings the runtime's own matcher (and canonicalisation) confirms.
 *
 * The answer depends only on the text, the fill and the limit, and checks ask it about the same patterns on every
 * run (the language server checks again on each edit), so it is kept for the fills checks hold as constants,
 * within a bound on the text kept; the arrays are frozen, as they are shared.
 */
export function examplePaths(pattern: string, fill: ExampleFill, limit = 400): readonly string[] {
  if (!analysable(pattern)) return [];
  const cache = exampleCache.of(fill);
  const key = `${limit}\u0000${pattern}`;
  return cache.get(key) ?? cache.set(key, Object.freeze(computeExamplePaths(pattern, fill, limit)));
}

/** Text kept per fill (patterns and their example paths), after which the cache starts afresh. */
const EXAMPLE_CACHE_CHARS = 1 << 21;
const exampleCache = cachesPerOwner<ExampleFill, string, readonly string[]>("runtime/globText.exampleCache", { entries: Infinity, weight: EXAMPLE_CACHE_CHARS, weigh: examplesWeight });
function examplesWeight(key: string, paths: readonly string[]): number {
  let chars = key.length;
  for (const p of paths) chars += p.length;
  return chars;
}

function computeExamplePaths(pattern: string, fill: ExampleFill, limit: number): string[] {
  const simple = simpleGlobNodes(pattern);
  // picomatch splits the whole pattern at a `|` outside groups (`/a|/b` is `/a` or `/b`).
  const whole = simple ? (simple.length > 0 ? [simple] : []) : topLevelNodes(pattern, fill);
  const seen = new Set<string>();
  for (const raw of whole.flatMap((nodes) => generate(nodes, fill, limit))) {
    // Most candidates hold no `//`: a search is cheaper than the replacement, which builds a new string.
    let path = raw.includes("//") ? raw.replace(/\/{2,}/g, "/") : raw;
    if (path.length > 1 && path.endsWith("/")) path = path.slice(0, -1);
    seen.add(path);
  }
  return [...seen];
}

function topLevelNodes(pattern: string, fill: ExampleFill): GlobNode[][] {
  const chars = scanGlob(pattern);
  return splitTop(chars, 0, chars.length, "|", fill).filter((o) => o.length > 0);
}

/**
 * `parseNodes` of a pattern made of name characters, `/`, `*` and one level of `{a,b,…}` braces over names (most
 * patterns of a config), read straight off the text: the nodes `parseNodes` gives it, without scanning every
 * character into an object first. `undefined` for any other pattern. Held to `parseNodes` by
 * test/engine/checkSpeedups.test.ts.
 */
export function simpleGlobNodes(pattern: string): GlobNode[] | undefined {
  if (!/^[A-Za-z0-9_./*{},-]*$/.test(pattern)) return undefined;
  const nodes: GlobNode[] = [];
  let at = 0;
  while (at < pattern.length) {
    const c = pattern[at]!;
    if (c === "{") {
      const close = pattern.indexOf("}", at);
      if (close < 0) return undefined;
      // Names only (`{a}`, ranges, empty, nested or starred alternatives are read by `parseNodes`).
      const names = simpleBraceNames(pattern.slice(at + 1, close));
      if (!names) return undefined;
      nodes.push({ kind: "alt", options: names.map((name) => [{ kind: "text", text: name }]) });
      at = close + 1;
    } else if (c === "}" || c === ",") {
      return undefined;
    } else if (c === "*") {
      let n = 1;
      while (pattern[at + n] === "*") n++;
      const before = at === 0 ? "/" : pattern[at - 1]!;
      const after = pattern[at + n] ?? "/";
      nodes.push(starNode(n, before, after));
      at += n;
    } else {
      let end = at + 1;
      while (end < pattern.length && !"{},*".includes(pattern[end]!)) end++;
      nodes.push({ kind: "text", text: pattern.slice(at, end) });
      at = end;
    }
  }
  return nodes;
}

/** `parseNodes` of the whole pattern, for the test that holds `simpleGlobNodes` to it. */
export function globNodes(pattern: string): GlobNode[][] {
  return topLevelNodes(pattern, PLAIN_FILL);
}

function parseNodes(chars: readonly GlobChar[], from: number, to: number, fill: ExampleFill): GlobNode[] {
  const nodes: GlobNode[] = [];
  const text = (t: string) => {
    const last = nodes[nodes.length - 1];
    if (last?.kind === "text") last.text += t;
    else nodes.push({ kind: "text", text: t });
  };
  const position = (index: number) => chars.findIndex((c) => c.index === index);
  for (let k = from; k < to; k++) {
    const c = chars[k]!;
    if (c.escape) continue;
    if (c.escaped) { text(c.ch); continue; }
    if (c.inClass && c.close !== undefined) {
      const end = position(c.close);
      nodes.push({ kind: "class", source: chars.slice(k, end + 1).map((x) => x.ch).join("") });
      k = end;
      continue;
    }
    if (c.inClass) { text(c.ch); continue; }
    const extglob = "@?+*!".includes(c.ch) && chars[k + 1]?.ch === "(" && chars[k + 1]!.close !== undefined && isStructural(chars[k + 1]!);
    if (extglob) {
      const end = position(chars[k + 1]!.close!);
      const options = splitTop(chars, k + 2, end, "|", fill);
      if (c.ch === "?" || c.ch === "*") options.push([]);
      if (c.ch === "!") options.splice(0, options.length, [{ kind: "text", text: "z" }], []);
      nodes.push({ kind: "alt", options });
      k = end;
      continue;
    }
    if ((c.ch === "{" || c.ch === "(") && c.close !== undefined) {
      const end = position(c.close);
      const inner = chars.slice(k + 1, end).map((x) => x.ch).join("");
      const range = /^(-?\w+)\.\.(-?\w+)(?:\.\.-?\d+)?$/.exec(inner);
      const options = range && c.ch === "{" ? [[{ kind: "text", text: range[1]! } as GlobNode], [{ kind: "text", text: range[2]! } as GlobNode]] : splitTop(chars, k + 1, end, c.ch === "{" ? "," : "|", fill);
      nodes.push({ kind: "alt", options });
      k = end;
      continue;
    }
    if (c.ch === "*") {
      let n = 1;
      while (chars[k + n]?.ch === "*" && isStructural(chars[k + n]!)) n++;
      const before = k === 0 ? "/" : chars[k - 1]!.ch;
      const after = chars[k + n]?.ch ?? "/";
      nodes.push(starNode(n, before, after));
      k += n - 1;
      continue;
    }
    if (c.ch === "?") { nodes.push({ kind: "qmark" }); continue; }
    text(c.ch);
  }
  return nodes;
}

/** `n` stars between `before` and `after`: a globstar when they fill a whole segment (or group alternative). */
function starNode(n: number, before: string, after: string): GlobNode {
  return n >= 2 && "/{,(|".includes(before) && "/},)|".includes(after) ? { kind: "globstar" } : { kind: "star" };
}

/** Splits `chars[from, to)` at separators that sit directly inside the group opened at `from - 1` (or at top level). */
function splitTop(chars: readonly GlobChar[], from: number, to: number, separator: string, fill: ExampleFill): GlobNode[][] {
  const depthOf = (c: GlobChar) => c.braceDepth + c.parenDepth;
  const base = from > 0 ? depthOf(chars[from - 1]!) : 0;
  const options: GlobNode[][] = [];
  let start = from;
  for (let k = from; k <= to; k++) {
    const c = chars[k];
    if (k === to || (c && isStructural(c) && c.ch === separator && depthOf(c) === base)) {
      options.push(parseNodes(chars, start, k, fill));
      start = k + 1;
    }
  }
  return options;
}

function generate(nodes: readonly GlobNode[], fill: ExampleFill, limit: number): string[] {
  let results = [""];
  for (const node of nodes) {
    const choices = choicesOf(node, fill, limit);
    const next: string[] = [];
    for (const prefix of results) {
      for (const choice of choices) {
        next.push(prefix + choice);
        if (next.length >= limit) break;
      }
      if (next.length >= limit) break;
    }
    results = next;
  }
  return results;
}

function choicesOf(node: GlobNode, fill: ExampleFill, limit: number): readonly string[] {
  switch (node.kind) {
    case "text": return [node.text];
    case "star": return fill.star;
    case "globstar": return fill.globstar;
    case "qmark": return fill.qmark;
    case "class": {
      if (fill.everyClassChar) return fill.classChars;
      // The class read as a JavaScript class: only a way to pick candidates; the matchers decide.
      let regex: RegExp | undefined;
      try { regex = new RegExp(`^${node.source.replace(/^\[!/, "[^")}$`); } catch { regex = undefined; }
      const accepted = fill.classChars.filter((ch) => regex?.test(ch));
      return accepted.length > 0 ? accepted : fill.classChars;
    }
    case "alt": return node.options.flatMap((o) => generate(o, fill, limit));
  }
}

/** The path is exactly what the runtime would hand its matcher (docs/reference/paths.md), with rules present. */
export function isCanonical(runtime: Runtime, path: string): boolean {
  const canonical = runtime.canonicalToolPath(path, true);
  return canonical.ok && canonical.path === path;
}

/**
 * The text every path with single slashes that the pattern matches starts with, read off plain leading folder
 * names: up to the last `/` before anything else (`/a/b/**` matches `/a/b` itself, so not `/a/b/`). Letters,
 * digits, `_`, `-` and `.` are text in both matchers (picomatch with `dot: true`; wcmatch, whose `/` is `[/]+`,
 * hence "single slashes"), in a name other than `.` and `..`; anything else ends the reading, so this is never
 * longer than the truth. `""` when nothing can be read.
 */
export function leadingFolders(pattern: string): string {
  const head = /^(?:\/(?!\.\.?\/)[A-Za-z0-9_.-]+)*\//.exec(pattern)?.[0] ?? "";
  return head.slice(0, -1);
}

/**
 * `leadingFolders` of each brace alternative, for a pattern whose braces are one level of names (`simpleGlob.ts`
 * `expandBraces`, which both runtimes expand alike): every matching path with single slashes starts with one of
 * them (`/w/{dist,.cache}/**`: `/w/dist` or `/w/.cache`), or is the pattern's own text, which picomatch matches
 * whatever the glob says (G48). Any other pattern: its `leadingFolders` alone.
 */
export function leadingFolderAlternatives(pattern: string): readonly string[] {
  // Braces after anything but folder names (`/w/**/*.{a,b}`) cannot change the leading folders: not expanded.
  const alternatives = /^[A-Za-z0-9_.\/-]*\{/.test(pattern) ? expandBraces(pattern) : undefined;
  if (!alternatives || alternatives.length < 2) return [leadingFolders(pattern)];
  return [...new Set([...alternatives.map(leadingFolders), pattern])];
}

/**
 * The characters a plain path (runtime.ts `isPlainPath`) that `pattern` matches can end with, as a mask with bit
 * `code & 31` set for each (a superset: letters of both cases, and many other characters, share a bit); -1 when the
 * text does not tell. On a plain path neither matcher has a trailing `/` to forgive, so a pattern that ends with a
 * letter, digit, `.`, `-` or `_` (text in both picomatch and wcmatch) ends every match with that character, and one
 * that ends with a brace of such names (`*.{pem,key}`, expanded by both) with the last character of one of them, or
 * with the pattern's own last character: picomatch first compares the path with the pattern text, so the path
 * `/src/*.{txt,md}` matches the pattern `/src/*.{txt,md}` (ruleList.differential.test.ts found that one). A leading
 * `!` (picomatch negates), an escape, or a group (`(`, `|`) anywhere, or anything else at the end, and nothing is
 * claimed.
 */
export function lastCharacterMask(pattern: string): number {
  if (pattern.startsWith("!") || /[\\()|]/.test(pattern)) return -1;
  const bit = (name: string) => 1 << (name.charCodeAt(name.length - 1) & 31);
  if (/[A-Za-z0-9._-]$/.test(pattern)) return bit(pattern);
  const brace = /\{([A-Za-z0-9._,-]*)\}$/.exec(pattern);
  if (!brace) return -1;
  const names = brace[1]!.split(",");
  // One name is no brace (the text `{a}` itself); `..` is a range (`{1..9}`), an empty name drops the brace.
  if (names.length < 2 || names.some((n) => n === "" || n.includes(".."))) return -1;
  let mask = bit(pattern);
  for (const name of names) mask |= bit(name);
  return mask;
}

