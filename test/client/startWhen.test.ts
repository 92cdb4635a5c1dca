/** The client's cheap tests for starting the language server (client/src/startWhen.ts: plain text, no VS Code). */
import assert from "node:assert/strict";
import { test } from "node:test";
import { editNamesRuntime, isDeerFlowFile, isDeerFlowName, namesRuntime } from "../../client/src/startWhen";
import { isDeerFlowText } from "../../server/src/engine/deerflow/fileNames";
import { mayCallRuntime } from "../../server/src/engine/sources";

test("a source file needs the server when it names deepagents, and whenever the server would read it", () => {
  const texts = [
    "from deepagents import create_deep_agent\nagent = create_deep_agent()\n",
    'import { createDeepAgent as make } from "deepagents";\n',
    "const x = require('deepagents')",
    "import os\nprint(os.getcwd())\n",
    "export const answer = 42;\n",
    "from deep_agents import create_deep_agent\n",
    "",
  ];
  assert.deepEqual(texts.map(namesRuntime), [true, true, true, false, false, false, false]);
  // Never stricter than the server: a text the server would parse starts it.
  for (const text of texts) if (mayCallRuntime(text)) assert.ok(namesRuntime(text), text);
});

test("a file named like DeerFlow's needs the server exactly when the server checks it", () => {
  const cases: [string, string][] = [
    ["config.yaml", "authorization:\n  enabled: true\n"],
    ["config.yml", "tool_groups:\n  - name: web\n"],
    ["config.yaml", "guardrails :\n  enabled: false\n"],
    ["config.yaml", "models:\n  - use: deerflow.models.ChatOpenAI\n"],
    ["config.yaml", "models:\n  - use: \"deerflow.models.ChatOpenAI\"\n"],
    ["config.yaml", "server:\n  port: 8080\n  authorization: token\n"],
    ["config.yaml", "name: my-service\nreplicas: 3\n"],
    ["config.yaml", ""],
    ["a/b/config.yaml", "tool_search:\n  enabled: true\n"],
    ["SKILL.md", "---\nname: review\nallowed-tools: [read_file]\n---\n# Review\n"],
    ["SKILL.md", "\uFEFF---\r\nallowed-tools: read_file\r\n...\r\n"],
    ["SKILL.md", "---\nname: review\n---\nallowed-tools: read_file\n"],
    ["SKILL.md", "---\nallowed-tools: read_file\n"],
    ["SKILL.md", "# A skill without frontmatter\nallowed-tools: x\n"],
    ["README.md", "---\nallowed-tools: read_file\n---\n"],
    ["settings.yaml", "authorization:\n  enabled: true\n"],
  ];
  for (const [name, text] of cases) assert.equal(isDeerFlowFile(name, text), isDeerFlowText(name, text), `${name}: ${JSON.stringify(text)}`);
  assert.deepEqual(
    cases.map(([name, text]) => isDeerFlowFile(name, text)),
    [true, true, true, true, true, false, false, false, true, true, true, false, false, false, false, false],
  );
  assert.deepEqual(["config.yaml", "dir/config.yml", "SKILL.md", "skill.md", "config.json", "my-config.yaml"].map(isDeerFlowName), [true, true, true, false, false, false]);
});

test("an edit needs the server when a line it wrote names deepagents, read from the document after the edit", () => {
  const documentOf = (text: string) => {
    const lines = text.split("\n");
    return { lineCount: lines.length, lineAt: (line: number) => ({ text: lines[line]! }) };
  };
  const after = documentOf('import os\nfrom deepagents import create_deep_agent\nprint("deepagents")\n');
  // The last character of the import typed on line 1; a paste of two lines from line 0; an edit on line 0 only.
  assert.equal(editNamesRuntime(after, { range: { start: { line: 1 } }, text: "s" }), true);
  assert.equal(editNamesRuntime(after, { range: { start: { line: 0 } }, text: "import os\nfrom deepagents" }), true);
  assert.equal(editNamesRuntime(after, { range: { start: { line: 0 } }, text: "o" }), false);
  // A line beyond the document (an edit at the very end) is not read.
  assert.equal(editNamesRuntime(documentOf("x = 1"), { range: { start: { line: 0 } }, text: "\n\n\n" }), false);
});
