/**
 * The YAML front end's renderer on each fix operation, including those no authz-* check proposes today (insert,
 * move, add a key): the text it writes keeps the file's style, and reads back as the change the operation means.
 * A fix with an operation it cannot write renders to no edit at all (the fix is not offered).
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { parse as parseYamlText } from "yaml";
import { property, type JsonNode } from "../../server/src/engine/config/parse";
import { parseYaml } from "../../server/src/engine/deerflow/yamlTree";
import { yamlFrontEnd } from "../../server/src/engine/deerflow/yamlFrontEnd";
import { addKey, copyOf, insertElements, moveBefore, onePerLine, removeElements, removeKey, renameKey, replaceElement, replaceWith, suppressing, type FixOperation } from "../../server/src/engine/fixOperations";
import { applyEdits } from "../../server/src/engine/fixes";

/** The value at `path` (keys, or list indices) of the text's tree. */
function at(root: JsonNode, ...path: (string | number)[]): JsonNode {
  let node: JsonNode | undefined = root;
  for (const step of path) node = typeof step === "number" ? node?.children?.[step] : property(node, step);
  assert.ok(node, `no value at ${path.join(".")}`);
  return node;
}

/** The text after the operations `make` builds on its tree, which must read back as `expected` (when given). */
function rendered(text: string, make: (root: JsonNode) => FixOperation[], expected?: unknown): string {
  const root = parseYaml(text).root!;
  const edits = yamlFrontEnd.renderer(text).render(make(root));
  assert.ok(edits.length > 0, "the fix renders");
  const fixed = applyEdits(text, edits);
  if (expected !== undefined) assert.deepEqual(parseYamlText(fixed, { schema: "yaml-1.1" }), expected, fixed);
  return fixed;
}

function notRendered(text: string, make: (root: JsonNode) => FixOperation[]): void {
  assert.deepEqual(yamlFrontEnd.renderer(text).render(make(parseYaml(text).root!)), []);
}

describe("the YAML front end's rendering of each operation", () => {
  test("insert: `- item` lines in a block list (first, between, last), between commas in a flow list, into []", () => {
    const block = "allow:\n  - a   # first\n  - b\nnext: 1\n";
    assert.equal(rendered(block, (r) => [insertElements(at(r, "allow"), 0, ["x"])], { allow: ["x", "a", "b"], next: 1 }), "allow:\n  - x\n  - a   # first\n  - b\nnext: 1\n");
    assert.equal(rendered(block, (r) => [insertElements(at(r, "allow"), 1, ["x", "yes"])]), "allow:\n  - a   # first\n  - x\n  - \"yes\"\n  - b\nnext: 1\n");
    assert.equal(rendered(block, (r) => [insertElements(at(r, "allow"), 2, ["*"])]), 'allow:\n  - a   # first\n  - b\n  - "*"\nnext: 1\n');
    assert.equal(rendered("allow: ['a', 'b']\n", (r) => [insertElements(at(r, "allow"), 1, ["x"])]), "allow: ['a', 'x', 'b']\n");
    assert.equal(rendered("allow: [a]\n", (r) => [insertElements(at(r, "allow"), 0, ["x,y"])], { allow: ["x,y", "a"] }), 'allow: ["x,y", a]\n');
    assert.equal(rendered("allow: []\n", (r) => [insertElements(at(r, "allow"), 0, ["a", "yes"])], { allow: ["a", "yes"] }), 'allow: [a, "yes"]\n');
  });

  test("insert: data, one-per-line data and copies are written in flow style, and read back as that data", () => {
    const text = "rules:\n  - {tool: a, deny: [x]}\n";
    rendered(text, (r) => [insertElements(at(r, "rules"), 1, [onePerLine({ tool: "b", allow: ["*"], n: 2, on: true, none: null })], { onePerLine: true })], {
      rules: [{ tool: "a", deny: ["x"] }, { tool: "b", allow: ["*"], n: 2, on: true, none: null }],
    });
    rendered(text, (r) => [insertElements(at(r, "rules"), 0, [copyOf(at(r, "rules", 0))])], { rules: [{ tool: "a", deny: ["x"] }, { tool: "a", deny: ["x"] }] });
  });

  test("remove: several block items, adjacent ones as one edit; all of a block list leaves []; flow lists by their commas", () => {
    const text = "deny:\n  - a\n  - b\n  - c\n  - d\nafter: 1\n";
    const root = parseYaml(text).root!;
    const edits = yamlFrontEnd.renderer(text).render([removeElements(at(root, "deny"), at(root, "deny", 1), at(root, "deny", 2))]);
    assert.equal(edits.length, 1);
    assert.equal(applyEdits(text, edits), "deny:\n  - a\n  - d\nafter: 1\n");
    assert.equal(rendered(text, (r) => [removeElements(at(r, "deny"), ...at(r, "deny").children!)], { deny: [], after: 1 }), "deny: []\nafter: 1\n");
    assert.equal(rendered("deny: [a, b, c]\n", (r) => [removeElements(at(r, "deny"), at(r, "deny", 0), at(r, "deny", 2))]), "deny: [b]\n");
    assert.equal(rendered("deny: [a, b]\n", (r) => [removeElements(at(r, "deny"), ...at(r, "deny").children!)]), "deny: []\n");
  });

  test("move: a block item's line goes above the earlier one's; in a flow list, before it", () => {
    assert.equal(rendered("r:\n  - a\n  - b\n  - c\n", (r) => [moveBefore(at(r, "r"), at(r, "r", 2), at(r, "r", 0))], { r: ["c", "a", "b"] }), "r:\n  - c\n  - a\n  - b\n");
    assert.equal(rendered("r:\n  - a\n  - b", (r) => [moveBefore(at(r, "r"), at(r, "r", 1), at(r, "r", 0))], { r: ["b", "a"] }), "r:\n  - b\n  - a\n");
    assert.equal(rendered("r: [a, b, c]\n", (r) => [moveBefore(at(r, "r"), at(r, "r", 2), at(r, "r", 0))], { r: ["c", "a", "b"] }), "r: [c, a, b]\n");
  });

  test("add a key: a line of its own in a block mapping (also one in a list item), after the last member in a flow one", () => {
    assert.equal(rendered("a:\n  b: 1   # note\n  c: 2\nz: 0\n", (r) => [addKey(at(r, "a"), "deny", ["x"])], { a: { b: 1, c: 2, deny: ["x"] }, z: 0 }), "a:\n  b: 1   # note\n  c: 2\n  deny: [x]\nz: 0\n");
    assert.equal(rendered("l:\n  - name: x\n    use: y\n", (r) => [addKey(at(r, "l", 0), "on", "no")]), 'l:\n  - name: x\n    use: y\n    "on": "no"\n');
    assert.equal(rendered("a: {b: 1}\n", (r) => [addKey(at(r, "a"), "c", { d: "*" })], { a: { b: 1, c: { d: "*" } } }), 'a: {b: 1, c: {d: "*"}}\n');
    assert.equal(rendered("a: {}\n", (r) => [addKey(at(r, "a"), "c", 1)], { a: { c: 1 } }), "a: {c: 1}\n");
  });

  test("remove a key, rename one, replace an empty value after its colon", () => {
    assert.equal(rendered("a:\n  b: 1\n  c:\n    - x\n  d: 2\n", (r) => [removeKey(at(r, "a", "c"))!], { a: { b: 1, d: 2 } }), "a:\n  b: 1\n  d: 2\n");
    assert.equal(rendered("a: {'b': 1}\n", (r) => [renameKey(at(r, "a").children![0]!.children![0]!, "it's")], { a: { "it's": 1 } }), "a: {'it''s': 1}\n");
    assert.equal(rendered("a:\n  deny:\n  b: 1\n", (r) => [replaceWith(at(r, "a", "deny"), ["x"])], { a: { deny: ["x"], b: 1 } }), "a:\n  deny: [x]\n  b: 1\n");
  });

  test("a block list replaced by data after its key's colon; a scalar by a list in its quoting", () => {
    assert.equal(rendered("allow:\n  - a\n  - b   # kept\nnext: 1\n", (r) => [replaceWith(at(r, "allow"), { all: true })], { allow: { all: true }, next: 1 }), "allow: {all: true}   # kept\nnext: 1\n");
    assert.equal(rendered("allow: 'a b'\n", (r) => [replaceWith(at(r, "allow"), ["a", "b"])], { allow: ["a", "b"] }), "allow: ['a', 'b']\n");
  });

  test("a block scalar replaced keeps the line break the next line needs", () => {
    assert.equal(rendered("a: |\n  x\n  y\nb: 1\n", (r) => [replaceWith(at(r, "a"), "z")], { a: "z", b: 1 }), "a: z\nb: 1\n");
    assert.equal(rendered("l:\n  - >-\n    x\n  - w\n", (r) => [replaceElement(at(r, "l"), at(r, "l", 0), ["p", "q"])], { l: ["p", "q", "w"] }), "l:\n  - p\n  - q\n  - w\n");
  });

  test("a file with CRLF line ends gets CRLF in every line a fix writes", () => {
    const fixed = rendered("r:\r\n  - a\r\n  - b\r\n", (r) => [insertElements(at(r, "r"), 2, ["c"]), replaceElement(at(r, "r"), at(r, "r", 0), ["x", "z"])], { r: ["x", "z", "b", "c"] });
    assert.equal(fixed, "r:\r\n  - x\r\n  - z\r\n  - b\r\n  - c\r\n");
  });

  test("what YAML cannot take here is not rendered, and withdraws the whole fix", () => {
    // A suppression note is a `#` comment: no place for one inside a value.
    notRendered("r: [a]\n", (r) => [insertElements(at(r, "r"), 1, [suppressing(["x"], "b")])]);
    // An element an alias brings is written at its anchor, for every alias: not edited through one of them.
    notRendered("base: &b x\nr:\n  - *b\n  - y\n", (r) => [removeElements(at(r, "r"), at(r, "r", 0))]);
    // A block mapping copied elsewhere depends on its indentation.
    notRendered("a:\n  b: 1\nr: []\n", (r) => [insertElements(at(r, "r"), 0, [copyOf(at(r, "a"))])]);
    // The first key of a list item's mapping shares its line with the `- `.
    notRendered("l:\n  - a: 1\n    b: 2\n", (r) => [removeKey(at(r, "l", 0, "a"))!]);
    // One operation it cannot write: none of the fix's edits.
    notRendered("r: [a]\n", (r) => [renameKey(property(r, "r")!.parent!.children![0]!, "s"), insertElements(at(r, "r"), 1, [suppressing(["x"], "b")])]);
  });
});
