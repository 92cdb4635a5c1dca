import { test } from "node:test";
import assert from "node:assert/strict";
import { config, expectFindings, expectNoFindings, findings, marked } from "../helpers/checkFixture";
import type { CheckOptions } from "../../server/src/engine/checkConfig";

const CODE = "skill-tool-unknown";

const disk = (files: Record<string, string>): CheckOptions => ({ readFile: (p) => files[p] });

test("fires on an allowed tool no agent has, with a did-you-mean, on the skills entry", () => {
  const options = disk({ "./skills/review/SKILL.md": "---\nallowed-tools:\n  - read_file\n  - web_serch\n  - Bash\n---" });
  const { text, ranges: spans } = marked(config(`"tools": ["web_search"],\n  "skills": [⟦"./skills/review"⟧]`));
  const [typo, other] = findings(text, CODE, options);
  assert.deepEqual([typo!.span, other!.span], [spans[0], spans[0]]);
  assert.equal(typo!.severity, "warning");
  assert.equal(typo!.message, './skills/review/SKILL.md line 4: allowed-tools lists "web_serch", which no agent here has.');
  assert.equal(typo!.detail, 'No agent in this file has a tool named "web_serch" (tool names are exact and case-sensitive), so it allows nothing. Did you mean "web_search"?');
  assert.match(other!.message, /line 5: .*"Bash"/);
  expectFindings(config(`"skills": [⟦"./skills/review"⟧]`).replace('"skills"', '"tools": ["web_search", "Bash"],\n  "skills"'), CODE, options);
});

test("does not fire on filesystem tools, task, user tools of any agent, or DeerFlow's framework tools", () => {
  const options = disk({ "./s/SKILL.md": "---\nallowed-tools: [read_file, execute, task, web_search, fetch_url, describe_skill, tool_search]\n---" });
  expectNoFindings(config(`"tools": ["web_search"],\n  "subagents": [{ "name": "a", "description": "a", "tools": ["fetch_url"] }],\n  "skills": ["./s"]`), CODE, options);
});

test("fixed by naming a tool an agent has", () => {
  expectNoFindings(config(`"tools": ["web_search"],\n  "skills": ["./s"]`), CODE, disk({ "./s/SKILL.md": "---\nallowed-tools: [web_search]\n---" }));
});
