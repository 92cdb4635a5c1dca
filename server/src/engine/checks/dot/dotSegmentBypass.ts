import { agentsOf, rulesForAgent, type AgentRef } from "../../agents/agents";
import { agentFilesystem } from "../../agents/backends";
import { effectiveToolsOf, policyOf } from "../../agents/effectiveTools";
import { insertElements, suppressing, type FixValue } from "../../fixOperations";
import { allRuleLists, type BackendSpec, type ConfigModel, type RuleListSpec } from "../../config/model";
import { spanOf } from "../../config/parse";
import { CompiledRuleList, type PermissionRuleInput } from "../../permissions/ruleList";
import { decideToolPath } from "../../permissions/decideToolPath";
import { OPERATIONS, TOOLS_BY_OPERATION, type Operation, type Runtime } from "../../runtime/runtime";
import type { Check } from "../check";
import { analysable, type ExampleFill, examplePaths, isCanonical } from "../../runtime/globText";

/**
 * deepagents-js canonicalises a tool path by dropping empty segments only, so `.` segments reach the matcher, and
 * micromatch never matches a `.` segment with `*` or `**`. The backend then gets the raw path, and a backend with
 * real files (`filesystem`, `sandbox`) resolves `/secrets/./key` to `/secrets/key`: a deny on `/secrets/**` is
 * bypassed. State and store backends key raw strings, so there the same call reads nothing.
 *
 * A finding is true for this config only: some agent governed by the rule list has a tool that opens the dotted
 * path (visible to it with no role, or under some role), its backend routes the dotted path and its dot-free twin
 * to the same backend with real files, and the runtime's own tool-path decision allows the one and denies the
 * other. Reported once per rule list, naming that agent and tool.
 */
export const dotSegmentBypass: Check = {
  code: "dot-segment-bypass",
  severity: "warning",
  summary: "deepagents-js keeps . segments: /secrets/./key escapes a deny rule on a backend with real files.",
  run(context) {
    const runtime = context.model.runtime;
    if (!keepsDotSegments(runtime)) return;
    let governed: Map<RuleListSpec, AgentRef[]> | undefined;
    for (const list of allRuleLists(context.model)) {
      const denyRules = list.rules.filter((r) => r.input.mode === "deny");
      if (denyRules.length === 0) continue;
      // Which agents each list governs, asked once and only when some list has a deny rule.
      governed ??= agentsByList(context.model);
      const agents = governed.get(list);
      if (!agents) continue;
      const exploiters = exploitersOf(context.model, agents);
      if (exploiters.length === 0) continue;
      const inputs = list.rules.map((r) => r.input);
      const bypass = findBypass(runtime, list, new CompiledRuleList(runtime, inputs), exploiters);
      if (!bypass) continue;
      // Only the operations some agent of this list can exploit get a guard: a write guard where nobody can write
      // would deny calls for nothing (and block directory deletes the rules did not block).
      const operations = OPERATIONS.filter((op) => exploiters.some((e) => e.tools[op]));
      const guards = guardRules(runtime, denyRules.map((r) => r.input), operations);
      // Inserted first, a guard decides every path it matches: asking the guards alone is asking the new list.
      const guardFor = guards.find((g) => runtime.operationsCover(g.operations, bypass.op));
      const compiledGuard = ((guardFor?.paths ?? []) as string[]).map((p) => runtime.compilePattern(p));
      const closes = [bypass.path, doubled(bypass.path)].every((p) => compiledGuard.some((g) => g.matches(p)));
      const fixes = closes
        ? [{
          title: "Insert a first rule that denies every path with a . segment",
          operations: [insertElements(list.node, 0, guards.map(guardValue))],
          safe: false,
        }]
        : [];
      const { agent, tool, role } = bypass.by;
      const as = role === undefined ? "" : role === null ? " (a request with no role gets the default role, which may call it)" : ` (as role ${JSON.stringify(role)})`;
      context.report({
        message: `Agent ${agent} can ${bypass.op} ${bypass.path} with ${tool}: dot segments bypass this deny.`,
        detail: `${runtime.label} keeps "." segments in tool paths, and its matcher never lets * or ** match one: ${tool}("${bypass.path}") is not denied by these rules, though ${bypass.plain} is, and ${bypass.backend} opens that same file. Agent ${agent} has ${tool}${as}. Deny "." segments in a first rule.`,
        span: spanOf(denyRules[0]!.node),
        witness: bypass.path,
        fixes,
      });
    }
  },
};

/**
 * The tools that open the path they are given on the backend and return or change that file: `read_file` for
 * reads, `write_file` and `edit_file` for writes. The others of each operation stop a dotted path on their own
 * (deepagents-js 1.14.1 with a `FilesystemBackend`, pinned by this check's test through the real tools): `ls`,
 * `glob` and `grep` filter their results on the backend's own, dot-free paths, and `delete` treats a target the
 * parent's listing does not name as a subtree, which the deny's anchor blocks.
 */
const OPENS_THE_FILE: ReadonlySet<string> = new Set(["read_file", "write_file", "edit_file"]);

/** Which agents each rule list governs (one pass over the agents, not one per list). */
function agentsByList(model: ConfigModel): Map<RuleListSpec, AgentRef[]> {
  const out = new Map<RuleListSpec, AgentRef[]>();
  for (const agent of agentsOf(model)) {
    const list = rulesForAgent(model, agent).list;
    if (!list) continue;
    const agents = out.get(list);
    if (agents) agents.push(agent);
    else out.set(list, [agent]);
  }
  return out;
}

interface Exploiter {
  agent: string;
  /** Its backend, when it maps some path to real files. */
  backend: BackendSpec;
  /** Per operation, the first tool that opens the file, and the role under which it is visible (none: `undefined`). */
  tools: Partial<Record<Operation, { tool: string; role: string | null | undefined }>>;
}

/**
 * The agents of one list that can open a dotted path with a tool and have a backend with real files behind some
 * route. A tool counts when it is visible without authorization and some role may call it (a request with no role
 * gets the default role); an active skill is a narrowing the config does not impose, so it is not assumed.
 */
function exploitersOf(model: ConfigModel, agents: readonly AgentRef[]): Exploiter[] {
  const policy = policyOf(model);
  const roles: (string | null)[] = policy ? [null, ...policy.roles] : [];
  const out: Exploiter[] = [];
  for (const agent of agents) {
    const backend = agentFilesystem(model, agent).backend.spec;
    if (!backend || !mapsToRealFiles(backend)) continue;
    const visible = new Set(effectiveToolsOf(model, agent, null, {}, null).filter((t) => t.visible && t.kind === "filesystem").map((t) => t.name));
    const tools: Exploiter["tools"] = {};
    for (const op of OPERATIONS) {
      for (const tool of TOOLS_BY_OPERATION[op]) {
        if (!OPENS_THE_FILE.has(tool) || !visible.has(tool)) continue;
        const role = policy ? roles.find((r) => policy.decideTool(r, tool).allowed) : undefined;
        if (policy && role === undefined) continue;
        tools[op] = { tool, role: policy ? role : undefined };
        break;
      }
    }
    if (tools.read || tools.write) out.push({ agent: agent.name, backend, tools });
  }
  return out;
}

/**
 * The guard has to match every path with one or more `.` segments, and picomatch's `*` and `**` never match a `.`
 * segment: `["/**\/./**", "/./**"]` misses `/secrets/././key` and `/./secrets/./key` (micromatch 4.0.8), so the
 * bypass would stay open. Only an extglob repeats a choice between "a segment" and "`.`": `@(*|.)` is one segment
 * of either kind, `*(/*|/.)` any run of them, `*(*\/|./)` any run followed by a slash.
 *
 * Anchoring matters for `delete`: a deny `write` pattern whose leading component is a wildcard blocks every
 * directory delete (docs/reference/decisions.md, the subtree check of delete). So the guard follows the literal folders of each deny pattern: for each
 * literal prefix P, `P/.` and `P/./…` (anchor `P/.`), then a `.` anywhere below the whole prefix (anchor: the
 * prefix). Those anchors lie on the deny pattern's own anchor chain, so `delete` blocks nothing new.
 */
const DOT_AFTER = "./@(*|.)*(/*|/.)";
const DOT_BELOW = "*(*/|./).*(/*|/.)";
const LITERAL_SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

function guardPatterns(denyPatterns: readonly unknown[]): string[] {
  const guards = new Set<string>();
  for (const pattern of denyPatterns) {
    if (typeof pattern !== "string" || !pattern.startsWith("/")) continue;
    const prefix: string[] = [];
    for (const segment of pattern.split("/").slice(1)) {
      if (!LITERAL_SEGMENT.test(segment)) break;
      prefix.push(segment);
    }
    if (prefix.length === 0) return [`/${DOT_BELOW}`];
    prefix.forEach((_, i) => {
      const folder = prefix.slice(0, i).map((s) => `/${s}`).join("");
      guards.add(`${folder}/.`).add(`${folder}/${DOT_AFTER}`);
    });
    guards.add(`${prefix.map((s) => `/${s}`).join("")}/${DOT_BELOW}`);
  }
  return [...guards];
}

/** The same call with a second `.` segment: the guard must not stop at one. */
function doubled(path: string): string {
  return path.replace("/./", "/././");
}

/**
 * One guard rule when reads and writes need the same patterns, else one per operation: a read-only deny such as
 * `/**\/.env` must not give the write guard a wildcard anchor, which would block every directory delete.
 */
function guardRules(runtime: Runtime, denyRules: readonly PermissionRuleInput[], operations: readonly Operation[]): PermissionRuleInput[] {
  const perOperation = operations.map((op) => {
    const rules = denyRules.filter((r) => runtime.operationsCover(r.operations, op));
    return { op, paths: guardPatterns(rules.flatMap((r) => (Array.isArray(r.paths) ? r.paths : []))) };
  }).filter((g) => g.paths.length > 0);
  const [first, second] = perOperation;
  if (first && second && first.paths.join("\n") === second.paths.join("\n")) {
    return [{ operations: [first.op, second.op], paths: first.paths, mode: "deny" }];
  }
  return perOperation.map((g) => ({ operations: [g.op], paths: g.paths, mode: "deny" }));
}

/** The extglobs are JS-only on purpose (only deepagents-js keeps `.` segments), so each guard says so. */
function guardValue(guard: PermissionRuleInput): FixValue {
  return suppressing(["pattern-runtime-syntax"], { operations: guard.operations as string[], paths: guard.paths as string[], mode: "deny" });
}

/** Asked of the runtime: does `/a/./b` reach the matcher as it is? */
function keepsDotSegments(runtime: Runtime): boolean {
  const c = runtime.canonicalToolPath("/a/./b", true);
  return c.ok && c.path === "/a/./b";
}

/** Backends that resolve a path against a real directory tree (`filesystem`, `sandbox`). */
function isRealFiles(backend: BackendSpec): boolean {
  return backend.type === "filesystem" || backend.type === "sandbox";
}

function mapsToRealFiles(backend: BackendSpec): boolean {
  if (isRealFiles(backend)) return true;
  if (backend.type !== "composite") return false;
  return (!!backend.default && mapsToRealFiles(backend.default)) || backend.routes.some((r) => mapsToRealFiles(r.backend));
}

/**
 * Where a composite sends a raw path, as deepagents-js's `CompositeBackend.getBackendAndKey` does: routes longest
 * prefix first (a stable sort, so file order among equal lengths), a route taking the path equal to its prefix
 * without the last character or starting with the prefix, with the prefix stripped (leading slash kept); else the
 * default, with the path as is.
 */
function servingBackend(backend: BackendSpec, path: string, via = ""): { backend: BackendSpec; key: string; via: string } | undefined {
  if (backend.type !== "composite") return { backend, key: path, via };
  const routes = [...backend.routes].sort((a, b) => b.prefix.length - a.prefix.length);
  const route = routes.find((r) => path === r.prefix.slice(0, -1) || path.startsWith(r.prefix));
  if (route) {
    const suffix = path.slice(route.prefix.length);
    return servingBackend(route.backend, suffix ? `/${suffix}` : "/", ` behind the route ${route.prefix}`);
  }
  return backend.default ? servingBackend(backend.default, path, " (the composite's default)") : undefined;
}

/**
 * The dotted path and its twin reach the same backend with real files, under keys that differ by `.` segments
 * only (which that backend resolves away): the call opens the very file the rule denies. A composite routes the
 * raw text, so `/./mem/key` can go to a filesystem default while `/mem/key` goes to a store route: then the rule
 * never protected the file the dotted call opens.
 */
function sameRealFile(backend: BackendSpec, path: string, plain: string): string | undefined {
  const dotted = servingBackend(backend, path);
  if (!dotted || !isRealFiles(dotted.backend)) return undefined;
  const twin = servingBackend(backend, plain);
  if (twin?.backend !== dotted.backend || withoutDots(twin.key) !== withoutDots(dotted.key)) return undefined;
  return `the ${dotted.backend.type} backend${dotted.via}`;
}

function withoutDots(key: string): string {
  return `/${key.split("/").filter((s) => s !== "" && s !== ".").join("/")}`;
}

const KEY_FILL: ExampleFill = { globstar: ["key", "a/key"], star: ["key"], qmark: ["k"], classChars: ["k", "a", "x", "0"] };

interface Bypass {
  op: Operation;
  /** The call the rules let through. */
  path: string;
  /** The same file without the `.` segment, which the rules deny. */
  plain: string;
  /** The backend that opens both, in words. */
  backend: string;
  /** Who can make the call. */
  by: { agent: string; tool: string; role: string | null | undefined };
}

function literalSegmentCount(pattern: string): number {
  const segments = pattern.split("/").slice(1);
  const k = segments.findIndex((s) => !LITERAL_SEGMENT.test(s));
  return k < 0 ? segments.length - 1 : k;
}

function findBypass(runtime: Runtime, list: RuleListSpec, rules: CompiledRuleList, exploiters: readonly Exploiter[]): Bypass | undefined {
  for (const rule of list.rules) {
    if (rule.input.mode !== "deny" || !Array.isArray(rule.input.paths)) continue;
    for (const op of OPERATIONS) {
      if (!runtime.operationsCover(rule.input.operations, op)) continue;
      const able = exploiters.filter((e) => e.tools[op]);
      if (able.length === 0) continue;
      for (const pattern of rule.input.paths) {
        if (!analysable(pattern) || runtime.permissionPathProblem(pattern)) continue;
        const literal = literalSegmentCount(pattern);
        for (const plain of examplePaths(pattern, KEY_FILL)) {
          const segments = plain.split("/").slice(1);
          if (plain === "/" || segments.includes(".") || !isCanonical(runtime, plain) || decideToolPath(runtime, rules, op, plain).outcome !== "deny") continue;
          // `/secrets/./key` first (right after the protected folder), then every other place, `/./secrets/key` last.
          const positions = [literal, ...[...segments.keys()].reverse()].filter((at, k, all) => at < segments.length && all.indexOf(at) === k);
          // One `.` segment first; two where a guard that stops at one is already in place.
          for (const at of [...positions, ...positions.map((p) => -1 - p)]) {
            const dots = at < 0 ? [".", "."] : ["."];
            const k = at < 0 ? -1 - at : at;
            const path = `/${[...segments.slice(0, k), ...dots, ...segments.slice(k)].join("/")}`;
            // The witness through the runtime's own tool-path decision: the call goes through as written.
            const outcome = decideToolPath(runtime, rules, op, path);
            if (outcome.outcome !== "allow" || outcome.canonicalPath !== path) continue;
            for (const e of able) {
              const backend = sameRealFile(e.backend, path, plain);
              if (backend) return { op, path, plain, backend, by: { agent: e.agent, ...e.tools[op]! } };
            }
          }
        }
      }
    }
  }
  return undefined;
}
