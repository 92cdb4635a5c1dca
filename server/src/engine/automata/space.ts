import type { DFA } from "refa";
import type { Budget } from "./budget";
import { Alphabet, findWord, type Condition, type Table } from "./tables";

/**
 * All the automata of one analysis over one shared alphabet, with the two questions the checks ask: is there a
 * path meeting these conditions, and which short, readable path shows it.
 */
export class PathSpace {
  readonly alphabet: Alphabet;
  private readonly included: Set<DFA>;
  private readonly prefixes = new Map<Table, string>();

  /**
   * @param languages every DFA a question may mention (they define the alphabet's classes)
   * @param candidates paths to try first as witnesses, best first (the sample workspace's files)
   * @param readable the DFA of plain-looking paths
   */
  constructor(languages: Iterable<DFA>, readonly candidates: readonly string[], private readonly readable: DFA) {
    this.included = new Set(languages);
    this.included.add(readable);
    this.alphabet = new Alphabet(this.included);
  }

  table(dfa: DFA): Table {
    if (!this.included.has(dfa)) throw new Error("PathSpace: this automaton was not part of the alphabet");
    return this.alphabet.table(dfa);
  }

  /** A shortest word (class indices) meeting the conditions (proof of existence), or `undefined` (proof of absence). */
  find(conditions: readonly Condition[], budget: Budget): number[] | undefined {
    return findWord(conditions, budget, this.alphabet.classes.length);
  }

  exists(conditions: readonly Condition[], budget: Budget): boolean {
    return this.find(conditions, budget) !== undefined;
  }

  /**
   * A path meeting the conditions, chosen for a person: a sample-workspace path if one qualifies, else the shortest
   * plain-looking one, else the shortest at all. `alphabet` says how the paths' characters are read.
   */
  witness(conditions: readonly Condition[], budget: Budget, alphabet: "utf16" | "codepoints"): string | undefined {
    for (const candidate of this.candidates) if (this.meets(candidate, conditions, alphabet)) return candidate;
    const readable = this.find([...conditions, { any: [this.table(this.readable)], want: true }], budget);
    const word = readable ?? this.find(conditions, budget);
    return word ? this.text(word) : undefined;
  }

  /** Does the path meet every condition? (Used for candidates; the caller still verifies against the runtime.) */
  meets(path: string, conditions: readonly Condition[], alphabet: "utf16" | "codepoints"): boolean {
    const classes = this.classesOf(path, alphabet);
    return conditions.every((c) => c.any.some((t) => t.accepts(classes)) === c.want);
  }

  classesOf(path: string, alphabet: "utf16" | "codepoints"): number[] {
    const chars: number[] = [];
    if (alphabet === "utf16") for (let i = 0; i < path.length; i++) chars.push(path.charCodeAt(i));
    else for (const ch of path) chars.push(ch.codePointAt(0)!);
    return chars.map((c) => this.alphabet.classOf(c));
  }

  /** The path a word spells. */
  text(word: readonly number[]): string {
    return String.fromCodePoint(...word.map((k) => this.alphabet.representative[k]!));
  }

  /**
   * The literal text every path of the language starts with (read off the automaton, so never more than the truth).
   * Used to skip questions about rules that cannot overlap.
   */
  prefixOf(table: Table): string {
    let known = this.prefixes.get(table);
    if (known !== undefined) return known;
    known = forwardPrefix(table, this.alphabet);
    this.prefixes.set(table, known);
    return known;
  }
}

/** Two groups of patterns can share a path only if one's literal prefix extends the other's. */
export function prefixesCompatible(a: string, b: string): boolean {
  return a.length <= b.length ? b.startsWith(a) : a.startsWith(b);
}

/**
 * Walk the automaton from its initial state: as long as no path can stop here and every way on reads one and the
 * same character, that character is the next one of the prefix every accepted path starts with.
 */
function forwardPrefix(table: Table, alphabet: Alphabet): string {
  const { width, next } = table;
  let state = table.initial;
  let prefix = "";
  for (let step = 0; step < 256 && state >= 0 && table.live[state]; step++) {
    if (table.final[state]) break;
    let only = -1;
    for (let k = 0; k < width; k++) {
      const t = next[state * width + k]!;
      if (t < 0 || !table.live[t]) continue;
      if (only !== -1) {
        only = -2;
        break;
      }
      only = k;
    }
    if (only < 0) break;
    const set = alphabet.classes[only]!;
    if (set.ranges.length !== 1 || set.ranges[0]!.min !== set.ranges[0]!.max) break;
    prefix += String.fromCodePoint(set.ranges[0]!.min);
    state = next[state * width + only]!;
  }
  return prefix;
}
