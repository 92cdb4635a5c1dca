import { withRoom } from "./hashing";
import type { StateSpace } from "./stateSpace";
import type { Table } from "../tables";

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
export interface DeciderReduction {
  /** Reduces a tuple ([length, state…]) in place; true when it dropped a table. */
  reduce(tuple: Int32Array): boolean;
  /** The same decision made on the tuple's grouped states alone (see there), then carried out by `removeDropped`. */
  drops(states: Int32Array, n: number): boolean;
  removeDropped(tuple: Int32Array): void;
  readonly groupedSketch: Int32Array;
}
export function sameFuture(space: StateSpace, requiredCount: number, owners: readonly (readonly number[])[], deciders: DeciderTracks, exactResidualIds = false): DeciderReduction {
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
  const sketchesExact = checked && !exactResidualIds;
  const claimedBy = new Int32Array(sketches);
  const exact = new Uint8Array(sketches);
  for (let e = requiredCount; e < tables.length; e++) {
    const mask = claimMask[e]!;
    for (let g = baseOf[e]!; g < baseOf[e + 1]!; g++) {
      const k = sketch[g]!;
      if (mask <= 0 || (claimedBy[k]! & mask) !== 0) exact[k] = 1;
      claimedBy[k]! |= mask;
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
        groupMask[group]! |= mask;
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
