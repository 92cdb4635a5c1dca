import type { Budget } from "./budget";
import type { Alphabet, Table } from "./tables";
import { CostQueue } from "./walk/costQueue";
import { sameFuture, type DeciderTracks } from "./walk/deciderReduction";
import { listHash, placeIndex, stateHash, finishHash, tracksHash, withRoom } from "./walk/hashing";
import { distinctClasses, literalLead, StateSpace } from "./walk/stateSpace";
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
 * The part arrays of the last walk (`exploreProduct`), kept for the next one like the tuple pool, up to
 * MAX_SPARE_PARTS parts: the big walks of a 200-rule analysis number 10,000 to 20,000 parts, and growing the arrays
 * to that on every walk (`partNext` alone to 3 MB) was a tenth of what an analysis allocated.
 */
interface PartArrays {
  capacity: number;
  start: Int32Array<ArrayBuffer>;
  states: Int32Array<ArrayBuffer>;
  hashes: Int32Array<ArrayBuffer>;
  columnStart: Int32Array<ArrayBuffer>;
  columns: Int32Array<ArrayBuffer>;
  trackStart: Int32Array<ArrayBuffer>;
  tracks: Int32Array<ArrayBuffer>;
  groupedStart: Int32Array<ArrayBuffer>;
  grouped: Int32Array<ArrayBuffer>;
  allFinal: Uint8Array<ArrayBuffer>;
  required: Uint8Array<ArrayBuffer>;
  next: Int32Array<ArrayBuffer>;
  slots: Int32Array<ArrayBuffer>;
}
let spareParts: PartArrays | undefined;
const MAX_SPARE_PARTS = 1 << 16;

/**
 * Tables per part of a tuple (see `exploreProduct`), after the required tables' own part. Measured on the 200-rule
 * config of bench/analysis.ts (its two big walks: 240 and 376 tables, about 31 live states per tuple): with 32, a
 * tuple has about 8 parts, and the walk asks `partNext` 3 million times for 86,000 distinct (part, column) pairs;
 * 16 and 64 were no faster.
 */
const PART_TABLES = 32;
/** `partNext` entries besides part numbers: not worked out yet; a required table dies there (no successor). */
const PART_UNKNOWN = -1;
const PART_DEAD = -2;
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
  const { entryOfState, baseOf, step, exceptionStart, exceptions, final } = space;
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

  // A tuple is stored as its parts: the tables are cut into groups (the required tables, then PART_TABLES tables at
  // a time, in table order: by literal lead, above), and a tuple's live states within one group are a part, numbered
  // once (`internPart`).
  // The walk reaches tens of thousands of tuples of about thirty states each, but the same few thousand parts
  // recur in them (the rules about `/workspace/docs/` are in the same states wherever the path is in that
  // folder), so a part's successor on each column is worked out once (`partNext`) and a tuple's successor is a few
  // look-ups instead of a step per state. Parts are a representation only: the tuples, their order of discovery
  // and so every outcome and path are those of the state-by-state walk.
  const partTables = representation.partTables ?? PART_TABLES;
  const groupOfEntry = new Int32Array(tables.length);
  for (let e = 0; e < tables.length; e++) groupOfEntry[e] = e < requiredCount ? 0 : 1 + Math.floor((e - requiredCount) / partTables);
  // Per part: its states `partStates[partStart[p]…partStart[p + 1])`, ascending; its hash; the columns its states
  // treat specially, each once (a tuple's expansion gathers them as bits); the tracks its final states accept for
  // (none for the required tables' part, as the walk never reports those); its states that take part in the decider
  // reduction's grouping (`reduces`); and, for the required part, whether all its states are final. Part 0 is the
  // empty one.
  // The arrays of the last walk when there is one (see `spareParts`); a part's row of `partNext` is cleared when the
  // part is numbered, so nothing of the last walk is read.
  const spareP = spareParts;
  spareParts = undefined;
  let partCapacity = spareP?.capacity ?? 1 << 10;
  let partStart = spareP?.start ?? new Int32Array(partCapacity + 1);
  let partStates: Int32Array<ArrayBuffer> = spareP?.states ?? new Int32Array(1 << 12);
  let partHashes = spareP?.hashes ?? new Int32Array(partCapacity);
  let partColumnStart = spareP?.columnStart ?? new Int32Array(partCapacity + 1);
  let partColumns: Int32Array<ArrayBuffer> = spareP?.columns ?? new Int32Array(1 << 12);
  let partTrackStart = spareP?.trackStart ?? new Int32Array(partCapacity + 1);
  let partTracks: Int32Array<ArrayBuffer> = spareP?.tracks ?? new Int32Array(1 << 12);
  let partGroupedStart = spareP?.groupedStart ?? new Int32Array(partCapacity + 1);
  let partGrouped: Int32Array<ArrayBuffer> = spareP?.grouped ?? new Int32Array(1 << 12);
  let partAllFinal = spareP?.allFinal ?? new Uint8Array(partCapacity);
  let partRequired = spareP?.required ?? new Uint8Array(partCapacity);
  // `partNext[p * columns + column]`: the successor part, PART_UNKNOWN until asked, PART_DEAD when a required table
  // dies (the tuple has no successor there).
  let partNext = spareP && spareP.next.length >= partCapacity * columns ? spareP.next : new Int32Array(partCapacity * columns);
  partNext.fill(0, 0, columns);
  let partSlots = (spareP?.slots ?? new Int32Array(partCapacity * 2)).fill(-1);
  partStart[1] = 0;
  partColumnStart[1] = 0;
  partTrackStart[1] = 0;
  partGroupedStart[1] = 0;
  let partCount = 1;
  const partMentioned = new Int32Array(columns);
  let partStamp = 0;
  const growParts = () => {
    const capacity = partCapacity * 2;
    partStart = withRoom(partStart, capacity + 1);
    partHashes = withRoom(partHashes, capacity);
    partColumnStart = withRoom(partColumnStart, capacity + 1);
    partTrackStart = withRoom(partTrackStart, capacity + 1);
    partGroupedStart = withRoom(partGroupedStart, capacity + 1);
    partAllFinal = withRoom(partAllFinal, capacity);
    partRequired = withRoom(partRequired, capacity);
    partNext = withRoom(partNext, capacity * columns);
    partSlots = new Int32Array(capacity * 2).fill(-1);
    for (let p = 1; p < partCount; p++) placeIndex(partSlots, p, partHashes[p]!);
    partCapacity = capacity;
  };
  /** The part of the states `states[0…n)` (ascending, all of one group), numbered when new. */
  const internPart = (states: Int32Array, n: number): number => {
    if (n === 0) return 0;
    const h = listHash(states, 0, n);
    const mask = partSlots.length - 1;
    let j = h & mask;
    for (; partSlots[j] !== -1; j = (j + 1) & mask) {
      const p = partSlots[j]!;
      if (partHashes[p] !== h) continue;
      const a = partStart[p]!;
      if (partStart[p + 1]! - a !== n) continue;
      let i = 0;
      while (i < n && partStates[a + i] === states[i]) i++;
      if (i === n) return p;
    }
    if (partCount === partCapacity) {
      growParts();
      return internPart(states, n);
    }
    const p = partCount++;
    partSlots[j] = p;
    partHashes[p] = h;
    partNext.fill(PART_UNKNOWN, p * columns, (p + 1) * columns);
    const a = partStart[p]!;
    partStates = withRoom(partStates, a + n);
    for (let i = 0; i < n; i++) partStates[a + i] = states[i]!;
    partStart[p + 1] = a + n;
    const required = entryOfState[states[0]!]! < requiredCount;
    partRequired[p] = required ? 1 : 0;
    let allFinal = 1;
    const stamp = ++partStamp;
    let c = partColumnStart[p]!;
    let k = partTrackStart[p]!;
    for (let i = 0; i < n; i++) {
      const s = states[i]!;
      const from = exceptionStart[s]!;
      const to = exceptionStart[s + 1]!;
      partColumns = withRoom(partColumns, c + to - from);
      for (let x = from; x < to; x++) {
        const column = exceptions[x]!;
        if (partMentioned[column] !== stamp) {
          partMentioned[column] = stamp;
          partColumns[c++] = column;
        }
      }
      if (!final[s]) {
        allFinal = 0;
        continue;
      }
      if (required) continue;
      const e = entryOfState[s]!;
      partTracks = withRoom(partTracks, k + ownerStart[e + 1]! - ownerStart[e]!);
      for (let x = ownerStart[e]!, end = ownerStart[e + 1]!; x < end; x++) partTracks[k++] = ownerList[x]!;
    }
    partColumnStart[p + 1] = c;
    partTrackStart[p + 1] = k;
    // (The reduction never drops a required table.)
    let z = partGroupedStart[p]!;
    if (groupedSketch && !required) {
      partGrouped = withRoom(partGrouped, z + n);
      for (let i = 0; i < n; i++) if (groupedSketch[states[i]!]! >= 0) partGrouped[z++] = states[i]!;
    }
    partGroupedStart[p + 1] = z;
    partAllFinal[p] = allFinal;
    return p;
  };
  const partScratch = new Int32Array(Math.max(1, tables.length));
  /** Works out the successor of part `p` on `column` (asked when `partNext` does not know it yet) and keeps it there. */
  const partStep = (p: number, column: number): number => {
    let n = 0;
    let next = 0;
    for (let x = partStart[p]!, end = partStart[p + 1]!; x < end; x++) {
      const t = step[partStates[x]! * columns + column]!;
      if (t >= 0) partScratch[n++] = t;
      else if (partRequired[p]) {
        next = PART_DEAD;
        break;
      }
    }
    if (next !== PART_DEAD) next = internPart(partScratch, n);
    // (Interning may have replaced `partNext`.)
    partNext[p * columns + column] = next;
    return next;
  };
  /** `flat` (a tuple as its states: [length, state…]) as parts, into `into` ([length, part…]). */
  const toParts = (flat: Int32Array, into: Int32Array): void => {
    const length = flat[0]!;
    let n = 0;
    for (let i = 0; i < length; ) {
      const group = groupOfEntry[entryOfState[flat[1 + i]!]!]!;
      let j = i;
      let m = 0;
      while (j < length && groupOfEntry[entryOfState[flat[1 + j]!]!] === group) partScratch[m++] = flat[1 + j++]!;
      into[++n] = internPart(partScratch, m);
      i = j;
    }
    into[0] = n;
  };
  /** The tuple of parts `parts` as its states, into `flat`. */
  const toStates = (parts: Int32Array, flat: Int32Array): void => {
    let n = 0;
    for (let i = 1, length = parts[0]!; i <= length; i++) {
      const p = parts[i]!;
      for (let x = partStart[p]!, end = partStart[p + 1]!; x < end; x++) flat[++n] = partStates[x]!;
    }
    flat[0] = n;
  };

  /**
   * Whether the reduction drops a table of the tuple `parts` (marked for `removeDropped`), decided on the parts'
   * grouped states alone: most new tuples lose nothing (in the 200-rule divergence walk, 30,572 new tuples had two
   * states with one sketch, and 390 lost a table), so the tuple is spelled out state by state only for those.
   */
  let groupedScratch = new Int32Array(64);
  const reduces = (parts: Int32Array): boolean => {
    let n = 0;
    for (let i = 1, length = parts[0]!; i <= length; i++) {
      const p = parts[i]!;
      const from = partGroupedStart[p]!;
      const to = partGroupedStart[p + 1]!;
      groupedScratch = withRoom(groupedScratch, n + to - from);
      for (let x = from; x < to; x++) groupedScratch[n++] = partGrouped[x]!;
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
        spareParts = spareP;
        return { outcomes: [], indexOf: () => -1 };
      }
      continue;
    }
    flat[1 + length] = baseOf[e]! + s;
    length++;
  }
  flat[0] = length;
  reduce?.(flat);
  toParts(flat, scratch);
  reach(scratch, -1, -1, 0, 0, 0, NOT_HASHED);

  // Outcomes by the set of matching tracks, found again by a hash of the set. Their paths are read off `parent` and
  // `via` once the walk is done (the arrays are replaced as they grow): `paths` is filled in then.
  const paths: { parent: Int32Array; via: Int32Array } = { parent: tuples.parent, via: tuples.via };
  const outcomes: WalkOutcome[] = [];
  // Outcomes by the hash of their set of tracks: open addressing over outcome indices, each outcome's hash kept.
  let outcomeSlots = new Int32Array(1024).fill(-1);
  let outcomeHashes = new Int32Array(512);
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
  /** The outcome whose tracks are `ids[0…count)` (ascending, hashed to `h` by `tracksHash`), or -1. */
  const outcomeIndex = (ids: ArrayLike<number>, count: number, h: number): number => {
    const mask = outcomeSlots.length - 1;
    for (let j = h & mask; outcomeSlots[j] !== -1; j = (j + 1) & mask) {
      const i = outcomeSlots[j]!;
      if (outcomeHashes[i] !== h) continue;
      const known = outcomes[i]!.matched;
      if (known.length !== count) continue;
      let same = true;
      for (let k = 0; k < count && same; k++) if (known[k] !== ids[k]) same = false;
      if (same) return i;
    }
    return -1;
  };
  const record = (head: number, total: number) => {
    const h = tracksHash(matched, matchedCount);
    const at = outcomeIndex(matched, matchedCount, h);
    if (at >= 0) {
      const known = outcomes[at]!;
      if (total < known.cost) {
        known.at = head;
        known.cost = total;
      }
      return;
    }
    const ids: number[] = new Array(matchedCount);
    for (let k = 0; k < matchedCount; k++) ids[k] = matched[k]!;
    const index = outcomes.length;
    outcomes.push(new WalkOutcome(ids, total, head, paths));
    if (index === outcomeHashes.length) {
      const bigger = new Int32Array(index * 2);
      bigger.set(outcomeHashes);
      outcomeHashes = bigger;
    }
    outcomeHashes[index] = h;
    if (outcomes.length * 2 > outcomeSlots.length) {
      outcomeSlots = new Int32Array(outcomeSlots.length * 2).fill(-1);
      for (let i = 0; i < outcomes.length; i++) placeIndex(outcomeSlots, i, outcomeHashes[i]!);
    } else {
      placeIndex(outcomeSlots, index, h);
    }
  };

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
      if (requiredCount === 0 || partAllFinal[pool[o + 1]!]) {
        for (let i = 0; i < count; i++) {
          const part = pool[o + 1 + i]!;
          for (let x = partTrackStart[part]!, end = partTrackStart[part + 1]!; x < end; x++) {
            const track = partTracks[x]!;
            matchedBits[track >> 5] |= 1 << (track & 31);
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
        record(head, c + ((segment === 0 && head !== 0 && tuples.parent[head] !== 0) || segment >= 2 ? UNREADABLE : 0));
      }
      // The columns some automaton here treats specially, and one for all the rest (the first no state treats
      // specially), tried in the alphabet's order of preference (columns are numbered in it: plain letters first),
      // whatever the order of the tables: among paths of equal cost, the walk reaches the one spelled with preferred
      // characters first, and the outcomes do not depend on how the tables are numbered.
      for (let i = 0; i < count; i++) {
        const part = pool[o + 1 + i]!;
        for (let x = partColumnStart[part]!, end = partColumnStart[part + 1]!; x < end; x++) {
          const column = partColumns[x]!;
          wantedBits[column >> 5] |= 1 << (column & 31);
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
          let next = partNext[part * columns + column]!;
          if (next === PART_UNKNOWN) next = partStep(part, column);
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
            toStates(scratch, flat);
            reduction!.removeDropped(flat);
            toParts(flat, scratch);
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
  if (partCapacity <= MAX_SPARE_PARTS) {
    spareParts = { capacity: partCapacity, start: partStart, states: partStates, hashes: partHashes, columnStart: partColumnStart, columns: partColumns, trackStart: partTrackStart, tracks: partTracks, groupedStart: partGroupedStart, grouped: partGrouped, allFinal: partAllFinal, required: partRequired, next: partNext, slots: partSlots };
  }
  // Paths are spelled only when asked for (most outcomes' never are).
  paths.parent = tuples.parent.slice(0, tuples.count);
  paths.via = tuples.via.slice(0, tuples.count);
  queue.release(tuples.release());
  return { outcomes, indexOf: (ids) => outcomeIndex(ids, ids.length, tracksHash(ids, ids.length)) };
}

/** What a walk found: its outcomes, and which of them has a given set of tracks (ascending; -1: none). */
export interface WalkResult {
  readonly outcomes: readonly Outcome[];
  indexOf(tracks: readonly number[]): number;
}

interface WalkPaths {
  readonly parent: Int32Array;
  readonly via: Int32Array;
}

class WalkOutcome implements Outcome {
  /** `cost` and `at` are lowered while the walk finds cheaper paths to the same combination. */
  constructor(readonly matched: readonly number[], public cost: number, public at: number, private readonly paths: WalkPaths) {}
  get word(): number[] {
    const { parent, via } = this.paths;
    const word: number[] = [];
    for (let at = this.at; at > 0; at = parent[at]!) word.push(via[at]!);
    return word.reverse();
  }
}
