import { test } from "node:test";
import assert from "node:assert/strict";
import { formatEdits } from "../../server/src/lsp/formatting";
import { LineIndex } from "../../server/src/engine/text";

test("a file nested deeper than the formatter indents is left as it is: no edit without text, no memory blow-up", () => {
  const options = { tabSize: 2, insertSpaces: true };
  for (const depth of [101, 200, 20_000]) {
    const text = `${"[".repeat(depth)}${"]".repeat(depth)}`;
    assert.deepEqual(formatEdits(text, new LineIndex(text), options), [], String(depth));
  }
  // Brackets inside strings and comments do not count; 100 levels still format.
  const quoted = `{ "a": "${"[".repeat(500)}" /* ${"{".repeat(500)} */ }`;
  assert.ok(formatEdits(quoted, new LineIndex(quoted), options).every((e) => typeof e.newText === "string"));
  const hundred = `${"[".repeat(100)}${"]".repeat(100)}`;
  const edits = formatEdits(hundred, new LineIndex(hundred), options);
  assert.ok(edits.length > 0 && edits.every((e) => typeof e.newText === "string"));
});
