/**
 * Section 1: path decisions per second, three ways, on the same rules and the same (operation, path) inputs.
 *
 *  runtime       what deepagents-js 1.14.1 does on every tool call (`decidePathAccess`): walk the rules in order,
 *                `rule.operations.includes(op)`, then `rule.paths.some(p => micromatch.isMatch(path, p, {dot: true}))`.
 *                micromatch compiles the glob again on every call.
 *  compile-once  the obvious improvement: one `picomatch(pattern, {dot: true})` matcher per pattern, compiled up
 *                front, tried in the same order.
 *  ours          `CompiledRuleList.decide` (server/src/engine/permissions/ruleList.ts): per operation, two lazily
 *                built automata over the patterns (one per reading direction), the folder index for the rest. `verify`
 *                runs 1,000 decisions first, so the automata exist before the warm-up, as in a long-lived server.
 */
import micromatch from "micromatch";
import picomatch from "picomatch";
import { CompiledRuleList } from "../server/src/engine/permissions/ruleList";
import { deepagentsJs, type Operation } from "../server/src/engine/runtime";
import type { BenchRule, DecisionInput } from "./generate";
import { measureInterleaved, type Measured, type RoundOptions } from "./measure";

/** deepagents-js `decidePathAccess` + `globMatch`, statement for statement (dist/langsmith-*.cjs L1149–1166). */
function decidePathAccess(rules: readonly BenchRule[], operation: Operation, path: string): string {
  for (const rule of rules) {
    if (!rule.operations.includes(operation)) continue;
    if (rule.paths.some((pattern) => micromatch.isMatch(path, pattern, { dot: true }))) return rule.mode ?? "allow";
  }
  return "allow";
}

/** The same walk, returning the deciding rule's index (-1: the permissive default); used to verify, not timed. */
function runtimeDecidingRule(rules: readonly BenchRule[], operation: Operation, path: string): number {
  for (let i = 0; i < rules.length; i++) {
    const rule = rules[i]!;
    if (!rule.operations.includes(operation)) continue;
    if (rule.paths.some((pattern) => micromatch.isMatch(path, pattern, { dot: true }))) return i;
  }
  return -1;
}

interface CompiledOnce {
  operations: Operation[];
  matchers: ((path: string) => boolean)[];
  mode: string | undefined;
}

function compileOnce(rules: readonly BenchRule[]): CompiledOnce[] {
  return rules.map((rule) => ({
    operations: rule.operations,
    matchers: rule.paths.map((p) => picomatch(p, { dot: true })),
    mode: rule.mode,
  }));
}

function decideCompiledOnce(rules: readonly CompiledOnce[], operation: Operation, path: string): number {
  for (let i = 0; i < rules.length; i++) {
    const rule = rules[i]!;
    if (!rule.operations.includes(operation)) continue;
    for (const match of rule.matchers) if (match(path)) return i;
  }
  return -1;
}

export interface DecisionResult {
  ruleCount: number;
  patternCount: number;
  inputCount: number;
  /** Share of inputs some rule decides (the rest fall through to the permissive default). */
  matchedShare: number;
  denyShare: number;
  runtime: Measured;
  compileOnce: Measured;
  ours: Measured;
}

/** Abort loudly unless all three give the same decision, by the same rule, on every input. */
function verify(rules: readonly BenchRule[], inputs: readonly DecisionInput[], once: readonly CompiledOnce[], ours: CompiledRuleList): { matched: number; denied: number } {
  const problems: string[] = [];
  let matched = 0;
  let denied = 0;
  for (const [k, { op, path }] of inputs.entries()) {
    const runtimeRule = runtimeDecidingRule(rules, op, path);
    const runtimeDecision = runtimeRule < 0 ? "allow" : rules[runtimeRule]!.mode ?? "allow";
    // The timed function is the same walk returning the mode; confirm that on a sample (it is slow).
    if (k % 10 === 0 && decidePathAccess(rules, op, path) !== runtimeDecision) problems.push(`  ${op} ${path}: decidePathAccess disagrees with its own rule index`);
    const onceRule = decideCompiledOnce(once, op, path);
    const our = ours.decide(op, path);
    if (runtimeRule >= 0) matched++;
    if (runtimeDecision === "deny") denied++;
    const ourDecision = our.failure ? `failure: ${our.failure}` : our.decision;
    if (runtimeRule !== onceRule || runtimeRule !== our.ruleIndex || (runtimeDecision === "deny") !== (ourDecision === "deny") || our.failure) {
      problems.push(`  ${op} ${path}: runtime rule ${runtimeRule} (${runtimeDecision}), compile-once rule ${onceRule}, ours rule ${our.ruleIndex} (${ourDecision})`);
    }
  }
  if (problems.length > 0) {
    console.error(`\nDISAGREEMENT at ${rules.length} rules: ${problems.length} of ${inputs.length} inputs decided differently.`);
    console.error(problems.slice(0, 20).join("\n"));
    if (problems.length > 20) console.error(`  … and ${problems.length - 20} more`);
    console.error("The figures would compare different answers; nothing is measured. Fix the engine first.");
    process.exit(3);
  }
  return { matched, denied };
}

export async function benchDecisions(rules: readonly BenchRule[], inputs: readonly DecisionInput[], options: RoundOptions, runtimeOptions: Partial<RoundOptions>): Promise<DecisionResult> {
  // Every input must be a canonical tool path, as the middleware hands it to the decision.
  for (const { path } of inputs) {
    const c = deepagentsJs.canonicalToolPath(path, true);
    if (!c.ok || c.path !== path) throw new Error(`bench input is not canonical: ${path}`);
  }
  const once = compileOnce(rules);
  const ours = new CompiledRuleList(deepagentsJs, rules);
  const { matched, denied } = verify(rules, inputs, once, ours);

  // Plain arrays of the inputs, so every contender's loop is the same shape and costs the same.
  const ops = inputs.map((i) => i.op);
  const paths = inputs.map((i) => i.path);
  const n = inputs.length;
  const measured = await measureInterleaved(
    [
      {
        name: "runtime",
        unitsPerPass: n,
        pass: () => {
          let denies = 0;
          for (let i = 0; i < n; i++) if (decidePathAccess(rules, ops[i]!, paths[i]!) === "deny") denies++;
          return denies;
        },
      },
      {
        name: "compile-once",
        unitsPerPass: n,
        pass: () => {
          let acc = 0;
          for (let i = 0; i < n; i++) {
            const r = decideCompiledOnce(once, ops[i]!, paths[i]!);
            if (r >= 0 && once[r]!.mode === "deny") acc++;
          }
          return acc;
        },
      },
      {
        name: "ours",
        unitsPerPass: n,
        pass: () => {
          let acc = 0;
          for (let i = 0; i < n; i++) if (ours.decide(ops[i]!, paths[i]!).decision === "deny") acc++;
          return acc;
        },
      },
    ],
    options,
    { runtime: runtimeOptions },
  );
  const by = (name: string) => measured.find((m) => m.name === name)!;
  return {
    ruleCount: rules.length,
    patternCount: rules.reduce((s, r) => s + r.paths.length, 0),
    inputCount: n,
    matchedShare: matched / n,
    denyShare: denied / n,
    runtime: by("runtime"),
    compileOnce: by("compile-once"),
    ours: by("ours"),
  };
}
