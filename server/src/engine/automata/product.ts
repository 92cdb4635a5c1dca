import type { Budget } from "./budget";
import type { Alphabet, Table } from "./tables";
import { CostQueue } from "./walk/costQueue";
import { sameFuture, type DeciderTracks } from "./walk/deciderReduction";
import { finishHash, listHash, stateHash, withRoom } from "./walk/hashing";
import { distinctClasses, literalLead, StateSpace } from "./walk/stateSpace";
import { PART_DEAD, PART_UNKNOWN, Parts } from "./walk/parts";
import { OutcomeTable } from "./walk/outcomeTable";
import { TupleIndex } from "./walk/tupleIndex";

export type { DeciderTracks } from "./walk/deciderReduction";
export { distinctClasses } from "./walk/stateSpace";

/**
 * How a walk stores what it finds: a representation only, which must not change what it finds (the tests of
 * test/automata/walkScratch.test.ts and deciderReduction.properties.test.ts hold every choice to the default's
 * outcomes and witnesses). The product's checks never set any.
 */
export interface WalkRepresentation {
  /** Tables per part (default `PART_TABLES`); 1 is the state-by-state walk. */
  readonly partTables?: number;
  /** The order of the tables: by the literal text they read first (the default), as given, or the reverse. */
  readonly tableOrder?: "lead" | "rules" | "reversed";
  /** The decider reduction always compares states by exact residual ids, never by checked sketches. */
  readonly exactResidualIds?: boolean;
}

/**
 * One walk over the product of many automata at once, recording which combinations of them accept some path, with
 * a path for each. First match wins is a function of "which rules match", so every question the checks ask (who
 * decides a path, who would decide it without a rule, what another runtime or a subagent decides) is answered from
 * these combinations. The walk is exhaustive: a combination it does not report cannot happen.
 *
 * - Tuples are sparse: an automaton whose state can no longer accept drops out, so after `/workspace/docs/` only the
 *   rules that can still match are carried along.
 * - Per tuple, only the character classes some automaton treats specially are tried one by one; all the others
 *   behave alike and are tried once.
 * - Paths are found cheapest first, where a character costs 1 and anything a person would not write (an empty, `.`
 *   or `..` segment, a trailing `/`, a character outside letters, digits and `._-`) costs more: witnesses come out
 *   short and plain. (The cost only picks among paths; it never decides what is reported.)
 */
export interface Outcome {
  /** Indices of the tracks that accept, ascending. */
  readonly matched: readonly number[];
  /** A cheapest path with exactly this combination (class indices), spelled when read. */
  readonly word: number[];
  /** Its cost: its length, plus a penalty for everything a person would not write. */
  readonly cost: number;
}

/**
 * Tables per part of a tuple (see `exploreProduct`), after the required tables' own part. Measured on the 200-rule
 * config of bench/analysis.ts (its two big walks: 240 and 376 tables, about 31 live states per tuple): with 32, a
 * tuple has about 8 parts, and the walk asks `Parts.next` 3 million times for 86,000 distinct (part, column) pairs;
 * 16 and 64 were no faster.
 */
const PART_TABLES = 32;
/** `reach`'s `index` when the tuple was not looked up yet: its hash is given, or not (then it is worked out). */
const NOT_LOOKED_UP = -2;
const NOT_HASHED = -3;

const SLASH = 0x2f;
const DOT = 0x2e;
const UNREADABLE = 40;

/** Readability of the path so far: segment length and whether it is all dots (for `.`/`..` segments). */
function plainCharacter(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x2d || c === 0x5f;
}

/**
 * Every combination of accepting tracks over the paths all `required` tables accept. `tracks[i]` is the set of
 * tables of track i (any accepting means the track accepts). Throws `BudgetExceeded` when the product outgrows
 * the budget.
 *
 * With `deciders`, only the first matching rule of each list, per operation, is wanted (runtime-divergence). Then a
 * table whose state accepts exactly the same continuations as another table's (`Residuals`), owned by the same or an
 * earlier rule of the same list covering the same operations, is dropped from the tuple: wherever it would accept,
 * the other accepts too, so its rules never decide there. Inside `/workspace/packages/web/src/`, say,
 * `/workspace/**`, `/workspace/packages/web/**` and `/workspace/packages/*\/src/**` are all "anything below here"
 * and only the first of them can decide. The combinations returned then omit dropped tables' rules, but the first
 * matching rule of each list and operation is exactly that of the full combination.
 */
export function exploreProduct(tracks: readonly (readonly Table[])[], required: readonly Table[], alphabet: Alphabet, budget: Budget, deciders?: DeciderTracks, representation: WalkRepresentation = {}): WalkResult {
  const width = alphabet.classes.length;
  // Entries: one per distinct table; a table shared by several tracks is walked once.
  const entryOf = new Map<Table, number>();
  const tables: Table[] = [];
  const owners: number[][] = [];
  const requiredCount = new Set(required).size;
  for (const t of required) {
    if (entryOf.has(t)) continue;
    entryOf.set(t, tables.length);
    tables.push(t);
    owners.push([]);
  }
  tracks.forEach((list, track) => {
    for (const t of list) {
      let e = entryOf.get(t);
      if (e === undefined) {
        entryOf.set(t, (e = tables.length));
        tables.push(t);
        owners.push([]);
      }
      if (!owners[e]!.includes(track)) owners[e]!.push(track);
    }
  });
  // Tables that read the same literal text first sit side by side, so in the same parts (below): inside
  // `/workspace/docs/` only the parts of the rules about it are alive, and a tuple is a few parts, not one per
  // group of the rule order. The order is a representation only: successors are tried in the alphabet's order
  // whatever the tables' order (below), so the walk is the same.
  const tableOrder = representation.tableOrder ?? "lead";
  const order = tables.map((t, e) => ({ e, key: e < requiredCount || tableOrder !== "lead" ? "" : literalLead(t) }));
  const sign = tableOrder === "reversed" ? -1 : 1;
  order.sort((a, b) => (a.e < requiredCount || b.e < requiredCount ? a.e - b.e : a.key < b.key ? -1 : a.key > b.key ? 1 : sign * (a.e - b.e)));
  const inOrder = order.map(({ e }) => ({ table: tables[e]!, owners: owners[e]! }));
  inOrder.forEach(({ table, owners: o }, e) => {
    tables[e] = table;
    owners[e] = o;
    entryOf.set(table, e);
  });
  const classes = distinctClasses(tables, width);
  const representative = alphabet.representative;
  const space = new StateSpace(tables, classes, width);
  const { baseOf } = space;
  const columns = classes.length;
  const ownerStart = new Int32Array(tables.length + 1);
  for (let e = 0; e < tables.length; e++) ownerStart[e + 1] = ownerStart[e]! + owners[e]!.length;
  const ownerList = Int32Array.from(owners.flat());

  // A tuple is its live states, one per table still alive, as global state numbers (StateSpace), ascending (so
  // in table order), stored as its parts (below) in the index: [length, part0, part1, …]. The index and the queue
  // start on the arrays of the previous walk when there is one: they are only scratch (nothing the outcomes keep
  // points into them), and growing fresh ones to a few million numbers on every walk cost more than filling them.
  const tuples = TupleIndex.take();
  const queue = CostQueue.take();
  /**
   * `index`: the tuple's index when already looked up (-1: new); `NOT_LOOKED_UP` when it was not, but `hash` is its
   * hash; `NOT_HASHED` when neither is known.
   */
  const reach = (buffer: Int32Array, from: number, k: number, newCost: number, newSegment: number, hash: number, index: number): void => {
    const h = index === NOT_HASHED ? listHash(buffer, 1, buffer[0]!) : hash;
    const known = index < -1 ? tuples.find(buffer, h) : index;
    if (known >= 0) {
      if (!tuples.expanded[known] && newCost < tuples.cost[known]!) {
        tuples.cost[known] = newCost;
        tuples.segment[known] = newSegment;
        tuples.parent[known] = from;
        tuples.via[known] = k;
        queue.push(known, newCost);
      }
      return;
    }
    const added = tuples.add(buffer, h);
    tuples.cost[added] = newCost;
    tuples.segment[added] = newSegment;
    tuples.parent[added] = from;
    tuples.via[added] = k;
    budget.spend();
    // The file's work allowance also counts what the tuple holds: a walk over a thousand rules' automata stores
    // and steps far more per state than one over ten.
    budget.work(1 + buffer[0]!);
    queue.push(added, newCost);
  };

  const reduction = deciders ? sameFuture(space, requiredCount, owners, deciders, representation.exactResidualIds) : undefined;
  const reduce = reduction?.reduce;
  const groupedSketch = reduction?.groupedSketch;

  // A tuple is stored as its parts (walk/parts.ts): the tables are cut into groups (the required tables, then
  // PART_TABLES tables at a time, in table order: by literal lead, above), and a tuple's live states within one group
  // are a part, whose successor on each column is worked out once.
  const partTables = representation.partTables ?? PART_TABLES;
  const groupOfEntry = new Int32Array(tables.length);
  for (let e = 0; e < tables.length; e++) groupOfEntry[e] = e < requiredCount ? 0 : 1 + Math.floor((e - requiredCount) / partTables);
  const parts = new Parts(space, columns, requiredCount, groupOfEntry, ownerStart, ownerList, groupedSketch);

  /**
   * Whether the reduction drops a table of the tuple `tupleParts` (marked for `removeDropped`), decided on the
   * parts' grouped states alone: most new tuples lose nothing (in the 200-rule divergence walk, 30,572 new tuples had
   * two states with one sketch, and 390 lost a table), so the tuple is spelled out state by state only for those.
   */
  let groupedScratch = new Int32Array(64);
  const reduces = (tupleParts: Int32Array): boolean => {
    let n = 0;
    for (let i = 1, length = tupleParts[0]!; i <= length; i++) {
      const p = tupleParts[i]!;
      const from = parts.groupedStart[p]!;
      const to = parts.groupedStart[p + 1]!;
      groupedScratch = withRoom(groupedScratch, n + to - from);
      for (let x = from; x < to; x++) groupedScratch[n++] = parts.grouped[x]!;
    }
    return n > 1 && reduction!.drops(groupedScratch, n);
  };

  const scratch = new Int32Array(1 + tables.length);
  const flat = new Int32Array(1 + tables.length);
  let length = 0;
  for (let e = 0; e < tables.length; e++) {
    const s = tables[e]!.initial;
    if (!tables[e]!.live[s]) {
      if (e < requiredCount) {
        // No path at all: the index and the queue go back untouched, for the next walk.
        queue.release(tuples.release());
        parts.release();
        return { outcomes: [], indexOf: () => -1 };
      }
      continue;
    }
    flat[1 + length] = baseOf[e]! + s;
    length++;
  }
  flat[0] = length;
  reduce?.(flat);
  parts.toParts(flat, scratch);
  reach(scratch, -1, -1, 0, 0, 0, NOT_HASHED);

  // Outcomes by the set of matching tracks. Their paths are read off `parent` and `via` once the walk is done (the
  // arrays are replaced as they grow): `paths` is filled in then.
  const found = new OutcomeTable({ parent: tuples.parent, via: tuples.via });
  // The tracks accepting at the tuple being expanded: `matched[0…matchedCount)`, ascending.
  // (A track with several tables can accept through more than one: room for every (table, owner) pair.)
  const matched = new Int32Array(Math.max(1, ownerList.length));
  let matchedCount = 0;
  // The same as bits, one word per 32 tracks, read out ascending (each track once, whatever order the parts list
  // them in: tables sit in the order of their literal text, not of their rules).
  const trackWords = Math.max(1, Math.ceil(tracks.length / 32));
  const matchedBits = new Int32Array(trackWords);
  // The columns to try from the tuple being expanded, as bits, and in ascending order.
  const columnWords = Math.max(1, Math.ceil(columns / 32));
  const lastColumnWord = columns % 32 === 0 ? -1 : (1 << columns % 32) - 1;
  const wantedBits = new Int32Array(columnWords);
  const wanted = new Int32Array(columns);

  // Every step costs at least 1: expanding a tuple never pushes into the bucket being read.
  for (let c = 0; c <= queue.maxCost; c++) {
    for (let p = queue.head[c]!; p !== -1; p = queue.next[p]!) {
      const head = queue.tuple[p]!;
      if (tuples.expanded[head] || tuples.cost[head] !== c) continue;
      tuples.expanded[head] = 1;
      const o = tuples.offsets[head]!;
      // (Read again wherever the walk may have grown the pool since.)
      let pool = tuples.pool;
      const count = pool[o]!;
      // Accepted by every required table (they are the first part when there are any): which tracks accept here?
      if (requiredCount === 0 || parts.allFinal[pool[o + 1]!]) {
        for (let i = 0; i < count; i++) {
          const part = pool[o + 1 + i]!;
          for (let x = parts.trackStart[part]!, end = parts.trackStart[part + 1]!; x < end; x++) {
            const track = parts.tracks[x]!;
            matchedBits[track >> 5]! |= 1 << (track & 31);
          }
        }
        matchedCount = 0;
        for (let w = 0; w < trackWords; w++) {
          let bits = matchedBits[w]!;
          if (bits === 0) continue;
          matchedBits[w] = 0;
          while (bits !== 0) {
            const low = bits & -bits;
            matched[matchedCount++] = (w << 5) + 31 - Math.clz32(low);
            bits ^= low;
          }
        }
        // A trailing `/` or a final `.`/`..` segment is not plain either.
        const segment = tuples.segment[head]!;
        found.record(matched, matchedCount, head, c + ((segment === 0 && head !== 0 && tuples.parent[head] !== 0) || segment >= 2 ? UNREADABLE : 0));
      }
      // The columns some automaton here treats specially, and one for all the rest (the first no state treats
      // specially), tried in the alphabet's order of preference (columns are numbered in it: plain letters first),
      // whatever the order of the tables: among paths of equal cost, the walk reaches the one spelled with preferred
      // characters first, and the outcomes do not depend on how the tables are numbered.
      for (let i = 0; i < count; i++) {
        const part = pool[o + 1 + i]!;
        for (let x = parts.columnStart[part]!, end = parts.columnStart[part + 1]!; x < end; x++) {
          const column = parts.columns[x]!;
          wantedBits[column >> 5]! |= 1 << (column & 31);
        }
      }
      let wantedCount = 0;
      let rest = true;
      for (let w = 0; w < columnWords; w++) {
        let bits = wantedBits[w]!;
        wantedBits[w] = 0;
        if (rest) {
          const free = ~bits & (w === columnWords - 1 ? lastColumnWord : -1);
          if (free !== 0) {
            bits |= free & -free;
            rest = false;
          }
        }
        while (bits !== 0) {
          const low = bits & -bits;
          wanted[wantedCount++] = (w << 5) + 31 - Math.clz32(low);
          bits ^= low;
        }
      }
      for (let w = 0; w < wantedCount; w++) {
        const column = wanted[w]!;
        pool = tuples.pool;
        let n = 0;
        let dead = false;
        let h = 0;
        for (let i = 0; i < count; i++) {
          const part = pool[o + 1 + i]!;
          let next = parts.next[part * columns + column]!;
          if (next === PART_UNKNOWN) next = parts.step(part, column);
          if (next === 0) continue;
          if (next === PART_DEAD) {
            dead = true;
            break;
          }
          scratch[++n] = next;
          h = (h + stateHash(next)) | 0;
        }
        if (dead) continue;
        scratch[0] = n;
        let hash = finishHash(h, n);
        let index = NOT_LOOKED_UP;
        if (reduce) {
          // The walk keeps reduced tuples only, and reducing one changes nothing: a successor found as it is needs
          // no reduction (most are found: the same tuples are reached again and again).
          index = tuples.find(scratch, hash);
          if (index < 0 && reduces(scratch)) {
            parts.toStates(scratch, flat);
            reduction!.removeDropped(flat);
            parts.toParts(flat, scratch);
            index = NOT_HASHED;
          }
        }
        // Readability of the step.
        const k = classes[column]!;
        const ch = representative[k]!;
        const state = tuples.segment[head]!;
        let stepCost = 1;
        let after: number;
        if (ch === SLASH) {
          if (head !== 0 && (state === 0 || state >= 2)) stepCost += UNREADABLE; // empty, `.` or `..` segment
          after = 0;
        } else {
          if (!plainCharacter(ch)) stepCost += UNREADABLE;
          after = ch === DOT && state === 0 ? 2 : ch === DOT && state === 2 ? 3 : 1;
        }
        reach(scratch, head, k, c + stepCost, after, hash, index);
      }
    }
  }
  parts.release();
  // Paths are spelled only when asked for (most outcomes' never are).
  found.paths.parent = tuples.parent.slice(0, tuples.count);
  found.paths.via = tuples.via.slice(0, tuples.count);
  queue.release(tuples.release());
  return { outcomes: found.outcomes, indexOf: (ids) => found.indexOf(ids, ids.length) };
}

/** What a walk found: its outcomes, and which of them has a given set of tracks (ascending; -1: none). */
export interface WalkResult {
  readonly outcomes: readonly Outcome[];
  indexOf(tracks: readonly number[]): number;
}
