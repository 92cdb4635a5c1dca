import { test } from "node:test";
import assert from "node:assert/strict";
import { config, expectFindings, expectNoFindings } from "../helpers/checkFixture";
import type { CheckOptions } from "../../server/src/engine/checkConfig";

const CODE = "skill-allowed-tools-string";

function disk(files: Record<string, string>): CheckOptions {
  return {
    readFile: (p) => files[p],
    fileExists: (p) => p in files,
    listDirectory: (p) => {
      const prefix = `${p}/`;
      const names = Object.keys(files).filter((f) => f.startsWith(prefix)).map((f) => f.slice(prefix.length).split("/")[0]!);
      return names.length ? [...new Set(names)] : undefined;
    },
  };
}

test("fires on the skills entry whose SKILL.md writes allowed-tools as a string", () => {
  const options = disk({ "./skills/review/SKILL.md": "---\nname: review\nallowed-tools: Read, Grep\n---\n" });
  const [f] = expectFindings(config(`"skills": [⟦"./skills"⟧]`), CODE, options);
  assert.equal(f!.severity, "warning");
  assert.equal(
    f!.message,
    "./skills/review/SKILL.md line 3: allowed-tools is a string, so DeerFlow drops the whole skill.",
  );
  assert.equal(
    f!.detail,
    'allowed-tools is "Read, Grep". DeerFlow requires a YAML list and drops the whole skill at load ("allowed-tools in ./skills/review/SKILL.md must be a list of strings"). Write "allowed-tools: [Read, Grep]".',
  );
  expectFindings(config(`"subagents": [{ "name": "a", "description": "a", "skills": [⟦"./skills/review"⟧] }]`), CODE, options);
});

test("does not fire on a list, on no allowed-tools, or when the folder cannot be read", () => {
  const options = disk({ "./skills/a/SKILL.md": "---\nallowed-tools: [read_file]\n---", "./skills/b/SKILL.md": "---\nname: b\n---", "./skills/c/SKILL.md": "---\nallowed-tools:\n  - read_file\n---" });
  expectNoFindings(config(`"skills": ["./skills", "./elsewhere"]`), CODE, options);
});

test("fixed by writing a list", () => {
  expectNoFindings(config(`"skills": ["./skills"]`), CODE, disk({ "./skills/review/SKILL.md": "---\nallowed-tools: [Read, Grep]\n---\n" }));
});
