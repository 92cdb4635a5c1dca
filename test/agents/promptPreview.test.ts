/** The system-prompt preview (config-format.md, spec §7). JS assembly is also proven against the real package in test/conformance. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { promptPreview, renderPromptPreview } from "../../server/src/engine/agents/promptPreview";
import { modelOf } from "./helpers";

const noFiles = () => undefined;

test("JS: the custom filesystem middleware's systemPrompt is concatenated with no separator (§7.1)", () => {
  const preview = promptPreview(modelOf({ systemPrompt: "BASE", middleware: [{ type: "filesystem", systemPrompt: "FS GUIDANCE" }] }), "main", null, noFiles)!;
  assert.equal(preview.systemMessage, "BASEFS GUIDANCE");
});

test("JS: no filesystem section; no systemPrompt means an empty system message", () => {
  assert.equal(promptPreview(modelOf({ backend: { type: "sandbox" } }), "main", null, noFiles)!.systemMessage, "");
});

test("Python: parts are joined with a blank line; the route section appears only when execute is visible", () => {
  const composite = { type: "composite", default: { type: "sandbox" }, routes: { "/memories/": { type: "store" }, "/data/": { type: "filesystem", rootDir: "/srv/data" } } };
  const withExecute = promptPreview(modelOf({ runtime: "deepagents-py", systemPrompt: "BASE", backend: composite, middleware: [{ type: "filesystem", backend: composite, systemPrompt: "FS" }] }), "main", null, noFiles)!;
  assert.equal(
    withExecute.systemMessage,
    "BASE\n\nFS\n\n## Shell paths vs. virtual paths\n\nHost path mappings:\n- /data/ → the host folder /srv/data\n\nVirtual mounts without a host path mapping (shell commands cannot reach them):\n- /memories/: store",
  );
  const noExecute = promptPreview(modelOf({ runtime: "deepagents-py", systemPrompt: "BASE", backend: composite, middleware: [{ type: "filesystem", backend: composite, tools: ["read_file"] }] }), "main", null, noFiles)!;
  assert.equal(noExecute.systemMessage, "BASE");
  const jsComposite = promptPreview(modelOf({ systemPrompt: "BASE", backend: composite }), "main", null, noFiles)!;
  assert.equal(jsComposite.systemMessage, "BASE", "JS has no route section");
});

test("systemPromptFile is read through the given function; an unreadable one is noted", () => {
  const model = modelOf({ systemPromptFile: "./AGENTS.md" });
  assert.equal(promptPreview(model, "main", null, (p) => (p === "./AGENTS.md" ? "From the file." : undefined))!.systemMessage, "From the file.");
  const missing = promptPreview(model, "main", null, noFiles)!;
  assert.equal(missing.systemMessage, "");
  assert.match(missing.notes[0]!, /could not be read/);
});

test("subagents: own prompt; a fork continues with the parent's prompt; the general-purpose prompt is summarised", () => {
  const model = modelOf({ systemPrompt: "MAIN", subagents: [{ name: "w", description: "d", systemPrompt: "W" }, { name: "f", description: "d", systemPrompt: "F", mode: "fork" }] });
  assert.equal(promptPreview(model, "w", null, noFiles)!.systemMessage, "W");
  assert.equal(promptPreview(model, "f", null, noFiles)!.systemMessage, "MAIN\n\nF");
  const gp = promptPreview(model, "general-purpose", null, noFiles)!;
  assert.match(gp.systemMessage, /built-in general-purpose subagent prompt/);
  assert.equal(gp.notes.length, 1);
});

test("tools: our own descriptions; toolDescriptions replace them; the catalogue of task lists every subagent", () => {
  const model = modelOf({
    backend: { type: "sandbox" },
    tools: ["web_search"],
    middleware: [{ type: "filesystem", backend: { type: "sandbox" }, toolDescriptions: { ls: "My ls." } }],
    subagents: [{ name: "auditor", description: "Reviews code" }, { name: "nodesc" }, { name: "forky", description: "Forks", mode: "fork" }],
  });
  const preview = promptPreview(model, "main", null, noFiles)!;
  const byName = Object.fromEntries(preview.tools.map((t) => [t.name, t.description]));
  assert.equal(byName.ls, "My ls.");
  assert.match(byName.grep!, /use `execute`/);
  assert.match(byName.execute!, /Prefer the `grep` and `glob` tools/);
  assert.match(byName.web_search!, /application/);
  assert.deepEqual(
    preview.subagents.map((s) => s.name),
    ["general-purpose", "auditor", "nodesc", "forky"],
  );
  assert.equal(preview.subagents[2]!.description, "(no description)");
  assert.match(preview.subagents[3]!.description, /forks the current conversation/);
});

test("hidden tools appear nowhere: not in the list, not in another tool's description, no catalogue without task", () => {
  const model = modelOf({
    backend: { type: "sandbox", factory: true },
    middleware: [{ type: "filesystem", backend: { type: "store" }, tools: ["read_file", "grep", "execute"] }],
    authorization: { enabled: true, default_role: "guest", roles: { guest: { tools: { allow: ["read_file", "grep"] } } } },
    subagents: [{ name: "auditor", description: "Reviews code" }],
  });
  const preview = promptPreview(model, "main", "guest", noFiles)!;
  assert.deepEqual(preview.tools.map((t) => t.name), ["read_file", "grep"]);
  assert.doesNotMatch(JSON.stringify(preview), /execute|task|auditor/);
  assert.deepEqual(preview.subagents, []);
});

test("skills add a section in the runtime's joining style, with names and descriptions from SKILL.md", () => {
  const files: Record<string, string> = { "./skills/review/SKILL.md": "---\nname: review\ndescription: Review a diff\nallowed-tools: [read_file]\n---\nBody" };
  const model = modelOf({ systemPrompt: "BASE", skills: ["./skills"] });
  const preview = promptPreview(model, "main", null, (p) => files[p], { listDirectory: (p) => (p === "./skills" ? ["review"] : undefined) })!;
  assert.equal(preview.systemMessage, "BASE## Skills\n\nSkill folders: ./skills.\n\n- review: Review a diff (read ./skills/review/SKILL.md before using it)");
});

test("markdown rendering", () => {
  const model = modelOf({ systemPrompt: "Be careful.", middleware: [{ type: "filesystem", tools: ["read_file", "ls"] }], subagents: [{ name: "auditor", description: "Reviews code" }] });
  const markdown = renderPromptPreview(promptPreview(model, "main", null, noFiles)!);
  assert.equal(
    markdown,
    [
      "# Prompt preview: `main`",
      "",
      "Role: none (no authorization) · Runtime: deepagents-js 1.14.1",
      "",
      "## System message",
      "",
      "~~~text",
      "Be careful.",
      "~~~",
      "",
      "## Tools (3)",
      "",
      "- `ls`: List the files and folders at a path.",
      "- `read_file`: Read a file, or a range of its lines.",
      "- `task`: Hand a task to a subagent, which works on it on its own and returns one result.",
      "",
      "## Subagents offered by `task`",
      "",
      "- `general-purpose`: Built in: works with the same tools as the main agent; for searches and multi-step tasks.",
      "- `auditor`: Reviews code",
      "",
    ].join("\n"),
  );
  assert.equal(promptPreview(model, "nobody", null, noFiles), undefined);
});
