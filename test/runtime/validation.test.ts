import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { deepagentsJs, deepagentsPy } from "../../server/src/engine/runtime";
import { isSettledToolPath, type Runtime } from "../../server/src/engine/runtime/runtime";
import { validatePath } from "../../server/src/engine/runtime/deepagentsJs";
import { validateToolPathFully } from "../../server/src/engine/runtime/deepagentsPy";
import { codes, specText, stripMarkup, tableRows } from "../helpers/specTables";

const spec = specText("deepagents-semantics.md");

/** Expected text from a cell: "accepted", or fragments (split at `…`) that must appear in order in the message. */
function expectProblem(runtime: Runtime, value: unknown, cell: string): void {
  const problem = runtime.permissionPathProblem(value);
  if (/^accepted/i.test(stripMarkup(cell))) {
    assert.equal(problem, undefined, `${runtime.id} should accept ${JSON.stringify(value)}`);
    return;
  }
  assert.ok(problem, `${runtime.id} should refuse ${JSON.stringify(value)} (${cell})`);
  // A cell may name the exception class in its own code span (**`NotImplementedError`** `message`).
  // Later code spans are notes ("checked before `~`"), except after a bare exception class name.
  const spans = codes(cell);
  const message = /^\w+Error$/.test(spans[0] ?? "") ? spans.slice(0, 2) : spans.slice(0, 1);
  const fragments = message.flatMap((c) => c.split("…")).map((f) => f.trim()).filter(Boolean);
  let at = 0;
  for (const fragment of fragments) {
    // The spec abbreviates `'int'/'NoneType'` for two values; each value names one of them.
    const options = fragment.includes("'/'") && fragment.startsWith("AttributeError") ? fragment.split(/(?<=')\/(?=')/) : [fragment];
    const found = options.map((o) => problem.message.indexOf(o.replace(/^AttributeError: '(int|NoneType)'$/, "AttributeError: '$1'"), at)).find((i) => i >= 0);
    if (options.length > 1) continue;
    assert.ok(found !== undefined && found >= 0, `${runtime.id} ${JSON.stringify(value)}: "${problem.message}" should contain "${fragment}"`);
    at = found! + fragment.length;
  }
}

describe("§1.2 construction-time validation of permission paths (V1–V14)", () => {
  for (const [id, patternCell, jsCell, pyCell] of tableRows(spec, /^V([1-9]|1[0-4])$/)) {
    const values = codes(patternCell!).filter((c) => c !== "paths").map((c) => (c === "123" ? 123 : c === "null" ? null : c === '""' ? "" : c));
    for (const value of values) {
      test(`${id} ${JSON.stringify(value)}: deepagents-js`, () => expectProblem(deepagentsJs, value, jsCell!));
      test(`${id} ${JSON.stringify(value)}: deepagents-py`, () => expectProblem(deepagentsPy, value, pyCell!));
    }
  }
  test("V14 names the Python type of each non-string", () => {
    assert.equal(deepagentsPy.permissionPathProblem(123)?.message, "AttributeError: 'int' object has no attribute 'startswith'");
    assert.equal(deepagentsPy.permissionPathProblem(null)?.message, "AttributeError: 'NoneType' object has no attribute 'startswith'");
  });
});

describe("§1.3 call-time canonicalisation of tool paths (C1–C14)", () => {
  const rows = tableRows(spec, /^C\d+$/);
  test("the table has 14 rows", () => assert.equal(rows.length, 14));
  for (const [id, argCell, jsCell, pyCell] of rows) {
    const args = codes(argCell!).map((c) => (c === '""' ? "" : c));
    for (const arg of args) {
      for (const [runtime, cell] of [[deepagentsJs, jsCell!], [deepagentsPy, pyCell!]] as const) {
        test(`${id} ${JSON.stringify(arg)}: ${runtime.id}`, () => {
          const result = runtime.canonicalToolPath(arg, true);
          const text = stripMarkup(cell);
          if (text.startsWith("error")) {
            assert.equal(result.ok, false, `${arg} should be rejected`);
            // `…` in the spec stands for the argument: compare the fragments around it.
            const error = result.ok ? "" : result.error;
            let at = 0;
            for (const fragment of codes(cell)[0]!.split("…")) {
              const found = error.indexOf(fragment, at);
              assert.ok(found >= 0, `"${error}" should contain "${fragment}"`);
              at = found + fragment.length;
            }
          } else {
            assert.deepEqual(result, { ok: true, path: codes(cell)[0] });
          }
        });
      }
    }
  }
  test("deepagents-js validates nothing when the agent has no rules (§1.3, §11.3)", () => {
    assert.deepEqual(deepagentsJs.canonicalToolPath("secrets/x", false), { ok: true, path: "secrets/x" });
    assert.deepEqual(deepagentsJs.canonicalToolPath("/public/../secrets/y", false), { ok: true, path: "/public/../secrets/y" });
    assert.deepEqual(deepagentsPy.canonicalToolPath("secrets/x", false), { ok: true, path: "/secrets/x" });
  });
});

describe("the shortcut for tool paths both runtimes leave as they are (isSettledToolPath)", () => {
  test("agrees with each runtime's full canonicalisation on random paths", () => {
    // Segments that make a path unsettled ("", ".", "..", "~", backslashes) mixed with ordinary ones.
    const parts = ["a", "b.c", ".env", "..x", "~x", "x~", ".", "..", "~", "", "a\\b", "é", " ", "C:"];
    // mulberry32, seeded: the same paths on every run.
    let seed = 7;
    const random = (n: number) => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return (((t ^ (t >>> 14)) >>> 0) / 4294967296) * n | 0;
    };
    let settled = 0;
    for (let n = 0; n < 50_000; n++) {
      const count = 1 + random(5);
      const path = (random(8) === 0 ? "" : "/") + Array.from({ length: count }, () => parts[random(parts.length)]).join("/") + (random(6) === 0 ? "/" : "");
      const isSettled = isSettledToolPath(path);
      if (isSettled) settled++;
      const py = validateToolPathFully(path);
      const js = validatePath(path);
      if (isSettled) {
        assert.deepEqual(py, { ok: true, path }, `deepagents-py leaves ${JSON.stringify(path)} as it is`);
        assert.deepEqual(js, { ok: true, path }, `deepagents-js leaves ${JSON.stringify(path)} as it is`);
      }
      // With the shortcut in place, each runtime answers exactly as without it.
      assert.deepEqual(deepagentsPy.canonicalToolPath(path, true), py, path);
      assert.deepEqual(deepagentsJs.canonicalToolPath(path, true), js.ok ? js : { ok: false, error: js.problem.message }, path);
    }
    assert.ok(settled > 5_000 && settled < 45_000, `both kinds of path were tried (${settled} settled)`);
  });
});
