import type { RuleListSpec } from "../config/model";
import { OPERATIONS, type Operation, type Runtime } from "../runtime/runtime";
import type { Budget } from "./budget";
import { exploreProduct, type Outcome, type WalkRepresentation } from "./product";
import { takenTheOtherWay, type OperationFacts, type RemovalChange, type RuleAnalysis, type RuleVerdict, type SkipNote, type TakenBy } from "./ruleListAnalysis";
import { blockedReason, type Decision, type RuleTables } from "./ruleTables";
import type { PathSpace } from "./space";
import type { Table } from "./tables";
import { wordsKey } from "./walk/hashing";

/**
 * The combinations of matching rules that some path realises (automata/product.ts), and everything first match
 * wins makes of them: who decides each path, who would decide it without a given rule, what another runtime or a
 * subagent decides. One exhaustive walk answers every rule's questions at once.
 */

/** A rule list under one runtime, as tracks of a product. */
export interface ListTracks {
  readonly list: RuleListSpec;
  readonly tables: RuleTables;
  /** Track id of each rule (per operation the same tables), or -1 when its language is unknown. */
  readonly track: readonly number[];
}

/** One realised combination, with the path that shows it. */
export interface RealisedOutcome {
  /** Position in the list `realiseOutcomes` returned (readings index their per-outcome answers by it). */
  readonly id: number;
  /** Ascending. */
  readonly matched: readonly number[];
  readonly path: string;
  /** Lower is better: a sample-workspace path first, then by cost (length, plainness). */
  readonly rank: number;
}

interface Decider {
  readonly index: number; // -1: the permissive default
  readonly decision: Decision;
}

/**
 * Explore the product of `lists` (plus `required` tables) and attach the best witness to every outcome.
 *
 * With `decidersOnly`, the caller reads nothing from an outcome but the first matching rule of each list per
 * operation (`ListReading.decider`): the walk then leaves out rules that cannot decide (product.ts), and outcomes
 * with the same deciders are one, with the best witness among them.
 */
export function realiseOutcomes(
  space: PathSpace,
  lists: readonly { tables: RuleTables; list: RuleListSpec }[],
  required: readonly Table[],
  budget: Budget,
  decidersOnly = false,
  representation?: WalkRepresentation,
): { tracks: ListTracks[]; outcomes: RealisedOutcome[] } {
  const trackTables: Table[][] = [];
  const trackList: number[] = [];
  const trackRule: number[] = [];
  const trackOps: number[] = [];
  const tracks: ListTracks[] = lists.map(({ tables, list }, listIndex) => {
    const ids = tables.inputs.map((_, index) => {
      const rule = OPERATIONS.map((op) => tables.rule(op, index)).find((r) => r !== undefined);
      if (!rule || rule.unknown) return -1;
      trackTables.push([...rule.tables]);
      trackList.push(listIndex);
      trackRule.push(index);
      trackOps.push(OPERATIONS.reduce((mask, op, bit) => (tables.rule(op, index) ? mask | (1 << bit) : mask), 0));
      return trackTables.length - 1;
    });
    return { list, tables, track: ids };
  });
  const walk = exploreProduct(trackTables, required, space.alphabet, budget, decidersOnly ? { list: trackList, rule: trackRule, ops: trackOps } : undefined, representation);
  // Read once: under a CommonJS transform (tsx, the tests) every read of an imported binding is a getter call.
  const operationCount = OPERATIONS.length;
  // With `decidersOnly`, the key of a combination: the first rule per list and operation (the same for a full
  // combination and for what the walk kept of it). (Asked once per outcome of the walk: the first rules go into one
  // reused array, and the key is two characters per number rather than their decimal digits joined.)
  const first = new Int32Array(lists.length * operationCount);
  const keyOf = (matched: readonly number[]): string => {
    first.fill(-1);
    for (let m = 0; m < matched.length; m++) {
      const id = matched[m]!;
      for (let bit = 0; bit < operationCount; bit++) {
        const at = trackList[id]! * operationCount + bit;
        if (trackOps[id]! & (1 << bit) && (first[at] === -1 || trackRule[id]! < first[at]!)) first[at] = trackRule[id]!;
      }
    }
    return wordsKey(first, first.length, 1);
  };
  // The combinations, in the order the walk found them. Without `decidersOnly` the walk found each once (it keeps
  // one outcome per set of tracks), so they need no keys, unless a sample path below asks which one it realises.
  const entries: { matched: readonly number[]; walked?: Outcome; path?: string; rank: number }[] = [];
  let byKey: Map<string, number> | undefined;
  if (decidersOnly) {
    byKey = new Map();
    for (const o of walk.outcomes) {
      const key = keyOf(o.matched);
      const rank = 1_000_000 + o.cost;
      const at = byKey.get(key);
      if (at === undefined) byKey.set(key, entries.push({ matched: o.matched, walked: o, rank }) - 1);
      else if (rank < entries[at]!.rank) entries[at] = { matched: o.matched, walked: o, rank };
    }
  } else {
    for (const o of walk.outcomes) entries.push({ matched: o.matched, walked: o, rank: 1_000_000 + o.cost });
  }
  // Which combination a sample path realises: with `decidersOnly`, by the keys above; otherwise the walk's own index
  // of its combinations finds it (its outcomes are the entries, in order).
  const entryOf = (matched: readonly number[]): number | undefined => {
    const at = byKey ? byKey.get(keyOf(matched)) : walk.indexOf(matched);
    return at === undefined || at < 0 ? undefined : at;
  };
  // Sample-workspace paths beat generated ones for the combination they realise. A table accepts only paths that
  // start with its literal prefix (space.ts), so a candidate is read only by the tables whose prefix it starts
  // with, found by its own prefixes (a few dozen) rather than by asking every table of every track. Many tracks
  // share tables (the same pattern in several rules): each table reads a candidate once.
  if (space.candidates.length > 0) {
    const tableIndex = new Map<Table, number>();
    const distinct: Table[] = [];
    const tracksOfTable: number[][] = [];
    trackTables.forEach((tables, track) => {
      for (const t of tables) {
        let i = tableIndex.get(t);
        if (i === undefined) {
          tableIndex.set(t, (i = distinct.push(t) - 1));
          tracksOfTable.push([]);
        }
        const owners = tracksOfTable[i]!;
        if (owners[owners.length - 1] !== track) owners.push(track);
      }
    });
    const byPrefix = new Map<string, number[]>();
    distinct.forEach((t, i) => {
      const prefix = space.prefixOf(t);
      const tables = byPrefix.get(prefix);
      if (tables) tables.push(i);
      else byPrefix.set(prefix, [i]);
    });
    // The lengths those prefixes have, ascending: a candidate is looked up at these lengths only (a long candidate,
    // e.g. a pattern's text of 100,000 characters, looked up at every length took seconds).
    const prefixLengths = [...new Set([...byPrefix.keys()].map((prefix) => prefix.length))].sort((a, b) => a - b);
    // Per track: the candidate that last matched it.
    const matchedBy = new Int32Array(trackTables.length).fill(-1);
    const alphabet = lists[0]?.tables.alphabet ?? "utf16";
    space.candidates.forEach((candidate, order) => {
      const classes = space.classesOf(candidate, alphabet);
      if (!required.every((t) => t.accepts(classes))) return;
      const matched: number[] = [];
      for (let l = 0; l < prefixLengths.length && prefixLengths[l]! <= candidate.length; l++) {
        const tables = byPrefix.get(candidate.slice(0, prefixLengths[l]));
        if (!tables) continue;
        for (let k = 0; k < tables.length; k++) {
          const i = tables[k]!;
          const owners = tracksOfTable[i]!;
          // A table all of whose tracks have matched already need not read it.
          let fresh = false;
          for (let o = 0; o < owners.length && !fresh; o++) if (matchedBy[owners[o]!] !== order) fresh = true;
          if (!fresh || !distinct[i]!.accepts(classes)) continue;
          for (let o = 0; o < owners.length; o++) {
            if (matchedBy[owners[o]!] === order) continue;
            matchedBy[owners[o]!] = order;
            matched.push(owners[o]!);
          }
        }
      }
      matched.sort((x, y) => x - y);
      const at = entryOf(matched);
      if (at !== undefined && entries[at]!.rank > order) entries[at] = { matched: entries[at]!.matched, path: candidate, rank: order };
    });
  }
  const outcomes: RealisedOutcome[] = [];
  for (const o of entries) outcomes.push(new WalkedOutcome(outcomes.length, o.matched, o.rank, o.path, o.walked, space));
  return { tracks, outcomes };
}

/** A realised outcome whose path is spelled only when a finding asks for it (most outcomes' never are). */
class WalkedOutcome implements RealisedOutcome {
  constructor(
    readonly id: number,
    readonly matched: readonly number[],
    readonly rank: number,
    private spelled: string | undefined,
    private readonly walked: Outcome | undefined,
    private readonly space: PathSpace,
  ) {}

  get path(): string {
    return (this.spelled ??= this.space.text(this.walked!.word));
  }
}

/** `ListReading.deciderAt`: a not-analysed rule could decide first. */
const UNDECIDED = -2;

/** `ListReading.flatMatching`: per outcome id k, its matching rules are `rules[start[k]…start[k + 1])`. */
interface FlatMatching {
  readonly start: Int32Array;
  readonly rules: Int32Array;
}

/**
 * How many (outcome, rule) pairs `fillMatching` writes, so that its array is made once at its size.
 *
 * (Each of the two loops is a function of its own, with nothing after the loop. V8 optimises a long loop while it
 * runs and keeps that code for the next call; code after the loop that had not run yet when it was made was code
 * it knew nothing about, so every later call threw the optimised code away there, a few times per analysis.)
 */
function countMatching(outcomes: readonly RealisedOutcome[], ruleOfTrack: Int32Array, covers: Uint8Array, firstTrack: number): number {
  let total = 0;
  const lastTrack = ruleOfTrack.length - 1;
  for (let k = 0; k < outcomes.length; k++) {
    const matched = outcomes[k]!.matched;
    for (let m = firstAtLeast(matched, firstTrack); m < matched.length; m++) {
      const id = matched[m]!;
      if (id > lastTrack) break;
      const index = ruleOfTrack[id]!;
      if (index >= 0 && covers[index]) total++;
    }
  }
  return total;
}

/**
 * The position of the first number of `ascending` that is at least `track`. An outcome's tracks are ascending and a
 * list's are numbered together (realiseOutcomes): a subagent's list, numbered after the main agent's thousand rules,
 * reads its own stretch of each outcome, not all of it.
 */
function firstAtLeast(ascending: readonly number[], track: number): number {
  if (ascending.length === 0 || ascending[0]! >= track) return 0;
  let low = 1;
  let high = ascending.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (ascending[mid]! < track) low = mid + 1;
    else high = mid;
  }
  return low;
}

/**
 * Sorts `a[from…to)` ascending in place: insertion sort, for the handful of rules of one outcome, with no view
 * object (`subarray`) made for it.
 */
function sortRange(a: Int32Array, from: number, to: number): void {
  for (let r = from + 1; r < to; r++) {
    const x = a[r]!;
    let w = r - 1;
    while (w >= from && a[w]! > x) {
      a[w + 1] = a[w]!;
      w--;
    }
    a[w + 1] = x;
  }
}

/** `ListReading.flatMatching`'s arrays filled in: outcome k's rules covering the operation, ascending. */
function fillMatching(outcomes: readonly RealisedOutcome[], ruleOfTrack: Int32Array, covers: Uint8Array, firstTrack: number, start: Int32Array, rules: Int32Array): void {
  let n = 0;
  const lastTrack = ruleOfTrack.length - 1;
  for (let k = 0; k < outcomes.length; k++) {
    const matched = outcomes[k]!.matched;
    let ascending = true;
    for (let m = firstAtLeast(matched, firstTrack); m < matched.length; m++) {
      const id = matched[m]!;
      if (id > lastTrack) break;
      const index = ruleOfTrack[id]!;
      if (index < 0 || !covers[index]) continue;
      // A list's tracks are numbered in rule order (realiseOutcomes), so the rules come out ascending: sort only if not.
      if (n > start[k]! && index < rules[n - 1]!) ascending = false;
      rules[n++] = index;
    }
    if (!ascending) sortRange(rules, start[k]!, n);
    start[k + 1] = n;
  }
}

/** Reading outcomes for one list under its runtime, operation by operation. */
export class ListReading {
  private readonly unknownFrom = new Map<Operation, number>();
  /** Rule index of each track id (-1: another list's track). */
  private readonly ruleOfTrack: Int32Array;
  /** The list's lowest track id: an outcome's tracks below it, or past `ruleOfTrack`'s end, are other lists'. */
  private readonly firstTrack: number;
  /** Per operation, per rule index: 1 when the rule's `operations` cover it. */
  private readonly covers = new Map<Operation, Uint8Array>();
  /** Per operation: the outcomes where each rule matches (see `outcomesMatching`). */
  private readonly byRule = new Map<Operation, FlatMatching>();
  /** Per operation: the matching rules of every outcome of the walk (see `flatMatching`). */
  private readonly flat = new Map<Operation, FlatMatching>();

  constructor(readonly tracks: ListTracks) {
    let maxTrack = -1;
    let minTrack = Infinity;
    for (const id of tracks.track) {
      maxTrack = Math.max(maxTrack, id);
      if (id >= 0) minTrack = Math.min(minTrack, id);
    }
    this.firstTrack = minTrack === Infinity ? 0 : minTrack;
    this.ruleOfTrack = new Int32Array(maxTrack + 1).fill(-1);
    tracks.track.forEach((id, index) => {
      if (id >= 0) this.ruleOfTrack[id] = index;
    });
    for (const op of OPERATIONS) {
      const covers = new Uint8Array(tracks.tables.inputs.length);
      for (const r of tracks.tables.forOperation(op)) covers[r.index] = 1;
      this.covers.set(op, covers);
    }
    // A rule with a pattern we could not read (or that the runtime itself cannot evaluate) may or may not decide a
    // path: nothing is claimed from it on.
    for (const op of OPERATIONS) {
      const first = tracks.tables.forOperation(op).find((r) => r.unknown);
      this.unknownFrom.set(op, first ? first.index : Infinity);
    }
  }

  get runtime(): Runtime {
    return this.tracks.tables.runtime;
  }

  /**
   * The rules covering `op` that match in each outcome of `outcomes` (the walk this reading belongs to; an
   * outcome's id is its position), in two typed arrays: outcome k's rules are `rules[start[k]]` up to
   * `rules[start[k + 1]]`, ascending. Built once per operation: an array per outcome and operation was most of what
   * reading a walk allocated.
   */
  flatMatching(outcomes: readonly RealisedOutcome[], op: Operation): FlatMatching {
    let flat = this.flat.get(op);
    if (flat) return flat;
    const covers = this.covers.get(op)!;
    const ruleOfTrack = this.ruleOfTrack;
    const start = new Int32Array(outcomes.length + 1);
    const rules = new Int32Array(countMatching(outcomes, ruleOfTrack, covers, this.firstTrack));
    fillMatching(outcomes, ruleOfTrack, covers, this.firstTrack, start, rules);
    flat = { start, rules };
    this.flat.set(op, flat);
    return flat;
  }

  /**
   * Who decides outcome `id` for `op` (first match wins, `except` left out): the rule's index, -1 for the permissive
   * default, `UNDECIDED` when a not-analysed rule could come first. A number, not an object: the per-outcome loops
   * ask it millions of times on a 200-rule list.
   */
  deciderAt(op: Operation, flat: FlatMatching, id: number, except = -1): number {
    const { start, rules } = flat;
    let first = -1;
    for (let k = start[id]!, end = start[id + 1]!; k < end; k++) {
      if (rules[k] !== except) {
        first = rules[k]!;
        break;
      }
    }
    const unknown = this.unknownFrom.get(op)!;
    if (first === -1 ? unknown !== Infinity : unknown < first) return UNDECIDED;
    return first;
  }

  /**
   * The outcomes (of `outcomes`, the list this reading's questions are about) in which rule `index` matches for
   * `op`, ascending (see `matchingByRule`), so that a question about one rule looks only at the paths that rule
   * matches.
   */
  outcomesMatching(outcomes: readonly RealisedOutcome[], op: Operation, index: number): Int32Array {
    const byRule = this.matchingByRule(outcomes, op);
    return index >= 0 && index < byRule.start.length - 1 ? byRule.rules.subarray(byRule.start[index], byRule.start[index + 1]) : new Int32Array(0);
  }

  /**
   * `flatMatching` turned around, built once per operation: rule r matches for `op` in the outcomes `rules[start[r]]`
   * up to `rules[start[r + 1]]`, ascending.
   */
  matchingByRule(outcomes: readonly RealisedOutcome[], op: Operation): FlatMatching {
    let byRule = this.byRule.get(op);
    if (!byRule) {
      const { start, rules } = this.flatMatching(outcomes, op);
      const ruleCount = this.tracks.tables.inputs.length;
      const from = new Int32Array(ruleCount + 1);
      for (let m = 0; m < start[outcomes.length]!; m++) from[rules[m]! + 1]!++;
      for (let r = 0; r < ruleCount; r++) from[r + 1]! += from[r]!;
      const ids = new Int32Array(start[outcomes.length]!);
      const next = from.slice(0, ruleCount);
      for (let k = 0; k < outcomes.length; k++) for (let m = start[k]!, end = start[k + 1]!; m < end; m++) ids[next[rules[m]!]!++] = k;
      byRule = { start: from, rules: ids };
      this.byRule.set(op, byRule);
    }
    return byRule;
  }

  /** The first not-analysed rule covering `op` (Infinity when none): nothing from there on is known. */
  unknownAfter(op: Operation): number {
    return this.unknownFrom.get(op)!;
  }

  decisionOf(op: Operation, index: number): Decision {
    return index < 0 ? "allow" : this.tracks.tables.rule(op, index)!.decision;
  }

  /** `deciderAt` as an object (`undefined`: not decided), for readers outside the per-outcome loops. */
  decider(outcomes: readonly RealisedOutcome[], op: Operation, id: number): Decider | undefined {
    const index = this.deciderAt(op, this.flatMatching(outcomes, op), id);
    return index === UNDECIDED ? undefined : { index, decision: this.decisionOf(op, index) };
  }
}

/** Keep the best witness per key. */
class Best<K> {
  readonly map = new Map<K, RealisedOutcome>();
  /** True when `outcome` is now the best for `key`. */
  offer(key: K, outcome: RealisedOutcome): boolean {
    const known = this.map.get(key);
    if (known && known.rank <= outcome.rank) return false;
    this.map.set(key, outcome);
    return true;
  }
}

/**
 * `Best` for keys below `size`, over the outcomes of one walk (found by id): an array instead of a map, asked once
 * per rule per outcome. Past a million keys (pairs of rules of a huge list) it keeps a map.
 */
class BestById {
  private readonly ids: Int32Array | undefined;
  private readonly map: Map<number, RealisedOutcome> | undefined;
  constructor(size: number, private readonly outcomes: readonly RealisedOutcome[]) {
    if (size <= 1 << 20) this.ids = new Int32Array(size).fill(-1);
    else this.map = new Map();
  }
  get(key: number): RealisedOutcome | undefined {
    if (!this.ids) return this.map!.get(key);
    const id = this.ids[key]!;
    return id < 0 ? undefined : this.outcomes[id];
  }
  /** True when `outcome` is now the best for `key`. */
  offer(key: number, outcome: RealisedOutcome): boolean {
    const known = this.get(key);
    if (known && known.rank <= outcome.rank) return false;
    if (this.ids) this.ids[key] = outcome.id;
    else this.map!.set(key, outcome);
    return true;
  }
}

const RULE_CHECKS = ["rule-shadowed", "rule-redundant", "rule-partially-shadowed"];

/**
 * What `ruleAnalyses` learns from the outcomes, per key (operation, rule). Read by `readOperation`, a function of its
 * own over this object rather than closures of `ruleAnalyses`: V8 optimises the long loop while it runs, and code
 * that had called one call's closures was thrown away on the next call (one call per agent's list, per walk).
 */
class RuleFacts {
  /** 1 when the rule matches some path. */
  readonly matches: Uint8Array;
  /** The best outcome the rule decides. */
  readonly decides: BestById;
  /**
   * The earlier rules seen deciding its paths, and for each the best outcome where it does (its witness): a few per
   * rule, where a table of every (rule, earlier rule) pair was a million entries at 1,000 rules, and the verdicts
   * asked about each.
   */
  readonly takers: (number[] | undefined)[];
  readonly takerBest: (number[] | undefined)[];
  /** The best outcome whose decision changes without the rule, and what decides it then. */
  readonly change: BestById;
  readonly changeTo = new Map<number, { after: Decision; byRule: number }>();
  /** Keys for which some outcome would fall to a not-analysed rule without the rule. */
  readonly changeUnknown = new Set<number>();

  constructor(size: number, ruleCount: number, private readonly outcomes: readonly RealisedOutcome[]) {
    this.takerKey = new Int32Array(ruleCount);
    this.takerSlot = new Int32Array(ruleCount);
    this.matches = new Uint8Array(size);
    this.decides = new BestById(size, outcomes);
    this.change = new BestById(size, outcomes);
    this.takers = new Array<number[] | undefined>(size);
    this.takerBest = new Array<number[] | undefined>(size);
  }

  /**
   * Per earlier rule: the key it was last offered for (plus one), and its place in that key's `takers` then. The
   * outcomes are read rule by rule (`readOperation`), so a key's offers come together and finding a taker is one
   * look, where searching the key's list of takers (27 long on average at 1,000 rules) was most of the reading.
   */
  private readonly takerKey: Int32Array;
  private readonly takerSlot: Int32Array;

  offerTaken(key: number, decider: number, outcome: RealisedOutcome): void {
    let rules = this.takers[key];
    let best = this.takerBest[key];
    if (!rules || !best) {
      this.takers[key] = rules = [];
      this.takerBest[key] = best = [];
    }
    if (this.takerKey[decider] !== key + 1) {
      this.takerKey[decider] = key + 1;
      this.takerSlot[decider] = rules.length;
      rules.push(decider);
      best.push(outcome.id);
      return;
    }
    const at = this.takerSlot[decider]!;
    if (this.outcomes[best[at]!]!.rank > outcome.rank) best[at] = outcome.id;
  }
}

/**
 * `ruleAnalyses`' reading of every outcome for one operation (`base`: the operation's first key), rule by rule: each
 * rule's outcomes in the walk's order, so each key is offered its outcomes in the order an outcome-by-outcome reading
 * would offer them (ties go to the first, either way).
 */
function readOperation(reading: ListReading, outcomes: readonly RealisedOutcome[], op: Operation, base: number, facts: RuleFacts): void {
  const flat = reading.flatMatching(outcomes, op);
  const byRule = reading.matchingByRule(outcomes, op);
  // Who decides each outcome (read once here, not once per rule matching it).
  const deciders = new Int32Array(outcomes.length);
  for (let k = 0; k < outcomes.length; k++) deciders[k] = reading.deciderAt(op, flat, k);
  for (let i = 0; i < byRule.start.length - 1; i++) {
    const from = byRule.start[i]!;
    const to = byRule.start[i + 1]!;
    if (from === to) continue;
    const key = base + i;
    facts.matches[key] = 1;
    for (let x = from; x < to; x++) {
      const k = byRule.rules[x]!;
      const decider = deciders[k]!;
      if (decider === UNDECIDED) continue;
      const outcome = outcomes[k]!;
      if (decider !== i) {
        facts.offerTaken(key, decider, outcome);
        continue;
      }
      facts.decides.offer(key, outcome);
      // Without rule i: the next matching rule, or the default.
      const fallback = reading.deciderAt(op, flat, k, i);
      if (fallback === UNDECIDED) {
        facts.changeUnknown.add(key);
        continue;
      }
      const after = reading.decisionOf(op, fallback);
      if (after !== reading.decisionOf(op, i) && facts.change.offer(key, outcome)) {
        facts.changeTo.set(key, { after, byRule: fallback });
      }
    }
  }
}

/** Every rule's verdict (automata/ruleListAnalysis.ts has the same answers, one rule at a time). */
export function ruleAnalyses(reading: ListReading, outcomes: readonly RealisedOutcome[]): { rules: RuleAnalysis[]; skipped: SkipNote[] } {
  const tables = reading.tracks.tables;
  const runtime = tables.runtime;
  const skipped: SkipNote[] = [];
  // Keys are numbers: (operation, rule).
  const n = tables.inputs.length + 1;
  const opKey = (op: Operation, i: number) => OPERATIONS.indexOf(op) * n + i;
  const facts = new RuleFacts(OPERATIONS.length * n, tables.inputs.length, outcomes);
  OPERATIONS.forEach((op, o) => readOperation(reading, outcomes, op, o * n, facts));
  const { matches, decides, takers, takerBest, change, changeTo, changeUnknown } = facts;
  const rules = tables.inputs.map((input, index): RuleAnalysis => {
    const decision = tables.rule(OPERATIONS.find((op) => runtime.operationsCover(input.operations, op)) ?? "read", index)?.decision ?? "allow";
    const ops = OPERATIONS.filter((op) => runtime.operationsCover(input.operations, op));
    const skip = (reason: string): RuleAnalysis => {
      skipped.push({ ruleIndex: index, reason, checks: RULE_CHECKS });
      return { index, decision, operations: [], verdict: { kind: "skipped", reason } };
    };
    for (const op of ops) {
      const blocked = blockedBy(reading, op, index);
      if (blocked) return skip(blocked);
    }
    const operations: OperationFacts[] = ops.map((op) => {
      const key = opKey(op, index);
      const taken: TakenBy[] = [];
      // The earlier rules of `forOperation(op)` that decide some of its paths, in list order.
      const rules = takers[key] ?? [];
      const best = takerBest[key] ?? [];
      const order = rules.map((_, at) => at).sort((a, b) => rules[a]! - rules[b]!);
      for (const at of order) {
        const d = rules[at]!;
        const r = tables.rule(op, d);
        if (r && d < index) taken.push({ ruleIndex: d, decision: r.decision, witness: outcomes[best[at]!]!.path });
      }
      return { operation: op, matches: matches[key] === 1, takenBy: taken, decides: decides.get(key)?.path };
    });
    if (!operations.some((o) => o.matches)) return { index, decision, operations, verdict: { kind: "matches-nothing" } };
    const otherWay = () => takenTheOtherWay(operations, decision);
    let verdict: RuleVerdict;
    let removalChange: RemovalChange | undefined;
    if (!operations.some((o) => o.decides !== undefined)) {
      const other = otherWay();
      if (other) verdict = { kind: "shadowed", witness: other };
      else {
        const o = operations.find((x) => x.takenBy.length > 0)!;
        verdict = { kind: "redundant", witness: { operation: o.operation, path: o.takenBy[0]!.witness, decidedBy: o.takenBy[0]!.ruleIndex } };
      }
    } else {
      const unknown = ops.some((op) => changeUnknown.has(opKey(op, index)));
      for (const op of ops) {
        const hit = change.get(opKey(op, index));
        if (hit) {
          const to = changeTo.get(opKey(op, index))!;
          removalChange = { operation: op, path: hit.path, before: decision, after: to.after, byRule: to.byRule };
          break;
        }
      }
      const other = otherWay();
      if (!removalChange && unknown) {
        skipped.push({ ruleIndex: index, reason: "whether removing it changes a decision was not decided: a later rule's pattern was not analysed", checks: ["rule-redundant"] });
        verdict = other ? { kind: "partially-shadowed", witness: other } : { kind: "decides" };
      } else if (!removalChange) {
        const o = operations.find((x) => x.decides !== undefined)!;
        // Who decides that path without it: the next rule of its outcome (which lists every rule matching the path),
        // known (its outcomes' fallbacks were all decided, or `unknown` would hold).
        const deciding = decides.get(opKey(o.operation, index))!;
        const decidedBy = reading.deciderAt(o.operation, reading.flatMatching(outcomes, o.operation), deciding.id, index);
        verdict = { kind: "redundant", witness: { operation: o.operation, path: deciding.path, decidedBy } };
      } else {
        verdict = other ? { kind: "partially-shadowed", witness: other } : { kind: "decides" };
      }
    }
    return removalChange ? { index, decision, operations, verdict, removalChange } : { index, decision, operations, verdict };
  });
  return { rules, skipped };
}

/** Why rule `index` cannot be analysed for `op`: its own pattern, or an earlier rule's, is unknown. */
function blockedBy(reading: ListReading, op: Operation, index: number): string | undefined {
  const tables = reading.tracks.tables;
  // The first not-analysed rule covering `op` (known to the reading): every rule's question would otherwise walk
  // the list from its start.
  const first = reading.unknownAfter(op);
  if (first > index) return undefined;
  const r = tables.rule(op, first);
  return r?.unknown ? blockedReason(tables.runtime, r.index, r.unknown, op, index) : undefined;
}

/**
 * Moving rule `from` to just before rule `to` changes no decision outside the moved rule's own paths, and makes it
 * decide every one of them: checked on every realised combination. False when a rule of the list is not analysed.
 *
 * Only combinations in which `from` matches need looking at: on any other path the rules that match keep their
 * order, so the same rule decides. On a path `from` matches, it decides after the move exactly when no rule above
 * `to` matches there; when one does, the move would not make it decide all its paths, and no fix is offered.
 */
export function moveIsSafe(reading: ListReading, outcomes: readonly RealisedOutcome[], from: number, to: number): boolean {
  if (!(to < from)) return false;
  for (const op of OPERATIONS) {
    if (reading.unknownAfter(op) !== Infinity) return false;
    const ids = reading.outcomesMatching(outcomes, op, from);
    const { start, rules } = reading.flatMatching(outcomes, op);
    for (let k = 0; k < ids.length; k++) {
      if (rules[start[ids[k]!]!]! < to) return false;
    }
  }
  return true;
}

/**
 * Of `candidates`, those that can be removed from the list together without changing any decision, chosen in the
 * order given: a candidate is kept when, with the ones kept before it gone, every realised combination it decides
 * falls to a rule (or the permissive default) that decides the same way. A candidate turned down may become
 * removable once others are gone (its paths fall to one of them, which falls further): the candidates turned down
 * are tried again until a pass keeps none, so what is left is a fixed point, none of it removable alone. Every path
 * realises one combination, so this is exact; with a rule whose pattern was not analysed, nothing is claimed
 * beyond the first candidate.
 */
export function removableTogether(reading: ListReading, outcomes: readonly RealisedOutcome[], candidates: readonly number[], shadowed: readonly number[] = []): number[] {
  if (candidates.length + shadowed.length <= 1) return [...candidates];
  if (OPERATIONS.some((op) => reading.unknownAfter(op) !== Infinity)) return candidates.slice(0, 1);
  const ruleCount = reading.tracks.tables.inputs.length;
  const removed = new Uint8Array(ruleCount);
  const kept: number[] = [];
  const flats = OPERATIONS.map((op) => reading.flatMatching(outcomes, op));
  // Both questions are about the first rule still there in each combination (its head): per operation, where each
  // combination's head sits in its rules (`at`), and per rule the combinations it heads (`headed`). A removal
  // hands its combinations on to their next rule still there, so a question reads only the combinations its rule
  // heads, not every one it matches (at 1,000 rules, 38,000 heads against 712,000 matches).
  const heads = flats.map(({ start, rules }) => {
    const at = start.slice(0, outcomes.length);
    const headed: number[][] = Array.from({ length: ruleCount }, () => []);
    for (let k = 0; k < outcomes.length; k++) if (start[k]! < start[k + 1]!) headed[rules[start[k]!]!]!.push(k);
    return { at, headed };
  });
  // The first rule still there after position `m` of combination k, -1 (the permissive default) when none.
  const nextAfter = (rules: Int32Array, m: number, end: number): number => {
    m++;
    while (m < end && removed[rules[m]!]) m++;
    return m < end ? rules[m]! : -1;
  };
  const removable = (candidate: number): boolean => {
    for (let o = 0; o < OPERATIONS.length; o++) {
      const op = OPERATIONS[o]!;
      const { start, rules } = flats[o]!;
      const { at, headed } = heads[o]!;
      // Only where this candidate decides does its removal matter.
      const mine = headed[candidate]!;
      if (mine.length === 0) continue;
      const decision = reading.decisionOf(op, candidate);
      for (let n = 0; n < mine.length; n++) {
        const k = mine[n]!;
        if (reading.decisionOf(op, nextAfter(rules, at[k]!, start[k + 1]!)) !== decision) return false;
      }
    }
    return true;
  };
  const remove = (rule: number): void => {
    removed[rule] = 1;
    kept.push(rule);
    for (let o = 0; o < OPERATIONS.length; o++) {
      const { start, rules } = flats[o]!;
      const { at, headed } = heads[o]!;
      const mine = headed[rule]!;
      headed[rule] = [];
      for (let n = 0; n < mine.length; n++) {
        const k = mine[n]!;
        let m = at[k]! + 1;
        const end = start[k + 1]!;
        while (m < end && removed[rules[m]!]) m++;
        at[k] = m;
        if (m < end) headed[rules[m]!]!.push(k);
      }
    }
  };
  // Shadowed with the removed rules gone: it decides nothing, and some of its paths are decided the other way.
  const stillShadowed = (rule: number): boolean => {
    let otherWay = false;
    let matches = false;
    for (let o = 0; o < OPERATIONS.length; o++) {
      const op = OPERATIONS[o]!;
      const ids = reading.outcomesMatching(outcomes, op, rule);
      if (ids.length === 0) continue;
      matches = true;
      const { rules } = flats[o]!;
      const { at, headed } = heads[o]!;
      if (headed[rule]!.length > 0) return false;
      if (otherWay) continue;
      const decision = reading.decisionOf(op, rule);
      for (let n = 0; n < ids.length && !otherWay; n++) {
        // (Not removed, the rule itself is still there after the head.)
        if (reading.decisionOf(op, rules[at[ids[n]!]!]!) !== decision) otherWay = true;
      }
    }
    return !matches || otherWay;
  };
  let waiting = [...candidates];
  let asleep = [...shadowed];
  for (;;) {
    const turnedDown: number[] = [];
    for (const candidate of waiting) {
      if (removable(candidate)) remove(candidate);
      else turnedDown.push(candidate);
    }
    // Shadowed rules whose shadow the removals took away are candidates from now on (rule-redundant would report them).
    const woken = asleep.filter((rule) => !stillShadowed(rule));
    if (turnedDown.length === waiting.length && woken.length === 0) break;
    asleep = asleep.filter((rule) => !woken.includes(rule));
    waiting = [...turnedDown, ...woken];
  }
  return kept;
}

/** What blocks a comparison between two readings of one list. */
export interface Divergence {
  readonly ruleIndex: number;
  readonly operation: Operation;
  readonly path: string;
  readonly primary: { readonly runtime: Runtime; readonly decision: Decision; readonly ruleIndex: number };
  readonly other: { readonly runtime: Runtime; readonly decision: Decision; readonly ruleIndex: number };
}

/** Paths the two readings decide differently, one per rule where they first part ways (the lower deciding rule). */
export function divergencesOf(primary: ListReading, other: ListReading, outcomes: readonly RealisedOutcome[]): Divergence[] {
  const best = new Best<number>();
  const detail = new Map<number, Divergence>();
  for (const op of OPERATIONS) {
    const flatA = primary.flatMatching(outcomes, op);
    const flatB = other.flatMatching(outcomes, op);
    for (let k = 0; k < outcomes.length; k++) {
      const outcome = outcomes[k]!;
      const a = primary.deciderAt(op, flatA, k);
      if (a === UNDECIDED) continue;
      const b = other.deciderAt(op, flatB, k);
      if (b === UNDECIDED) continue;
      const decisionA = primary.decisionOf(op, a);
      const decisionB = other.decisionOf(op, b);
      if (decisionA === decisionB) continue;
      const blame = Math.min(a < 0 ? Infinity : a, b < 0 ? Infinity : b);
      if (best.offer(blame, outcome)) {
        detail.set(blame, {
          ruleIndex: blame,
          operation: op,
          path: outcome.path,
          primary: { runtime: primary.runtime, decision: decisionA, ruleIndex: a },
          other: { runtime: other.runtime, decision: decisionB, ruleIndex: b },
        });
      }
    }
  }
  return [...detail.values()].sort((x, y) => x.ruleIndex - y.ruleIndex);
}

/** (operation, path) pairs the parent's reading denies and the child's does not (no child reading: no rules). */
export function escalationsOf(
  parent: ListReading,
  child: ListReading | undefined,
  outcomes: readonly RealisedOutcome[],
  operations: readonly Operation[],
): { operation: Operation; path: string; parentRule: number; childDecision: Decision; childRule: number }[] {
  const found: { operation: Operation; path: string; parentRule: number; childDecision: Decision; childRule: number }[] = [];
  for (const op of operations) {
    let best: { outcome: RealisedOutcome; parentRule: number; childDecision: Decision; childRule: number } | undefined;
    const flatParent = parent.flatMatching(outcomes, op);
    const flatChild = child?.flatMatching(outcomes, op);
    for (let k = 0; k < outcomes.length; k++) {
      const outcome = outcomes[k]!;
      const p = parent.deciderAt(op, flatParent, k);
      if (p === UNDECIDED || parent.decisionOf(op, p) !== "deny") continue;
      // No child reading: the subagent has no rules, and the default allows.
      const c = child ? child.deciderAt(op, flatChild!, k) : -1;
      if (c === UNDECIDED) continue;
      const childDecision = child ? child.decisionOf(op, c) : "allow";
      if (childDecision === "deny") continue;
      if (!best || outcome.rank < best.outcome.rank) best = { outcome, parentRule: p, childDecision, childRule: c };
    }
    if (best) found.push({ operation: op, path: best.outcome.path, parentRule: best.parentRule, childDecision: best.childDecision, childRule: best.childRule });
  }
  return found;
}
