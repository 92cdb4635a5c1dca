/** §4.1: a filesystem middleware's `tools` value as each runtime reads it (the JS column is also proven against the real package in test/conformance). */
import { test } from "node:test";
import assert from "node:assert/strict";
import { deepagentsJs, deepagentsPy } from "../../server/src/engine/runtime";

const ALL = ["ls", "read_file", "write_file", "edit_file", "delete", "glob", "grep", "execute"];
const READ_FILE = "read_file must be included in tools; it is required by FilesystemMiddleware";

/** [value, JS result, Python result]; a result is the registered tools, or `throws <message>`. */
const ROWS: [string, unknown, string, string][] = [
  ["omitted", undefined, ALL.join(","), ALL.join(",")],
  ["null", null, ALL.join(","), ALL.join(",")],
  ['"all"', "all", ALL.join(","), ALL.join(",")],
  ['["read_file"]', ["read_file"], "read_file", "read_file"],
  ["input order ignored", ["grep", "read_file", "ls"], "ls,read_file,grep", "ls,read_file,grep"],
  ["duplicates", ["read_file", "read_file"], "read_file", "read_file"],
  ["[]", [], `throws Error: ${READ_FILE}`, `throws ValueError: ${READ_FILE}`],
  ['["ls"]', ["ls"], `throws Error: ${READ_FILE}`, `throws ValueError: ${READ_FILE}`],
  ["case-sensitive", ["READ_FILE"], `throws Error: ${READ_FILE}`, `throws ValueError: ${READ_FILE}`],
  ["unknown names ignored", ["read_file", "bogus", "task"], "read_file", "read_file"],
  ['a string other than "all"', "read_file", `throws Error: ${READ_FILE}`, ALL.join(",")],
  ['"ALL"', "ALL", `throws Error: ${READ_FILE}`, ALL.join(",")],
];

for (const [label, value, js, py] of ROWS) {
  test(`§4.1 tools ${label}`, () => {
    for (const [runtime, expected] of [
      [deepagentsJs, js],
      [deepagentsPy, py],
    ] as const) {
      const result = runtime.normalizeFilesystemTools(value);
      const said = result.error ? `throws ${result.error.message}` : result.tools.join(",");
      assert.equal(said, expected, runtime.id);
    }
  });
}

test("a value that is not iterable: JS throws before the read_file test; Python falls back to every tool", () => {
  assert.equal(deepagentsJs.normalizeFilesystemTools(5).error?.kind, "not-iterable");
  assert.deepEqual(deepagentsPy.normalizeFilesystemTools(5).tools, ALL);
});
