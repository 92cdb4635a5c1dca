import type { Budget } from "./budget";
import type { Alphabet, Table } from "./tables";

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
 * The tuple pool of the last walk, kept for the next one (walks run one at a time, never inside each other), up to
 * MAX_SPARE_POOL numbers (8 MB): a walk of 200 rules fills about 1.5 million; a bigger pool is dropped with its walk
 * rather than held for the life of the process.
 */
let spareTuplePool: Int32Array | undefined;
const MAX_SPARE_POOL = 1 << 21;

/**
 * The per-tuple arrays of the last walk, kept for the next one like the pool: an analysis walks the same lists after
 * every edit, and growing these from 4,096 tuples (and the index from 16,384 slots, rehashing at each step) to
 * 50,000 was a few milliseconds a walk. (A walk's outcomes keep copies of `parent` and `via`, cut to its tuples, for
 * spelling paths: arrays sized for the largest walk so far, new for every walk, were a few megabytes of large
 * objects per analysis, each bringing the next full collection closer.) Up to `MAX_SPARE_TUPLES` tuples.
 */
interface WalkScratch {
  offsets: Int32Array;
  parent: Int32Array;
  via: Int32Array;
  cost: Int32Array;
  segment: Uint8Array;
  expanded: Uint8Array;
  hashes: Int32Array;
  slots: Int32Array;
  bucketHead: Int32Array;
  bucketTail: Int32Array;
  pushedTuple: Int32Array;
  pushedNext: Int32Array;
}
let spareScratch: WalkScratch | undefined;
const MAX_SPARE_TUPLES = 1 << 18;

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
 * Tracks as rules of first-match lists, for walks whose only question is which rule decides (`exploreProduct`'s
 * `deciders`): per track, the list it belongs to, its index in that list, and a bit mask of the operations it covers
 * (bit i: `OPERATIONS[i]`).
 */
export interface DeciderTracks {
  readonly list: readonly number[];
  readonly rule: readonly number[];
  readonly ops: readonly number[];
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
export function exploreProduct(tracks: readonly (readonly Table[])[], required: readonly Table[], alphabet: Alphabet, budget: Budget, deciders?: DeciderTracks): WalkResult {
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
  const tableOrder = productTestHooks.tableOrder ?? "lead";
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
  // in table order): [length, state0, state1, …]. Plus per tuple its cost, readability state, parent and class.
  // The pool of the previous walk, when there is one: it is only scratch (nothing the outcomes keep points into it),
  // and growing a fresh one to a few million numbers on every walk cost more than filling it.
  let pool = spareTuplePool ?? new Int32Array(1 << 16);
  spareTuplePool = undefined;
  let used = 0;
  let count = 0;
  const spare = spareScratch;
  spareScratch = undefined;
  let offsets = spare?.offsets ?? new Int32Array(1 << 12);
  let cost = spare?.cost ?? new Int32Array(1 << 12);
  let segment = spare?.segment ?? new Uint8Array(1 << 12); // 0: just after `/` (or at the start), 1: in a plain segment, 2: `.` so far, 3: `..` so far
  // Read by the outcomes once the walk is done: they keep copies (below).
  let parent = spare?.parent ?? new Int32Array(offsets.length);
  let via = spare?.via ?? new Int32Array(offsets.length);
  let expanded = spare ? spare.expanded.fill(0) : new Uint8Array(1 << 12);
  // Each tuple's hash, to rebuild the index when it grows.
  let hashes = spare?.hashes ?? new Int32Array(1 << 12);
  let slots = (spare?.slots ?? new Int32Array(1 << 14)).fill(-1);
  // The queue: per cost, a first-in first-out list of pushes (a tuple is pushed again when reached more cheaply).
  let bucketHead = (spare?.bucketHead ?? new Int32Array(256)).fill(-1);
  let bucketTail = (spare?.bucketTail ?? new Int32Array(256)).fill(-1);
  let pushedTuple = spare?.pushedTuple ?? new Int32Array(1 << 13);
  let pushedNext = spare?.pushedNext ?? new Int32Array(1 << 13);
  let maxCost = 0;
  let pushed = 0;
  const grow = () => {
    const size = offsets.length * 2;
    offsets = withRoom(offsets, size);
    cost = withRoom(cost, size);
    segment = withRoom(segment, size);
    parent = withRoom(parent, size);
    via = withRoom(via, size);
    expanded = withRoom(expanded, size);
    hashes = withRoom(hashes, size);
  };

  // The index of tuples: open addressing, each slot a (tuple, hash) pair side by side, so that a probe reads one
  // place in memory until the hashes agree.
  const find = (buffer: Int32Array, h: number): number => {
    const mask = (slots.length >> 1) - 1;
    const length = buffer[0]!;
    const hash = h | 0;
    for (let j = h & mask; slots[2 * j] !== -1; j = (j + 1) & mask) {
      if (slots[2 * j + 1] !== hash) continue;
      const index = slots[2 * j]!;
      const o = offsets[index]!;
      if (pool[o] !== length) continue;
      let i = 1;
      while (i <= length && pool[o + i] === buffer[i]) i++;
      if (i > length) return index;
    }
    return -1;
  };
  const place = (index: number, h: number) => {
    const mask = (slots.length >> 1) - 1;
    let j = h & mask;
    while (slots[2 * j] !== -1) j = (j + 1) & mask;
    slots[2 * j] = index;
    slots[2 * j + 1] = h | 0;
  };
  const push = (index: number) => {
    const c = cost[index]!;
    if (c >= bucketHead.length) {
      const size = Math.max(bucketHead.length * 2, c + 1);
      const head = new Int32Array(size).fill(-1);
      head.set(bucketHead);
      bucketHead = head;
      const tail = new Int32Array(size).fill(-1);
      tail.set(bucketTail);
      bucketTail = tail;
    }
    if (pushed === pushedTuple.length) {
      const tuples = new Int32Array(pushed * 2);
      tuples.set(pushedTuple);
      pushedTuple = tuples;
      const next = new Int32Array(pushed * 2);
      next.set(pushedNext);
      pushedNext = next;
    }
    const p = pushed++;
    pushedTuple[p] = index;
    pushedNext[p] = -1;
    if (bucketTail[c] === -1) bucketHead[c] = p;
    else pushedNext[bucketTail[c]!] = p;
    bucketTail[c] = p;
    if (c > maxCost) maxCost = c;
  };
  /**
   * `index`: the tuple's index when already looked up (-1: new); `NOT_LOOKED_UP` when it was not, but `hash` is its
   * hash; `NOT_HASHED` when neither is known.
   */
  const reach = (buffer: Int32Array, from: number, k: number, newCost: number, newSegment: number, hash: number, index: number): void => {
    const h = index === NOT_HASHED ? listHash(buffer, 1, buffer[0]!) : hash;
    const known = index < -1 ? find(buffer, h) : index;
    if (known >= 0) {
      if (!expanded[known] && newCost < cost[known]!) {
        cost[known] = newCost;
        segment[known] = newSegment;
        parent[known] = from;
        via[known] = k;
        push(known);
      }
      return;
    }
    const size = 1 + buffer[0]!;
    if (used + size > pool.length) {
      const bigger = new Int32Array(Math.max(pool.length * 2, used + size));
      bigger.set(pool);
      pool = bigger;
    }
    for (let i = 0; i < size; i++) pool[used + i] = buffer[i]!;
    if (count === offsets.length) grow();
    const added = count++;
    offsets[added] = used;
    used += size;
    cost[added] = newCost;
    segment[added] = newSegment;
    parent[added] = from;
    via[added] = k;
    hashes[added] = h;
    budget.spend();
    // The file's work allowance also counts what the tuple holds: a walk over a thousand rules' automata stores
    // and steps far more per state than one over ten.
    budget.work(size);
    if (count * 2 > slots.length >> 1) {
      slots = new Int32Array(slots.length * 2).fill(-1);
      for (let i = 0; i < count; i++) place(i, hashes[i]!);
    } else {
      place(added, h);
    }
    push(added);
  };

  const reduction = deciders ? sameFuture(space, requiredCount, owners, deciders) : undefined;
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
  const partTables = productTestHooks.partTables ?? PART_TABLES;
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
        // No path at all: the pool and the scratch go back untouched, for the next walk.
        spareTuplePool = pool;
        spareScratch = spare;
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
  const paths: { parent: Int32Array; via: Int32Array } = { parent, via };
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
  for (let c = 0; c <= maxCost; c++) {
    for (let p = bucketHead[c]!; p !== -1; p = pushedNext[p]!) {
      const head = pushedTuple[p]!;
      if (expanded[head] || cost[head] !== c) continue;
      expanded[head] = 1;
      const o = offsets[head]!;
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
        record(head, c + ((segment[head] === 0 && head !== 0 && parent[head] !== 0) || segment[head]! >= 2 ? UNREADABLE : 0));
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
          index = find(scratch, hash);
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
        const state = segment[head]!;
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
  if (pool.length <= MAX_SPARE_POOL) spareTuplePool = pool;
  if (partCapacity <= MAX_SPARE_PARTS) {
    spareParts = { capacity: partCapacity, start: partStart, states: partStates, hashes: partHashes, columnStart: partColumnStart, columns: partColumns, trackStart: partTrackStart, tracks: partTracks, groupedStart: partGroupedStart, grouped: partGrouped, allFinal: partAllFinal, required: partRequired, next: partNext, slots: partSlots };
  }
  if (offsets.length <= MAX_SPARE_TUPLES) spareScratch = { offsets, parent, via, cost, segment, expanded, hashes, slots, bucketHead, bucketTail, pushedTuple, pushedNext };
  // Paths are spelled only when asked for (most outcomes' never are).
  paths.parent = parent.slice(0, count);
  paths.via = via.slice(0, count);
  return { outcomes, indexOf: (ids) => outcomeIndex(ids, ids.length, tracksHash(ids, ids.length)) };
}

/** What a walk found: its outcomes, and which of them has a given set of tracks (ascending; -1: none). */
export interface WalkResult {
  readonly outcomes: readonly Outcome[];
  indexOf(tracks: readonly number[]): number;
}

/** The hash of an outcome's set of tracks (`ids[0…count)`), by which the walk finds it again. */
function tracksHash(ids: ArrayLike<number>, count: number): number {
  let h = 0x811c9dc5 ^ count;
  for (let k = 0; k < count; k++) h = Math.imul(h ^ ids[k]!, 0x01000193);
  return (h ^ (h >>> 15)) | 0;
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


/**
 * A tuple's hash is the sum of its states' hashes: each state's is worked out on its own, and only an addition
 * waits for the one before (a chain of multiplications, one per state, made the loop that builds successors wait on
 * it). Tuples are sets in ascending order, so an order-blind sum loses nothing; the mix is not linear, so different
 * sets with equal sums of states do not collide for that. The hash only places tuples in the index: the walk's
 * order does not depend on it.
 */
function stateHash(t: number): number {
  const x = Math.imul(t ^ 0x5bd1e995, 0x9e3779b1);
  return x ^ (x >>> 15);
}

/**
 * A signed 32-bit number, as `stateHash`'s: one V8 keeps as a small integer, where an unsigned one from 2^31 up is
 * a heap number, allocated each time it is passed to a function not inlined (`reach`, hundreds of thousands of
 * times a walk).
 */
function finishHash(h: number, length: number): number {
  h = Math.imul(h ^ length, 0x01000193);
  return h ^ (h >>> 15);
}

/** The hash of the states `values[from…from + n)`: a tuple's (`[length, state…]` from 1) or a part's. */
function listHash(values: Int32Array, from: number, n: number): number {
  let h = 0;
  for (let i = 0; i < n; i++) h = (h + stateHash(values[from + i]!)) | 0;
  return finishHash(h, n);
}

/** Puts `index` into an open-addressing table of indices (`slots`, -1 for free, a power of two long) at its hash. */
function placeIndex(slots: Int32Array, index: number, h: number): void {
  const mask = slots.length - 1;
  let j = h & mask;
  while (slots[j] !== -1) j = (j + 1) & mask;
  slots[j] = index;
}

/** `a`, or a copy with room for `size` (at least twice as long) when it is shorter. */
function withRoom<T extends Int32Array | Uint8Array>(a: T, size: number): T {
  if (a.length >= size) return a;
  const b = new (a.constructor as { new (n: number): T })(Math.max(a.length * 2, size));
  b.set(a);
  return b;
}

/**
 * Every column's hash, reading the tables row by row (in memory order). A function of its own, with nothing after
 * its loop: V8 optimises a long loop while it runs and keeps that code for later calls, and code after the loop that
 * had not run when it was made threw it away again on every call (`distinctClasses`, a few times per analysis).
 */
function columnHashes(tables: readonly Table[], width: number): Int32Array {
  const hashes = new Int32Array(width).fill(0x811c9dc5);
  for (const t of tables) {
    const next = t.next;
    for (let s = 0; s < t.size; s++) {
      const row = s * width;
      for (let k = 0; k < width; k++) hashes[k] = Math.imul(hashes[k]! ^ (next[row + k]! + 1), 0x01000193);
    }
  }
  return hashes;
}

/**
 * The classes every path of a table reads first, as text (one character per class), up to `LEAD_LENGTH` of them:
 * from the start, as long as no path can stop and one class is the only way on. A `/` that loops on itself
 * (deepagents-py's `[/]+`) is read as one, so a Python table sorts beside its JavaScript twin.
 */
function literalLead(table: Table): string {
  const { width, next, live, final } = table;
  let state = table.initial;
  let lead = "";
  for (let step = 0; step < LEAD_LENGTH && live[state] && !final[state]; step++) {
    let only = -1;
    for (let k = 0; k < width; k++) {
      const t = next[state * width + k]!;
      if (t < 0 || t === state || !live[t]) continue;
      if (only >= 0) return lead;
      only = k;
    }
    if (only < 0) break;
    lead += String.fromCharCode(only);
    state = next[state * width + only]!;
  }
  return lead;
}
const LEAD_LENGTH = 32;

/** One class per group of classes that every table maps alike (the first, most readable, of each group). */
export function distinctClasses(tables: readonly Table[], width: number): number[] {
  const unique = [...new Set(tables)];
  const sameColumn = (a: number, b: number): boolean => {
    for (const t of unique) for (let s = 0; s < t.size; s++) if (t.next[s * width + a] !== t.next[s * width + b]) return false;
    return true;
  };
  const byHash = new Map<number, number[]>();
  const out: number[] = [];
  const hashes = columnHashes(unique, width);
  for (let k = 0; k < width; k++) {
    const h = hashes[k]!;
    const group = byHash.get(h);
    if (group?.some((r) => sameColumn(r, k))) continue;
    if (group) group.push(k);
    else byHash.set(h, [k]);
    out.push(k);
  }
  return out;
}

/**
 * The states of every table of a walk, numbered by residual language: (table, state) pairs with the same id accept
 * exactly the same continuations. Two pairs get one id only when the parts of their tables reachable from them are
 * the same automaton (`isomorphic`, over the walk's classes, which every table of the walk reads alike), so an id
 * never joins different languages. Tables are minimal DFAs (regexAutomaton.ts), so equal languages do get one id in
 * practice; a pair left apart would only cost a tuple more. States that cannot reach acceptance are -1.
 */
class Residuals {
  /** Per table, per state: its id, or -2 while not computed yet (`of` computes it). */
  readonly ids: Int32Array[];
  private readonly byHash = new Map<number, number[]>();
  /** Scratch: breadth-first numbers of a table's states during `of`. */
  private readonly number: Int32Array[];
  /** Per id: a (table, state) that has it. */
  private readonly representative: [number, number][] = [];
  readonly final: number[] = [];
  private readonly mark: Int32Array[];
  private stamp = 0;

  constructor(private readonly tables: readonly Table[], private readonly classes: readonly number[], private readonly width: number) {
    this.ids = tables.map((t) => new Int32Array(t.size).fill(-2));
    this.mark = tables.map((t) => new Int32Array(t.size));
    this.number = tables.map((t) => new Int32Array(t.size));
  }

  get size(): number {
    return this.final.length;
  }

  of(e: number, s: number): number {
    const table = this.tables[e]!;
    if (s < 0 || !table.live[s]) return -1;
    const known = this.ids[e]![s]!;
    if (known !== -2) return known;
    // A hash of the canonical form of the part reachable from s (states in breadth-first order, each as final and
    // successors); ids with the same hash are compared state by state (`isomorphic`).
    const { width, classes } = this;
    const mark = this.mark[e]!;
    const stamp = ++this.stamp;
    const order = [s];
    const number = this.number;
    mark[s] = stamp;
    number[e]![s] = 0;
    let h1 = 0x811c9dc5;
    let h2 = 0x01000193;
    for (let i = 0; i < order.length; i++) {
      const state = order[i]!;
      const f = table.final[state]! ? -3 : -4;
      h1 = Math.imul(h1 ^ f, 0x01000193);
      h2 = Math.imul(h2 ^ f, 0x5bd1e995);
      for (let c = 0; c < classes.length; c++) {
        const k = classes[c]!;
        const t = table.next[state * width + k]!;
        let v = -1;
        if (t >= 0 && table.live[t]) {
          if (mark[t] !== stamp) {
            mark[t] = stamp;
            number[e]![t] = order.length;
            order.push(t);
          }
          v = number[e]![t]!;
        }
        h1 = Math.imul(h1 ^ v, 0x01000193);
        h2 = Math.imul(h2 ^ (v + 7), 0x5bd1e995);
      }
    }
    const key = (h1 >>> 0) * 0x200000 + ((h2 >>> 0) & 0x1fffff);
    const candidates = this.byHash.get(key);
    let id = -1;
    if (candidates) {
      for (const c of candidates) {
        const [e2, s2] = this.representative[c]!;
        if (this.isomorphic(e, s, e2, s2)) {
          id = c;
          break;
        }
      }
    }
    if (id < 0) {
      id = this.final.length;
      if (candidates) candidates.push(id);
      else this.byHash.set(key, [id]);
      this.representative.push([e, s]);
      this.final.push(table.final[s]!);
    }
    this.ids[e]![s] = id;
    return id;
  }

  /** Whether the parts of two tables reachable from `a` and from `b` are the same automaton (same language). */
  private isomorphic(ea: number, a: number, eb: number, b: number): boolean {
    const ta = this.tables[ea]!;
    const tb = this.tables[eb]!;
    const { width, classes } = this;
    const toB = new Map<number, number>([[a, b]]);
    const toA = new Map<number, number>([[b, a]]);
    const queue = [a];
    for (let i = 0; i < queue.length; i++) {
      const x = queue[i]!;
      const y = toB.get(x)!;
      if (ta.final[x] !== tb.final[y]) return false;
      for (let c = 0; c < classes.length; c++) {
        const k = classes[c]!;
        let nx = ta.next[x * width + k]!;
        let ny = tb.next[y * width + k]!;
        if (nx >= 0 && !ta.live[nx]) nx = -1;
        if (ny >= 0 && !tb.live[ny]) ny = -1;
        if ((nx < 0) !== (ny < 0)) return false;
        if (nx < 0) continue;
        const mapped = toB.get(nx);
        if (mapped === undefined) {
          if (toA.has(ny)) return false;
          toB.set(nx, ny);
          toA.set(ny, nx);
          queue.push(nx);
        } else if (mapped !== ny) {
          return false;
        }
      }
    }
    return true;
  }
}

/**
 * For `exploreProduct`'s `deciders`: removes from a tuple every table that another table of it makes redundant (see
 * there). Per residual language present, per list and operation, the table kept is the first one (lowest entry) of
 * the lowest rule covering that operation; a table is kept when it is that for some owner and operation it covers.
 * `reduce` returns whether it dropped any (the walk's hash of the tuple is then stale).
 *
 * `groupedSketch` says, per global state, what the reduction compares it by: a table can only be dropped for another
 * of the tuple whose state has the same residual language, so the same sketch (`sketchResiduals`), and only states
 * with a sketch some other claiming state shares take part (-1 for the others). The decision is made on those
 * states alone (`drops`), so the walk asks it of a new tuple's parts before spelling the tuple out (`reduces`).
 */
interface DeciderReduction {
  /** Reduces a tuple ([length, state…]) in place; true when it dropped a table. */
  reduce(tuple: Int32Array): boolean;
  /** The same decision made on the tuple's grouped states alone (see there), then carried out by `removeDropped`. */
  drops(states: Int32Array, n: number): boolean;
  removeDropped(tuple: Int32Array): void;
  readonly groupedSketch: Int32Array;
}
function sameFuture(space: StateSpace, requiredCount: number, owners: readonly (readonly number[])[], deciders: DeciderTracks): DeciderReduction {
  const { tables, entryOfState, baseOf } = space;
  let residuals: Residuals | undefined;
  // Per global state: its group id, or -2 while not asked yet (see below).
  const ids = new Int32Array(space.size).fill(-2);
  const OPS = 2; // read, write (runtime.ts OPERATIONS)
  const lists = Math.max(0, ...deciders.list) + 1;
  const slots = lists * OPS;
  // Per residual id: the stamp of the last tuple it was seen in, and its group there. Per group, per (list, op):
  // the best rule and its entry.
  // What each entry can decide: per owner track and operation it covers, its (list, operation) slot and rule.
  const claimStart = new Int32Array(tables.length + 1);
  const claimSlot: number[] = [];
  const claimRule: number[] = [];
  for (let e = 0; e < tables.length; e++) {
    claimStart[e] = claimSlot.length;
    for (const track of owners[e]!) {
      for (let o = 0; o < OPS; o++) {
        if (deciders.ops[track]! & (1 << o)) {
          claimSlot.push(deciders.list[track]! * OPS + o);
          claimRule.push(deciders.rule[track]!);
        }
      }
    }
  }
  claimStart[tables.length] = claimSlot.length;
  const slotOf = Int32Array.from(claimSlot);
  const ruleOf = Int32Array.from(claimRule);
  // Per entry: its (list, operation) slots as bits, when there are few enough slots for that (else -1). A table
  // can only be dropped for another of its group that claims one of the same slots: tuples whose groups share no
  // slot (the same pattern's tables under two runtimes, say, claim different lists) are left as they are at once.
  const claimMask = new Int32Array(tables.length).fill(-1);
  if (slots <= 30) {
    for (let e = 0; e < tables.length; e++) {
      let mask = 0;
      for (let c = claimStart[e]!; c < claimStart[e + 1]!; c++) mask |= 1 << slotOf[c]!;
      claimMask[e] = mask;
    }
  }
  // Exact residual ids (Residuals.of) cost a search of the automaton from each state. They only matter between
  // states whose tables claim a common slot: a state is first sketched (`sketchResiduals`: equal residuals, equal
  // sketch), and takes part in the grouping (with an exact id) only when some other state with its sketch claims a
  // slot it claims. Any other state has no state of equal residual that could make it redundant: it is kept.
  const { sketch, sketches, exact: checked } = sketchResiduals(space);
  const sketchesExact = checked && productTestHooks.trustCheckedSketches;
  const claimedBy = new Int32Array(sketches);
  const exact = new Uint8Array(sketches);
  for (let e = requiredCount; e < tables.length; e++) {
    const mask = claimMask[e]!;
    for (let g = baseOf[e]!; g < baseOf[e + 1]!; g++) {
      const k = sketch[g]!;
      if (mask <= 0 || (claimedBy[k]! & mask) !== 0) exact[k] = 1;
      claimedBy[k] |= mask;
    }
  }
  // The same per state, read once per table of every new tuple.
  const grouped = new Uint8Array(space.size);
  const groupedSketch = new Int32Array(space.size);
  for (let g = 0; g < space.size; g++) {
    grouped[g] = exact[sketch[g]!]!;
    groupedSketch[g] = grouped[g] ? sketch[g]! : -1;
  }
  // Per residual id: the stamp of the last tuple it was seen in, and its group there. Per group: how many entries
  // share it, and (shared groups only) its row of the best rule and entry per (list, op).
  let seenIn = new Int32Array(1024);
  let groupAt = new Int32Array(1024);
  let stamp = 0;
  let bestRule = new Int32Array(64 * slots);
  let bestEntry = new Int32Array(64 * slots);
  let groupOfEntry = new Int32Array(64);
  let groupSize = new Int32Array(64);
  let groupMask = new Int32Array(64);
  let rowOfGroup = new Int32Array(64);
  // Per entry: the stamp of the last `drops` call that dropped it.
  const droppedAt = new Int32Array(tables.length);
  let dropStamp = 0;
  /**
   * Which of the states `states[0…n)` (the tuple's states that take part in the grouping, `groupedSketch` ≥ 0, in
   * entry order) the reduction drops: marked by entry for `removeDropped`; true when it drops any. Only these states
   * matter: any other is kept whatever the rest are, so a tuple's grouped states decide, and the walk asks about a
   * new tuple from its parts' lists of them, before spelling it out state by state.
   */
  const drops = function reduceTuple(states: Int32Array, n: number): boolean {
    if (groupOfEntry.length < n) {
      groupOfEntry = new Int32Array(n * 2);
      groupSize = new Int32Array(n * 2);
      groupMask = new Int32Array(n * 2);
      rowOfGroup = new Int32Array(n * 2);
    }
    stamp++;
    let groups = 0;
    // Whether two tables of a group claim a common slot (or a claim cannot be told: mask -1 or 0).
    let contested = false;
    for (let i = 0; i < n; i++) {
      const g = states[i]!;
      let id = ids[g]!;
      if (id === -2) {
        // Checked sketches are residual ids already; otherwise ask for an exact one.
        const e = entryOfState[g]!;
        ids[g] = id = sketchesExact ? sketch[g]! : (residuals ??= new Residuals(tables, space.classes, space.width)).of(e, g - baseOf[e]!);
      }
      if (id >= seenIn.length) {
        const size = Math.max(seenIn.length * 2, id + 1);
        const a = new Int32Array(size);
        a.set(seenIn);
        seenIn = a;
        const b = new Int32Array(size);
        b.set(groupAt);
        groupAt = b;
      }
      const mask = claimMask[entryOfState[g]!]!;
      if (seenIn[id] === stamp) {
        const group = groupAt[id]!;
        if (mask <= 0 || groupMask[group]! <= 0 || (groupMask[group]! & mask) !== 0) contested = true;
        groupMask[group] |= mask;
        groupOfEntry[i] = group;
        groupSize[group]!++;
      } else {
        seenIn[id] = stamp;
        groupAt[id] = groups;
        groupSize[groups] = 1;
        groupMask[groups] = mask;
        groupOfEntry[i] = groups++;
      }
    }
    // Every table has a future of its own, or is the only one of its future to claim what it claims: nothing to drop.
    if (!contested) return false;
    // An entry alone in its group is the best of its group for everything it covers: only shared groups get a row.
    let rows = 0;
    for (let g = 0; g < groups; g++) rowOfGroup[g] = groupSize[g]! > 1 ? rows++ : -1;
    if (rows * slots > bestRule.length) {
      bestRule = new Int32Array(rows * slots * 2);
      bestEntry = new Int32Array(rows * slots * 2);
    }
    bestRule.fill(0x7fffffff, 0, rows * slots);
    for (let i = 0; i < n; i++) {
      const row = rowOfGroup[groupOfEntry[i]!]!;
      if (row < 0) continue;
      const e = entryOfState[states[i]!]!;
      for (let c = claimStart[e]!, end = claimStart[e + 1]!; c < end; c++) {
        const at = row * slots + slotOf[c]!;
        // Entries come in ascending order: the first entry of the lowest rule wins ties.
        if (ruleOf[c]! < bestRule[at]!) {
          bestRule[at] = ruleOf[c]!;
          bestEntry[at] = e;
        }
      }
    }
    dropStamp++;
    let any = false;
    for (let i = 0; i < n; i++) {
      const row = rowOfGroup[groupOfEntry[i]!]!;
      if (row < 0) continue;
      const e = entryOfState[states[i]!]!;
      let keep = false;
      for (let c = claimStart[e]!, end = claimStart[e + 1]!; c < end && !keep; c++) if (bestEntry[row * slots + slotOf[c]!] === e) keep = true;
      if (keep) continue;
      droppedAt[e] = dropStamp;
      any = true;
    }
    return any;
  };
  /** Removes from `tuple` ([length, state…]) the states of the entries the last `drops` dropped. */
  const removeDropped = (tuple: Int32Array): void => {
    const length = tuple[0]!;
    let w = 0;
    for (let i = 0; i < length; i++) {
      const g = tuple[1 + i]!;
      if (droppedAt[entryOfState[g]!] !== dropStamp) tuple[1 + w++] = g;
    }
    tuple[0] = w;
  };
  // The first tuple, which the walk has no parts for yet.
  let groupedOfTuple = new Int32Array(16);
  const reduce = (tuple: Int32Array): boolean => {
    let n = 0;
    for (let i = requiredCount, length = tuple[0]!; i < length; i++) {
      const g = tuple[1 + i]!;
      if (!grouped[g]) continue;
      groupedOfTuple = withRoom(groupedOfTuple, n + 1);
      groupedOfTuple[n++] = g;
    }
    if (!drops(groupedOfTuple, n)) return false;
    removeDropped(tuple);
    return true;
  };
  return { reduce, drops, removeDropped, groupedSketch };
}

/**
 * For tests only: `trustCheckedSketches: false` makes the decider reduction take exact ids (the fallback) always;
 * `partTables` replaces PART_TABLES and `tableOrder` the order of the tables (by literal lead; "rules": as given;
 * "reversed": the reverse): parts and the order are a representation, and must find the same outcomes and paths.
 */
export const productTestHooks: { trustCheckedSketches: boolean; partTables?: number; tableOrder?: "lead" | "rules" | "reversed" } = { trustCheckedSketches: true };

/**
 * Every state's residual language (what it accepts from there on) as dense ids, by Moore's refinement with hashed
 * signatures: after n rounds, a state's sketch is a hash of its acceptance and of its successors' sketches after
 * n - 1 rounds, read through the walk's rows (the most common successor, then the exceptions, which states with
 * isomorphic futures have alike: `StateSpace`). Such states (for minimal tables, the states of equal residuals: the
 * ones `Residuals` joins) always share a sketch. Rounds go on until one tells no more states apart.
 *
 * A hash can also join different residuals, so the result is checked: when every state has the acceptance of the
 * first state of its sketch, and on every column a successor of the same sketch as that state's, the sketches are a
 * bisimulation, and states sharing one accept exactly the same paths (`exact`). Otherwise they are only a sketch:
 * equal residuals share one, different residuals usually, not always, do not.
 */
function sketchResiduals(space: StateSpace): { sketch: Int32Array; sketches: number; exact: boolean } {
  const { size, step, exceptionStart, exceptions, final, defaultStep } = space;
  const columns = space.classes.length;
  let current = new Int32Array(size);
  let next = new Int32Array(size);
  for (let g = 0; g < size; g++) current[g] = final[g]! ? 1 : 2;
  // Distinct hashes of a round, counted in an open-addressing set stamped with the round.
  let capacity = 16;
  while (capacity < size * 2) capacity *= 2;
  const setValue = new Int32Array(capacity);
  const setRound = new Int32Array(capacity);
  let distinct = Math.min(size, 2);
  for (let round = 1; round <= 1024; round++) {
    let count = 0;
    for (let g = 0; g < size; g++) {
      const d = defaultStep[g]!;
      let h = Math.imul(0x811c9dc5 ^ current[g]!, 0x01000193);
      h = Math.imul(h ^ (d < 0 ? 0 : current[d]!), 0x01000193);
      for (let x = exceptionStart[g]!, end = exceptionStart[g + 1]!; x < end; x++) {
        const column = exceptions[x]!;
        const t = step[g * columns + column]!;
        h = Math.imul(h ^ column, 0x01000193);
        h = Math.imul(h ^ (t < 0 ? 0 : current[t]!), 0x01000193);
      }
      h ^= h >>> 15;
      next[g] = h;
      let j = Math.imul(h, 0x9e3779b1) & (capacity - 1);
      while (setRound[j] === round && setValue[j] !== h) j = (j + 1) & (capacity - 1);
      if (setRound[j] !== round) {
        setRound[j] = round;
        setValue[j] = h;
        count++;
      }
    }
    const swap = current;
    current = next;
    next = swap;
    if (count <= distinct) break;
    distinct = count;
  }
  const dense = new Map<number, number>();
  for (let g = 0; g < size; g++) {
    let id = dense.get(current[g]!);
    if (id === undefined) dense.set(current[g]!, (id = dense.size));
    next[g] = id;
  }
  const sketch = next;
  const sketches = dense.size;
  // The check: every state against the first state of its sketch, on every column.
  const first = new Int32Array(sketches).fill(-1);
  let exact = true;
  for (let g = 0; g < size && exact; g++) {
    const k = sketch[g]!;
    const r = first[k]!;
    if (r < 0) {
      first[k] = g;
      continue;
    }
    if (final[g] !== final[r]) exact = false;
    for (let column = 0; column < columns && exact; column++) {
      const a = step[g * columns + column]!;
      const b = step[r * columns + column]!;
      if (a < 0 || b < 0 ? a !== b : sketch[a] !== sketch[b]) exact = false;
    }
  }
  return { sketch, sketches, exact };
}

/**
 * The states of every table of one walk, numbered globally (table 0's states first, then table 1's, …), with
 * everything the walk reads per state in flat arrays: a tuple is then a plain list of numbers (half the size of
 * (table, state) pairs, and no per-table indirection on each step).
 */
class StateSpace {
  readonly size: number;
  /** First global number of each table's states (`baseOf[e] + s`). */
  readonly baseOf: Int32Array;
  readonly entryOfState: Int32Array;
  /** `step[g * columns + column]`: the global number of the successor, or -1 when it cannot reach acceptance. */
  readonly step: Int32Array;
  /**
   * State g's exceptional columns (indices into the walk's classes) are `exceptions[exceptionStart[g]…exceptionStart[g + 1])`:
   * the columns whose successor is not the state's most common one (the first to be most common, columns in order).
   */
  readonly exceptionStart: Int32Array;
  readonly exceptions: Int32Array;
  /** Per state: its most common successor, the one on every column that is not an exception (-1: dead). */
  readonly defaultStep: Int32Array;
  readonly final: Uint8Array;

  constructor(readonly tables: readonly Table[], readonly classes: readonly number[], readonly width: number) {
    const columns = classes.length;
    this.baseOf = new Int32Array(tables.length + 1);
    for (let e = 0; e < tables.length; e++) this.baseOf[e + 1] = this.baseOf[e]! + tables[e]!.size;
    const size = (this.size = this.baseOf[tables.length]!);
    this.entryOfState = new Int32Array(size);
    const step = (this.step = new Int32Array(size * columns));
    this.final = new Uint8Array(size);
    this.exceptionStart = new Int32Array(size + 1);
    this.defaultStep = new Int32Array(size);
    let exceptions = new Int32Array(Math.max(16, size * 2));
    // How many columns lead to each successor (index successor + 1: 0 is dead), cleared after each state.
    const counts = new Int32Array(size + 1);
    let x = 0;
    for (let e = 0; e < tables.length; e++) {
      const table = tables[e]!;
      const base = this.baseOf[e]!;
      const { next, live } = table;
      for (let s = 0; s < table.size; s++) {
        const g = base + s;
        const row = g * columns;
        this.entryOfState[g] = e;
        this.final[g] = table.final[s]!;
        // The state's row, and its most common successor: the first to reach the highest count, columns in order.
        let best = -1;
        let bestCount = -1;
        for (let column = 0; column < columns; column++) {
          const t = next[s * width + classes[column]!]!;
          const target = t >= 0 && live[t] ? base + t : -1;
          step[row + column] = target;
          const c = ++counts[target + 1]!;
          if (c > bestCount) {
            best = target;
            bestCount = c;
          }
        }
        // The exceptions: every column whose successor is not the common one, ascending.
        this.exceptionStart[g] = x;
        if (x + columns > exceptions.length) {
          const bigger = new Int32Array(Math.max(exceptions.length * 2, x + columns));
          bigger.set(exceptions);
          exceptions = bigger;
        }
        for (let column = 0; column < columns; column++) {
          const target = step[row + column]!;
          counts[target + 1] = 0;
          if (target !== best) exceptions[x++] = column;
        }
        this.defaultStep[g] = best;
      }
    }
    this.exceptionStart[size] = x;
    this.exceptions = exceptions;
  }
}
