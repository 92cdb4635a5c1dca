import { allRuleLists } from "../../config/model";
import { quotedText } from "../../config/describe";
import { spanOf } from "../../config/parse";
import { analysable, examplePaths, type GlobChar, hasDoubleSlash, hasGroupSyntax, isCanonical, isLiteralText, isStructural, outsideGroups, PLAIN_FILL, scanGlob } from "../../runtime/globText";
import { runtimeLabel, type BraceRangeReplacement, type Runtime } from "../../runtime/runtime";
import type { Check } from "../check";
import { weakCache } from "../../caches";
import { replaceWith, type ModelFix } from "../../fixOperations";

/**
 * docs/reference/globs.md (patterns with `//` or a trailing `/`; brace ranges). Tool paths are canonicalised before they are matched (docs/reference/paths.md): a deepagents-js path never
 * holds `//` nor a trailing `/` (except the root), a deepagents-py path never holds a trailing `/` (except `/` and
 * `//`). A pattern that can only match such text decides nothing. Separately, picomatch (deepagents-js) does not
 * expand brace ranges it cannot write as one character class: it builds a class out of the range's parts.
 *
 * Every claim here is about what the runtime's own matcher does; test/checks/pattern-never-matches.test.ts
 * enumerates canonical paths to prove each one. The reading of glob text it shares with the other pattern checks
 * (`scanGlob`, `examplePaths`) lives in runtime/globText.ts.
 */
export const patternNeverMatches: Check = {
  code: "pattern-never-matches",
  severity: "warning",
  summary: "A pattern that cannot match any path the runtime checks (a `//`, a trailing `/`, a range JS does not expand).",
  run(context) {
    for (const list of allRuleLists(context.model)) {
      for (const rule of list.rules) {
        for (const node of rule.pathNodes) {
          if (!analysable(node.value)) continue;
          const pattern = node.value;
          // Most patterns hold no `//` and end in no `/`: nothing to ask any runtime then.
          const dead = !hasSlashTrouble(pattern) ? [] : context.runtimes
            .map((runtime, r) => ({ runtime, primary: r === 0, reason: neverMatchReason(runtime, pattern) }))
            .filter((d): d is { runtime: Runtime; primary: boolean; reason: string } => d.reason !== undefined);
          if (dead.length > 0) {
            const alive = context.runtimes.filter((r) => !dead.some((d) => d.runtime === r));
            const repaired = repairedPattern(pattern);
            // Offered only when every runtime matches an example path of the repaired pattern: `/a/\/` repaired is
            // `/a/\/**`, whose escaped slash picomatch reads as a second `/`, as dead as before.
            const usable = repaired !== pattern && context.runtimes.every((r) => !r.permissionPathProblem(repaired) && !neverMatchReason(r, repaired) && matchesAnExample(r, repaired));
            context.report({
              ...deadMessage(pattern, dead, alive, repaired),
              span: spanOf(node),
              fixes: usable ? [{ title: `Change to ${JSON.stringify(repaired)}`, operations: [replaceWith(node, repaired)], safe: false }] : [],
            });
            continue;
          }
          // A range is `{x..y}` somewhere: most patterns have none, and the replay below compiles the pattern twice.
          if (!/\{[^}]*\.\.[^}]*\}/.test(pattern)) continue;
          for (const [r, runtime] of context.runtimes.entries()) {
            if (runtime.permissionPathProblem(pattern)) continue;
            const calls = runtime.braceRangeReplacements(pattern);
            if (!calls) continue;
            const ranges = brokenRanges(pattern, calls);
            if (ranges.length === 0) continue;
            const finding = rangeFinding(runtime, r === 0, pattern, ranges);
            context.report({ message: finding.message, detail: finding.detail, span: spanOf(node), witness: finding.witness, fixes: finding.fixes.map(({ pattern: fixed, ...f }) => ({ ...f, operations: [replaceWith(node, fixed)] })) });
            break;
          }
        }
      }
    }
  },
};

// ---------------------------------------------------------------------------------------------------------------
// Patterns that only match text a canonical tool path never is
// ---------------------------------------------------------------------------------------------------------------

/** A `//`, or a trailing `/` (but not the root `/`): the only text that can keep a pattern from matching. */
function hasSlashTrouble(pattern: string): boolean {
  return pattern.includes("//") || (pattern.length > 1 && pattern.endsWith("/"));
}

/**
 * Why `pattern` matches no canonical tool path in `runtime`, or `undefined`. picomatch compiles a `/` outside
 * classes, braces and groups to a literal slash, except that a trailing `/**` also matches the folder itself, which
 * can only leave a trailing `/`. wcmatch collapses `//` and lets a trailing `**\/` match without its slash (G73,
 * G78), so those two rules are asked of the matcher (`quirks`), not assumed. What is left can match a canonical path
 * only if that path is a root (`/`, or `//` in Python), and the roots are tried directly. Groups and `|` can hide a
 * slash in an alternative, so a pattern with them is never reported. The tests back this with exhaustive and random
 * enumeration of canonical paths.
 */
export function neverMatchReason(runtime: Runtime, pattern: string): string | undefined {
  if (!hasSlashTrouble(pattern)) return undefined;
  if (runtime.permissionPathProblem(pattern)) return undefined;
  const chars = scanGlob(pattern);
  if (hasGroupSyntax(chars)) return undefined;
  const last = chars[chars.length - 1]!;
  const q = quirks(runtime);
  // wcmatch expands braces first (bracex), so a `**` inside one could end up as the last segment.
  const braces = chars.some((c) => isStructural(c) && c.ch === "{" && c.close !== undefined);
  const trailingSlashIsFinal = !q.trailingGlobstarSlashMatches || (!braces && !lastSegmentIsGlobstar(chars));
  let reason: string | undefined;
  if (pattern !== "/" && last.ch === "/" && outsideGroups(last) && trailingSlashIsFinal) {
    const what = lastSegmentIsGlobstar(chars) ? 'a pattern ending in "/**/"' : "this pattern";
    // deepagents-py turns backslashes into slashes after `normpath` (docs/reference/paths.md), so an argument ending in `\` is the
    // one way a tool path keeps a trailing `/` there: say so rather than "never" (explain shows that match).
    reason = q.backslashKeepsTrailingSlash
      ? `its tool paths end in "/" only for an argument ending in a backslash ("/a\\" is matched as "/a/"): for every other argument the trailing slash is removed before matching, and ${what} only matches text that ends in "/"`
      : `its tool paths never end in "/" (a trailing slash is removed before matching), and ${what} only matches text that does`;
  } else if (hasDoubleSlash(chars) && !q.doubleSlashMatches) {
    reason = 'its tool paths never contain "//" (repeated slashes are collapsed before matching), and this pattern only matches text that does';
  }
  if (!reason) return undefined;
  const compiled = runtime.compilePattern(pattern);
  if (compiled.unusable) return undefined;
  const roots = ["/", "//"].filter((root) => isCanonical(runtime, root));
  return roots.some((root) => compiled.matches(root)) ? undefined : reason;
}

function lastSegmentIsGlobstar(chars: readonly GlobChar[]): boolean {
  const text = chars.filter((c) => !c.escape).map((c) => c.ch).join("");
  return /(^|\/)\*\*\/$/.test(text);
}

interface MatcherQuirks {
  /** wcmatch matches `/secrets//**` against `/secrets/a` (G73); picomatch does not. */
  doubleSlashMatches: boolean;
  /** wcmatch matches `/x/**\/` against `/x/a` (G78); picomatch does not. */
  trailingGlobstarSlashMatches: boolean;
  /** deepagents-py canonicalises the argument `/a\` to `/a/` (backslashes become slashes after `normpath`, docs/reference/paths.md). */
  backslashKeepsTrailingSlash: boolean;
}

const quirkCache = weakCache<Runtime, MatcherQuirks>("checks/patternNeverMatches.quirkCache");

/** Asked of the runtime's own matcher, so no check has to know which runtime it is (design.md). */
function quirks(runtime: Runtime): MatcherQuirks {
  let q = quirkCache.get(runtime);
  if (!q) {
    q = {
      doubleSlashMatches: runtime.compilePattern("/secrets//**").matches("/secrets/a"),
      trailingGlobstarSlashMatches: runtime.compilePattern("/x/**/").matches("/x/a"),
      backslashKeepsTrailingSlash: (({ ok, path }) => ok && path === "/a/")(runtime.canonicalToolPath("/a\\", true) as { ok: boolean; path?: string }),
    };
    quirkCache.set(runtime, q);
  }
  return q;
}

/** `runtime` matches one of the pattern's own canonical example paths: it decides something there. */
function matchesAnExample(runtime: Runtime, pattern: string): boolean {
  return matchingExample(runtime, pattern, pattern) !== undefined;
}

/** The first example path of `examplesOf` that is canonical in `runtime` and that its matcher of `pattern` matches. */
function matchingExample(runtime: Runtime, examplesOf: string, pattern: string): string | undefined {
  const compiled = runtime.compilePattern(pattern);
  if (compiled.unusable) return undefined;
  return examplePaths(examplesOf, PLAIN_FILL).find((p) => isCanonical(runtime, p) && compiled.matches(p));
}

/** The pattern the author most likely meant: repeated slashes collapsed, a trailing `/` read as "everything under". */
function repairedPattern(pattern: string): string {
  const chars = scanGlob(pattern);
  let out = "";
  chars.forEach((c, k) => {
    const prev = chars[k - 1];
    if (c.ch === "/" && !c.escaped && outsideGroups(c) && prev?.ch === "/" && !prev.escaped && outsideGroups(prev)) return;
    out += c.ch;
  });
  if (out.length > 1 && out.endsWith("/")) {
    out = out.replace(/\/+$/, "");
    if (!/(^|\/)\*\*$/.test(out)) out += "/**";
  }
  return out === "" ? "/**" : out;
}

function deadMessage(
  pattern: string,
  dead: readonly { runtime: Runtime; primary: boolean; reason: string }[],
  alive: readonly Runtime[],
  repaired: string,
): { message: string; detail: string } {
  const names = dead.map((d) => runtimeLabel(d.runtime, d.primary));
  const sameReason = dead.every((d) => d.reason === dead[0]!.reason);
  const because = sameReason ? `In ${names.join(" and ")}, ${dead[0]!.reason}` : dead.map((d) => `${d === dead[0] ? "In" : "in"} ${d.runtime.label}, ${d.reason}`).join("; ");
  const otherwise = alive.map((r) => {
    const example = matchingExample(r, repaired, pattern);
    return example ? ` ${r.label} does match it (for example ${JSON.stringify(example)}).` : "";
  }).join("");
  const never = dead.every((d) => !d.reason.includes("only for an argument ending in a backslash")) ? "never matches" : "matches no ordinary tool path";
  return {
    message: `The pattern ${quotedText(pattern)} ${never} in ${names.join(" or ")}.`,
    detail: `${because}. The rule decides nothing through ${quotedText(pattern)}${never === "never matches" ? "" : " except for such an argument"}.${otherwise}`,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Brace ranges in picomatch (docs/reference/globs.md, G96–G99)
// ---------------------------------------------------------------------------------------------------------------

/**
 * picomatch 2.3.2 (`lib/parse.js`, `expandRange`) does not expand a range: it sorts the range's parts as strings
 * and writes them into one class, `[${parts.join("-")}]`; when that is not a valid class it writes the parts
 * joined by an unescaped `..`, which in a regular expression means any two characters. So `{1..3}` works,
 * while `{1..10..2}` becomes `[1-10-2]` (one of `-`, `0`, `1`, `2`) and `{01..03}` becomes `01..03`.
 * The runtime replays that function (`Runtime.braceRangeReplacements`, runtime/jsGlob.ts); this reads what it wrote.
 */
interface BrokenRange {
  /** The range as written, e.g. `{1..10..2}`, and where. */
  text: string;
  start: number;
  /** What picomatch writes in its place. */
  compiled: string;
  /** The characters the class accepts (undefined when picomatch fell back to `a..b`). */
  classChars?: string[];
  /** The parts around the unescaped `..` when picomatch fell back. */
  fallbackParts?: string[];
  /** What bash and bracex (deepagents-py) expand it to, when it is a range they know. */
  expansion?: string[];
}

function brokenRanges(pattern: string, calls: readonly BraceRangeReplacement[]): BrokenRange[] {
  if (calls.length === 0) return [];
  // picomatch calls the hook when a brace holding `..` closes: innermost first, left to right, as found here.
  const chars = scanGlob(pattern);
  const braces = chars
    .filter((c) => isStructural(c) && c.ch === "{" && c.close !== undefined)
    .map((c) => ({ start: c.index, end: c.close!, text: pattern.slice(c.index, c.close! + 1) }))
    .filter((b) => {
      const inner = b.text.slice(1, -1);
      return inner.includes("..") && !inner.includes("{");
    })
    .sort((a, b) => a.end - b.end);
  if (braces.length !== calls.length) return [];
  const result: BrokenRange[] = [];
  braces.forEach((brace, k) => {
    const { parts, output } = calls[k]!;
    const expansion = bashRange(brace.text);
    const range: BrokenRange = { text: brace.text, start: brace.start, compiled: output, expansion };
    if (output.startsWith("[")) {
      const cls = new RegExp(`^${output}$`);
      range.classChars = [];
      for (let code = 0x20; code < 0x7f; code++) if (cls.test(String.fromCharCode(code))) range.classChars.push(String.fromCharCode(code));
      // A class that holds exactly the range's values is the expansion: nothing to report (`{1..3}`, `{a..c}`).
      if (expansion && sameSet(expansion, range.classChars)) return;
    } else {
      range.fallbackParts = [...parts].sort();
    }
    // Only ranges that bash and bracex expand: anything else is not a range the author could have meant.
    if (expansion) result.push(range);
  });
  return result;
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const sa = new Set(a);
  return sa.size === new Set(b).size && b.every((x) => sa.has(x));
}

const RANGE_VALUES_KEPT = 1001;

/**
 * bash's (and bracex's) expansion of `{x..y}` / `{x..y..step}`: integers (zero-padded when written so) or letters;
 * only its first RANGE_VALUES_KEPT values for a longer range.
 */
function bashRange(text: string): string[] | undefined {
  const m = /^\{(-?\d+|[A-Za-z])\.\.(-?\d+|[A-Za-z])(?:\.\.(-?\d+))?\}$/.exec(text);
  if (!m) return undefined;
  const [, from, to, stepText] = m as unknown as [string, string, string, string | undefined];
  const step = Math.abs(Number(stepText ?? "1")) || 1;
  const numeric = /\d/.test(from);
  if (numeric !== /\d/.test(to)) return undefined;
  if (numeric) {
    const a = Number(from);
    const b = Number(to);
    const padded = /^-?0\d/.test(from) || /^-?0\d/.test(to);
    const width = Math.max(from.length, to.length);
    // A long range is cut short after 1,001 values: more than any class picomatch can write holds (so it is still
    // told apart from one), enough for a witness, and past the 64 values a fix writes out.
    const count = Math.min(Math.floor(Math.abs(b - a) / step) + 1, RANGE_VALUES_KEPT);
    const values: string[] = [];
    for (let k = 0; k < count; k++) {
      const v = a + (a <= b ? k : -k) * step;
      values.push(padded ? (v < 0 ? `-${String(-v).padStart(width - 1, "0")}` : String(v).padStart(width, "0")) : String(v));
    }
    return values;
  }
  const a = from.charCodeAt(0);
  const b = to.charCodeAt(0);
  const values: string[] = [];
  for (let v = a; a <= b ? v <= b : v >= b; v += a <= b ? step : -step) values.push(String.fromCharCode(v));
  return values;
}

function describeCharacters(chars: readonly string[]): string {
  const quoted = chars.map((c) => JSON.stringify(c));
  return quoted.length === 1 ? quoted[0]! : `${quoted.slice(0, -1).join(", ")} or ${quoted[quoted.length - 1]}`;
}

function rangeFinding(runtime: Runtime, primary: boolean, pattern: string, ranges: readonly BrokenRange[]): { message: string; detail: string; witness?: string; fixes: (Omit<ModelFix, "operations"> & { pattern: string })[] } {
  const who = runtimeLabel(runtime, primary);
  const compiled = runtime.compilePattern(pattern);
  const chars = scanGlob(pattern);
  const parts: string[] = [];
  let witness: string | undefined;
  for (const range of ranges) {
    const restLiteral = isLiteralText(chars, 0, range.start) && isLiteralText(chars, range.start + range.text.length);
    const head = pattern.slice(0, range.start);
    const tail = pattern.slice(range.start + range.text.length);
    let what: string;
    if (range.classChars) {
      if (restLiteral && ranges.length === 1) {
        const matched = range.classChars.map((ch) => head + ch + tail).filter((p) => isCanonical(runtime, p) && compiled.matches(p));
        const literal = isCanonical(runtime, pattern) ? ` (and the path spelled exactly like the pattern, which micromatch compares as text first)` : "";
        what = matched.length === 0
          ? `picomatch turns it into the class ${JSON.stringify(range.compiled)}, and no tool path fits the pattern then${literal}`
          : `picomatch turns it into the class ${JSON.stringify(range.compiled)}, so the pattern matches only ${describePaths(matched)}${literal}`;
      } else {
        what = `picomatch turns it into the class ${JSON.stringify(range.compiled)}: at that place the pattern matches only one character, ${describeCharacters(range.classChars)}`;
      }
    } else {
      what = `picomatch turns it into ${range.fallbackParts!.map((p) => `the text ${JSON.stringify(p)}`).join(', then any two characters (even "/", not a line break), then ')}`;
    }
    parts.push(`the brace range ${JSON.stringify(range.text)}: ${what}`);
    if (!witness && restLiteral && range.expansion) {
      witness = range.expansion.map((v) => head + v + tail).find((p) => isCanonical(runtime, p) && !compiled.matches(p));
    }
  }
  const fixed = ranges.reduceRight((text, r) => {
    if (!r.expansion || r.expansion.length > 64) return text;
    return text.slice(0, r.start) + `{${r.expansion.join(",")}}` + text.slice(r.start + r.text.length);
  }, pattern);
  const never = witness ? ` It does not match ${JSON.stringify(witness)}.` : "";
  const written = ranges.map((r) => JSON.stringify(r.text));
  return {
    message: `${who} does not expand the brace range${ranges.length > 1 ? "s" : ""} ${written.length > 1 ? `${written.slice(0, -1).join(", ")} and ${written.at(-1)}` : written[0]}.`,
    detail: `${who} does not expand ${parts.join("; nor ")}.${never} List the values instead${fixed !== pattern ? `: ${JSON.stringify(fixed)}` : ""}.`,
    witness,
    fixes: fixed !== pattern ? [{ title: `Write the range out: ${JSON.stringify(fixed)}`, pattern: fixed, safe: false }] : [],
  };
}

function describePaths(paths: readonly string[]): string {
  const quoted = paths.map((p) => JSON.stringify(p));
  return quoted.length === 1 ? quoted[0]! : `${quoted.slice(0, -1).join(", ")} and ${quoted[quoted.length - 1]}`;
}
