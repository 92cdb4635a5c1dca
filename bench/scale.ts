/**
 * Section 4: `check` at scale (issue 3, "Bad input"): a role map with 10,000 roles and a subagent list with 10,000
 * entries, both full of the mistakes people make, against vscode-json-languageservice validating the same text
 * with the same schema (bench/check.ts's baseline, whose helpers this reuses).
 *
 *  roles      `authorization.roles` with N roles: realistic allow/deny lists over the config's tools, models and
 *             Gateway routes, overlapping (a tool both allowed and denied), unknown tools and resource keys, the
 *             reserved singular keys, a string where a list belongs, cyclic-looking names (`admin->user`,
 *             `user->admin`), and a `default_role` that is not defined.
 *  subagents  `subagents` with N entries: duplicate names, names that differ only in case or a trailing space
 *             (`a`, `a `, `A`), names equal to tools (`ls`, `task`, `web_search`), `general-purpose` and `main`,
 *             missing descriptions, own tool lists with unknown and repeated tools, `permissions: null`, forks,
 *             own filesystem middleware without `read_file`.
 *
 * Both are also run through what `agent-sandbox tools` and `prompt` compute (every agent × role pair's effective
 * tools, the main agent's prompt preview), which must stay linear too; those are printed in absolute ms.
 */
import { TextDocument } from "vscode-json-languageservice";
import { agentsOf } from "../server/src/engine/agents/agents";
import { effectiveTools, policyOf } from "../server/src/engine/agents/effectiveTools";
import { promptPreview } from "../server/src/engine/agents/promptPreview";
import { checkConfigText } from "../server/src/engine/checkConfig";
import { rng } from "../test/helpers/random";
import { CONFIG_URI, SCHEMA_URI, vscodeJsonService } from "./check";
import { measureAsyncInterleaved, measureInterleaved, type Measured, type RoundOptions } from "./measure";

export type ScaleKind = "roles" | "subagents";

const FS_TOOLS = ["ls", "read_file", "write_file", "edit_file", "delete", "glob", "grep", "execute"];
const USER_TOOLS = ["web_search", "fetch_url", "run_sql", "github_search", "github_create_issue", "slack_post"];
/** Names no agent has: typos and tools of other products. */
const UNKNOWN_TOOLS = ["web_serach", "bash", "Read_file", "python_repl", "github_*", "*"];
const MODELS = ["gpt-4o", "gpt-4o-mini", "claude-sonnet-4", "o3"];
const ROUTES = ["threads:read", "threads:write", "runs:create", "assistants:read"];

function pick<T>(r: () => number, items: readonly T[]): T {
  return items[Math.floor(r() * items.length)]!;
}

function some<T>(r: () => number, items: readonly T[], max: number): T[] {
  const n = 1 + Math.floor(r() * max);
  return Array.from({ length: n }, () => pick(r, items));
}

const list = (items: readonly string[]) => `[${items.map((s) => JSON.stringify(s)).join(", ")}]`;

/** A config whose `authorization.roles` has `count` roles (about one in twenty with a mistake). */
export function generateRolesConfig(count: number, seed: number, schemaUri = SCHEMA_URI): string {
  const r = rng(seed);
  const cyclic = ["admin->user", "user->admin", "role-of-role", "admin", "admin ", "Admin"];
  const roles: string[] = [];
  for (let i = 0; i < count; i++) {
    const name = i < cyclic.length ? cyclic[i]! : `team-${i % 997}-${pick(r, ["reader", "writer", "ops", "auditor"])}-${i}`;
    const parts: string[] = [];
    const known = [...FS_TOOLS, ...USER_TOOLS];
    const roll = r();
    if (roll < 0.3) parts.push(`"tools": { "allow": "*", "deny": ${list(some(r, known, 3))} }`);
    else if (roll < 0.8) {
      // Overlapping: what is allowed is sometimes denied as well (deny wins).
      const allow = some(r, known, 6);
      const deny = r() < 0.4 ? [allow[0]!, ...some(r, known, 2)] : some(r, known, 2);
      parts.push(`"tools": { "allow": ${list(allow)}, "deny": ${list(deny)} }`);
    } else if (roll < 0.9) parts.push(`"tools": { "allow": ${list([...some(r, known, 3), pick(r, UNKNOWN_TOOLS)])} }`);
    else parts.push(`"tools": { "allow": ${r() < 0.5 ? "true" : "false"} }`);
    if (r() < 0.5) parts.push(`"models": { "allow": ${r() < 0.5 ? '"*"' : list(some(r, MODELS, 2))} }`);
    if (r() < 0.3) parts.push(`"routes": { "allow": ${list(some(r, ROUTES, 2))}, "deny": ["runs:create"] }`);
    if (r() < 0.05) parts.push(`"skills": { "allow": ["summarise"] }`);
    // About one role in twenty carries a mistake DeerFlow refuses or a check reports.
    if (i % 20 === 7) {
      parts.push(
        pick(r, [
          `"tols": { "allow": ["ls"] }`,
          `"tool": { "allow": ["ls"] }`,
          `"models": { "allow": "gpt-4o" }`,
          `"routes": { "deny": null }`,
          `"mcp_servers": { "allow": ["github"], "denied": ["slack"] }`,
          `"tools": { "deny": "execute" }`,
        ]),
      );
    }
    roles.push(`      ${JSON.stringify(name)}: { ${parts.join(", ")} }`);
  }
  return `// Generated for the benchmark: ${count} roles.
{
  "$schema": ${JSON.stringify(schemaUri)},
  "version": 1,
  "runtime": "deepagents-js",
  "backend": { "type": "composite", "default": { "type": "state" }, "routes": { "/memories/": { "type": "store" } } },
  "tools": ${list(USER_TOOLS)},
  "permissions": [
    { "operations": ["read", "write"], "paths": ["/workspace/.env", "/workspace/secrets/**"], "mode": "deny" },
    { "operations": ["write"], "paths": ["/memories/**"], "mode": "allow" }
  ],
  "subagents": [
    { "name": "auditor", "description": "Read-only reviewer", "tools": ["web_search"] },
    { "name": "writer", "description": "Writes reports" }
  ],
  "authorization": {
    "enabled": true,
    "fail_closed": true,
    "default_role": "guest",
    "roles": {
${roles.join(",\n")}
    }
  }
}
`;
}

/** A config whose `subagents` list has `count` entries, with the names and mistakes listed above. */
export function generateSubagentsConfig(count: number, seed: number, schemaUri = SCHEMA_URI): string {
  const r = rng(seed);
  const special = ["a", "a ", "A", "ls", "task", "web_search", "general-purpose", "main", "read_file", "a"];
  const entries: string[] = [];
  for (let i = 0; i < count; i++) {
    // Past the special names, about one in eight repeats an earlier name.
    const name = i < special.length ? special[i]! : r() < 0.125 ? `agent-${Math.floor(r() * i)}` : `agent-${i}`;
    const parts = [`"name": ${JSON.stringify(name)}`];
    if (r() < 0.9) parts.push(`"description": ${JSON.stringify(`Handles ${pick(r, ["research", "review", "release notes", "triage"])} for agent-${(i + 1) % count}`)}`);
    if (r() < 0.2) parts.push(`"mode": "fork"`);
    if (r() < 0.3) parts.push(`"tools": ${list(r() < 0.2 ? [...some(r, USER_TOOLS, 2), pick(r, [...UNKNOWN_TOOLS, ...FS_TOOLS, "web_search"])] : some(r, USER_TOOLS, 3))}`);
    const p = r();
    if (p < 0.1) parts.push(`"permissions": null`);
    else if (p < 0.3) parts.push(`"permissions": [{ "operations": ["write"], "paths": ["/workspace/**"], "mode": "deny" }]`);
    else if (p < 0.35) parts.push(`"permissions": []`);
    if (r() < 0.08) parts.push(`"middleware": [{ "type": "filesystem", "tools": ${list(some(r, [...FS_TOOLS, "bogus"], 4))} }]`);
    entries.push(`    { ${parts.join(", ")} }`);
  }
  return `// Generated for the benchmark: ${count} subagents.
{
  "$schema": ${JSON.stringify(schemaUri)},
  "version": 1,
  "runtime": "deepagents-js",
  "compatibleWith": ["deepagents-py"],
  "backend": { "type": "composite", "default": { "type": "state" }, "routes": { "/memories/": { "type": "store" } } },
  "tools": ["web_search", "fetch_url", "run_sql"],
  "permissions": [
    { "operations": ["read", "write"], "paths": ["/workspace/.env"], "mode": "deny" },
    { "operations": ["write"], "paths": ["/memories/**"], "mode": "allow" }
  ],
  "middleware": [{ "type": "filesystem", "tools": ["ls", "read_file", "glob", "grep", "write_file"] }],
  "subagents": [
${entries.join(",\n")}
  ],
  "authorization": {
    "enabled": true,
    "default_role": "user",
    "roles": { "admin": { "tools": { "allow": "*" } }, "user": { "tools": { "allow": "*", "deny": ["delete", "execute"] } }, "guest": { "tools": { "allow": ["read_file", "ls"] } } }
  }
}
`;
}

export function generateScaleConfig(kind: ScaleKind, count: number, seed = 1000 + count): string {
  return kind === "roles" ? generateRolesConfig(count, seed) : generateSubagentsConfig(count, seed);
}

export interface ScaleRow {
  kind: ScaleKind;
  count: number;
  bytes: number;
  lines: number;
  ourFindings: number;
  /** Findings per code (the table prints the largest; bench/results/latest.json has them all). */
  byCode: Record<string, number>;
  theirDiagnostics: number;
  ours: Measured;
  vscode: Measured;
  /** What `agent-sandbox tools CONFIG` computes once the file is checked: every agent × (no role, each role). */
  tools: { pairs: number; measured: Measured };
  /** `agent-sandbox prompt CONFIG`: the main agent, no role (its `task` catalogue lists every subagent). */
  prompt: Measured;
}

const VARIANTS = 4;

/**
 * Ours and vscode-json-languageservice on the same generated text, interleaved, as bench/check.ts does (each side
 * cycles through copies that differ in one digit of the first comment, so no cache keyed by the text can help);
 * then the `tools` and `prompt` computations on the checked model, in absolute time.
 */
export async function benchScale(kind: ScaleKind, count: number, options: RoundOptions): Promise<ScaleRow> {
  const base = generateScaleConfig(kind, count);
  const texts = Array.from({ length: VARIANTS }, (_, i) => base.replace("Generated for", `Generated ${i} for`));
  const service = vscodeJsonService();
  const settings = { comments: "ignore", trailingCommas: "ignore" } as const;
  const theirs = async (text: string) => {
    const document = TextDocument.create(CONFIG_URI, "jsonc", 1, text);
    return (await service.doValidation(document, service.parseJSONDocument(document), settings)).length;
  };
  const theirDiagnostics = await theirs(base);
  const first = checkConfigText(base);
  const byCode: Record<string, number> = {};
  for (const f of first.findings) byCode[f.code] = (byCode[f.code] ?? 0) + 1;

  let i = 0;
  let j = 0;
  const [ours, vscode] = await measureAsyncInterleaved(
    [
      { name: "ours", run: () => checkConfigText(texts[i++ % VARIANTS]!).findings.length },
      { name: "vscode", run: () => theirs(texts[j++ % VARIANTS]!) },
    ],
    options,
  );

  // `tools` without --agent and --role (cli.md): every agent, with no role and then each role. The policy is
  // compiled on the first call and kept for the model, as in one CLI run.
  const model = first.model!;
  const agents = agentsOf(model).map((a) => a.name);
  const roles = policyOf(model)?.roles ?? [];
  const pairs = agents.length * (1 + roles.length);
  const toolsPass = () => {
    let visible = 0;
    for (const agent of agents) {
      for (const role of [null, ...roles]) for (const t of effectiveTools(model, agent, role)!) if (t.visible) visible++;
    }
    return visible;
  };
  const [tools] = await measureInterleaved([{ name: "tools", pass: toolsPass, unitsPerPass: pairs }], { ...options, rounds: Math.min(options.rounds, 5) });
  const [prompt] = await measureInterleaved(
    [{ name: "prompt", pass: () => promptPreview(model, "main", null, () => undefined)!.subagents.length, unitsPerPass: 1 }],
    { ...options, rounds: Math.min(options.rounds, 5) },
  );
  return {
    kind,
    count,
    bytes: Buffer.byteLength(base),
    lines: base.split("\n").length,
    ourFindings: first.findings.length,
    byCode,
    theirDiagnostics,
    ours: ours!,
    vscode: vscode!,
    tools: { pairs, measured: tools! },
    prompt: prompt!,
  };
}
