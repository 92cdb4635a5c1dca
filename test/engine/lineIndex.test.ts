import assert from "node:assert/strict";
import { test } from "node:test";
import { LineIndex } from "../../server/src/engine/text";
import { makeRng } from "../helpers/random";

/** Line starts as LSP counts them: after `\n`, after `\r\n`, and after a `\r` alone. */
function referenceStarts(text: string): number[] {
  const starts = [0];
  for (const m of text.matchAll(/\r\n|\r|\n/g)) starts.push(m.index + m[0].length);
  return starts;
}

test("LineIndex finds every line start, with or without `\\r`, and maps offsets both ways", () => {
  const r = makeRng(41);
  const pieces = ["a", "bc", " ", "\n", "\n", "\r\n", "\r", "é", "😀", "\n\n", "\r\r\n"];
  let withReturn = 0;
  for (let i = 0; i < 2000; i++) {
    let text = "";
    const n = r.int(30);
    for (let k = 0; k < n; k++) text += r.pick(pieces);
    if (text.includes("\r")) withReturn++;
    const lines = new LineIndex(text);
    const starts = referenceStarts(text);
    assert.equal(lines.lineCount(), starts.length, JSON.stringify(text));
    starts.forEach((start, line) => assert.equal(lines.lineStart(line), start, JSON.stringify(text)));
    for (let offset = 0; offset <= text.length; offset++) {
      const position = lines.positionAt(offset);
      const line = starts.filter((s) => s <= offset).length - 1;
      assert.deepEqual(position, { line, character: offset - starts[line]! }, `${JSON.stringify(text)} at ${offset}`);
      // Between `\r` and `\n` is no place on the line: it reads as the line's end, before the break.
      const insideCrlf = text[offset - 1] === "\r" && text[offset] === "\n";
      assert.equal(lines.offsetAt(position), insideCrlf ? offset - 1 : offset);
    }
  }
  assert.ok(withReturn > 500 && withReturn < 1900, `${withReturn} texts with a \\r: both readings need testing`);
});

test("a character past the end of a CRLF line stays before the line break", () => {
  const lines = new LineIndex("{\r\n  \r\n}\r\n");
  assert.equal(lines.offsetAt({ line: 1, character: 3 }), 5);
  assert.deepEqual(lines.positionAt(lines.offsetAt({ line: 1, character: 9 })), { line: 1, character: 2 });
  assert.equal(new LineIndex("ab\ncd").offsetAt({ line: 0, character: 5 }), 2);
});
