import type { PlainPathRegex } from "./runtime";

/**
 * The nondeterministic automaton of a `PlainPathRegex` (Thompson's construction), in flat arrays: the common part
 * of the rule list's automata (permissions/ruleAutomaton.ts) and a deepagents-py pattern's own (pyPlainPath.ts),
 * which each build their deterministic states on top of it their own way.
 */
export class ThompsonNfa {
  /** Per state: the edges that read one character of `set`. */
  protected readonly charEdges: { set: Uint8Array; to: number }[][] = [];
  /** Per state: the ε-edges. */
  protected readonly eps: number[][] = [];
  /** Per state: ε-edges that may be taken only at the end of the input (`$`). */
  protected readonly endEps: number[][] = [];

  protected newState(): number {
    this.charEdges.push([]);
    this.eps.push([]);
    this.endEps.push([]);
    return this.eps.length - 1;
  }

  /** From state `from`, read `re`; returns the state where it ends. */
  protected build(re: PlainPathRegex, from: number): number {
    switch (re.kind) {
      case "set": {
        const to = this.newState();
        this.charEdges[from]!.push({ set: re.set, to });
        return to;
      }
      case "seq": {
        let at = from;
        for (const item of re.items) at = this.build(item, at);
        return at;
      }
      case "alt": {
        const to = this.newState();
        for (const item of re.items) {
          // Each alternative gets its own entry state, so no alternative's edges leak into another's loops.
          const entry = this.newState();
          this.eps[from]!.push(entry);
          this.eps[this.build(item, entry)]!.push(to);
        }
        return to;
      }
      case "star": {
        const loop = this.newState();
        this.eps[from]!.push(loop);
        const body = this.newState();
        this.eps[loop]!.push(body);
        this.eps[this.build(re.item, body)]!.push(loop);
        const out = this.newState();
        this.eps[loop]!.push(out);
        return out;
      }
      case "end": {
        const to = this.newState();
        this.endEps[from]!.push(to);
        return to;
      }
    }
  }
}
