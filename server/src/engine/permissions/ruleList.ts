import type { CompiledPattern, Operation, Runtime } from "../runtime/runtime";
import { OPERATIONS } from "../runtime/runtime";

/** One `FilesystemPermission` as written in the config: raw JSON values, because the runtimes use them raw. */
export interface PermissionRuleInput {
  operations: unknown;
  paths: unknown;
  /** `undefined` when the key is omitted (means `allow` in both runtimes). */
  mode?: unknown;
}

/** What the rule list answers for one operation on one canonical path. */
export interface RuleDecision {
  /** `allow` covers the permissive default, `mode: "allow"` and unknown modes (they allow, §1.2 V20). */
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
}

/** A trie over literal prefixes: each node lists the entries whose prefix ends exactly there. */
interface TrieNode {
  children: Map<number, TrieNode>;
  entries: number[];
}

const newNode = (): TrieNode => ({ children: new Map(), entries: [] });

/**
 * A rule list compiled once for one runtime: first match wins, permissive default (§3.1).
 *
 * Speed without a cache: per operation, every pattern sits in a trie under the literal text its matches must
 * start with. A decision walks the path once through the trie, which yields the few candidate patterns in a
 * bit set; they are then tried in rule order, so the first one that matches is the runtime's first match.
 */
export class CompiledRuleList {
  readonly rules: readonly PermissionRuleInput[];
  private readonly byOperation = new Map<Operation, { entries: Entry[]; root: TrieNode; words: number }>();

  constructor(readonly runtime: Runtime, rules: readonly PermissionRuleInput[]) {
    this.rules = rules;
    const compiled = new Map<string, CompiledPattern>();
    const compile = (p: string) => {
      let c = compiled.get(p);
      if (!c) compiled.set(p, (c = runtime.compilePattern(p)));
      return c;
    };
    for (const op of OPERATIONS) {
      const entries: Entry[] = [];
      rules.forEach((rule, ruleIndex) => {
        const failure = runtime.ruleCallFailure(rule, op);
        if (failure) {
          // Reached only when no earlier rule matched; then the tool call itself raises (empty prefix: always a candidate).
          entries.push({ ruleIndex, patternIndex: -1, pattern: { pattern: "", matches: () => false, unusable: failure, literalPrefix: "" } });
          return;
        }
        if (!runtime.operationsCover(rule.operations, op) || !Array.isArray(rule.paths)) return;
        rule.paths.forEach((p, patternIndex) => {
          if (typeof p === "string" && p.length > 0) entries.push({ ruleIndex, patternIndex, pattern: compile(p) });
        });
      });
      const root = newNode();
      entries.forEach((entry, id) => {
        let node = root;
        for (let i = 0; i < entry.pattern.literalPrefix.length; i++) {
          const code = entry.pattern.literalPrefix.charCodeAt(i);
          let next = node.children.get(code);
          if (!next) node.children.set(code, (next = newNode()));
          node = next;
        }
        node.entries.push(id);
      });
      this.byOperation.set(op, { entries, root, words: Math.ceil(entries.length / 32) || 1 });
    }
  }

  get isEmpty(): boolean {
    return this.rules.length === 0;
  }

  decide(op: Operation, canonicalPath: string): RuleDecision {
    const table = this.byOperation.get(op)!;
    const { entries } = table;
    if (entries.length === 0) return DEFAULT_ALLOW;
    // A Python tool path may keep two leading slashes (§1.3 C3) that no literal prefix accounts for.
    if (canonicalPath.startsWith("//")) {
      for (let id = 0; id < entries.length; id++) {
        const hit = this.tryEntry(entries[id]!, canonicalPath);
        if (hit) return hit;
      }
      return DEFAULT_ALLOW;
    }
    const candidates = new Uint32Array(table.words);
    let node: TrieNode | undefined = table.root;
    for (let i = 0; node; i++) {
      for (const id of node.entries) candidates[id >>> 5]! |= 1 << (id & 31);
      if (i >= canonicalPath.length) break;
      node = node.children.get(canonicalPath.charCodeAt(i));
    }
    for (let w = 0; w < candidates.length; w++) {
      let bits = candidates[w]!;
      while (bits !== 0) {
        const low = bits & -bits;
        const id = (w << 5) + 31 - Math.clz32(low);
        bits ^= low;
        const hit = this.tryEntry(entries[id]!, canonicalPath);
        if (hit) return hit;
      }
    }
    return DEFAULT_ALLOW;
  }

  private tryEntry(entry: Entry, path: string): RuleDecision | undefined {
    if (entry.pattern.unusable) {
      return { decision: "allow", ruleIndex: entry.ruleIndex, patternIndex: entry.patternIndex, mode: undefined, failure: entry.pattern.unusable };
    }
    if (!entry.pattern.matches(path)) return undefined;
    const mode = this.rules[entry.ruleIndex]!.mode;
    // Only the exact string "deny" blocks; a missing or unknown mode allows and stops here (§3.1, V20).
    const decision = mode === "deny" ? "deny" : mode === "interrupt" && this.runtime.modes.includes("interrupt") ? "interrupt" : "allow";
    return { decision, ruleIndex: entry.ruleIndex, patternIndex: entry.patternIndex, mode };
  }
}

const DEFAULT_ALLOW: RuleDecision = Object.freeze({ decision: "allow", ruleIndex: -1, patternIndex: -1, mode: undefined });
