import { test } from "node:test";
import assert from "node:assert/strict";
import { expectFindings, expectNoFindings, findings } from "../helpers/checkFixture";

const CODE = "json-syntax";

test("fires at the place of each syntax error, with what was expected there", () => {
  const found = expectFindings(`{\n  "version": 1\n  ⟦"runtime"⟧: "deepagents-js"\n}\n`, CODE);
  assert.equal(found[0]!.severity, "error");
  assert.equal(found[0]!.message, "A comma is expected.");
  const [unclosed] = findings(`{ "version": 1, "name": "agent }`, CODE);
  assert.equal(unclosed!.message, "The string is not closed.");
});

test("an empty file and binary data are reported, not analysed", () => {
  assert.equal(findings("", CODE)[0]!.message, "The file is empty.");
  assert.equal(findings("", CODE)[0]!.detail, 'A configuration needs at least { "version": 1 }.');
  assert.equal(findings(`{ "version": 1 }\u0000`, CODE)[0]!.message, "The file contains binary data (a NUL byte): it is not a JSONC configuration.");
});

test("does not fire on comments and trailing commas (JSONC)", () => {
  expectNoFindings(`{\n  // a comment\n  "version": 1, /* another */\n  "tools": ["web_search",],\n}\n`, CODE);
});

test("the other checks still run on what could be read", () => {
  const text = `{\n  "version": 1\n  "permissions": [{ "operations": ["read"], "paths": ["relative"] }]\n}\n`;
  assert.deepEqual(findings(text).map((f) => f.code), ["json-syntax", "path-not-absolute"]);
});

test("no quick fix: the text needs a person", () => {
  assert.deepEqual(findings(`{ "version": 1 "name": "x" }`, CODE).flatMap((f) => f.fixes ?? []), []);
});
