/**
 * The JSONC front end's fix renderer: each operation on model values (fixOperations.ts) written as text edits that
 * keep the file's layout. The checks' fixture tests pin what each check's fix writes; these pin the operations one
 * by one, on nodes of a parsed file, as any front end's renderer would be tested.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { jsoncFrontEnd } from "../../server/src/engine/config/jsoncFrontEnd";
import { parseJsonc, property, type JsonNode } from "../../server/src/engine/config/parse";
import type { Finding } from "../../server/src/engine/diagnostics";
import { applyEdits } from "../../server/src/engine/fixes";
import {
  addKey,
  copyOf,
  FixRendering,
  insertElements,
  moveBefore,
  onePerLine,
  removeElements,
  removeKey,
  renameKey,
  replaceElement,
  replaceWith,
  suppressing,
  type FixOperation,
  type ModelFixGroup,
} from "../../server/src/engine/fixOperations";

/** The file, its root, and the text after `operations` (built on its nodes) are rendered and applied. */
function fixed(text: string, operations: (root: JsonNode) => FixOperation[]): string {
  const root = parseJsonc(text).root!;
  return applyEdits(text, jsoncFrontEnd.renderer(text).render(operations(root)));
}

const at = (root: JsonNode, ...keys: string[]): JsonNode => keys.reduce((node, key) => property(node, key)!, root);

test("replace: plain data written as JSON, small lists and objects on one line", () => {
  assert.equal(fixed('{ "a": "x" }', (r) => [replaceWith(at(r, "a"), ["read", "write"])]), '{ "a": ["read", "write"] }');
  assert.equal(fixed('{ "a": null }', (r) => [replaceWith(at(r, "a"), [])]), '{ "a": [] }');
  assert.equal(fixed('{ "a": 1 }', (r) => [replaceWith(at(r, "a"), { k: [1, true], m: null })]), '{ "a": { "k": [1, true], "m": null } }');
});

test("rename a key: the value and everything around it stay", () => {
  assert.equal(fixed('{ "tool": [1], // c\n "b": 2 }', (r) => [renameKey(r.children![0]!.children![0]!, "tools")]), '{ "tools": [1], // c\n "b": 2 }');
});

test("insert first: on the list's line, or on a line of its own in the elements' indentation; into an empty list, comments kept", () => {
  assert.equal(fixed('{ "t": ["ls"] }', (r) => [insertElements(at(r, "t"), 0, ["read_file"])]), '{ "t": ["read_file", "ls"] }');
  assert.equal(fixed('{\n  "t": [\n    "ls"\n  ]\n}', (r) => [insertElements(at(r, "t"), 0, ["a", "b"])]), '{\n  "t": [\n    "a",\n    "b",\n    "ls"\n  ]\n}');
  assert.equal(fixed('{ "t": [ // none\n] }', (r) => [insertElements(at(r, "t"), 0, ["read_file"])]), '{ "t": ["read_file" // none\n] }');
});

test("insert after an element and at the end, in the list's layout", () => {
  assert.equal(fixed('{ "p": ["/a/**", "/b"] }', (r) => [insertElements(at(r, "p"), 1, ["/a/.*", "/a/**/.*"])]), '{ "p": ["/a/**", "/a/.*", "/a/**/.*", "/b"] }');
  assert.equal(fixed('{ "p": ["/a/**"] }', (r) => [insertElements(at(r, "p"), 1, ["/a/.*"])]), '{ "p": ["/a/**", "/a/.*"] }');
  assert.equal(fixed('{\n  "p": [\n    "/a/**"\n  ]\n}', (r) => [insertElements(at(r, "p"), 1, ["/a/.*", "/b/.*"])]), '{\n  "p": [\n    "/a/**",\n    "/a/.*",\n    "/b/.*"\n  ]\n}');
});

test("insert one per line: a list on one line is laid out anew, its elements as written; copies keep their comments", () => {
  const text = '{\n  "deny": [\n    { "a": 1 } // first\n  ],\n  "sub": { "rules": [{ "b": 2 }] }\n}';
  const out = fixed(text, (r) => [insertElements(at(r, "sub", "rules"), 0, [copyOf(at(r, "deny"))], { onePerLine: true })]);
  assert.equal(out, '{\n  "deny": [\n    { "a": 1 } // first\n  ],\n  "sub": { "rules": [\n    [\n      { "a": 1 } // first\n    ],\n    { "b": 2 }\n  ] }\n}');
});

test("an element with an ignore note, and a list element replaced by several", () => {
  assert.equal(
    fixed('{ "r": [1] }', (r) => [insertElements(at(r, "r"), 0, [suppressing(["pattern-runtime-syntax"], { mode: "deny" })])]),
    '{ "r": [/* agent-sandbox-ignore pattern-runtime-syntax */ { "mode": "deny" }, 1] }',
  );
  assert.equal(fixed('{ "allow": ["web_*", "ls"] }', (r) => [replaceElement(at(r, "allow"), at(r, "allow").children![0]!, ["web_search", "web_fetch"])]), '{ "allow": ["web_search", "web_fetch", "ls"] }');
});

test("remove: one element takes its comma and its line; several at once never overlap", () => {
  assert.equal(fixed('{\n  "t": [\n    "a",\n    "b",\n    "c"\n  ]\n}', (r) => [removeElements(at(r, "t"), at(r, "t").children![1]!)]), '{\n  "t": [\n    "a",\n    "c"\n  ]\n}');
  assert.equal(fixed('{ "t": ["a", "b", "c"] }', (r) => [removeElements(at(r, "t"), ...at(r, "t").children!.slice(1))]), '{ "t": ["a"] }');
});

test("move before an earlier element: a rule on its own line takes its comment lines", () => {
  const text = '{\n  "r": [\n    1,\n    // two\n    2\n  ]\n}';
  assert.equal(fixed(text, (r) => [moveBefore(at(r, "r"), at(r, "r").children![1]!, at(r, "r").children![0]!)]), '{\n  "r": [\n    // two\n    2,\n    1\n  ]\n}');
});

test("add a key after the last member, one per line values re-indented; remove a key with its line", () => {
  const text = '{\n  "m": {\n    "type": "filesystem"\n  }\n}';
  assert.equal(fixed(text, (r) => [addKey(at(r, "m"), "tools", onePerLine(["ls", "read_file"]))]), '{\n  "m": {\n    "type": "filesystem",\n    "tools": [\n      "ls",\n      "read_file"\n    ]\n  }\n}');
  assert.equal(fixed('{\n  "a": 1,\n  "factory": true\n}', (r) => [removeKey(at(r, "factory"))!]), '{\n  "a": 1\n}');
  assert.equal(removeKey(parseJsonc("[1]").root!.children![0]!), undefined, "a list element is no member");
});

test("the file's indentation unit: a tab-indented file gets tabs", () => {
  const text = '{\n\t"m": {\n\t\t"type": "x"\n\t}\n}';
  assert.equal(fixed(text, (r) => [addKey(at(r, "m"), "tools", onePerLine(["ls"]))]), '{\n\t"m": {\n\t\t"type": "x",\n\t\t"tools": [\n\t\t\t"ls"\n\t\t]\n\t}\n}');
});

test("rendering: a fix with no edit is not offered, and a group is rendered once for all its fixes", () => {
  const text = '{ "t": ["a", "b", "c"] }';
  const list = property(parseJsonc(text).root!, "t")!;
  const rendering = new FixRendering(jsoncFrontEnd.renderer(text));
  const group: ModelFixGroup = { list: { start: list.offset, end: list.offset + list.length }, operations: [removeElements(list, ...list.children!.slice(0, 2))], applied: ["a", "b"] };
  const [a, b] = list.children!.map((item) => ({ title: "Remove", operations: [removeElements(list, item)], safe: true, together: group }));
  const fixes = rendering.fixes([a!, b!, { title: "Nothing", operations: [], safe: false }]);
  assert.deepEqual(fixes.map((f) => f.title), ["Remove", "Remove"]);
  assert.equal(fixes[0]!.together, fixes[1]!.together);
  assert.deepEqual(JSON.parse(applyEdits(text, fixes[0]!.together!.edits)), { t: ["c"] });
  const finding: Finding = rendering.finding({ code: "x", severity: "error", message: "m.", span: { start: 0, end: 1 } });
  assert.equal("fixes" in finding, false);
});
