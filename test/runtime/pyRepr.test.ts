import assert from "node:assert/strict";
import { test } from "node:test";
import { deepagentsPy } from "../../server/src/engine/runtime";
import { pyStrRepr } from "../../server/src/engine/runtime/pyRepr";

// Expected texts are CPython 3.11's `repr()` of the same str.
test("repr of a str: quotes, escapes, and what str.isprintable() refuses", () => {
  assert.equal(pyStrRepr("/workspace/a"), "'/workspace/a'");
  assert.equal(pyStrRepr("it's"), `"it's"`);
  assert.equal(pyStrRepr(`it's "x"`), `'it\\'s "x"'`);
  assert.equal(pyStrRepr("a\\b\n\t"), "'a\\\\b\\n\\t'");
  assert.equal(pyStrRepr("\x85\u00a0\u200b\u2028\u{e0001}"), "'\\x85\\xa0\\u200b\\u2028\\U000e0001'");
  assert.equal(pyStrRepr("é☃😀 "), "'é☃😀 '");
});

test("deepagents-py's path errors print the path with that repr", () => {
  assert.equal(deepagentsPy.permissionPathProblem("a\u200b")?.message, "ValueError: Permission path must start with '/': 'a\\u200b'");
  assert.equal(deepagentsPy.permissionPathProblem("/a/../b\x85")?.message, "ValueError: Permission path must not contain '..': '/a/../b\\x85'");
});
