/** The SKILL.md frontmatter subset (`allowed-tools` as DeerFlow reads it) and skill discovery. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { loadSkills, parseSkillFrontmatter } from "../../server/src/engine/agents/skills";
import { modelOf } from "./helpers";

test("flow list, block list, quoted items, comments", () => {
  assert.deepEqual(parseSkillFrontmatter("---\nallowed-tools: [read_file, \"web_search\", 'a,b']  # three\n---\n").allowedTools, {
    kind: "list",
    items: [
      { value: "read_file", line: 1 },
      { value: "web_search", line: 1 },
      { value: "a,b", line: 1 },
    ],
  });
  assert.deepEqual(parseSkillFrontmatter("---\nname: x\nallowed-tools:\n  - read_file\n  # a comment\n  - grep\ndescription: d\n---").allowedTools, {
    kind: "list",
    items: [
      { value: "read_file", line: 3 },
      { value: "grep", line: 5 },
    ],
  });
  assert.equal(parseSkillFrontmatter("---\nallowed-tools: []\n---").allowedTools?.kind, "list");
});

test("a string is a string (DeerFlow drops the skill); name and description are read", () => {
  const fm = parseSkillFrontmatter("---\nname: review\ndescription: \"Review: a diff\"\nallowed-tools: Read, Grep\n---\n# body\nallowed-tools: [x]");
  assert.deepEqual(fm, { name: "review", description: "Review: a diff", allowedTools: { kind: "string", value: "Read, Grep" }, allowedToolsLine: 3 });
});

test("no frontmatter, or an unterminated one, is tolerated", () => {
  assert.deepEqual(parseSkillFrontmatter("# Just a body"), {});
  assert.equal(parseSkillFrontmatter("---\nallowed-tools: [a]\n").allowedTools?.kind, "list");
});

test("skills entries are skill folders or folders of skills", () => {
  const files: Record<string, string> = { "./skills/a/SKILL.md": "---\nname: a\n---", "./skills/b/SKILL.md": "---\nname: b\n---", "./one/SKILL.md": "---\nname: one\n---" };
  const model = modelOf({ skills: ["./skills/", "./one", "./missing"] });
  const skills = loadSkills(model.skills, { readFile: (p) => files[p], listDirectory: (p) => (p === "./skills" ? ["b", "a", "notes.txt"] : undefined) });
  assert.deepEqual(skills.map((s) => `${s.folder}:${s.file}`), ["a:./skills/a/SKILL.md", "b:./skills/b/SKILL.md", "one:./one/SKILL.md"]);
});
