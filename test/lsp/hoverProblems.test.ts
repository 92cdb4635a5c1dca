/**
 * textDocument/hover over a diagnostic's range: the diagnostic's detail (the runtime's own words, the witness's
 * story), which an LSP diagnostic has no field for, is shown above the place's own hover.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { hoverAt, serverSession } from "./session";

/** The hover's markdown as it reads once rendered: the backslash escapes of plain text removed. */
const rendered = (markdown: string) => markdown.replace(/\\([\\`*_{}[\]()<>#+\-.!|~&])/g, "$1");

const RELATIVE = '{\n  "version": 1,\n  "permissions": [{ "operations": ["read"], "paths": ["relative/x"], "mode": "deny" }]\n}\n';

describe("hover over a diagnostic", () => {
  const session = serverSession();

  it("Given a path the runtime refuses, When hovering it, Then the hover opens with the problem and its detail, then the pattern's own hover", async () => {
    const given = await session.open({ text: RELATIVE }, '"rela‸tive/x"');
    const hover = await hoverAt(session, given);
    assert.ok(hover, "a hover");
    const [problem, own] = hover.value.split("\n\n---\n\n");
    assert.equal(
      rendered(problem!),
      '**Problem** (path-not-absolute): deepagents-js 1.14.1 refuses the path "relative/x" when it builds the agent: it does not start with "/".\n\n' +
        'It throws: Error: path must be absolute: "relative/x"',
    );
    assert.match(own!, /^\*\*Pattern\*\* `relative\/x`/);
  });

  it("Given plain text that reads as markdown, When hovering, Then it is escaped, never rendered", async () => {
    // A pattern full of markdown: `*`, `_`, `[`, `<`, `|` must come out as written.
    const given = await session.open(
      { text: '{\n  "version": 1,\n  "permissions": [{ "operations": ["read"], "paths": ["_*a*_/[x](y)<b>|`c`"], "mode": "deny" }]\n}\n' },
      '"_*a‸*_',
    );
    const hover = await hoverAt(session, given);
    const problem = hover!.value.split("\n\n---\n\n")[0]!;
    assert.ok(!/(^|[^\\])[*_`[<|]/.test(problem.replace(/^\*\*Problem\*\*/, "")), problem);
    assert.ok(rendered(problem).includes('the path "_*a*_/[x](y)<b>|`c`"'), problem);
  });

  it("Given a place without a diagnostic, When hovering, Then there is no problem section", async () => {
    const given = await session.open({ text: RELATIVE }, '"mo‸de"');
    const hover = await hoverAt(session, given);
    assert.ok(hover && !hover.value.includes("Problem"), hover?.value);
  });
});
