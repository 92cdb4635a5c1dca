import { indentationAt, insertFirstElement } from "../config/edits";
import { allRuleLists, type BackendSpec, type RuleListSpec } from "../config/model";
import { spanOf } from "../config/parse";
import { CompiledRuleList, type PermissionRuleInput } from "../permissions/ruleList";
import { OPERATIONS, type Operation, type Runtime } from "../runtime/runtime";
import type { Check } from "./check";
import { analysable, type ExampleFill, examplePaths, isCanonical } from "../runtime/globText";

/**
 * docs/reference/paths.md (C5–C6, T6–T7): deepagents-js canonicalises a tool path by dropping empty segments only, so `.` segments
 * reach the matcher, and micromatch never matches a `.` segment with `*` or `**` (G12). The backend then gets the
 * raw path, and a backend with real files (`filesystem`, `sandbox`) resolves `/secrets/./key` to `/secrets/key`:
 * a deny on `/secrets/**` is bypassed. State and store backends key raw strings, so there the same call reads
 * nothing. Reported once per rule list, with a call the rules let through whose dot-free twin they deny.
 */
export const dotSegmentBypass: Check = {
  code: "dot-segment-bypass",
  severity: "warning",
  summary: "deepagents-js keeps `.` segments: `/secrets/./key` escapes a deny rule on a backend with real files.",
  run(context) {
    const runtime = context.model.runtime;
    if (!keepsDotSegments(runtime)) return;
    for (const list of allRuleLists(context.model)) {
      const denyRules = list.rules.filter((r) => r.input.mode === "deny");
      if (denyRules.length === 0 || !list.servedBy || !mapsToRealFiles(list.servedBy)) continue;
      const inputs = list.rules.map((r) => r.input);
      const bypass = findBypass(runtime, list, new CompiledRuleList(runtime, inputs));
      if (!bypass) continue;
      const guards = guardRules(runtime, denyRules.map((r) => r.input));
      // Inserted first, a guard decides every path it matches: asking the guards alone is asking the new list.
      const guardFor = guards.find((g) => runtime.operationsCover(g.operations, bypass.op));
      const compiledGuard = ((guardFor?.paths ?? []) as string[]).map((p) => runtime.compilePattern(p));
      const closes = [bypass.path, doubled(bypass.path)].every((p) => compiledGuard.some((g) => g.matches(p)));
      const fixes = closes
        ? [{
          title: "Insert a first rule that denies every path with a `.` segment",
          edits: [insertFirstElement(context.text, list.node, guardsText(context.text, list, guards))],
          safe: false,
        }]
        : [];
      const tool = bypass.op === "read" ? "read_file" : "write_file";
      context.report({
        message: `${runtime.label} keeps \`.\` segments in tool paths, and its matcher never lets \`*\` or \`**\` match one: \`${tool}("${bypass.path}")\` is not denied by these rules, though \`${bypass.plain}\` is, and ${bypass.backend} opens that same file (§1.3). Deny \`.\` segments in a first rule.`,
        span: spanOf(denyRules[0]!.node),
        witness: bypass.path,
        fixes,
      });
    }
  },
};

/**
 * The guard has to match every path with one or more `.` segments, and picomatch's `*` and `**` never match a `.`
 * segment: `["/**\/./**", "/./**"]` misses `/secrets/././key` and `/./secrets/./key` (micromatch 4.0.8), so the
 * bypass would stay open. Only an extglob repeats a choice between "a segment" and "`.`": `@(*|.)` is one segment
 * of either kind, `*(/*|/.)` any run of them, `*(*\/|./)` any run followed by a slash.
 *
 * Anchoring matters for `delete`: a deny `write` pattern whose leading component is a wildcard blocks every
 * directory delete (docs/reference/decisions.md, `delete`, the first subtree rule). So the guard follows the literal folders of each deny pattern: for each
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
function guardRules(runtime: Runtime, denyRules: readonly PermissionRuleInput[]): PermissionRuleInput[] {
  const perOperation = OPERATIONS.map((op) => {
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
function guardsText(text: string, list: RuleListSpec, guards: readonly PermissionRuleInput[]): string {
  const json = (items: unknown) => `[${(items as string[]).map((i) => JSON.stringify(i)).join(", ")}]`;
  const rules = guards.map((g) => `/* agent-sandbox-ignore pattern-runtime-syntax */ { "operations": ${json(g.operations)}, "paths": ${json(g.paths)}, "mode": "deny" }`);
  const first = list.node.children?.[0];
  const sameLine = !first || !text.slice(list.node.offset, first.offset).includes("\n");
  return rules.join(sameLine || !first ? ", " : `,\n${indentationAt(text, first.offset)}`);
}

/** Asked of the runtime: does `/a/./b` reach the matcher as it is? */
function keepsDotSegments(runtime: Runtime): boolean {
  const c = runtime.canonicalToolPath("/a/./b", true);
  return c.ok && c.path === "/a/./b";
}

/** Backends that resolve a path against a real directory tree (config-format.md, "backend"). */
function isRealFiles(backend: BackendSpec): boolean {
  return backend.type === "filesystem" || backend.type === "sandbox";
}

function mapsToRealFiles(backend: BackendSpec): boolean {
  if (isRealFiles(backend)) return true;
  if (backend.type !== "composite") return false;
  return (!!backend.default && mapsToRealFiles(backend.default)) || backend.routes.some((r) => mapsToRealFiles(r.backend));
}

/** Where a composite sends a raw path: the longest route prefix it starts with, else the default (docs/reference/routes.md). */
function servingBackend(backend: BackendSpec, path: string, via = ""): { backend: BackendSpec; via: string } | undefined {
  if (backend.type !== "composite") return { backend, via };
  const route = [...backend.routes].sort((a, b) => b.prefix.length - a.prefix.length).find((r) => path.startsWith(r.prefix));
  if (route) return servingBackend(route.backend, path, ` behind the route \`${route.prefix}\``);
  return backend.default ? servingBackend(backend.default, path, " (the composite's default)") : undefined;
}

const KEY_FILL: ExampleFill = { globstar: ["key", "a/key"], star: ["key"], qmark: ["k"], classChars: ["k", "a", "x", "0"] };

interface Bypass {
  op: Operation;
  /** The call the rules let through. */
  path: string;
  /** The same file without the `.` segment, which the rules deny. */
  plain: string;
  backend: string;
}

function literalSegmentCount(pattern: string): number {
  const segments = pattern.split("/").slice(1);
  const k = segments.findIndex((s) => !LITERAL_SEGMENT.test(s));
  return k < 0 ? segments.length - 1 : k;
}

function findBypass(runtime: Runtime, list: RuleListSpec, rules: CompiledRuleList): Bypass | undefined {
  for (const rule of list.rules) {
    if (rule.input.mode !== "deny" || !Array.isArray(rule.input.paths)) continue;
    for (const op of OPERATIONS) {
      if (!runtime.operationsCover(rule.input.operations, op)) continue;
      for (const pattern of rule.input.paths) {
        if (!analysable(pattern) || runtime.permissionPathProblem(pattern)) continue;
        const literal = literalSegmentCount(pattern);
        for (const plain of examplePaths(pattern, KEY_FILL)) {
          const segments = plain.split("/").slice(1);
          if (plain === "/" || segments.includes(".") || !isCanonical(runtime, plain) || rules.decide(op, plain).decision !== "deny") continue;
          // `/secrets/./key` first (right after the protected folder), then every other place, `/./secrets/key` last.
          const positions = [literal, ...[...segments.keys()].reverse()].filter((at, k, all) => at < segments.length && all.indexOf(at) === k);
          // One `.` segment first; two where a guard that stops at one is already in place.
          for (const at of [...positions, ...positions.map((p) => -1 - p)]) {
            const dots = at < 0 ? [".", "."] : ["."];
            const k = at < 0 ? -1 - at : at;
            const path = `/${[...segments.slice(0, k), ...dots, ...segments.slice(k)].join("/")}`;
            if (!isCanonical(runtime, path) || rules.decide(op, path).decision === "deny") continue;
            const serving = servingBackend(list.servedBy!, path);
            if (!serving || !isRealFiles(serving.backend)) continue;
            // The same file only if the same backend serves both: a composite routes the raw text, so `/./mem/key`
            // can go to a filesystem default while `/mem/key` goes to a store route, and then the rule never
            // protected the file the dotted call opens.
            if (servingBackend(list.servedBy!, plain)?.backend !== serving.backend) continue;
            return { op, path, plain, backend: `the \`${serving.backend.type}\` backend${serving.via}` };
          }
        }
      }
    }
  }
  return undefined;
}
