import { test } from "node:test";
import assert from "node:assert/strict";
import { config, expectFindings, expectNoFindings, marked } from "../helpers/checkFixture";

const CODE = "system-prompt-conflict";

test("fires on both keys, pointing at the file key with the inline prompt as related information", () => {
  const fixture = config(`"systemPrompt": "Be careful.",\n  ⟦"systemPromptFile"⟧: "./AGENTS.md"`);
  const [finding] = expectFindings(fixture, CODE, { fileExists: () => true });
  assert.equal(finding!.severity, "error");
  assert.equal(finding!.message, "Give the system prompt once: systemPrompt or systemPromptFile, not both.");
  const { text } = marked(fixture);
  assert.deepEqual(finding!.related!.map((r) => [r.message, text.slice(r.span.start, r.span.end)]), [["the inline prompt", '"systemPrompt"']]);
});

test("fires when the prompt file does not exist", () => {
  const [finding] = expectFindings(config(`"systemPromptFile": ⟦"./AGENTS.md"⟧`), CODE, { fileExists: () => false });
  assert.equal(finding!.message, 'The system prompt file "./AGENTS.md" does not exist or is not a file.');
  assert.equal(finding!.detail, "Paths are relative to this config file.");
});

test("does not fire on one key with an existing file, or on an inline prompt alone", () => {
  expectNoFindings(config(`"systemPromptFile": "./AGENTS.md"`), CODE, { fileExists: (p) => p === "./AGENTS.md" });
  expectNoFindings(config(`"systemPrompt": "Be careful."`), CODE);
});

test("no quick fix, and silenced by an ignore comment", () => {
  const [finding] = expectFindings(config(`"systemPromptFile": ⟦"./missing.md"⟧`), CODE);
  assert.deepEqual(finding!.fixes ?? [], []);
  expectNoFindings(config(`// agent-sandbox-ignore system-prompt-conflict\n  "systemPromptFile": "./missing.md"`), CODE);
});
