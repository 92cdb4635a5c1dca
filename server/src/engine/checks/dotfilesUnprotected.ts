import { allRuleLists, type RuleSpec } from "../config/model";
import { spanOf } from "../config/parse";
import { CompiledRuleList, type PermissionRuleInput, type RuleDecision } from "../permissions/ruleList";
import { OPERATIONS, RUNTIME_IDS, runtimeById, type CompiledPattern, type Operation, type Runtime } from "../runtime";
import { WITNESS_WORK_BUDGET, workBudget, type Check, type CheckContext, type WorkBudget } from "./check";
import { describeList } from "../config/describe";
import { patternTable, probeMatcher } from "./patternTable";
import { analysable, type ExampleFill, examplePaths, isCanonical, isLiteralText, leadingFolderAlternatives, leadingFolders, scanGlob } from "../runtime/globText";
import { BoundedCache } from "../boundedCache";

/**
 * docs/reference/globs.md, dotfiles (G4, G9, G21, G25, G31, G42–G43, G109–G110, T13, T17–T18): deepagents-js matches with
 * `{ dot: true }`, deepagents-py calls wcmatch without `DOTGLOB`, so there `*`, `**`, `?` and classes never match a
 * name that starts with `.`. A `deny` written with JS in mind leaves `.env` and `.git/` open in Python. Reported
 * only with a witness: a dotfile path the pattern covers in JS, that the pattern misses in Python, that no
 * other rule of the list denies in Python, and that the list does deny in JS (an earlier allow may take it first).
 */
export const dotfilesUnprotected: Check = {
  code: "dotfiles-unprotected",
  severity: "warning",
  summary: "In deepagents-py a deny's `*`/`**`/`?` does not cover dotfiles (`.env`, `.git/`), unlike deepagents-js.",
  run(context) {
    const reference = coveringRuntime();
    const runtime = context.runtimes.find(skipsDotfiles);
    if (!runtime || !reference) return;
    const who = runtime === context.model.runtime ? runtime.label : `${runtime.label} (in compatibleWith)`;
    // Counted, not timed (check.ts `WITNESS_WORK_BUDGET`): the same file gets the same findings on any machine.
    const limit = context.witnessBudget ?? WITNESS_WORK_BUDGET;
    const work = workBudget(limit);

    // A list's findings are a pure function of its rules, the two runtimes and the work left when it starts
    // (which the lists before it decide): so each outcome is kept under a key that holds all of these, and a
    // re-check of a file whose rules did not change (the language server, on every keystroke elsewhere) replays
    // it, counting the same work, instead of asking the same questions again. The search itself is set up only
    // when a list is not known. A list is keyed by its source text (its rules are a function of it, and slicing
    // costs nothing, where writing the rules out as JSON was most of a re-check at 1,000 rules); an edit inside
    // the list, even to a comment, is a new list.
    let search: ((rules: readonly RuleSpec[]) => Omit<ListOutcome, "spent">) | undefined;
    // The key: the settings, then the text of every list up to this one.
    const chain = [`${runtime.id}\n${reference.id}\n${who}\n${limit}`];
    let chainLength = chain[0]!.length;
    const lists = allRuleLists(context.model);
    for (const list of lists) {
      const text = context.text.slice(list.node.offset, list.node.offset + list.node.length);
      chain.push(text);
      chainLength += text.length;
      const keep = chainLength <= SHARED_LIST_MAX_CHARS;
      let outcome = keep ? sharedOutcomes.get(chain) : undefined;
      if (outcome) {
        work.spend(outcome.spent);
      } else {
        const before = work.spent;
        search ??= witnessSearch(context, runtime, reference, who, work);
        outcome = { ...search(list.rules), spent: work.spent - before };
        if (keep) sharedOutcomes.set([...chain], outcome);
      }
      for (const f of outcome.findings) {
        const node = list.rules[f.rule]!.pathNodes[f.node]!;
        const end = node.offset + node.length;
        context.report({
          message: f.message,
          span: spanOf(node),
          witness: f.witness,
          fixes: f.fix ? [{ title: f.fix.title, edits: [{ span: { start: end, end }, newText: f.fix.newText }], safe: false }] : [],
        });
      }
      if (outcome.stoppedAt !== undefined) {
        const from = outcome.stoppedAt;
        const last = list.rules.length - 1;
        const later = lists.length - 1 - lists.indexOf(list);
        context.skip?.({
          what: `${from === last ? `rule ${from}` : `rules ${from} to ${last}`} of ${describeList(list)}${later > 0 ? ` and ${later === 1 ? "the rule list" : `the ${later} rule lists`} after it` : ""}`,
          why: `its work budget of ${limit.toLocaleString("en")} matcher questions per file ran out`,
          span: spanOf(list.rules[from]!.node),
        });
        return;
      }
    }
  },
};

/**
 * The witness search of one run: what the check finds in a rule list, asking `runtime`'s matcher (the one whose
 * wildcards skip dot names) and `reference`'s, and counting its questions in `work`.
 */
function witnessSearch(context: CheckContext, runtime: Runtime, reference: Runtime, who: string, work: WorkBudget): (rules: readonly RuleSpec[]) => Omit<ListOutcome, "spent"> {
  const table = patternTable(context);

  // What a pattern alone says in this runtime (the rule list and the reference runtime come later): the dotfile
  // paths it misses, in the order `examplePaths` proposes them. Rules repeat patterns, so once each.
  const gaps = new Map<string, Gaps>();
  const gapsOf = (pattern: string): Gaps => {
    let found = gaps.get(pattern);
    if (found) return found;
    // A pure function of the pattern and the two runtimes: kept across runs (`sharedGaps`). The work is counted
    // the same either way, so the findings do not depend on what an earlier run left behind.
    const key = `${runtime.id}\n${reference.id}\n${pattern}`;
    let known = sharedGaps.get(key);
    if (!known) {
      known = NO_GAPS;
      // Plain text (no wildcard, brace, class, escape or group) matches itself in both runtimes and nothing
      // else, so it leaves no such path; checking that would cost two compilations per pattern.
      if (!isPlainText(pattern) && !table.pathProblem(runtime, pattern) && !table.pathProblem(reference, pattern)) {
        let here: CompiledPattern | undefined;
        // The matcher last: the text tests reject most candidates, and it is compiled only if one gets there. A
        // pattern with no spot that can match a dot name here (`mayMatchDotName`, the same test `dotPathRule`
        // relies on) misses every candidate, all of which hold one: most `<dir>/**` need no compiling at all.
        const dotCapable = mayMatchDotName(pattern);
        known = new Gaps(examplePaths(pattern, DOTFILE_FILL), (p) => hasOneDotfileSegment(p) && isCanonical(runtime, p) && isCanonical(reference, p) && (!dotCapable || !(here ??= table.compile(runtime, pattern)).matches(p)));
      }
      sharedGaps.set(key, known);
    }
    work.spend(known.asked);
    gaps.set(pattern, known);
    return known;
  };

  // The rule lists below are only asked about paths from `examplePaths` (never a `//`, canonical here, so no
  // trailing `/` either), so a pattern's leading folder names are text such a path must start with, even in
  // Python, whose matcher reads a `/` as `[/]+` and so offers no literal prefix of its own: without one, every
  // decision tries every pattern.
  // Both runtimes' lists file a pattern under the same folders: read once per pattern.
  const folderAlternatives = new Map<string, readonly string[]>();
  const foldersOf = (pattern: string): readonly string[] => {
    let found = folderAlternatives.get(pattern);
    if (!found) folderAlternatives.set(pattern, (found = leadingFolderAlternatives(pattern)));
    return found;
  };
  const prefixed = new Map<string, CompiledPattern>();
  const indexed = {
    ...runtime,
    compilePattern(pattern: string): CompiledPattern {
      let c = prefixed.get(pattern);
      if (!c) {
        const compiledHere = table.compile(runtime, pattern);
        // Plain text matches exactly itself among such paths, so all of it is the prefix.
        const plain = isPlainText(pattern);
        const folders = plain ? pattern : leadingFolders(pattern);
        const alternatives = plain ? [pattern] : foldersOf(pattern);
        // An unusable pattern fails every call that reaches it: it must stay a candidate for every path. (The
        // lists built from these are decided by their folder index only, `sharedRuleList`: no plain-path restatement.)
        c = compiledHere.unusable || alternatives.includes("")
          ? compiledHere
          : { pattern, matches: compiledHere.matches.bind(compiledHere), literalPrefix: folders, literalPrefixes: alternatives };
        prefixed.set(pattern, c);
      }
      return c;
    },
  };
  // The witness must be a path the reference runtime matches with the same pattern. Most patterns of a deny are
  // simple enough for the runtime to read without compiling, and every candidate here is a plain path: so most
  // witnesses need no regular expression, whose building and first run were most of what confirming one cost.
  const referenceMatcher = (pattern: string): ((path: string) => boolean) => table.plainMatcher(reference, pattern);
  // The reference runtime's rule lists (see `deniedInReference` below) are asked about the same plain example paths:
  // a pattern simple enough to be read off its text is matched that way and indexed by its leading folders, so a
  // decision compiles no regular expression for it (compiling picomatch's, and V8 building each on its first run,
  // had made this step cost more than the rest of the check at 1,000 rules).
  const referencePrefixed = new Map<string, CompiledPattern>();
  const referenceIndexed: Runtime = {
    ...reference,
    compilePattern(pattern: string): CompiledPattern {
      let c = referencePrefixed.get(pattern);
      if (!c) {
        // The list compiles every pattern it holds when it is built, and most are never tried: a pattern of plain
        // glob text is one the reference runtime can always use (`isPlainGlobText`), so its matcher waits for its
        // first question.
        let matches: ((path: string) => boolean) | undefined;
        c = isPlainGlobText(pattern)
          ? { pattern, matches: (path) => (matches ??= referenceMatcher(pattern))(path), literalPrefix: leadingFolders(pattern), literalPrefixes: foldersOf(pattern) }
          : table.compile(reference, pattern);
        referencePrefixed.set(pattern, c);
      }
      return c;
    },
  };
  return listFindings;

  /** What the check finds in one rule list (`stoppedAt` the rule where the work budget ran out, if it did). */
  function listFindings(rules: readonly RuleSpec[]): Omit<ListOutcome, "spent"> {
    const findings: ListFinding[] = [];
    // Decisions are only asked about paths with a dot name in them (the gaps above), so the list is compiled
    // without the patterns that cannot match such a path here (below): same decision, same deciding rule.
    let shared: SharedList | undefined;
    // Each distinct question of this run is counted once, whether or not an earlier run knew the answer, so the
    // findings never depend on the cache. Kept per operation and keyed by the path itself: a candidate is asked
    // about again and again (every rule with its pattern, every operation), and a string computes its hash once,
    // where a new `${op}\n${path}` key had to be built and hashed on every question.
    const asked: Record<Operation, Set<string>> = { read: new Set(), write: new Set() };
    const decide = (op: Operation, path: string): RuleDecision => {
      shared ??= sharedRuleList(indexed, rules.map((r) => dotPathRule(r.input, (p) => table.compile(runtime, p).unusable)));
      const seen = asked[op];
      if (!seen.has(path)) {
        seen.add(path);
        work.spend();
      }
      return shared.decide(op, path);
    };
    // The reference runtime's decisions, over the whole list (every pattern can decide there): asked only of a
    // path that is otherwise a witness, so built only when one is found. Counted like `decide`'s.
    let referenceList: CompiledRuleList | undefined;
    const referenceAsked: Record<Operation, Set<string>> = { read: new Set(), write: new Set() };
    const deniedInReference = (op: Operation, path: string): boolean => {
      referenceList ??= new CompiledRuleList(referenceIndexed, rules.map((r) => r.input), { noAutomaton: true });
      if (!referenceAsked[op].has(path)) {
        referenceAsked[op].add(path);
        work.spend();
      }
      return referenceList.decide(op, path).decision === "deny";
    };
    // A pattern repeated in rules with the same operations asks the same questions in the same order and finds the
    // same witness: the search is made once, and each repeat counts only what the search counted apart from
    // questions (those were asked already, and count once): its reference-matcher questions.
    const searches = new Map<string, { readonly witness: string | undefined; readonly referenceQuestions: number }>();
    const searchWitness = (pattern: string, ops: readonly Operation[]): string | undefined => {
      const key = `${ops.join(",")}\n${pattern}`;
      const known = searches.get(key);
      if (known) {
        work.spend(known.referenceQuestions);
        return known.witness;
      }
      // The reference runtime's matcher is asked last: most patterns never get that far, and it compiles.
      const gapPaths = gapsOf(pattern);
      let witness: string | undefined;
      let referenceQuestions = 0;
      let referenceMatches: ((path: string) => boolean) | undefined;
      for (let k = 0, p = gapPaths.at(0); p !== undefined; p = gapPaths.at(++k)) {
        if (!ops.some((op) => decide(op, p!).decision !== "deny")) continue;
        work.spend();
        referenceQuestions++;
        if (!(referenceMatches ??= referenceMatcher(pattern))(p)) continue;
        // The reference runtime must deny it too: after an earlier `allow` that takes the path in both runtimes,
        // what the reference runtime's wildcard covers changes nothing, and there is no gap to report.
        if (ops.some((op) => decide(op, p!).decision !== "deny" && deniedInReference(op, p!))) {
          witness = p;
          break;
        }
      }
      searches.set(key, { witness, referenceQuestions });
      return witness;
    };
    for (let r = 0; r < rules.length; r++) {
      const rule = rules[r]!;
      // Out of budget: stop looking. The findings so far are exact; the rules not reached are not reported on,
      // and the `skipped` list says so.
      if (work.expired) return { findings, stoppedAt: r };
      if (rule.input.mode !== "deny") continue;
      const ops = OPERATIONS.filter((op) => runtime.operationsCover(rule.input.operations, op));
      if (ops.length === 0) continue;
      let written: Set<unknown> | undefined;
      for (let n = 0; n < rule.pathNodes.length; n++) {
        const pattern = rule.pathNodes[n]!.value;
        if (!analysable(pattern)) continue;
        const witness = searchWitness(pattern, ops);
        if (!witness) continue;
        written ??= new Set(rule.pathNodes.map((node) => node.value));
        const added = dotfilePatterns(pattern).filter((p) => !written!.has(p));
        // After the fix this rule denies the witness, unless an earlier rule decides it first.
        const covered = added.some((p) => table.compile(runtime, p).matches(witness))
          && ops.every((op) => {
            const before = decide(op, witness);
            return before.decision === "deny" || before.ruleIndex === -1 || before.ruleIndex > rule.index;
          });
        findings.push({
          rule: r,
          node: n,
          message: `In ${who}, wildcards (\`*\`, \`**\`, \`?\`, classes) never match a name that starts with \`.\`: this deny does not cover \`${witness}\`, which ${reference.label} matches with the same pattern, and no other rule here denies it.${covered ? ` Add ${added.map((p) => `\`${p}\``).join(" and ")} to the rule.` : " Spell the dotfiles out in the pattern (e.g. `/dir/.*`)."}`,
          witness,
          fix: covered ? { title: `Also deny dotfiles: add ${added.map((p) => JSON.stringify(p)).join(" and ")}`, newText: added.map((p) => `, ${JSON.stringify(p)}`).join("") } : undefined,
        });
      }
    }
    return { findings, stoppedAt: undefined };
  }
}

/** One finding of a list, by position (rule in the list, entry in its `paths`), so it replays onto a later parse. */
interface ListFinding {
  readonly rule: number;
  readonly node: number;
  readonly message: string;
  readonly witness: string;
  /** The quick fix: text inserted after the entry. */
  readonly fix: { readonly title: string; readonly newText: string } | undefined;
}
interface ListOutcome {
  readonly findings: readonly ListFinding[];
  /** Work counted while finding them. */
  readonly spent: number;
  /** The rule at which the budget ran out in this list: the check reported what it had and stopped there. */
  readonly stoppedAt: number | undefined;
}
/**
 * Outcomes by their key (see `run`): the settings and the source text of every list up to this one. Few are kept,
 * and they are found by comparing the texts, not by a map: a map hashes its key, and hashing the text of a file's
 * lists (tens of kilobytes, a new string on every check) took 14 % of a re-check at 100 rules, where comparing
 * two equal texts is a copy-speed scan and two different ones mostly differ in length.
 */
class OutcomesByText {
  private entries: { readonly key: readonly string[]; readonly outcome: ListOutcome }[] = [];
  constructor(private readonly limit: number) {}

  get(key: readonly string[]): ListOutcome | undefined {
    return this.entries.find((e) => e.key.length === key.length && e.key.every((part, k) => part === key[k]))?.outcome;
  }

  set(key: readonly string[], outcome: ListOutcome): void {
    // Emptied when full, as the bounded caches are.
    if (this.entries.length >= this.limit) this.entries = [];
    this.entries.push({ key, outcome });
  }

  clear(): void {
    this.entries = [];
  }
}
const sharedOutcomes = new OutcomesByText(16);

/** Forgets everything kept across runs (tests compare a fresh run with a replayed one). */
export function clearDotfilesCaches(): void {
  sharedOutcomes.clear();
  sharedLists.clear();
  sharedGaps.clear();
  sharedDotfilePatterns.clear();
}

// ---------------------------------------------------------------------------------------------------------------
// Kept across runs, as compiled patterns are (checks/patternTable.ts): the language server checks the same file
// again on every edit, where nearly every rule list is unchanged. Each is a pure function of its key; the caches
// are bounded in entries and emptied when full.

const SHARED_LIMITS = { entries: 4096 };
const sharedGaps = new BoundedCache<string, Gaps>(SHARED_LIMITS);

/**
 * The dotfile paths a pattern misses in the runtime (and the reference runtime's canonical form allows), in the
 * order `examplePaths` proposes them, found only as far as they are asked for: the first one is usually the
 * witness, and testing every candidate (up to a few hundred for a brace pattern) with the runtime's matcher was
 * most of this check's cold time. `asked` is the work they count for: every candidate, however many were tested,
 * so the budget does not depend on how far an earlier run got.
 */
class Gaps {
  private readonly found: string[] = [];
  private next = 0;
  readonly asked: number;

  constructor(private readonly candidates: readonly string[], private readonly isGap: (path: string) => boolean) {
    this.asked = candidates.length;
  }

  /** The k-th such path, or `undefined` when there are no more. */
  at(k: number): string | undefined {
    while (this.found.length <= k && this.next < this.candidates.length) {
      const p = this.candidates[this.next++]!;
      if (this.isGap(p)) this.found.push(p);
    }
    return this.found[k];
  }
}
const NO_GAPS = new Gaps([], () => false);

/** Keys (lists' text) longer than this are not kept: such a list is worked out for its run only. */
const SHARED_LIST_MAX_CHARS = 1 << 20;
/** Lists kept: the top-level one and a few subagents' (a file with more lists re-decides the rest). */
const SHARED_LISTS = 8;
/** Decisions kept per list and operation; more than this and they start over (each is a path string and a small object). */
const SHARED_DECISIONS = 50_000;

interface SharedList {
  decide(op: Operation, path: string): RuleDecision;
}
const sharedLists = new BoundedCache<string, SharedList>({ entries: SHARED_LISTS });

/**
 * The rule list of `rules` (already reduced by `dotPathRule`) with its decisions, kept across runs: a decision is
 * a pure function of the reduced list, the operation and the path. The language server checks the file again on
 * every keystroke, and an edit that does not touch a pattern able to match a dot name leaves the reduced list as
 * it was, so its decisions are answered from memory. A list seen for the first time is decided by its folder index
 * only: building its automaton costs more than the few thousand decisions of one run (each witness path visits
 * states no other path needs), and a list seen again needs no decision it has not already made.
 */
function sharedRuleList(indexed: Runtime, rules: readonly PermissionRuleInput[]): SharedList {
  const key = JSON.stringify([indexed.id, rules.map((r) => [r.operations, r.paths, r.mode])]);
  const cached = sharedLists.get(key);
  if (cached) return cached;
  // The list keeps the runtime it was compiled with: give it one that holds nothing of this run once built.
  const base = runtimeById(indexed.id);
  let compileNow: ((pattern: string) => CompiledPattern) | undefined = (p) => indexed.compilePattern(p);
  const detached: Runtime = { ...base, compilePattern: (p) => (compileNow ?? base.compilePattern)(p) };
  const list = new CompiledRuleList(detached, rules, { noAutomaton: true });
  compileNow = undefined;
  const known: Record<Operation, BoundedCache<string, RuleDecision>> = {
    read: new BoundedCache({ entries: SHARED_DECISIONS }),
    write: new BoundedCache({ entries: SHARED_DECISIONS }),
  };
  const shared: SharedList = {
    decide(op, path) {
      const decisions = known[op];
      return decisions.get(path) ?? decisions.set(path, list.decide(op, path));
    },
  };
  if (key.length <= SHARED_LIST_MAX_CHARS) sharedLists.set(key, shared);
  return shared;
}

/**
 * Letters, digits, `_ . / -`, `*`, `?` and braces of names, within picomatch's length limit: no class, group,
 * escape, extglob or negation, so nothing picomatch could turn into an invalid regular expression or refuse: the
 * reference runtime (deepagents-js) accepts every such pattern (test/engine/checkSpeedups.test.ts asks it; wcmatch
 * can still refuse one for its brace-expansion limit, so this says nothing about deepagents-py).
 */
export function isPlainGlobText(pattern: string): boolean {
  return pattern.length <= 1024 && /^\/[A-Za-z0-9_./*?{},-]*$/.test(pattern);
}

/** Letters, digits and `_ . / -` only, without `//` or a trailing `/`: text that is no glob syntax in either runtime. */
function isPlainText(pattern: string): boolean {
  return /^[A-Za-z0-9_./-]*$/.test(pattern) && !pattern.includes("//") && !(pattern.length > 1 && pattern.endsWith("/"));
}

/**
 * The rule with only the path entries that can match a path holding a dot name in a runtime whose wildcards skip
 * dot names, plus any it cannot use at all (reaching one decides the call: it fails). There a name that starts
 * with `.` is matched by a literal `.` at a segment start, or by a `?` or class right after a `*` that matched
 * nothing (`/*?env` matches `/.env`). A literal `.` lands at a segment start only when it starts the pattern,
 * follows a `/`, follows a `*` that matched nothing (`/*.txt` matches `/.txt`), or touches a brace (`/a/{b/,}.env`
 * expands to `/a/.env`); a pattern with an escape is kept whatever it escapes. A pattern with none of these
 * matches no such path. Every other entry is kept, so the first match, and so the deciding rule, is unchanged.
 */
function dotPathRule(input: PermissionRuleInput, unusable: (pattern: string) => string | undefined): PermissionRuleInput {
  if (!Array.isArray(input.paths)) return input;
  const paths = input.paths.filter((p) => typeof p !== "string" || mayMatchDotName(p) || (p.includes("{") && unusable(p) !== undefined));
  return paths.length === input.paths.length ? input : { ...input, paths };
}

/** `dotPathRule`'s test, exported for the property test that backs it (test/engine/checkSpeedups.test.ts). */
export function mayMatchDotName(pattern: string): boolean {
  return /[?[\\]|(?:^|[/*{},])\./.test(pattern);
}

/** Wildcards stand for dot names first, so the first confirmed candidate reads as the obvious example. */
const DOTFILE_FILL: ExampleFill = {
  globstar: ["a", ".env", ".git/config", "a/.env"],
  star: [".env", ".a"],
  qmark: ["."],
  classChars: [".", "a"],
};

/** The first runtime whose wildcards do match dot names (deepagents-js): the reference for the witnesses. */
let covering: Runtime | null | undefined;
function coveringRuntime(): Runtime | undefined {
  if (covering === undefined) covering = RUNTIME_IDS.map(runtimeById).find((r) => !skipsDotfiles(r)) ?? null;
  return covering ?? undefined;
}

/** Asked of the matcher: does `/*` miss `/.env`? */
function skipsDotfiles(runtime: Runtime): boolean {
  return !probeMatcher(runtime, "/*", "/.env");
}

/**
 * Exactly one dot name: the gap this check is about. A dot name inside a dot folder (`/w/.git/.env`) also escapes
 * `/w/**\/.*` in Python, and no finite list of patterns closes that; the docs say so rather than the check
 * reporting every added pattern again.
 */
function hasOneDotfileSegment(path: string): boolean {
  // Every candidate path is tested, so without splitting: a segment starts at 0 or after a `/`.
  let count = 0;
  for (let at = path.indexOf("."); at >= 0; at = path.indexOf(".", at + 1)) {
    if (at > 0 && path.charCodeAt(at - 1) !== 47 /* / */) continue;
    const end = path.indexOf("/", at);
    const length = (end < 0 ? path.length : end) - at;
    // `.` and `..` are not names.
    if (length === 1 || (length === 2 && path.charCodeAt(at + 1) === 46)) continue;
    if (++count > 1) return false;
  }
  return count === 1;
}

/**
 * The portable spelling of "dotfiles too" for the two shapes whose meaning is plain: `<dir>/**` (any depth: a
 * dot name as the last segment, or a dot folder with anything under it) and `<dir>/*` (one level).
 */
function dotfilePatterns(pattern: string): readonly string[] {
  // A pure function of the pattern, asked once per finding, and scanning is most of it: kept across runs.
  return sharedDotfilePatterns.get(pattern) ?? sharedDotfilePatterns.set(pattern, dotfilePatternsOf(pattern));
}
const sharedDotfilePatterns = new BoundedCache<string, readonly string[]>(SHARED_LIMITS);

function dotfilePatternsOf(pattern: string): string[] {
  if (!pattern.endsWith("/**") && !pattern.endsWith("/*")) return [];
  const chars = scanGlob(pattern);
  if (pattern.endsWith("/**") && isLiteralText(chars, 0, pattern.length - 3)) {
    const dir = pattern.slice(0, -3);
    return [`${dir}/**/.*`, `${dir}/**/.*/**`];
  }
  if (pattern.endsWith("/*") && isLiteralText(chars, 0, pattern.length - 2)) {
    return [`${pattern.slice(0, -2)}/.*`];
  }
  return [];
}
