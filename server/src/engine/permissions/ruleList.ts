import type { CompiledPattern, Operation, Runtime } from "../runtime/runtime";
import { isPlainPath, OPERATIONS } from "../runtime/runtime";
import { lastCharacterMask } from "../runtime/globText";
import { GIVE_UP, readsBackwards, RuleAutomaton } from "./ruleAutomaton";

/** One `FilesystemPermission` as written in the config: raw JSON values, because the runtimes use them raw. */
export interface PermissionRuleInput {
  operations: unknown;
  paths: unknown;
  /** `undefined` when the key is omitted (means `allow` in both runtimes). */
  mode?: unknown;
}

/** What the rule list answers for one operation on one canonical path. */
export interface RuleDecision {
  /** `allow` covers the permissive default, `mode: "allow"` and unknown modes (they allow, docs/reference/paths.md V20). */
  decision: "allow" | "deny" | "interrupt";
  /** Index of the deciding rule in its list, or -1 when no rule matched and the default allowed. */
  ruleIndex: number;
  /** Index, within that rule's `paths`, of the first pattern that matched. */
  patternIndex: number;
  /** The mode as written on the deciding rule (`undefined` when omitted or when the default decided). */
  mode?: unknown;
  /** A pattern the runtime cannot evaluate was reached: the tool call itself fails with this error. */
  failure?: string;
}

interface Entry {
  ruleIndex: number;
  patternIndex: number;
  pattern: CompiledPattern;
  /** What `decide` answers when this entry is the first to match (one frozen object, shared by every answer). */
  result: RuleDecision;
}

/** An entry with its position in its operation's list. */
interface IndexedEntry extends Entry {
  id: number;
}

/**
 * The entries by the folder every path they can match starts with: a key is a path's text up to one of its `/`
 * (not included), or the whole path; `""` holds the entries any path may reach. A decision looks up the keys of its
 * path, a handful of lookups (`/w/a/b`: `""`, `/w`, `/w/a`, `/w/a/b`). (A trie over the prefixes' characters was
 * the first way: a CLI run builds two such indexes over 1,000 rules for a few hundred decisions, and V8's
 * interpreter took 23 ms to build the tries, a node per character.)
 */
type FolderIndex = Map<string, Folder>;

/** The entries filed under one key, in rule order. */
interface Folder {
  readonly ids: number[];
  /**
   * For plain paths, by the path's last character (`code & 31`): the entries whose matches can end with it
   * (globText.ts `lastCharacterMask`), each list made when a path ending so first comes by. `**\/*.pem` is filed
   * under `""`, a key of every path, and is asked only about paths that end with `m` (or a character sharing its
   * bit). Testing that per candidate instead dropped three in four of the candidates of dotfiles-unprotected's
   * lists at 1,000 rules, one at a time.
   */
  byLast?: (readonly number[] | undefined)[];
}

/** Everything one operation needs; all but `entries` is built on first use. */
interface OperationTable {
  entries: Entry[];
  /** Decisions made so far (the automaton is built only for lists that are asked often: see `AUTOMATON_AFTER`). */
  decisions: number;
  index?: FolderIndex;
  /** Per entry, `lastCharacterMask` of its pattern (-1 for an unusable one; 0 until asked, as a mask has a bit). */
  lastCharacters?: Int32Array;
  /**
   * `decideByIndex`'s scratch, reused by every decision (a decision never runs inside another of the same table):
   * the index's lists for the path's keys, and how far each has been read.
   */
  lists: (readonly number[])[];
  positions: number[];
  /**
   * The entries the automata cover, read left to right and right to left (`readsBackwards`); `null` when they
   * cover none or were given up.
   */
  automaton?: { forwards: RuleAutomaton; backwards: RuleAutomaton } | null;
  /** Entries the automaton does not cover (patterns it cannot restate, failures), in rule order. */
  others: IndexedEntry[];
  /** How many times the automaton ran out of states and was rebuilt. */
  rebuilds: number;
}

/**
 * Decisions answered by the folder index before the automaton is built: a list made for a handful of questions (a
 * check's witnesses, an explanation) never pays for the automaton's states; a list used for many pays once.
 */
const AUTOMATON_AFTER = 32;
/** After this many state-budget overflows the automaton is not rebuilt again for that operation. */
const MAX_REBUILDS = 4;

export interface CompiledRuleListOptions {
  /** Decisions per operation answered by the folder index before the automaton is built (tests set 0 to exercise it). */
  automatonAfter?: number;
  /** Never build the automaton (tests compare both ways). */
  noAutomaton?: boolean;
}

/**
 * A rule list compiled once for one runtime: first match wins, permissive default (docs/reference/decisions.md).
 *
 * Speed without a cache, in two tiers per operation, both exact:
 * - The automata (ruleAutomaton.ts): every pattern the runtime can restate as a plain-path regular expression
 *   (runtime.ts `PlainPathRegex`; deepagents-js: jsGlob.ts, deepagents-py: pyPlainPath.ts) joins one of two
 *   automata, one reading paths left to right
 *   (patterns decided by their start, `/a/b/**`), one right to left (decided by their end, `/**` + `/*.pem`). Each
 *   names the first of its patterns (in rule order) that matches, usually after a few characters; the smaller of
 *   the two is the answer, unless a pattern they do not cover, earlier in the list, matches. A path that is not
 *   plain (`/a/./b`, `//a`, `/a/`, `/`) and that some automaton pattern may match goes to the second tier.
 * - The folder index: every pattern is filed under the folders its matches must start with (`FolderIndex`). The
 *   path's folders yield a few lists of candidates, merged in rule order and tried with the runtime's own matcher
 *   until one matches.
 *   It answers the first `AUTOMATON_AFTER` decisions of each operation.
 * Construction only sorts the entries; both tiers are built on first use.
 */
export class CompiledRuleList {
  readonly rules: readonly PermissionRuleInput[];
  private readonly read: OperationTable;
  private readonly write: OperationTable;
  private readonly automatonAfter: number;

  constructor(readonly runtime: Runtime, rules: readonly PermissionRuleInput[], options: CompiledRuleListOptions = {}) {
    this.rules = rules;
    this.automatonAfter = options.noAutomaton ? Infinity : options.automatonAfter ?? AUTOMATON_AFTER;
    const compiled = new Map<string, CompiledPattern>();
    const compile = (p: string) => {
      let c = compiled.get(p);
      if (!c) compiled.set(p, (c = runtime.compilePattern(p)));
      return c;
    };
    const tables = OPERATIONS.map((op): OperationTable => {
      const entries: Entry[] = [];
      rules.forEach((rule, ruleIndex) => {
        const failure = runtime.ruleCallFailure(rule, op);
        if (failure) {
          // Reached only when no earlier rule matched; then the tool call itself raises (empty prefix: always a candidate).
          const result = Object.freeze({ decision: "allow", ruleIndex, patternIndex: -1, mode: undefined, failure } as const);
          entries.push({ ruleIndex, patternIndex: -1, pattern: { pattern: "", matches: () => true, literalPrefix: "" }, result });
          return;
        }
        if (!runtime.operationsCover(rule.operations, op) || !Array.isArray(rule.paths)) return;
        rule.paths.forEach((p, patternIndex) => {
          if (typeof p !== "string" || p.length === 0) return;
          const pattern = compile(p);
          let result: RuleDecision;
          if (pattern.unusable) {
            result = { decision: "allow", ruleIndex, patternIndex, mode: undefined, failure: pattern.unusable };
          } else {
            const mode = rule.mode;
            // Only the exact string "deny" blocks; a missing or unknown mode allows and stops here (docs/reference/decisions.md, V20).
            const decision = mode === "deny" ? "deny" : mode === "interrupt" && runtime.modes.includes("interrupt") ? "interrupt" : "allow";
            result = { decision, ruleIndex, patternIndex, mode };
          }
          entries.push({ ruleIndex, patternIndex, pattern, result: Object.freeze(result) });
        });
      });
      return { entries, decisions: 0, lists: [], positions: [], others: [], rebuilds: 0 };
    });
    this.read = tables[0]!;
    this.write = tables[1]!;
  }

  get isEmpty(): boolean {
    return this.rules.length === 0;
  }

  decide(op: Operation, canonicalPath: string): RuleDecision {
    const table = op === "read" ? this.read : op === "write" ? this.write : undefined;
    if (table === undefined || table.entries.length === 0) return DEFAULT_ALLOW;
    const automaton = table.automaton;
    if (automaton) {
      // Each walk gives up as soon as none of its patterns can match; a match it reports implies it read the
      // whole path and found it plain. The backwards walk is skipped when none of its patterns comes before
      // the forwards match.
      const ahead = automaton.forwards.walkForwards(canonicalPath);
      if (ahead >= -1) {
        const { backwards } = automaton;
        const behind = backwards.firstId < (ahead < 0 ? Infinity : ahead) && !backwards.diesAtOnce(canonicalPath) ? backwards.walkBackwards(canonicalPath) : -1;
        if (behind >= -1) {
          const first = ahead < 0 ? behind : behind < 0 ? ahead : Math.min(ahead, behind);
          return table.others.length === 0 ? (first < 0 ? DEFAULT_ALLOW : table.entries[first]!.result) : withOthers(table, canonicalPath, first);
        }
        if (behind === GIVE_UP) this.giveUp(table);
      } else if (ahead === GIVE_UP) this.giveUp(table);
      // Not a plain path (`/a/./b`, `//a`, `/a/`), or out of states: the folder index and the runtime's own matchers.
      return this.decideByIndex(table, canonicalPath);
    }
    if (automaton === undefined && ++table.decisions > this.automatonAfter) buildAutomaton(table);
    return this.decideByIndex(table, canonicalPath);
  }

  /** Out of states (a hostile list): start afresh a few times, then stay on the folder index. */
  private giveUp(table: OperationTable): void {
    table.automaton = ++table.rebuilds < MAX_REBUILDS ? undefined : null;
  }

  private decideByIndex(table: OperationTable, canonicalPath: string): RuleDecision {
    const { entries } = table;
    // A Python tool path may keep two leading slashes (docs/reference/paths.md C3) that no literal prefix accounts for.
    if (canonicalPath.startsWith("//")) {
      for (let id = 0; id < entries.length; id++) {
        const hit = tryEntry(entries[id]!, canonicalPath);
        if (hit) return hit;
      }
      return DEFAULT_ALLOW;
    }
    if (!table.index) {
      table.index = buildFolderIndex(entries);
      // Worked out for an entry when it first comes up (0: not yet; a mask has at least one bit): most never do.
      table.lastCharacters = new Int32Array(entries.length);
    }
    const index = table.index;
    // Only on a plain path is the last character one a pattern's text can promise (-1: every entry stays a candidate).
    const last = isPlainPath(canonicalPath) ? canonicalPath.charCodeAt(canonicalPath.length - 1) & 31 : -1;
    // The lists of the path's keys: "" (every path's), its text up to each `/` after the first character, and all of it.
    const { lists, positions } = table;
    let count = gather(table, 0, index.get(""), last);
    for (let slash = canonicalPath.indexOf("/", 1); slash >= 0; slash = canonicalPath.indexOf("/", slash + 1)) {
      count = gather(table, count, index.get(canonicalPath.slice(0, slash)), last);
    }
    count = gather(table, count, index.get(canonicalPath), last);
    // Each list is in rule order: the candidates are tried in rule order by always taking the smallest next id, and
    // only until one matches (most decisions end after a few, where marking every candidate first cost more).
    let tried = -1;
    for (;;) {
      let id = -1;
      let from = -1;
      for (let l = 0; l < count; l++) {
        const at = positions[l]!;
        const ids = lists[l]!;
        if (at < ids.length && (id < 0 || ids[at]! < id)) {
          id = ids[at]!;
          from = l;
        }
      }
      if (id < 0) return DEFAULT_ALLOW;
      positions[from]!++;
      // An entry filed under two of the path's keys comes up twice in a row.
      if (id === tried) continue;
      tried = id;
      const hit = tryEntry(entries[id]!, canonicalPath);
      if (hit) return hit;
    }
  }
}

/**
 * Adds the folder's entries (if any) for a path whose last character is `last` (`code & 31`; -1: not a plain path,
 * all of them) to the table's lists for this decision, of which there are `count`; the new count.
 */
function gather(table: OperationTable, count: number, folder: Folder | undefined, last: number): number {
  if (!folder) return count;
  let ids: readonly number[] = folder.ids;
  if (last >= 0) {
    const byLast = (folder.byLast ??= []);
    ids = byLast[last] ??= endingWith(table, folder.ids, 1 << last);
  }
  if (ids.length === 0) return count;
  table.lists[count] = ids;
  table.positions[count] = 0;
  return count + 1;
}

/** The entries among `ids` whose matches on a plain path can end with a character of bit `bit`. */
function endingWith(table: OperationTable, ids: readonly number[], bit: number): number[] {
  const masks = table.lastCharacters!;
  const out: number[] = [];
  for (let k = 0; k < ids.length; k++) {
    const id = ids[k]!;
    let mask = masks[id]!;
    if (mask === 0) {
      const { pattern } = table.entries[id]!;
      mask = masks[id] = pattern.unusable ? -1 : lastCharacterMask(pattern.pattern);
    }
    if ((mask & bit) !== 0) out.push(id);
  }
  return out;
}

function tryEntry(entry: Entry, path: string): RuleDecision | undefined {
  return entry.pattern.unusable || entry.pattern.matches(path) ? entry.result : undefined;
}

function buildFolderIndex(entries: readonly Entry[]): FolderIndex {
  const index: FolderIndex = new Map();
  // A pattern written again later in the list (configs repeat a few patterns across hundreds of rules) can never
  // be the first to match: the earlier copy has the same prefix, so it is a candidate for the same paths and is
  // tried first, and it answers the same (an unusable one always decides). Only the first copy is asked.
  const seen = new Set<string>();
  entries.forEach((entry, id) => {
    if (entry.patternIndex >= 0) {
      if (seen.has(entry.pattern.pattern)) return;
      seen.add(entry.pattern.pattern);
    }
    // Folder prefixes are keys as they are. Any other literal prefix holds a `/` that every match has at the same
    // place, so the text before its last `/` is a key of every path it matches (`/w/a*`: `/w`; none: `""`).
    const { literalPrefix, literalPrefixes } = entry.pattern;
    const keys = literalPrefixes ?? [literalPrefix.slice(0, Math.max(0, literalPrefix.lastIndexOf("/")))];
    for (let k = 0; k < keys.length; k++) {
      const folder = index.get(keys[k]!);
      if (!folder) index.set(keys[k]!, { ids: [id] });
      // Two keys may be one (`/a/{b,c}*`: `/a` twice): the entry is listed there once.
      else if (folder.ids[folder.ids.length - 1] !== id) folder.ids.push(id);
    }
  });
  return index;
}

/** The automata's first match (-1: none), unless a pattern they do not cover, earlier in the list, matches. */
function withOthers(table: OperationTable, path: string, first: number): RuleDecision {
  const { entries, others } = table;
  const bound = first < 0 ? entries.length : first;
  for (let k = 0; k < others.length; k++) {
    const entry = others[k]!;
    if (entry.id >= bound) break;
    if (path.startsWith(entry.pattern.literalPrefix) && (entry.pattern.unusable || entry.pattern.matches(path))) return entry.result;
  }
  return first < 0 ? DEFAULT_ALLOW : entries[first]!.result;
}

function buildAutomaton(table: OperationTable): void {
  const forwards = new RuleAutomaton(false);
  const backwards = new RuleAutomaton(true);
  const others: IndexedEntry[] = [];
  const seen = new Set<string>();
  table.entries.forEach((entry, id) => {
    const re = entry.pattern.unusable ? undefined : entry.pattern.plainPathRegex;
    if (!re) {
      others.push({ ...entry, id });
      return;
    }
    // A pattern repeated later in the list can never be the first to match: the earlier copy always wins.
    if (seen.has(entry.pattern.pattern)) return;
    seen.add(entry.pattern.pattern);
    (readsBackwards(re) ? backwards : forwards).add(id, re);
  });
  table.others = others;
  table.automaton = forwards.size + backwards.size > 0 ? { forwards, backwards } : null;
}

const DEFAULT_ALLOW: RuleDecision = Object.freeze({ decision: "allow", ruleIndex: -1, patternIndex: -1, mode: undefined });
