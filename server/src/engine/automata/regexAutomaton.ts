import { CharBase, CharSet, DFA, JS, TooManyNodesError, type Char } from "refa";
import { quotedText } from "../config/describe";
import type { Assertion, Concatenation, Element, Expression, NoParent, Quantifier } from "refa";
import { Budget, BudgetExceeded, NotAnalysable } from "./budget";
import { sharedCache } from "../caches";
import { wordsKey } from "./walk/hashing";
import { groupStructure } from "../runtime/literalPrefix";

/**
 * A JavaScript regular expression, matched against a whole string, as an exact minimal DFA.
 *
 * refa reads the regular expression into its AST, but cannot build an automaton through lookarounds, and both
 * matchers' regular expressions are full of them (picomatch: `(?!\.{1,2}(?:\/|$))`, `(?=.)`,
 * `(?:(?!(?:^|\/)\.{1,2}(?:\/|$)).)*?`; the wcmatch port: `(?:^|(?=\n?$)|[\/])+`). They are still regular, and we
 * build them exactly by reading the input backwards:
 *
 * - A lookahead at position i is a condition on the suffix w[i:]. Read backwards, that suffix is exactly what has
 *   been read so far, so the condition becomes "the reversed input read so far is in rev(S)", S being the suffixes
 *   the lookahead accepts. A DFA for rev(S) (a *guard*) runs alongside, and the assertion becomes an ε-move allowed
 *   only when the guard is (positive) or is not (negative) accepting. rev(S) = Σ*·rev(body), built the same way,
 *   so lookaheads nest. `$` is the lookahead `(?![^])` and needs nothing special.
 * - `^` (refa: `(?<![^])`) is "forward position 0", i.e. "the backwards reading ends here". A forward pass first
 *   works out, for every assertion, whether its position can be 0 and whether it can be later. Where only one is
 *   possible `^` is a constant; where both are, the ε-move marks the NFA state "must end now" (and a lookahead whose
 *   body holds `^` splits into its position-0 and its later variant, the latter marked "must read more").
 * - Any other lookbehind, and backreferences refa cannot resolve, are `NotAnalysable`: never a guess.
 *
 * The product of the reversed ε-NFA, its guards and those marks is determinised directly (subset construction),
 * which gives a DFA of the reversed language; determinising *its* reverse gives the language's minimal DFA
 * (Brzozowski). Both steps run on a small alphabet of character classes (refa's `CharBase`); the result is a refa DFA.
 */
export interface RegexSource {
  readonly source: string;
  readonly flags: string;
}

const ZERO = 1; // the position may be 0
const POS = 2; // the position may be > 0

/** NFA item marks: `END` = no character may follow (forward position 0); `MORE` = one must (position > 0). */
const END = 1;
const MORE = 2;

interface Edge {
  readonly to: number;
  readonly set: CharSet;
}

interface GuardEdge {
  readonly to: number;
  readonly guard: number;
  readonly mark: number;
}

/** A reversed ε-NFA under construction. Edges carry a mark (`END`/`MORE`) the item takes on when crossing them. */
class GuardedNfa {
  readonly eps: { to: number; mark: number }[][] = [];
  readonly chars: Edge[][] = [];
  readonly guards: GuardEdge[][] = [];
  constructor(private readonly budget: Budget) {}
  node(): number {
    this.budget.spend();
    this.eps.push([]);
    this.chars.push([]);
    this.guards.push([]);
    return this.eps.length - 1;
  }
}

/**
 * A DFA over a small alphabet of its own: `classes` are disjoint character sets, `next[s * width + k]` is the
 * state after reading a character of class k in state s (-1: dead). State 0 is the initial state.
 */
export interface ClassDfa {
  readonly classes: readonly CharSet[];
  readonly size: number;
  readonly next: Int32Array;
  readonly finals: Uint8Array;
}

interface Guard {
  readonly negate: boolean;
  readonly dfa: ClassDfa;
}

/** Guard DFAs repeat across patterns (`NO_DOT`, `NO_DOTS`, `ONE_CHAR`, `$`, wcmatch's separators): built once. */
const guardCache = sharedCache<string, ClassDfa>("automata/regexAutomaton.guardCache", { entries: 1024 });

function parse(regex: RegexSource, budget: Budget): { expression: NoParent<Expression>; maxCharacter: Char } {
  // refa's parser cannot be stopped by the budget's clock, and on a regular expression with more nodes than it may
  // create it gives up only after a time that grows with the text (about 0.5 s at 100,000 characters, for a
  // pattern's analysis budgeted at 250 ms): such a text is not read at all.
  if (regex.source.length > MAX_REGEX_CHARACTERS) throw new BudgetExceeded("characters", MAX_REGEX_CHARACTERS, regex.source.length);
  try {
    const parser = JS.Parser.fromLiteral({ source: regex.source, flags: regex.flags });
    return parser.parse({ backreferences: "throw", assertions: "parse", maxNodes: MAX_REGEX_NODES });
  } catch (error) {
    // (refa's classes are minified: only `instanceof` tells its errors apart.)
    if (error instanceof TooManyNodesError) throw new BudgetExceeded("states", budget.limits.states);
    throw new NotAnalysable(`refa cannot read the regular expression ${quotedText(`/${regex.source}/${regex.flags}`)}: ${(error as Error).message}`);
  }
}

/** What refa's parser may build of one regular expression (nodes of its syntax tree). */
const MAX_REGEX_NODES = 20_000;
/**
 * Longer regular expressions are not parsed: far beyond any real pattern's (tens to hundreds of characters), and
 * above the node limit's reach for all but texts made of long escapes.
 */
export const MAX_REGEX_CHARACTERS = 30_000;

/**
 * The minimal DFA of L, the strings `regex` matches from start to end: the guarded subset construction gives a DFA
 * of rev(L); determinising its reverse gives L's minimal DFA (Brzozowski: the reverse of an accessible DFA,
 * determinised, is minimal).
 */
export function regexDfa(regex: RegexSource, budget: Budget): DFA {
  // Past what the analysis reads, the long way says so (a budget skip of its own, whatever the expression's shape).
  if (regex.source.length > MAX_REGEX_CHARACTERS) return constructedRegexDfa(regex, budget);
  const chain = plainPathChain(regex);
  if (chain) return toRefa(chain.dfa, chain.maxCharacter, budget);
  return splicedRegexDfa(regex, budget) ?? constructedRegexDfa(regex, budget);
}

/**
 * A regular expression that starts with a plain path (`^(?:\/workspace\/packages\/(?:web|api)\/…)$`), as that
 * path's chain of states followed by the automaton of the rest, built once for every expression with the same
 * rest: a large config's patterns are a few shapes (`…/**`, `…/**\/*.{ts,tsx}`) under many folders, and the
 * construction of each whole expression was most of the time its patterns took.
 *
 * Why it is exact: the plain part matches only its own text, and the rest cannot look back at it (the only
 * lookbehind the construction reads is `^`, which is false anywhere after the first character; lookaheads look
 * forward). So the language is the plain text followed by what the rest matches at any position after the first,
 * which is what `^(?:aREST)$` matches after its `a`. The chain joins the rest's states where they accept the same
 * suffixes (a folder's chain can end as the rest repeats it), so the result is the minimal DFA of the expression, the one the long construction gives
 * (test/automata/regexAutomaton.test.ts holds the two to the same automaton on every pattern of the generated
 * configs). `undefined` when the expression has no such start, or the rest cannot be built (then the whole
 * expression is read the long way, with its own errors and budget).
 */
function splicedRegexDfa(regex: RegexSource, budget: Budget): DFA | undefined {
  const split = plainPrefixSplit(regex);
  if (!split) return undefined;
  const { trie } = split;
  // A start with more states than the budget allows goes the long way, which says so as it always did.
  if (trie.size >= budget.remainingStates) return undefined;
  const restText = sortedWordGroups(split.rest);
  const restKey = `${regex.flags}/${restText}`;
  let rest = restCache.get(restKey);
  if (rest === undefined) {
    try {
      // A budget of its own: a rest that cannot be built leaves the whole expression's budget as it was.
      rest = restCache.set(restKey, restStates(constructedRegexDfa({ source: `^(?:a${restText})$`, flags: regex.flags }, new Budget(budget.limits))));
    } catch (error) {
      if (error instanceof BudgetExceeded || error instanceof NotAnalysable) return undefined;
      throw error;
    }
  }
  const maxCharacter: Char = regex.flags.includes("u") ? 0x10ffff : 0xffff;
  return budget.run(() => {
    const builder = new DFA.Builder(new DFA.LimitedNodeFactory(budget.remainingStates));
    // Nothing follows the start: no path at all, the one state of the empty language.
    if (!rest) return DFA.fromBuilder(builder, { maxCharacter });
    // The start's states, from its leaves up, each its class of states that accept the same suffixes: a state of
    // the rest (which is minimal) when it does what that state does (the start `/a` of `/a(?:/a)*`), or one state
    // for every state of the start that does the same (`web` and `api` in `(?:web|api)\/src…`). What a state does:
    // it never accepts, leads by each character to a class, and loops on `/` or not. Classes are decided from the
    // leaves up, so states with the same classes below and the same characters are the same, and the result is
    // minimal: the minimal DFA of the expression, the one the long construction gives.
    const restOf = new Int32Array(trie.size).fill(-1);
    const classOf = new Int32Array(trie.size).fill(-1);
    const classes: { loops: boolean; edges: [number, number][] }[] = [];
    const classIds = new Map<string, number>();
    // A target is a state of the rest (its number) or a class of the start (-1 - class).
    const targetOf = (child: number): number => (child === JOIN ? 0 : restOf[child]! >= 0 ? restOf[child]! : -1 - classOf[child]!);
    for (let node = trie.size - 1; node >= 0; node--) {
      const loops = trie.loops[node]!;
      const edges: [number, number][] = [...trie.children[node]!].map(([char, child]) => [char, targetOf(child)] as [number, number]).sort((x, y) => x[0] - y[0]);
      if (edges.every(([, t]) => t >= 0)) {
        for (let q = 0; q < rest.size && restOf[node]! < 0; q++) if (!rest.final[q] && doesOnly(rest, q, edges, loops)) restOf[node] = q;
        if (restOf[node]! >= 0) continue;
      }
      const key = `${loops ? 1 : 0}:${edges.join(";")}`;
      let id = classIds.get(key);
      if (id === undefined) {
        classIds.set(key, (id = classes.length));
        classes.push({ loops, edges });
      }
      classOf[node] = id;
    }
    const rootTarget = targetOf(0);
    const restNodes: DFA.Node[] = [];
    for (let q = 0; q < rest.size; q++) restNodes.push(rootTarget === q ? builder.initial : builder.createNode());
    const classNodes: DFA.Node[] = classes.map((_, id) => (rootTarget === -1 - id ? builder.initial : builder.createNode()));
    const nodeOf = (target: number): DFA.Node => (target >= 0 ? restNodes[target]! : classNodes[-1 - target]!);
    for (let q = 0; q < rest.size; q++) {
      if (rest.final[q]) builder.makeFinal(restNodes[q]!);
      for (const [to, set] of rest.edges[q]!) builder.linkNodes(restNodes[q]!, restNodes[to]!, set);
    }
    classes.forEach(({ loops, edges }, id) => {
      const from = classNodes[id]!;
      const byTarget = new Map<DFA.Node, number[]>();
      const add = (to: DFA.Node, char: number) => {
        const chars = byTarget.get(to);
        if (chars) chars.push(char);
        else byTarget.set(to, [char]);
      };
      if (loops) add(from, 0x2f);
      for (const [char, target] of edges) add(nodeOf(target), char);
      for (const [to, chars] of byTarget) builder.linkNodes(from, to, CharSet.fromCharacters(maxCharacter, chars));
    });
    return DFA.fromBuilder(builder, { maxCharacter });
  });
}

/** A plain start's words as a trie: per node, its characters to children (`JOIN`: into the rest), and whether it loops on `/`. */
interface PrefixTrie {
  readonly size: number;
  readonly children: readonly ReadonlyMap<number, number>[];
  readonly loops: readonly boolean[];
}
const JOIN = -1;
/**
 * The words as a trie; undefined when one word is a start of another (its end would be both in the trie and in the
 * rest) or two words through one node read its `/` differently. The same word twice (`(?:a|a)`) is one path.
 */
function prefixTrie(words: readonly (readonly Step[])[]): PrefixTrie | undefined {
  const children: Map<number, number>[] = [new Map()];
  const loops: (boolean | undefined)[] = [undefined];
  for (const word of words) {
    let node = 0;
    for (let k = 0; k < word.length; k++) {
      const step = word[k]!;
      // Two words through one node read its `/` the same way (a run of slashes, or one), or the trie is not a DFA.
      if (loops[node] === undefined) loops[node] = step.loops;
      else if (loops[node] !== step.loops) return undefined;
      const known = children[node]!.get(step.char);
      if (k === word.length - 1) {
        // No word is a start of another (plainPrefixSplit): the last character leads into the rest.
        if (known !== undefined && known !== JOIN) return undefined;
        children[node]!.set(step.char, JOIN);
        break;
      }
      if (known === JOIN) return undefined;
      let child = known;
      if (child === undefined) {
        child = children.length;
        children.push(new Map());
        loops.push(undefined);
        children[node]!.set(step.char, child);
      }
      node = child;
    }
  }
  return { size: children.length, children, loops: loops.map((l) => l ?? false) };
}

/** Whether state `q` of the rest leads by exactly `edges` (character, state), loops on `/` when `loops`, and does nothing else. */
function doesOnly(rest: RestStates, q: number, edges: readonly (readonly [number, number])[], loops: boolean): boolean {
  let seen = 0;
  for (const [target, set] of rest.edges[q]!) {
    for (const range of set.ranges) {
      for (let c = range.min; c <= range.max; c++) {
        const edge = edges.find(([char]) => char === c);
        if (edge ? edge[1] !== target : !(loops && c === 0x2f && target === q)) return false;
        seen++;
      }
    }
  }
  return seen === edges.length + (loops ? 1 : 0);
}

/**
 * `rest` with the words of each group of plain words in sorted order (`\.(py|json)` reads as `\.(json|py)`): the
 * same language, as an expression without backreferences (the splice takes no other) matches whichever
 * alternative comes first, so rests that differ only so share one automaton (brace patterns list their words in
 * any order). Character classes and escapes are copied as they are.
 */
export function sortedWordGroups(rest: string): string {
  const words = /(?:\?:)?([A-Za-z0-9_-]+(?:\|[A-Za-z0-9_-]+)+)\)/y;
  let out = "";
  let inClass = false;
  for (let i = 0; i < rest.length; i++) {
    const c = rest[i]!;
    if (c === "\\") {
      out += rest.slice(i, i + 2);
      i++;
      continue;
    }
    if (inClass) {
      if (c === "]") inClass = false;
    } else if (c === "[") {
      inClass = true;
    } else if (c === "(") {
      words.lastIndex = i + 1;
      const group = words.exec(rest);
      if (group) {
        const opens = group[0].startsWith("?:") ? "(?:" : "(";
        out += `${opens}${group[1]!.split("|").sort().join("|")})`;
        i = words.lastIndex - 1;
        continue;
      }
    }
    out += c;
  }
  return out;
}

/**
 * The states of a rest's automaton from its start on (the state after `^(?:a…)$` reads its `a`, numbered 0), each
 * with its edges grouped by target: what every expression with that rest joins its chain to.
 */
interface RestStates {
  readonly size: number;
  readonly final: readonly boolean[];
  readonly edges: readonly (readonly (readonly [number, CharSet])[])[];
}

function restStates(dfa: DFA): RestStates | null {
  const start = dfa.initial.out.get(0x61);
  if (!start) return null;
  const ids = new Map<DFA.ReadonlyNode, number>([[start, 0]]);
  const order: DFA.ReadonlyNode[] = [start];
  const edges: [number, CharSet][][] = [];
  for (let q = 0; q < order.length; q++) {
    const byTarget = new Map<number, CharSet>();
    for (const [range, target] of order[q]!.out) {
      let id = ids.get(target);
      if (id === undefined) {
        ids.set(target, (id = order.length));
        order.push(target);
      }
      const set = byTarget.get(id);
      byTarget.set(id, set ? set.union([range]) : CharSet.empty(dfa.maxCharacter).union([range]));
    }
    edges.push([...byTarget]);
  }
  return { size: order.length, final: order.map((n) => dfa.finals.has(n as DFA.Node)), edges };
}

/** The automata of the rests `splicedRegexDfa` joins to a plain start (null: the rest matches nothing after `a`). */
const restCache = sharedCache<string, RestStates | null>("automata/regexAutomaton.restCache", { entries: 4000 });

/** Whether `regexDfa` builds `regex` from a plain start and a shared rest (`splicedRegexDfa`), when it can. */
export function hasPlainStart(regex: RegexSource): boolean {
  return !isPlainPathRegex(regex) && plainPrefixSplit(regex) !== undefined;
}

/** One character of a plain start, and whether the state before it loops on `/` (after a run of slashes). */
interface Step {
  readonly char: number;
  readonly loops: boolean;
}

/** How many words a plain start with groups may spell (`(?:web|api|cli)` twice is nine). */
const MAX_START_WORDS = 64;

/**
 * A regular expression `^(?:BODY)$` whose BODY starts with plain path tokens (`PLAIN_PATH_TOKEN`) and groups of
 * alternatives made of them (`(web|api|cli)`, picomatch's braces), ending in a character other than `/`, then
 * more, with no alternative at its top level and no backreference: the words of that start (as `plainPathChain` reads them: each
 * step's character, and whether its state loops on `/`) as a trie (`prefixTrie`: none a start of another), and the
 * source of the rest. The
 * start never ends right before a quantifier (which would repeat its last character or group).
 */
function plainPrefixSplit(regex: RegexSource): { trie: PrefixTrie; rest: string } | undefined {
  if (!/^[su]*$/.test(regex.flags) || !regex.source.startsWith("^(?:") || !regex.source.endsWith(")$")) return undefined;
  const body = regex.source.slice(4, -2);
  const token = new RegExp(PLAIN_PATH_TOKEN.source, "y");
  const tokenAt = (at: number): string | undefined => {
    token.lastIndex = at;
    return token.exec(body)?.[0];
  };
  const quantified = (at: number) => /^[*+?{]/.test(body.slice(at, at + 1));
  // Items: a token, or a group's alternatives (lists of tokens); `ends[i]`: where item i ends in the body.
  const items: (string | string[][])[] = [];
  const ends: number[] = [];
  let at = 0;
  for (;;) {
    const t = tokenAt(at);
    if (t !== undefined) {
      items.push(t);
      ends.push((at += t.length));
      continue;
    }
    // A group, capturing (picomatch writes braces so) or not: the same strings either way, with no backreference.
    const opens = body.startsWith("(?:", at) ? 3 : body[at] === "(" && body[at + 1] !== "?" ? 1 : 0;
    const group = opens > 0 ? plainGroup(body, at + opens, tokenAt) : undefined;
    if (!group || quantified(group.end)) break;
    items.push(group.alternatives);
    ends.push((at = group.end));
  }
  // Back to an item that ends in a character other than `/` (in every alternative) that no quantifier follows.
  const isSlash = (t: string) => t.startsWith("[") || t === "\\/";
  while (items.length > 0) {
    const last = items[items.length - 1]!;
    const endsPlain = typeof last === "string" ? !isSlash(last) : last.every((alt) => alt.length > 0 && !isSlash(alt[alt.length - 1]!));
    if (endsPlain && !quantified(ends[ends.length - 1]!)) break;
    items.pop();
    ends.pop();
  }
  const used = ends[ends.length - 1] ?? 0;
  // Balanced groups and no alternative outside them: a start of the text is a start of every match. No escape that
  // may name a group: the rest, built without the start's groups, would read it otherwise (without the `u` flag, a
  // backreference past the last group is an octal escape, the character U+0001 for the first).
  const groups = groupStructure(body);
  if (items.length === 0 || used === body.length || !groups.balanced || groups.topLevelAlternation || groups.backreference) return undefined;
  let spellings: string[][] = [[]];
  for (const item of items) {
    // (A token is added to each spelling in place: a start of thousands of characters must not be copied at each.)
    if (typeof item === "string") for (const w of spellings) w.push(item);
    else spellings = spellings.flatMap((w) => item.map((alt) => [...w, ...alt]));
    if (spellings.length > MAX_START_WORDS) return undefined;
  }
  const words: Step[][] = [];
  for (const spelling of spellings) {
    const steps = stepsOf(spelling)?.steps;
    if (!steps) return undefined;
    words.push(steps);
  }
  const trie = prefixTrie(words);
  return trie && { trie, rest: body.slice(used) };
}

/** A group `(?:…|…)` of plain tokens starting at `at` (just after `(?:`): its alternatives and where it ends. */
function plainGroup(body: string, at: number, tokenAt: (at: number) => string | undefined): { alternatives: string[][]; end: number } | undefined {
  const alternatives: string[][] = [[]];
  while (at < body.length) {
    if (body[at] === ")") return { alternatives, end: at + 1 };
    if (body[at] === "|") {
      alternatives.push([]);
      at++;
      continue;
    }
    const t = tokenAt(at);
    if (t === undefined) return undefined;
    alternatives[alternatives.length - 1]!.push(t);
    at += t.length;
  }
  return undefined;
}

/**
 * Plain path tokens as steps, and whether the state after the last loops on `/`; undefined where a literal `/`
 * follows a run of slashes (the chain would not be deterministic: not a plain path's).
 */
function stepsOf(tokens: readonly string[]): { steps: Step[]; loops: boolean } | undefined {
  const steps: Step[] = [];
  let loops = false;
  for (const t of tokens) {
    if (t.startsWith("[")) {
      // `[/]+`: a slash, then a state that loops on slashes (a second run right after adds nothing).
      if (loops) continue;
      steps.push({ char: 0x2f, loops: false });
      loops = true;
      continue;
    }
    const char = t.length === 2 ? t.charCodeAt(1) : t.charCodeAt(0);
    if (loops && char === 0x2f) return undefined;
    steps.push({ char, loops });
    loops = false;
  }
  return { steps, loops };
}


/** `regexDfa` the long way, whatever the regular expression (what a plain path's chain is held to in the tests). */
export function constructedRegexDfa(regex: RegexSource, budget: Budget): DFA {
  const parsed = parse(regex, budget);
  const reversed = new Builder(budget, regex, parsed.maxCharacter, parsed.expression.alternatives, ZERO).determinize(false);
  return toRefa(reverseDeterminize(reversed, budget), parsed.maxCharacter, budget);
}

/**
 * A plain path's regular expression: what both matchers write for a pattern without wildcards, braces, classes or
 * escapes of their own. picomatch: `^(?:\/workspace\/notes\.md)$`, the word itself; the wcmatch port:
 * `^(?:[\u{2f}]+workspace[\u{2f}]+notes\.md[\u{2f}]*?)$` (flags `su`), where a `/` is one or more slashes and
 * a trailing run of them is allowed. Literal characters are letters, digits, space, `_` and `-`, and the escapes
 * `\.`, `\/` and `\-`.
 */
const PLAIN_PATH_REGEX = /^\^\(\?:((?:[A-Za-z0-9 _-]|\\[./-]|\[\\u\{2f\}\]\+)*)(\[\\u\{2f\}\]\*\?)?\)\$$/;
const PLAIN_PATH_TOKEN = /[A-Za-z0-9 _-]|\\[./-]|\[\\u\{2f\}\]\+/g;

/** Whether `regexDfa` reads `regex` as a plain path's (`PLAIN_PATH_REGEX`, without flags that change what it matches). */
export function isPlainPathRegex(regex: RegexSource): boolean {
  return /^[su]*$/.test(regex.flags) && PLAIN_PATH_REGEX.test(regex.source);
}

/**
 * Such a regular expression's minimal DFA, read off its text: a chain of states, one per character, where a run of
 * slashes loops on `/`. (A third of a 1,000-rule config's patterns are plain paths: their regular expressions
 * went through the whole construction below for a chain.) The states are numbered along the chain, as the
 * construction numbers them (breadth first from the initial state; a chain has one way on from each state), so the
 * DFA is the one `regexDfa` builds for them the long way, node for node (test/automata/regexAutomaton.test.ts). No
 * two states of the chain accept the same suffixes: each needs a different count of non-slash characters, or of
 * slashes, to reach the end. `undefined` for any other regular expression.
 */
function plainPathChain(regex: RegexSource): { dfa: ClassDfa; maxCharacter: Char } | undefined {
  if (!isPlainPathRegex(regex)) return undefined;
  const whole = PLAIN_PATH_REGEX.exec(regex.source)!;
  const maxCharacter = regex.flags.includes("u") ? 0x10ffff : 0xffff;
  const SLASH = 0x2f;
  // Per state: the character leading on (-1 at the end), and whether the state loops on `/`.
  const read = stepsOf([...whole[1]!.matchAll(PLAIN_PATH_TOKEN)].map(([token]) => token));
  if (!read) return undefined;
  // A trailing `[/]*?` lets the last state loop on slashes, unless it does already.
  const steps: Step[] = [...read.steps, { char: -1, loops: read.loops || whole[2] !== undefined }];
  const size = steps.length;
  const chars = [...new Set(steps.filter((s) => s.char >= 0 || s.loops).flatMap((s) => [...(s.char >= 0 ? [s.char] : []), ...(s.loops ? [SLASH] : [])]))].sort((a, b) => a - b);
  const classes = chars.map((c) => CharSet.fromCharacter(maxCharacter, c));
  const width = classes.length;
  const next = new Int32Array(size * width).fill(-1);
  steps.forEach((step, s) => {
    if (step.loops) next[s * width + chars.indexOf(SLASH)] = s;
    if (step.char >= 0) next[s * width + chars.indexOf(step.char)] = s + 1;
  });
  const finals = new Uint8Array(size);
  finals[size - 1] = 1;
  return { dfa: { classes, size, next, finals }, maxCharacter };
}

/** Subset construction of the reverse of `dfa`: state sets of `dfa` (as bit sets), starting from its final states. */
function reverseDeterminize(dfa: ClassDfa, budget: Budget): ClassDfa {
  const width = dfa.classes.length;
  const words = Math.max(1, Math.ceil(dfa.size / 32));
  // predecessors[(k * size + t) * words …]: the states that reach t by class k, as a bit set.
  const predecessors = new Uint32Array(width * dfa.size * words);
  const hasPredecessor = new Uint8Array(width * dfa.size);
  for (let s = 0; s < dfa.size; s++) {
    for (let k = 0; k < width; k++) {
      const t = dfa.next[s * width + k]!;
      if (t < 0) continue;
      predecessors[(k * dfa.size + t) * words + (s >>> 5)]! |= 1 << (s & 31);
      hasPredecessor[k * dfa.size + t] = 1;
    }
  }
  const sets: Uint32Array[] = [];
  const ids = new Map<string, number>();
  const rows: number[] = [];
  const finals: number[] = [];
  const union = new Uint32Array(words);
  const intern = (members: Uint32Array): number => {
    const key = wordsKey(members, words);
    let id = ids.get(key);
    if (id === undefined) {
      budget.spend();
      id = sets.length;
      ids.set(key, id);
      sets.push(members.slice());
      finals.push(members[0]! & 1);
    }
    return id;
  };
  const initial = new Uint32Array(words);
  for (let s = 0; s < dfa.size; s++) if (dfa.finals[s]) initial[s >>> 5]! |= 1 << (s & 31);
  intern(initial);
  for (let i = 0; i < sets.length; i++) {
    const members = sets[i]!;
    for (let k = 0; k < width; k++) {
      union.fill(0);
      let any = false;
      for (let w = 0; w < words; w++) {
        let bits = members[w]!;
        while (bits !== 0) {
          const low = bits & -bits;
          const t = (w << 5) + 31 - Math.clz32(low);
          bits ^= low;
          if (!hasPredecessor[k * dfa.size + t]) continue;
          const base = (k * dfa.size + t) * words;
          for (let x = 0; x < words; x++) union[x]! |= predecessors[base + x]!;
          any = true;
        }
      }
      rows.push(any ? intern(union) : -1);
    }
  }
  return { classes: dfa.classes, size: sets.length, next: Int32Array.from(rows), finals: Uint8Array.from(finals) };
}

/** A short text naming a list of small non-negative numbers (a map key): one UTF-16 unit each below 0xFFFF. */
function keyOf(numbers: ArrayLike<number>): string {
  let key = "";
  for (let i = 0; i < numbers.length; i++) {
    const n = numbers[i]!;
    key += n >= 0 && n < 0xffff ? String.fromCharCode(n) : `\uffff${n},`;
  }
  return key;
}

function sameNumbers(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A class DFA as a refa DFA (the form the rest of the analysis and refa's own operations take). */
function toRefa(dfa: ClassDfa, maxCharacter: Char, budget: Budget): DFA {
  return budget.run(() => {
    const builder = new DFA.Builder(new DFA.LimitedNodeFactory(budget.remainingStates));
    const nodes: DFA.Node[] = [builder.initial];
    for (let s = 1; s < dfa.size; s++) nodes.push(builder.createNode());
    const width = dfa.classes.length;
    for (let s = 0; s < dfa.size; s++) {
      if (dfa.finals[s]) builder.makeFinal(nodes[s]!);
      const byTarget = new Map<number, CharSet[]>();
      for (let k = 0; k < width; k++) {
        const t = dfa.next[s * width + k]!;
        if (t < 0) continue;
        const list = byTarget.get(t);
        if (list) list.push(dfa.classes[k]!);
        else byTarget.set(t, [dfa.classes[k]!]);
      }
      for (const [t, sets] of byTarget) builder.linkNodes(nodes[s]!, nodes[t]!, sets.length === 1 ? sets[0]! : CharSet.empty(maxCharacter).union(...sets));
    }
    return DFA.fromBuilder(builder, { maxCharacter });
  });
}

type Positions = Map<NoParent<Assertion>, number>;

/** Forward pass: for every assertion, can its position be 0 (`ZERO`) and/or > 0 (`POS`)? */
function flowAlternatives(alternatives: readonly NoParent<Concatenation>[], state: number, at: Positions): number {
  let out = 0;
  for (const alt of alternatives) {
    let s = state;
    for (const element of alt.elements) s = flowElement(element, s, at);
    out |= s;
  }
  return out;
}

function flowElement(element: NoParent<Element>, state: number, at: Positions): number {
  if (state === 0) return 0;
  switch (element.type) {
    case "CharacterClass":
      return element.characters.isEmpty ? 0 : POS;
    case "Alternation":
      return flowAlternatives(element.alternatives, state, at);
    case "Quantifier": {
      let out = element.min === 0 ? state : 0;
      let current = state;
      for (let i = 1; i <= element.max && current !== 0; i++) {
        const next = flowAlternatives(element.alternatives, current, at);
        if (i >= element.min) {
          if ((out | next) === out && next === current) break;
          out |= next;
        }
        current = next;
      }
      return out;
    }
    case "Assertion": {
      at.set(element, (at.get(element) ?? 0) | state);
      // Lookahead bodies get their own pass per entering position (see `Builder.guardFor`).
      if (element.kind === "ahead") return state;
      const anchor = startAnchor(element);
      if (anchor === "start") return state & ZERO;
      if (anchor === "not-start") return state & POS;
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

/** Builds the reversed, guarded ε-NFA of `alternatives` entered at `entry` (ZERO or POS), and determinises it. */
class Builder {
  private readonly guards: Guard[] = [];
  private readonly guardIds = new Map<string, number>();
  private readonly positions: Positions = new Map();
  private readonly all: CharSet;

  constructor(
    private readonly budget: Budget,
    private readonly regex: RegexSource,
    private readonly maxCharacter: Char,
    private readonly alternatives: readonly NoParent<Concatenation>[],
    entry: number,
  ) {
    this.all = CharSet.all(maxCharacter);
    flowAlternatives(alternatives, entry, this.positions);
  }

  /** rev(L(alternatives)); with `anyPrefix`, Σ*·rev(L(alternatives)), which is rev(S) for a lookahead body. */
  determinize(anyPrefix: boolean): ClassDfa {
    const nfa = new GuardedNfa(this.budget);
    const start = nfa.node();
    const end = nfa.node();
    let from = start;
    if (anyPrefix) {
      nfa.chars[start]!.push({ to: start, set: this.all });
      from = nfa.node();
      nfa.eps[start]!.push({ to: from, mark: 0 });
    }
    this.alternativesInto(nfa, this.alternatives, from, end);
    return this.subsetConstruction(nfa, start, end);
  }

  private alternativesInto(nfa: GuardedNfa, alternatives: readonly NoParent<Concatenation>[], from: number, to: number): void {
    for (const alt of alternatives) this.concatenation(nfa, alt, from, to);
  }

  /** Reversed: the last element is read first. */
  private concatenation(nfa: GuardedNfa, concat: NoParent<Concatenation>, from: number, to: number): void {
    const elements = concat.elements;
    if (elements.length === 0) {
      nfa.eps[from]!.push({ to, mark: 0 });
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
        this.alternativesInto(nfa, element.alternatives, from, to);
        return;
      case "Quantifier":
        this.quantifier(nfa, element, from, to);
        return;
      case "Assertion":
        this.assertion(nfa, element, from, to);
        return;
      case "Unknown":
        throw new NotAnalysable(`the regular expression contains \`${element.id}\`, which no finite automaton can express`);
    }
  }

  private quantifier(nfa: GuardedNfa, q: NoParent<Quantifier>, from: number, to: number): void {
    const copies = q.max === Infinity ? q.min + 1 : q.max;
    if (copies > 1000) throw new BudgetExceeded("states", this.budget.limits.states);
    let current = from;
    for (let i = 0; i < q.min; i++) {
      const next = nfa.node();
      this.alternativesInto(nfa, q.alternatives, current, next);
      current = next;
    }
    if (q.max === Infinity) {
      const loop = nfa.node();
      nfa.eps[current]!.push({ to: loop, mark: 0 });
      const back = nfa.node();
      this.alternativesInto(nfa, q.alternatives, loop, back);
      nfa.eps[back]!.push({ to: loop, mark: 0 });
      nfa.eps[loop]!.push({ to, mark: 0 });
      return;
    }
    nfa.eps[current]!.push({ to, mark: 0 });
    for (let i = q.min; i < q.max; i++) {
      const next = i === q.max - 1 ? to : nfa.node();
      this.alternativesInto(nfa, q.alternatives, current, next);
      if (next !== to) nfa.eps[next]!.push({ to, mark: 0 });
      current = next;
    }
  }

  private assertion(nfa: GuardedNfa, a: NoParent<Assertion>, from: number, to: number): void {
    const position = this.positions.get(a) ?? 0;
    if (position === 0) return; // unreachable
    if (a.kind === "behind") {
      const anchor = startAnchor(a);
      if (!anchor) throw new NotAnalysable("the regular expression contains a lookbehind other than `^`");
      const wanted = anchor === "start" ? ZERO : POS;
      if ((position & wanted) === 0) return;
      nfa.eps[from]!.push({ to, mark: position === wanted ? 0 : anchor === "start" ? END : MORE });
      return;
    }
    if (position & ZERO) nfa.guards[from]!.push({ to, guard: this.guardFor(a, ZERO), mark: position === ZERO ? 0 : END });
    if (position & POS) nfa.guards[from]!.push({ to, guard: this.guardFor(a, POS), mark: position === POS ? 0 : MORE });
  }

  private guardFor(a: NoParent<Assertion>, entry: number): number {
    // The assertion's own text names its meaning, given the flags and whether it stands at position 0.
    const text = a.source ? this.regex.source.slice(a.source.start, a.source.end) : JS.toLiteral(a.alternatives, { fastCharacters: true }).source;
    const key = `${entry}/${this.regex.flags}/${text}`;
    const localKey = `${a.negate}:${key}`;
    const known = this.guardIds.get(localKey);
    if (known !== undefined) return known;
    let dfa = guardCache.get(key);
    if (!dfa) {
      // Twice reversed and determinised: the minimal DFA of rev(S) (Brzozowski), so guards stay small.
      const built = new Builder(this.budget, this.regex, this.maxCharacter, a.alternatives, entry).determinize(true);
      dfa = reverseDeterminize(reverseDeterminize(built, this.budget), this.budget);
      guardCache.set(key, dfa);
    }
    const id = this.guards.length;
    this.guards.push({ negate: a.negate, dfa });
    this.guardIds.set(localKey, id);
    return id;
  }

  private subsetConstruction(nfa: GuardedNfa, start: number, end: number): ClassDfa {
    return new SubsetConstruction(nfa, this.guards, this.budget, start, end).run();
  }
}

/**
 * Subset construction over (set of marked ε-NFA items, state of every guard). The guards read the same input, so
 * within one product state their states are fixed and decide which guard edges the ε-closure may take. Works on
 * one alphabet of character classes for the NFA's edges and every guard's (refa's `CharBase`).
 *
 * (A class of small methods rather than one function of closures: it runs for every pattern of a file, and V8
 * optimises small methods sooner and throws less away when one meets a case it had not seen.)
 */
class SubsetConstruction {
  private readonly classes: readonly CharSet[];
  private readonly width: number;
  /** Per NFA node, its character edges as the classes each covers (in increasing order). */
  private readonly edgeClasses: { readonly to: number; readonly classes: readonly number[] }[][];
  /** Per guard, its next state by (state, class) (-1: dead). */
  private readonly guardTables: Int32Array[];
  private readonly ids = new Map<string, number>();
  private readonly work: { items: number[]; guardStates: number[] }[] = [];
  private readonly rows: number[] = [];
  private readonly finals: number[] = [];
  /** An item is node * 4 + mark. Only items that can read a character, or that accept, tell states apart. */
  private readonly important: boolean[];
  private readonly visited: Int32Array;
  private stamp = 0;
  private readonly stack: number[] = [];
  private readonly open: Uint8Array;

  constructor(
    private readonly nfa: GuardedNfa,
    private readonly guards: readonly Guard[],
    private readonly budget: Budget,
    private readonly start: number,
    private readonly end: number,
  ) {
    const sets: CharSet[] = [];
    for (const edges of nfa.chars) for (const e of edges) sets.push(e.set);
    for (const g of guards) sets.push(...g.dfa.classes);
    const base = sets.length === 0 ? undefined : new CharBase(sets);
    this.classes = base?.sets ?? [];
    const width = (this.width = this.classes.length);
    const representative = this.classes.map((c) => c.ranges[0]!.min);
    this.edgeClasses = nfa.chars.map((edges) => edges.map((e) => ({ to: e.to, classes: base!.split(e.set) })));
    this.guardTables = guards.map((g) => {
      const gWidth = g.dfa.classes.length;
      const map = representative.map((c) => g.dfa.classes.findIndex((set) => set.has(c)));
      const table = new Int32Array(g.dfa.size * width);
      for (let state = 0; state < g.dfa.size; state++) for (let k = 0; k < width; k++) table[state * width + k] = map[k]! < 0 ? -1 : g.dfa.next[state * gWidth + map[k]!]!;
      return table;
    });
    this.important = nfa.chars.map((edges, node) => edges.length > 0 || node === end);
    this.visited = new Int32Array(nfa.eps.length * 4);
    this.open = new Uint8Array(guards.length);
  }

  run(): ClassDfa {
    const initialGuards = this.guards.map(() => 0);
    this.intern(this.closure([this.start * 4], initialGuards), initialGuards);
    this.explore();
    return { classes: this.classes, size: this.work.length, next: Int32Array.from(this.rows), finals: Uint8Array.from(this.finals) };
  }

  /**
   * Per state: the targets of each class, and a hash of them with the guards' next states. Classes with the same
   * targets and guard states lead to the same state, worked out once (most classes of a state do: every letter a
   * pattern does not name reads alike), in the same order as one by one, so state numbers do not change.
   */
  private explore(): void {
    const { width, guards, guardTables, edgeClasses, rows, work } = this;
    const targets: number[][] = Array.from({ length: width }, () => []);
    const hashes = new Int32Array(width);
    const nextGuards: number[] = guards.map(() => 0);
    const seen: { hash: number; k: number; guards: number[]; id: number }[] = [];
    for (let i = 0; i < work.length; i++) {
      const { items, guardStates } = work[i]!;
      for (let k = 0; k < width; k++) if (targets[k]!.length > 0) targets[k]!.length = 0;
      hashes.fill(0);
      for (const item of items) {
        if ((item & 3) === END) continue; // must be at the end: reads nothing more
        for (const e of edgeClasses[item >> 2]!) {
          for (const k of e.classes) {
            targets[k]!.push(e.to * 4);
            hashes[k] = Math.imul(hashes[k]! ^ (e.to + 1), 0x9e3779b1);
          }
        }
      }
      seen.length = 0;
      for (let k = 0; k < width; k++) {
        const seeds = targets[k]!;
        if (seeds.length === 0) {
          rows.push(-1);
          continue;
        }
        let hash = hashes[k]!;
        for (let g = 0; g < guards.length; g++) {
          const state = guardStates[g]!;
          const next = state < 0 ? -1 : guardTables[g]![state * width + k]!;
          nextGuards[g] = next;
          hash = Math.imul(hash ^ (next + 2), 0x85ebca6b);
        }
        let id = -1;
        for (let x = 0; x < seen.length && id < 0; x++) {
          const e = seen[x]!;
          if (e.hash === hash && sameNumbers(targets[e.k]!, seeds) && sameNumbers(e.guards, nextGuards)) id = e.id;
        }
        if (id < 0) {
          const guardsHere = nextGuards.slice();
          id = this.intern(this.closure(seeds, guardsHere), guardsHere);
          seen.push({ hash, k, guards: guardsHere, id });
        }
        rows.push(id);
      }
    }
  }

  private closure(seeds: readonly number[], guardStates: readonly number[]): number[] {
    const { guards, open, visited, stack, important, nfa } = this;
    const stamp = ++this.stamp;
    for (let g = 0; g < guards.length; g++) {
      const state = guardStates[g]!;
      const accepting = state >= 0 && guards[g]!.dfa.finals[state] === 1;
      open[g] = accepting !== guards[g]!.negate ? 1 : 0;
    }
    const out: number[] = [];
    for (const seed of seeds) stack.push(seed);
    while (stack.length > 0) {
      const item = stack.pop()!;
      if (visited[item] === stamp) continue;
      visited[item] = stamp;
      const node = item >> 2;
      const mark = item & 3;
      if (important[node]) out.push(item);
      for (const e of nfa.eps[node]!) {
        const m = mark | e.mark;
        if (m !== (END | MORE)) stack.push(e.to * 4 + m);
      }
      for (const g of nfa.guards[node]!) {
        const m = mark | g.mark;
        if (open[g.guard] && m !== (END | MORE)) stack.push(g.to * 4 + m);
      }
    }
    return out.sort((x, y) => x - y);
  }

  private intern(items: number[], guardStates: number[]): number {
    const key = `${keyOf(items)}\uffff|${keyOf(guardStates)}`;
    let id = this.ids.get(key);
    if (id === undefined) {
      this.budget.spend();
      id = this.work.length;
      this.ids.set(key, id);
      this.work.push({ items, guardStates });
      let final = 0;
      for (const item of items) if (item >> 2 === this.end && (item & 3) !== MORE) final = 1;
      this.finals.push(final);
    }
    return id;
  }
}
