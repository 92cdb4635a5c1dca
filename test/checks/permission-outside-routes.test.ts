import { test } from "node:test";
import assert from "node:assert/strict";
import { config, expectFindings, expectNoFindings } from "../helpers/checkFixture";

const CODE = "permission-outside-routes";
const COMPOSITE = `"backend": { "type": "composite", "default": { "type": "sandbox" }, "routes": { "/memories/": { "type": "store" } } }`;

test("fires on each path a refused composite does not scope, and only on those", () => {
  const [f] = expectFindings(config(`${COMPOSITE},\n  "permissions": [{ "operations": ["read"], "paths": ["/memories/**", ⟦"/secrets/**"⟧], "mode": "deny" }]`), CODE);
  assert.equal(f!.severity, "error");
  assert.equal(f!.message, '"/secrets/**" is not scoped to a route of the composite backend: construction fails.');
  assert.match(f!.detail!, /^"\/secrets\/\*\*" is not scoped to a route of the composite backend \(routes "\/memories\/"\) under deepagents-js 1\.14\.1's predicate/);
});

test("R2 differs: a route root is scoped in deepagents-js, not in deepagents-py", () => {
  const members = (runtime: string, marked: boolean) =>
    config(`"runtime": "${runtime}",\n  ${COMPOSITE},\n  "permissions": [{ "operations": ["read"], "paths": [${marked ? "⟦" : ""}"/memories"${marked ? "⟧" : ""}], "mode": "deny" }]`);
  expectNoFindings(members("deepagents-js", false), CODE);
  const [f] = expectFindings(members("deepagents-py", true), CODE);
  assert.match(f!.detail!, /must start with a route prefix exactly as written/);
});

test("a composite with no routes scopes nothing", () => {
  expectFindings(config(`"backend": { "type": "composite", "default": { "type": "sandbox" }, "routes": {} },\n  "permissions": [{ "operations": ["read"], "paths": [⟦"/a/**"⟧] }]`), CODE);
});

test("does not fire where the runtime accepts the config: JS with execute not allowlisted, or a non-sandbox default", () => {
  expectNoFindings(config(`"middleware": [{ "type": "filesystem", ${COMPOSITE}, "tools": ["read_file"], "permissions": [{ "operations": ["read"], "paths": ["/secrets/**"] }] }]`), CODE);
  expectNoFindings(config(`"backend": { "type": "composite", "default": { "type": "store" }, "routes": { "/sb/": { "type": "sandbox" } } },\n  "permissions": [{ "operations": ["read"], "paths": ["/secrets/**"] }]`), CODE);
});

test("fixed by moving the path under a route", () => {
  expectNoFindings(config(`${COMPOSITE},\n  "permissions": [{ "operations": ["read"], "paths": ["/memories/**", "/memories/secrets/**"], "mode": "deny" }]`), CODE);
});
