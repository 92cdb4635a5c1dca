import { CharBase, CharSet, DFA, JS, NFA, type Char } from "refa";
import type { Alternation, Assertion, Concatenation, Element, Expression, NoParent, Quantifier } from "refa";
import { Budget, BudgetExceeded, NotAnalysable } from "./budget";

/**
 * A JavaScript regular expression, matched against a whole string (`^…$`), as an exact DFA over UTF-16 code units.
 *
 * refa turns the regular expression into its AST, but cannot build an automaton through lookarounds, and picomatch's
 * regular expressions are full of them (`(?!\.{1,2}(?:\/|$))`, `(?=.)`, `(?:(?!(?:^|\/)\.{1,2}(?:\/|$)).)*?`). They
 * are still regular, and we build them exactly:
 *
 * - A lookahead at position i is a condition on the suffix w[i:]. Read the input *backwards* and the suffix is the
 *   prefix read so far, so the condition becomes "the reversed input read so far is in rev(S)", where S is the set of
 *   suffixes the lookahead accepts. A DFA for rev(S) runs alongside (a "guard"), and the assertion becomes an
 *   ε-transition allowed only when that guard is (positive) or is not (negative) in an accepting state. rev(S) is
 *   Σ*·rev(body), built the same way, so lookaheads nest.
 * - `$` is the lookahead `(?![^])`, so it needs nothing special.
 * - `^` (refa: `(?<![^])`) is a lookbehind. It is resolved statically: a forward pass computes, for every
 *   assertion, whether its position can be 0 and whether it can be > 0. If only one is possible, `^` is simply true
 *   or false there; if both are, the regular expression is not analysed. Every other lookbehind, and every
 *   backreference refa cannot resolve, is not analysed either (`NotAnalysable`): never a guess.
 *
 * The product of the reversed ε-NFA with the guards is determinised directly (subset construction over
 * (NFA states, guard states)); refa then reverses, determinises and minimises the result.
 */
export const MAX_CHARACTER = 0xffff as Char;

export interface RegexSource {
  readonly source: string;
  readonly flags: string;
}

const ZERO = 1; // the position may be 0
const POS = 2; // the position may be > 0

interface Edge {
  readonly to: number;
  readonly set: CharSet;
}

interface GuardEdge {
  readonly to: number;
  readonly guard: number;
}

/** A reversed ε-NFA under construction: states are numbers; guard edges carry an index into the guard table. */
class GuardedNfa {
  eps: number[][] = [];
  chars: Edge[][] = [];
  guards: GuardEdge[][] = [];
  constructor(private readonly budget: Budget) {}
  node(): number {
    this.budget.spend();
    this.eps.push([]);
    this.chars.push([]);
    this.guards.push([]);
    return this.eps.length - 1;
  }
}

/** A guard: the minimal DFA of rev(S) as tables, plus whether the assertion is negated. */
interface Guard {
  readonly negate: boolean;
  readonly table: DfaTable;
}

/** A DFA as plain tables. State -1 is the dead state. */
interface DfaTable {
  readonly initial: number;
  readonly finals: readonly boolean[];
  readonly out: readonly (readonly Edge[])[];
}

function tableOf(dfa: DFA): DfaTable {
  const ids = new Map<DFA.ReadonlyNode, number>();
  const order: DFA.ReadonlyNode[] = [];
  const id = (n: DFA.ReadonlyNode) => {
    let i = ids.get(n);
    if (i === undefined) {
      ids.set(n, (i = order.length));
      order.push(n);
    }
    return i;
  };
  id(dfa.initial);
  const out: Edge[][] = [];
  for (let i = 0; i < order.length; i++) {
    const byTarget = new Map<number, CharSet[]>();
    for (const [range, to] of order[i]!.out) {
      const t = id(to);
      const list = byTarget.get(t) ?? [];
      list.push(CharSet.fromRange(MAX_CHARACTER, range));
      byTarget.set(t, list);
    }
    out.push([...byTarget].map(([to, sets]) => ({ to, set: sets.length === 1 ? sets[0]! : CharSet.empty(MAX_CHARACTER).union(...sets) })));
  }
  return { initial: 0, finals: order.map((n) => dfa.finals.has(n as DFA.Node)), out };
}

/** Guard DFAs are the same for every picomatch pattern (`NO_DOT`, `NO_DOTS`, `ONE_CHAR`, `$`): built once. */
const guardCache = new Map<string, DfaTable>();
const GUARD_CACHE_LIMIT = 512;

const ALL = CharSet.all(MAX_CHARACTER);

export function regexToDfa(regex: RegexSource, budget: Budget): DFA {
  let parsed: { expression: NoParent<Expression>; maxCharacter: Char };
  try {
    const parser = JS.Parser.fromLiteral({ source: regex.source, flags: regex.flags });
    parsed = parser.parse({ backreferences: "throw", assertions: "parse", maxNodes: 20_000 });
  } catch (error) {
    if (error instanceof BudgetExceeded) throw error;
    throw new NotAnalysable(`refa cannot read the regular expression /${regex.source}/${regex.flags}: ${(error as Error).message}`);
  }
  if (parsed.maxCharacter !== MAX_CHARACTER) throw new NotAnalysable(`the regular expression uses Unicode mode (/${regex.flags}), not UTF-16 code units`);
  const positions = new Map<NoParent<Assertion>, number>();
  flowAlternatives(parsed.expression.alternatives, ZERO, positions);
  const builder = new Builder(budget, positions);
  const reversed = builder.determinize(parsed.expression.alternatives, false);
  return budget.run(() => {
    const nfa = NFA.fromFA(reversed, new NFA.LimitedNodeFactory(budget.remainingStates));
    nfa.reverse();
    const dfa = DFA.fromFA(nfa, new DFA.LimitedNodeFactory(budget.remainingStates));
    dfa.minimize();
    return dfa;
  });
}

/** Forward pass: for every assertion, can its position be 0 (`ZERO`) and/or > 0 (`POS`)? */
function flowAlternatives(alternatives: readonly NoParent<Concatenation>[], state: number, at: Map<NoParent<Assertion>, number>): number {
  let out = 0;
  for (const alt of alternatives) {
    let s = state;
    for (const element of alt.elements) s = flowElement(element, s, at);
    out |= s;
  }
  return out;
}

function flowElement(element: NoParent<Element>, state: number, at: Map<NoParent<Assertion>, number>): number {
  switch (element.type) {
    case "CharacterClass":
      return state !== 0 && !element.characters.isEmpty ? POS : 0;
    case "Alternation":
      return flowAlternatives(element.alternatives, state, at);
    case "Quantifier": {
      let out = element.min === 0 ? state : 0;
      let current = state;
      const seen = new Set<string>();
      for (let i = 1; i <= element.max; i++) {
        current = flowAlternatives(element.alternatives, current, at);
        if (i >= element.min) {
          out |= current;
          const key = `${current}`;
          if (seen.has(key)) break;
          seen.add(key);
        }
        if (current === 0) break;
      }
      return out;
    }
    case "Assertion": {
      at.set(element, (at.get(element) ?? 0) | state);
      if (element.kind === "ahead") {
        flowAlternatives(element.alternatives, state, at);
        return state;
      }
      const start = startAnchor(element);
      if (start === "start") return state & ZERO;
      if (start === "not-start") return state & POS;
      return state;
    }
    case "Unknown":
      return state;
  }
}

/** `(?<![^])` is `^`; `(?<=[^])` is "not at the start". Any other lookbehind is not analysed. */
function startAnchor(a: NoParent<Assertion>): "start" | "not-start" | undefined {
  if (a.kind !== "behind" || a.alternatives.length !== 1) return undefined;
  const elements = a.alternatives[0]!.elements;
  if (elements.length !== 1 || elements[0]!.type !== "CharacterClass" || !elements[0]!.characters.isAll) return undefined;
  return a.negate ? "start" : "not-start";
}

class Builder {
  private readonly guards: Guard[] = [];
  private readonly guardIds = new Map<string, number>();

  constructor(private readonly budget: Budget, private readonly positions: Map<NoParent<Assertion>, number>) {}

  /**
   * The minimal DFA of the reversed language of `alternatives`; with `anyPrefix`, of Σ*·rev(alternatives), which is
   * rev(S) for a lookahead whose body is `alternatives`.
   */
  determinize(alternatives: readonly NoParent<Concatenation>[], anyPrefix: boolean): DFA {
    const nfa = new GuardedNfa(this.budget);
    const start = nfa.node();
    const end = nfa.node();
    let from = start;
    if (anyPrefix) {
      nfa.chars[start]!.push({ to: start, set: ALL });
      from = nfa.node();
      nfa.eps[start]!.push(from);
    }
    this.alternatives(nfa, alternatives, from, end);
    return this.subsetConstruction(nfa, start, end);
  }

  private alternatives(nfa: GuardedNfa, alternatives: readonly NoParent<Concatenation>[], from: number, to: number): void {
    for (const alt of alternatives) this.concatenation(nfa, alt, from, to);
  }

  /** Reversed: the last element is read first. */
  private concatenation(nfa: GuardedNfa, concat: NoParent<Concatenation>, from: number, to: number): void {
    const elements = concat.elements;
    if (elements.length === 0) {
      nfa.eps[from]!.push(to);
      return;
    }
    let current = from;
    for (let i = elements.length - 1; i >= 0; i--) {
      const next = i === 0 ? to : nfa.node();
      this.element(nfa, elements[i]!, current, next);
      current = next;
    }
  }

  private element(nfa: GuardedNfa, element: NoParent<Element>, from: number, to: number): void {
    switch (element.type) {
      case "CharacterClass":
        if (!element.characters.isEmpty) nfa.chars[from]!.push({ to, set: element.characters });
        return;
      case "Alternation":
        this.alternatives(nfa, element.alternatives, from, to);
        return;
      case "Quantifier":
        this.quantifier(nfa, element, from, to);
        return;
      case "Assertion":
        this.assertion(nfa, element, from, to);
        return;
      case "Unknown":
        throw new NotAnalysable(`the regular expression contains \`${element.id}\`, which has no automaton`);
    }
  }

  private quantifier(nfa: GuardedNfa, q: NoParent<Quantifier>, from: number, to: number): void {
    const copies = q.max === Infinity ? q.min + 1 : q.max;
    if (copies > 1000) throw new BudgetExceeded("states", this.budget.limits.states);
    let current = from;
    for (let i = 0; i < q.min; i++) {
      const next = nfa.node();
      this.alternatives(nfa, q.alternatives, current, next);
      current = next;
    }
    if (q.max === Infinity) {
      // Kleene star: loop on a fresh node so the ε-cycle stays local.
      const loop = nfa.node();
      nfa.eps[current]!.push(loop);
      const back = nfa.node();
      this.alternatives(nfa, q.alternatives, loop, back);
      nfa.eps[back]!.push(loop);
      nfa.eps[loop]!.push(to);
      return;
    }
    nfa.eps[current]!.push(to);
    for (let i = q.min; i < q.max; i++) {
      const next = i === q.max - 1 ? to : nfa.node();
      this.alternatives(nfa, q.alternatives, current, next);
      if (next !== to) nfa.eps[next]!.push(to);
      current = next;
    }
  }

  private assertion(nfa: GuardedNfa, a: NoParent<Assertion>, from: number, to: number): void {
    const position = this.positions.get(a) ?? 0;
    if (a.kind === "behind") {
      const anchor = startAnchor(a);
      if (!anchor) throw new NotAnalysable("the regular expression contains a lookbehind other than `^`");
      if (position === (ZERO | POS)) throw new NotAnalysable("`^` is reachable both at the start and later in the string");
      const holds = anchor === "start" ? position === ZERO : position === POS;
      if (holds) nfa.eps[from]!.push(to);
      return;
    }
    nfa.guards[from]!.push({ to, guard: this.guardFor(a, position) });
  }

  private guardFor(a: NoParent<Assertion>, position: number): number {
    const body = JS.toLiteral(a.alternatives, { fastCharacters: true }).source;
    const key = `${position}:${body}`;
    const local = this.guardIds.get(`${a.negate}:${key}`);
    if (local !== undefined) return local;
    let table = guardCache.get(key);
    if (!table) {
      // The body gets its own guards: only the assertions inside it run alongside it.
      const dfa = new Builder(this.budget, this.positions).determinize(a.alternatives, true);
      this.budget.run(() => dfa.minimize());
      table = tableOf(dfa);
      if (guardCache.size >= GUARD_CACHE_LIMIT) guardCache.clear();
      guardCache.set(key, table);
    }
    const id = this.guards.length;
    this.guards.push({ negate: a.negate, table });
    this.guardIds.set(`${a.negate}:${key}`, id);
    return id;
  }

  /**
   * Subset construction over (set of ε-NFA states, state of every guard). The guards read the same input, so within
   * one product state their states are fixed and decide which guard edges the ε-closure may take.
   */
  private subsetConstruction(nfa: GuardedNfa, start: number, end: number): DFA {
    const guards = this.guards;
    const budget = this.budget;
    const builder = new DFA.Builder(new DFA.LimitedNodeFactory(budget.remainingStates));
    const states = new Map<string, DFA.Node>();
    const work: { nodes: number[]; guardStates: number[]; dfa: DFA.Node }[] = [];

    const closure = (seeds: Iterable<number>, guardStates: readonly number[]): number[] => {
      const seen = new Set<number>();
      const stack = [...seeds];
      while (stack.length > 0) {
        const n = stack.pop()!;
        if (seen.has(n)) continue;
        seen.add(n);
        for (const t of nfa.eps[n]!) stack.push(t);
        for (const g of nfa.guards[n]!) {
          const guard = guards[g.guard]!;
          const state = guardStates[g.guard]!;
          const accepting = state >= 0 && guard.table.finals[state]!;
          if (accepting !== guard.negate) stack.push(g.to);
        }
      }
      return [...seen].sort((x, y) => x - y);
    };
    const intern = (nodes: number[], guardStates: number[]): DFA.Node => {
      const key = `${nodes.join(",")}|${guardStates.join(",")}`;
      let dfaNode = states.get(key);
      if (!dfaNode) {
        budget.spend();
        dfaNode = states.size === 0 ? builder.initial : builder.createNode();
        states.set(key, dfaNode);
        if (nodes.includes(end)) builder.makeFinal(dfaNode);
        work.push({ nodes, guardStates, dfa: dfaNode });
      }
      return dfaNode;
    };

    const initialGuards = guards.map((g) => g.table.initial);
    try {
      intern(closure([start], initialGuards), initialGuards);
      while (work.length > 0) {
        const { nodes, guardStates, dfa } = work.pop()!;
        const sets: CharSet[] = [];
        for (const n of nodes) for (const e of nfa.chars[n]!) sets.push(e.set);
        if (sets.length === 0) continue;
        guardStates.forEach((s, g) => {
          if (s >= 0) for (const e of guards[g]!.table.out[s]!) sets.push(e.set);
        });
        const base = new CharBase(sets);
        const targets = new Map<DFA.Node, CharSet[]>();
        for (const piece of base.sets) {
          const c = piece.ranges[0]!.min as Char;
          const next: number[] = [];
          for (const n of nodes) for (const e of nfa.chars[n]!) if (e.set.has(c)) next.push(e.to);
          if (next.length === 0) continue;
          const nextGuards = guardStates.map((s, g) => (s < 0 ? -1 : guards[g]!.table.out[s]!.find((e) => e.set.has(c))?.to ?? -1));
          const target = intern(closure(next, nextGuards), nextGuards);
          const list = targets.get(target) ?? [];
          list.push(piece);
          targets.set(target, list);
        }
        for (const [target, pieces] of targets) {
          builder.linkNodes(dfa, target, pieces.length === 1 ? pieces[0]! : CharSet.empty(MAX_CHARACTER).union(...pieces));
        }
      }
    } catch (error) {
      if (error instanceof Error && error.name === "TooManyNodesError") throw new BudgetExceeded("states", budget.limits.states);
      throw error;
    }
    return DFA.fromBuilder(builder, { maxCharacter: MAX_CHARACTER });
  }
}

/** For tests and the JS equality branch: the DFA of one literal string. */
export function wordDfa(text: string): DFA {
  const word: Char[] = [];
  for (let i = 0; i < text.length; i++) word.push(text.charCodeAt(i) as Char);
  return DFA.fromWords([word], { maxCharacter: MAX_CHARACTER });
}

export type { Alternation };
