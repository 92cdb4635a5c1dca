/**
 * Deterministic, realistic inputs for the benchmark: permission rule lists, the canonical paths an agent's tools
 * would ask about, and whole JSONC configs. Everything comes from one seeded generator, so every run (and every
 * machine) measures the very same inputs, and a change in a figure is a change in the code, not in the data.
 */
import type { Operation } from "../server/src/engine/runtime";
import { rng } from "../test/helpers/random";

export interface BenchRule {
  operations: Operation[];
  paths: string[];
  /** Omitted in a third of the allow rules, as people write them (omitted means allow). */
  mode?: "allow" | "deny";
}

export interface DecisionInput {
  op: Operation;
  path: string;
}

type Rand = () => number;
const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
/** `n` different elements of `xs`. */
const pickDistinct = <T>(r: Rand, xs: readonly T[], n: number): T[] => {
  const out: T[] = [];
  while (out.length < n) {
    const x = pick(r, xs);
    if (!out.includes(x)) out.push(x);
  }
  return out;
};
const weighted = <T>(r: Rand, xs: readonly (readonly [number, T])[]): T => {
  const total = xs.reduce((s, [w]) => s + w, 0);
  let x = r() * total;
  for (const [w, v] of xs) if ((x -= w) < 0) return v;
  return xs[xs.length - 1]![1];
};

// The vocabulary of a typical monorepo an agent works in. Rules name part of it; paths use all of it and more.
const RULE_DIRS = ["src", "lib", "docs", "tests", "scripts", "config", "build", "dist", "node_modules", ".git", ".github", "secrets", "data", "logs", "tmp", "vendor", "infra", "migrations", "public", "assets", ".venv", "coverage", ".cache", "notebooks"] as const;
/** The folders nearly every repository has and nearly every policy names. */
const COMMON_DIRS = ["src", "docs", "tests", ".git", "node_modules", "dist", "config", "scripts", "secrets"] as const;
const OTHER_DIRS = ["examples", "bin", "internal", "cmd", "pkg", "third_party", "fixtures", "styles", "components", "hooks", "utils", "models", "routes", "api", "types"] as const;
const PACKAGES = ["api", "web", "auth", "billing", "search", "worker", "cli", "core", "ui", "shared", "payments", "analytics", "mobile", "admin", "gateway", "notify", "ingest", "reports"] as const;
const FILES = ["index.ts", "main.py", "README.md", "package.json", ".env", ".env.local", "config.yaml", "settings.json", "id_rsa", "server.pem", "cert.key", "notes.md", "app.log", "data.csv", "schema.sql", "Dockerfile", "Makefile", ".gitignore", "tsconfig.json", "app.test.ts", "utils.js", "App.tsx", "handler.go", "model.pkl", "1.csv", "a.md"] as const;
const SECRET_EXTS = ["pem", "key", "p12", "pfx", "crt", "sqlite", "kdbx", "log"] as const;
const CODE_EXTS = ["ts", "tsx", "js", "py", "go", "md", "json"] as const;
const OUTSIDE_ROOTS = ["/memories", "/tmp", "/home/agent", "/etc", "/var/log", "/data", "/large_tool_results", "/conversation_history"] as const;

/** One glob, of the kinds people write in deepagents permission rules. */
function rulePattern(r: Rand): string {
  const dir = r() < 0.5 ? pick(r, COMMON_DIRS) : pick(r, RULE_DIRS);
  const pkg = pick(r, PACKAGES);
  return weighted<() => string>(r, [
    // Subtrees: `/workspace/**`-style.
    [12, () => `/workspace/${dir}/**`],
    [6, () => `/workspace/packages/${pkg}/**`],
    [3, () => `${pick(r, OUTSIDE_ROOTS)}/**`],
    // Exact files.
    [5, () => `/workspace/${pick(r, [".env", ".env.local", "package.json", "package-lock.json", ".npmrc", "Dockerfile"])}`],
    [4, () => `/workspace/${dir}/${pick(r, FILES)}`],
    [3, () => `/workspace/packages/${pkg}/.env`],
    // Anywhere in the tree: `**/*.pem`-style. Written from the root, because both runtimes refuse a rule path that
    // does not start with `/` when the agent is built (§1.2), so a working config never has a bare `**/*.pem`.
    [5, () => pick(r, [...SECRET_EXTS.map((e) => `/**/*.${e}`), "/**/.env", "/**/.env.*", "/**/id_rsa*", "/**/.git/**", "/**/node_modules/**"])],
    // Braces.
    [4, () => `/workspace/{${pickDistinct(r, RULE_DIRS, 2).join(",")}}/**`],
    [3, () => `/workspace/**/*.{${pickDistinct(r, SECRET_EXTS, 2).join(",")}}`],
    [3, () => `/workspace/packages/{${pickDistinct(r, PACKAGES, 3).join(",")}}/src/**`],
    [3, () => `/workspace/${dir}/**/*.{${pickDistinct(r, CODE_EXTS, 2).join(",")}}`],
    // A star, class or `?` in the middle.
    [3, () => `/workspace/packages/*/${pick(r, ["dist", "build", ".env", "node_modules", "coverage"])}${r() < 0.5 ? "/**" : ""}`],
    [2, () => `/workspace/${dir}/**/*.test.ts`],
    [2, () => `/workspace/logs/*.log`],
    [1, () => `/workspace/data/[0-9]*.csv`],
    [1, () => `/workspace/${dir}/?.md`],
  ])();
}

/** `count` rules, as a person (or a generator of policies) would write them: deny and allow, read and write. */
export function generateRules(count: number, seed: number): BenchRule[] {
  const r = rng(seed);
  const seen = new Set<string>();
  const rules: BenchRule[] = [];
  while (rules.length < count) {
    const n = weighted(r, [[6, 1], [3, 2], [1, 3]] as const);
    const paths: string[] = [];
    for (let i = 0; i < n; i++) {
      const p = rulePattern(r);
      if (!paths.includes(p)) paths.push(p);
    }
    const operations = weighted<Operation[]>(r, [[25, ["read"]], [35, ["write"]], [40, ["read", "write"]]]);
    const mode = weighted<BenchRule["mode"]>(r, [[50, "deny"], [33, "allow"], [17, undefined]]);
    const key = JSON.stringify([operations, paths, mode]);
    if (seen.has(key)) continue;
    seen.add(key);
    rules.push(mode === undefined ? { operations, paths } : { operations, paths, mode });
  }
  return rules;
}

function workspacePath(r: Rand): string {
  const segments: string[] = ["workspace"];
  if (r() < 0.35) segments.push("packages", pick(r, PACKAGES));
  const depth = weighted(r, [[2, 0], [4, 1], [3, 2], [2, 3], [1, 4]] as const);
  // The first folder is often one the rules name (src, docs, .git, …); deeper ones mostly are not.
  for (let i = 0; i < depth; i++) segments.push(i === 0 && r() < 0.4 ? pick(r, COMMON_DIRS) : r() < (i === 0 ? 0.4 : 0.25) ? pick(r, RULE_DIRS) : pick(r, OTHER_DIRS));
  const file = r() < 0.7 ? pick(r, FILES) : `${pick(r, ["report", "notes", "main", "util", "draft", "q3", "x"])}.${pick(r, [...CODE_EXTS, ...SECRET_EXTS, "txt", "csv"])}`;
  segments.push(file);
  return `/${segments.join("/")}`;
}

function outsidePath(r: Rand): string {
  return weighted<() => string>(r, [
    [4, () => `${pick(r, OUTSIDE_ROOTS)}/${pick(r, FILES)}`],
    [2, () => `${pick(r, OUTSIDE_ROOTS)}/${pick(r, OTHER_DIRS)}/${pick(r, FILES)}`],
    [1, () => pick(r, ["/etc/passwd", "/etc/hosts", "/home/agent/.ssh/id_rsa", "/home/agent/.bashrc", "/root/.aws/credentials", "/proc/self/environ"])],
    [1, () => `/${pick(r, FILES)}`],
  ])();
}

/** `count` (operation, canonical path) pairs: mostly inside the workspace, some outside, reads more than writes. */
export function generateInputs(count: number, seed: number): DecisionInput[] {
  const r = rng(seed);
  const inputs: DecisionInput[] = [];
  for (let i = 0; i < count; i++) {
    const path = r() < 0.75 ? workspacePath(r) : outsidePath(r);
    inputs.push({ op: r() < 0.6 ? "read" : "write", path });
  }
  return inputs;
}

/**
 * A whole config with `ruleCount` permission rules (about nine in ten at the top level, the rest in two
 * subagents), written the way people write JSONC: comments above groups and on lines, trailing commas, the
 * other top-level sections filled in. About one rule in a hundred carries a real mistake so checks have
 * something to say (a relative path, a `..` segment, a misspelt operation).
 */
export function generateConfigText(ruleCount: number, seed: number, schemaUri: string): string {
  const r = rng(seed);
  const subagentRules = Math.floor(ruleCount / 10);
  const topRules = ruleCount - subagentRules;
  const all = generateRules(ruleCount, seed + 1);
  const mistakes = new Set<number>();
  for (let i = 0; i < Math.max(1, Math.floor(ruleCount / 100)); i++) mistakes.add(Math.floor(r() * ruleCount));

  const ruleText = (rule: BenchRule, index: number, indent: string): string => {
    let paths = rule.paths.map((p) => JSON.stringify(p));
    let operations = rule.operations.map((o) => JSON.stringify(o));
    if (mistakes.has(index)) {
      const kind = index % 3;
      if (kind === 0) paths = [JSON.stringify(rule.paths[0]!.replace(/^\/+/, "")), ...paths.slice(1)];
      else if (kind === 1) paths = [JSON.stringify(`/workspace/../${rule.paths[0]!.replace(/^\/+/, "")}`), ...paths.slice(1)];
      else operations = [JSON.stringify("raed"), ...operations.slice(1)];
    }
    const lines: string[] = [];
    if (index % 7 === 0) lines.push(`${indent}// ${pick(r, ["Keep secrets out of reach", "Generated build output is read-only", "Team policy", "Allow the agent to work on its own package", "Never touch VCS internals", "Ticket SEC-1234"])}`);
    const mode = rule.mode === undefined ? "" : `, "mode": ${JSON.stringify(rule.mode)}`;
    const trailing = index % 11 === 3 ? ` // added ${2024 + (index % 2)}-0${1 + (index % 9)}-1${index % 10}` : "";
    lines.push(`${indent}{ "operations": [${operations.join(", ")}], "paths": [${paths.join(", ")}]${mode} },${trailing}`);
    return lines.join("\n");
  };

  const top = all.slice(0, topRules).map((rule, i) => ruleText(rule, i, "    ")).join("\n");
  const half = Math.ceil(subagentRules / 2);
  const sub1 = all.slice(topRules, topRules + half).map((rule, i) => ruleText(rule, topRules + i, "        ")).join("\n");
  const sub2 = all.slice(topRules + half).map((rule, i) => ruleText(rule, topRules + half + i, "        ")).join("\n");

  return `// Agent Sandbox configuration for the research agent (generated for the benchmark: ${ruleCount} rules).
{
  "$schema": ${JSON.stringify(schemaUri)},
  "version": 1,
  "runtime": "deepagents-js",
  "compatibleWith": ["deepagents-py"],
  "name": "research-agent",
  "systemPrompt": "You are a careful research assistant. Work only inside /workspace unless told otherwise.",
  /* Files live in the agent's state; long-term notes go to the store. */
  "backend": {
    "type": "composite",
    "default": { "type": "state" },
    "routes": { "/memories/": { "type": "store" } },
  },
  "tools": ["web_search", "fetch_url", "run_sql"],
  // First match wins; a path no rule matches is allowed.
  "permissions": [
${top}
  ],
  "subagents": [
    {
      "name": "auditor",
      "description": "Read-only code reviewer",
      "systemPrompt": "Review code for defects. Never write.",
      "tools": ["web_search"],
      "permissions": [
${sub1}
      ],
    },
    {
      "name": "release-writer",
      "description": "Writes release notes",
      "permissions": [
${sub2}
      ],
    },
  ],
  "interruptOn": { "write_file": true, "execute": { "allowedDecisions": ["approve", "reject"] } },
  "authorization": {
    "enabled": true,
    "fail_closed": true,
    "default_role": "user",
    "roles": {
      "admin": { "tools": { "allow": "*" } },
      "user": { "tools": { "allow": "*", "deny": ["execute", "delete"] } },
      "guest": { "tools": { "allow": ["read_file", "ls", "glob", "grep", "web_search"] } },
    },
  },
  "workspace": { "root": "./sample-workspace", "mountAt": "/workspace" },
}
`;
}

/**
 * The largest kind of file the CLI reads (4 MB): `ruleCount` rules in one top-level list, written as a policy
 * generator writes them, one compact rule per line (one operation, one path, `mode` only for deny), with the
 * patterns of `generateRules` under `/` instead of `/workspace/`. 65,089 rules come to 3.9 MB (the file issue 27
 * measured). `runtime: "deepagents-js"` also checks against deepagents-py (`compatibleWith`), the slower way.
 */
export function generateLargeConfigText(ruleCount: number, seed: number, runtime: "deepagents-js" | "deepagents-py"): string {
  const lines = generateRules(ruleCount, seed).map((rule) => {
    const path = rule.paths[0]!.replace(/^\/workspace\//, "/");
    return `{"operations":${JSON.stringify(rule.operations.slice(0, 1))},"paths":${JSON.stringify([path])}${rule.mode === "deny" ? `,"mode":"deny"` : ""}},`;
  });
  const compatible = runtime === "deepagents-js" ? `"compatibleWith":["deepagents-py"],` : "";
  return `{"version":1,"runtime":"${runtime}",${compatible}"permissions":[\n${lines.join("\n")}\n]}\n`;
}
