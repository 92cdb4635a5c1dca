import { getNodeValue } from "jsonc-parser";
import { property, type JsonNode } from "../config/parse";
import { OUTCOMES, type Outcome } from "./outcomes";
import type { Expectation, ScenarioInput, StepInput } from "./runner";

/** A scenario file's content as the runner takes it (shape errors are the schema check's to report). */
export interface ScenarioFile extends ScenarioInput {
  config: string | undefined;
  configNode?: JsonNode;
  agentNode?: JsonNode;
  roleNode?: JsonNode;
  /** The config-relative `workspace` a scenario may carry (for a source-file config). */
  workspace?: { root?: string; mountAt?: string };
}

export function scenarioOf(root: JsonNode | undefined): ScenarioFile {
  const configNode = property(root, "config");
  const agentNode = property(root, "agent");
  const roleNode = property(root, "role");
  const ws = property(root, "workspace");
  const wsValue = ws?.type === "object" ? (getNodeValue(ws) as { root?: unknown; mountAt?: unknown }) : undefined;
  return {
    config: typeof configNode?.value === "string" ? configNode.value : undefined,
    configNode,
    agent: typeof agentNode?.value === "string" ? agentNode.value : "main",
    agentNode,
    role: typeof roleNode?.value === "string" ? roleNode.value : null,
    roleNode,
    steps: stepsOf(property(root, "steps"), 0),
    workspace: wsValue ? { root: typeof wsValue.root === "string" ? wsValue.root : undefined, mountAt: typeof wsValue.mountAt === "string" ? wsValue.mountAt : undefined } : undefined,
  };
}

/** Every step, a `task`'s nested steps right after it (the order they run in and are numbered). */
export function* allSteps(steps: readonly StepInput[]): Generator<StepInput> {
  for (const step of steps) {
    yield step;
    if (step.steps) yield* allSteps(step.steps);
  }
}

/** Nesting kept finite: a 10,000-deep `task` stops here rather than exhausting the stack. */
const MAX_DEPTH = 64;

function stepsOf(node: JsonNode | undefined, depth: number): StepInput[] {
  if (node?.type !== "array" || depth > MAX_DEPTH) return [];
  const steps: StepInput[] = [];
  for (const item of node.children ?? []) {
    if (item.type !== "object") continue;
    const tool = property(item, "tool");
    if (typeof tool?.value !== "string") continue;
    const argsNode = property(item, "args");
    const args: Record<string, unknown> = {};
    let nested: StepInput[] | undefined;
    if (argsNode?.type === "object") {
      for (const p of argsNode.children ?? []) {
        const [k, v] = p.children ?? [];
        if (!k || !v || typeof k.value !== "string") continue;
        if (k.value === "steps" && tool.value === "task") nested = stepsOf(v, depth + 1);
        else args[k.value] = getNodeValue(v);
      }
    }
    const step: StepInput = { tool: tool.value, args, node: item };
    const expect = expectationOf(property(item, "expect"));
    if (expect) step.expect = expect;
    if (nested) step.steps = nested;
    steps.push(step);
  }
  return steps;
}

function expectationOf(node: JsonNode | undefined): Expectation | undefined {
  if (!node) return undefined;
  if (node.type === "string") return OUTCOMES.includes(node.value) ? { outcome: node.value as Outcome } : undefined;
  if (node.type !== "object") return undefined;
  const outcome = property(node, "outcome")?.value;
  if (!OUTCOMES.includes(outcome)) return undefined;
  const e: Expectation = { outcome };
  const contains = property(node, "outputContains")?.value;
  const excludes = property(node, "outputExcludes")?.value;
  if (typeof contains === "string") e.outputContains = contains;
  if (typeof excludes === "string") e.outputExcludes = excludes;
  return e;
}
