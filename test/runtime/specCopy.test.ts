import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";

// The vectors are read from test/vectors/; this keeps that copy identical to the shared spec when it is beside
// the repository (as on every developer machine and in CI).
for (const name of ["deepagents-semantics.md", "deerflow-authorization.md"]) {
  const shared = join(__dirname, "..", "..", "..", "shared", "spec", name);
  test(`test/vectors/${name} is the shared spec's text`, { skip: existsSync(shared) ? false : "../shared/spec is not beside this checkout" }, () => {
    assert.equal(readFileSync(join(__dirname, "..", "vectors", name), "utf8"), readFileSync(shared, "utf8"));
  });
}
