import { test } from "node:test";
import assert from "node:assert/strict";
import { applyFix, config, expectFindings, expectNoFindings } from "../helpers/checkFixture";

const CODE = "route-prefix-without-slash";

test("fires on a route key without a trailing slash, anywhere a composite appears", () => {
  const [f] = expectFindings(config(`"backend": { "type": "composite", "default": { "type": "store" }, "routes": { ⟦"/memories"⟧: { "type": "store" }, "/skills/": { "type": "state" } } }`), CODE);
  assert.equal(f!.severity, "warning");
  assert.equal(f!.message, 'The route "/memories" does not end in "/": it also captures sibling paths.');
  assert.match(f!.detail!, /"\/memoriesX\/file" is also sent to this backend/);
  expectFindings(config(`"middleware": [{ "type": "filesystem", "backend": { "type": "composite", "default": { "type": "store" }, "routes": { ⟦"/m"⟧: { "type": "store" } } } }]`), CODE);
});

test("does not fire on a slash-terminated route or a single-file mount", () => {
  expectNoFindings(config(`"backend": { "type": "composite", "default": { "type": "store" }, "routes": { "/memories/": { "type": "store" }, "/instructions.md": { "type": "store" } } }`), CODE);
});

test("fix: add the slash", () => {
  const { text } = { text: config(`"backend": { "type": "composite", "default": { "type": "store" }, "routes": { "/memories": { "type": "store" } } }`) };
  const [f] = expectFindings(text.replace('"/memories"', '⟦"/memories"⟧'), CODE);
  const fixed = applyFix(text, f!);
  assert.ok(fixed.includes('"/memories/": { "type": "store" }'));
  expectNoFindings(fixed, CODE);
});
