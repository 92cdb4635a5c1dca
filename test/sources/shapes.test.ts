import { before, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { JsonNode } from "../../server/src/engine/config/parse";
import { readAgents, sourceLanguageOf } from "../../server/src/engine/sources";
import { styleProblems } from "../helpers/messageStyle";
import { checkSource, loadGrammars, SOURCE_FIXTURES } from "../helpers/sources";

// The call shapes public projects write (docs/reference/source-shapes.md names one public example of each): for each
// fixture, exactly what the front end reads into the config, what it reports as dynamic (what, why, the expression),
// and the one source-dynamic note the call then gets. A shape that needs running code must stay dynamic: reading a
// guess would make a check speak of a config the program never builds.

before(loadGrammars);

const SHAPES = join(SOURCE_FIXTURES, "shapes");

interface Expected {
  /** What the call is read as: the config's keys as a JSONC file would write them (one entry per call). */
  read: Record<string, unknown>[];
  /** Per call: [what, field, expression] of each value not read. */
  dynamic?: [string, string, string][][];
  /** The source-dynamic message, when a call has dynamic values. */
  note?: string;
}

const composite = (routes: Record<string, unknown>) => ({ type: "composite", default: { type: "state" }, routes });
const rule = (operations: string[], paths: string[], mode?: "allow" | "deny") => ({ operations, paths, ...(mode ? { mode } : {}) });

const EXPECTED: Record<string, Expected> = {
  // TypeScript / JavaScript
  "arrow-factory-composite.ts": {
    read: [{ systemPrompt: "Keep long-term notes under /notes/.", backend: composite({ "/notes/": { type: "store" } }) }],
  },
  "compiled-subagent.ts": {
    read: [{ systemPrompt: "You check facts. Quote your sources.", tools: ["look_up"] }, { systemPrompt: "You coordinate.", subagents: [] }],
    dynamic: [[], [["the tools of compiled subagent checker", "subagents", 'createDeepAgent({ systemPrompt: "You …']]],
    note: 'The tools of compiled subagent checker come from createDeepAgent({ systemPrompt: "You …: not analysed.',
  },
  "tagged-template-prompt.ts": {
    read: [{ subagents: [{ name: "planner", description: "Plans the work", systemPrompt: "You plan.", tools: ["now"] }] }],
    dynamic: [[["the system prompt", "system-prompt", "context` You plan, then act. `"]]],
    note: "A value of this agent comes from code: not analysed.",
  },
  "user-sandbox-class.ts": {
    read: [{ permissions: [rule(["write"], ["/srv/work/.git/**"], "deny")] }],
    dynamic: [[["the backend", "backend", 'new FolderSandbox("/srv/work")']]],
    note: 'The backend comes from new FolderSandbox("/srv/work"): not analysed.',
  },
  "imported-subagents.ts": {
    read: [{ subagents: [] }],
    dynamic: [[["the system prompt", "system-prompt", 'instructionsFor("coding")'], ["a subagent", "subagents", "reviewer"], ["a subagent", "subagents", "tester"]]],
    note: 'The system prompt comes from instructionsFor("coding") and 2 more values: not analysed.',
  },
  // Imported from a relative path, not from the package: nothing says it is the runtime's function.
  "relative-import.ts": { read: [] },
  "dynamic-import.ts": {
    read: [{ backend: { type: "filesystem", rootDir: "/srv/project", virtualMode: true }, permissions: [rule(["read", "write"], ["/secrets/**"], "deny")] }],
  },
  "cast-alias.ts": {
    read: [{ systemPrompt: "You edit documents.", permissions: [rule(["write"], ["/docs/**"], "allow")] }],
  },
  "object-assign.ts": {
    read: [{ systemPrompt: "You are careful.", backend: { type: "state" }, permissions: [rule(["read"], ["/private/**"], "deny")] }],
  },
  "defaults-from-helper.ts": {
    read: [{ permissions: [rule(["read"], ["/**"], "allow")] }],
    dynamic: [[["options", "options", "sharedDefaults()"]]],
    note: "Options come from sharedDefaults(): not analysed.",
  },
  "conditional-options.ts": {
    read: [{ systemPrompt: "You build things." }],
    dynamic: [[["the backend", "backend", "local ? new LocalShellBackend({ rootD…"], ["options", "options", "local ? { permissions: [] } : {}"]]],
    // The expression has a sentence end of its own (`? `): the note names no expression (its detail lists both).
    note: "A value of this agent comes from code and 1 more value: not analysed.",
  },
  "mutated-options.ts": {
    read: [{ systemPrompt: "You read." }],
    dynamic: [[["permissions", "permissions", "rules"]]],
    note: "Permissions come from rules: not analysed.",
  },
  "env-root-folder.ts": {
    read: [{ backend: { type: "filesystem", virtualMode: true }, permissions: [rule(["write"], ["/**/.env"], "deny")] }],
    dynamic: [[["the root folder of the backend", "backend-root", 'process.env.WORKSPACE ?? "/tmp/work"']]],
    note: "A value of this agent comes from code: not analysed.",
  },
  "tool-objects-mixed.ts": {
    read: [{ systemPrompt: "You research.", tools: ["fetch_page"] }],
    dynamic: [[["a tool in the agent's tools", "user-tools", "new TavilySearch({ maxResults: 3 })"]]],
    note: "A tool in the agent's tools comes from new TavilySearch({ maxResults: 3 }): not analysed.",
  },

  // Python
  "lambda-composite-variable.py": {
    read: [{ backend: composite({ "/notes/": { type: "filesystem", rootDir: "/srv/notes", virtualMode: true } }) }],
  },
  "inline-lambda-store.py": {
    read: [{ systemPrompt: "Remember what matters under /memories/.", backend: composite({ "/memories/": { type: "store" } }) }],
  },
  "backend-from-helper.py": {
    read: [{ systemPrompt: "You keep notes." }],
    dynamic: [[["the backend", "backend", "memory_backend()"]]],
    note: "The backend comes from memory_backend(): not analysed.",
  },
  "subagents-module.py": {
    read: [{ systemPrompt: "You delegate." }],
    dynamic: [[["subagents", "subagents", "helpers"]]],
    note: "Subagents come from helpers: not analysed.",
  },
  "prompt-format.py": {
    read: [{ tools: [], subagents: [{ name: "researcher", description: "Researches one topic at a time.", systemPrompt: "You research.", tools: [] }] }],
    dynamic: [
      [
        ["the system prompt", "system-prompt", 'WORKFLOW + "\\n\\n" + DELEGATION.format…'],
        ["a tool in the agent's tools", "user-tools", "search"],
        ["a tool in the agent's tools", "user-tools", "think"],
        ["a tool in the tools of subagent researcher", "user-tools", "search"],
        ["a tool in the tools of subagent researcher", "user-tools", "think"],
      ],
    ],
    note: 'The system prompt comes from WORKFLOW + "\\n\\n" + DELEGATION.format… and 4 more values: not analysed.',
  },
  "function-local-call.py": {
    read: [{ backend: { type: "filesystem" }, permissions: [], skills: ["./skills/"] }],
    dynamic: [[["the root folder of the backend", "backend-root", "Path(__file__).parent"], ["the agent's tools", "user-tools", 'load_tools(HERE / "skills")']]],
    note: "The root folder of the backend comes from Path(__file__).parent and 1 more value: not analysed.",
  },
  "module-tool-lists.py": {
    read: [{ tools: [], permissions: [rule(["write"], ["/**"], "deny")], subagents: [{ name: "reviewer", description: "Reviews the diff.", systemPrompt: "You review code.", tools: [] }] }],
    dynamic: [
      [
        ["a tool in the agent's tools", "user-tools", "get_diff"],
        ["a tool in the agent's tools", "user-tools", "get_file"],
        ["a tool in the agent's tools", "user-tools", "post_comment"],
        ["a tool in the tools of subagent reviewer", "user-tools", "get_diff"],
        ["a tool in the tools of subagent reviewer", "user-tools", "get_file"],
      ],
    ],
    note: "A tool in the agent's tools comes from get_diff and 4 more values: not analysed.",
  },
  "custom-middleware-instances.py": {
    read: [{ systemPrompt: "You help with code.", permissions: [], middleware: [] }],
    dynamic: [[["a middleware of the agent", "middleware", "CallLogger()"]]],
    note: "A middleware of the agent comes from CallLogger(): not analysed.",
  },
  "strip-prompt-param-backend.py": {
    read: [{ systemPrompt: "You are a deep agent. Plan, then act.", tools: ["utc_now"], subagents: [{ name: "critic", description: "Reviews drafts.", systemPrompt: "You critique.", tools: ["utc_now"] }] }],
    dynamic: [[["the backend", "backend", "backend"]]],
    note: "The backend comes from backend: not analysed.",
  },
  "try-import-alias.py": {
    read: [{ systemPrompt: "You file reports.", permissions: [rule(["read", "write"], ["/reports/**"])] }],
  },
  "kwargs-dict-builtin.py": {
    read: [{ systemPrompt: "You sort files.", permissions: [rule(["write"], ["/archive/**"], "deny")] }],
  },
  "wrapper-function.py": {
    read: [{}],
    dynamic: [[["the system prompt", "system-prompt", "system_prompt"], ["the backend", "backend", "backend"], ["the agent's tools", "user-tools", "list(tools)"], ["subagents", "subagents", "list(subagents)"]]],
    note: "The system prompt comes from system_prompt and 3 more values: not analysed.",
  },
  "mutated-list.py": {
    read: [{}],
    dynamic: [[["permissions", "permissions", "RULES"]]],
    note: "Permissions come from RULES: not analysed.",
  },
  "helper-results-imported-middleware.py": {
    read: [{ tools: [], middleware: [] }],
    dynamic: [[["the system prompt", "system-prompt", "load_prompt()"], ["a tool in the agent's tools", "user-tools", "run_python"], ["a middleware of the agent", "middleware", "add_house_rules"]]],
    note: "The system prompt comes from load_prompt() and 2 more values: not analysed.",
  },
  "backend-variable-param-root.py": {
    read: [{ systemPrompt: "You read code.", backend: { type: "filesystem" } }],
    dynamic: [[["the root folder of the backend", "backend-root", "codebase_path"]]],
    note: "The root folder of the backend comes from codebase_path: not analysed.",
  },
};

/** A config node as the JSON value it stands for. */
function plain(node: JsonNode): unknown {
  if (node.type === "object") return Object.fromEntries(node.children!.map((p) => [p.children![0]!.value, plain(p.children![1]!)]));
  if (node.type === "array") return node.children!.map(plain);
  return node.value;
}

const files = ["ts", "py"].flatMap((folder) => readdirSync(join(SHAPES, folder)).sort().map((name) => ({ name, path: join(SHAPES, folder, name) })));

test("every shape fixture has its expectation, and every expectation its fixture", () => {
  assert.deepEqual(files.map((f) => f.name).sort(), Object.keys(EXPECTED).sort());
  assert.ok(files.length >= 20, `${files.length} shapes`);
});

test("the shapes page lists every shape fixture", () => {
  const page = readFileSync(join(__dirname, "../../docs/reference/source-shapes.md"), "utf8");
  for (const f of files) assert.ok(page.includes(`\`${f.name}\``), `docs/reference/source-shapes.md does not list ${f.name}`);
});

for (const file of files) {
  test(`shape: ${file.name}`, () => {
    const expected = EXPECTED[file.name]!;
    const text = readFileSync(file.path, "utf8");
    const language = sourceLanguageOf(file.name)!;
    const agents = readAgents(text, language);
    assert.deepEqual(agents.map((a) => plain(a.config.root)), expected.read, "what is read");
    const dynamic = expected.dynamic ?? expected.read.map(() => []);
    assert.deepEqual(agents.map((a) => a.config.dynamic.map((d) => [d.what, d.field, d.expression])), dynamic, "what is dynamic");
    // Every dynamic value's span is inside the file and covers the expression the note quotes (before shortening).
    for (const d of agents.flatMap((a) => a.config.dynamic)) {
      assert.ok(d.span.start < d.span.end && d.span.end <= text.length);
      const written = text.slice(d.span.start, d.span.end).replace(/\s+/g, " ");
      assert.ok(written.startsWith(d.expression.replace(/…$/, "").trimEnd()) || d.what.startsWith("the tools of compiled"), `${d.what}: the span holds ${JSON.stringify(written)}`);
    }
    const findings = checkSource(text, language).findings;
    assert.deepEqual(findings.flatMap(styleProblems), []);
    const notes = findings.filter((f) => f.code === "source-dynamic").map((f) => f.message);
    assert.deepEqual(notes, expected.note ? [expected.note] : [], "the source-dynamic note");
  });
}
