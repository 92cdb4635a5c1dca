/**
 * §5: route scoping R1–R17 and the construction guard of §5.2 / §4.2 / §4.4, for both runtimes, as the checks
 * see them (`sandboxGuardOutcomes`). The JS rows are also proven against the real package in test/conformance.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { sandboxGuardOutcomes } from "../../server/src/engine/agents/construction";
import { deepagentsJs, deepagentsPy } from "../../server/src/engine/runtime";
import { modelOf } from "./helpers";

const SANDBOX = { type: "sandbox", provider: "local-shell" };
const rule = (...paths: string[]) => [{ operations: ["read"], paths, mode: "deny" }];

/** [row, routes, paths, JS scoped, Python scoped, default backend (sandbox unless given)] */
const R: [string, string[], string[], boolean | "no check", boolean | "no check", Record<string, unknown>?][] = [
  ["R1", ["/memories/"], ["/memories/**"], true, true],
  ["R2", ["/memories/"], ["/memories"], true, false],
  ["R3", ["/memories/"], ["/memories/"], true, true],
  ["R4", ["/memories/"], ["/memories*"], false, false],
  ["R5", ["/memories/"], ["/memoriesX/**"], false, false],
  ["R6", ["/memories/"], ["/**"], false, false],
  ["R7", ["/memories"], ["/memoriesX/**"], false, true],
  ["R8", ["/memories"], ["/memories/**"], true, true],
  ["R9", ["/instructions.md"], ["/instructions.md"], true, true],
  ["R10", [], ["/a/**"], false, false],
  ["R11", ["/memories/", "/skills/"], ["/memories/**", "/skills/x"], true, true],
  ["R12", ["/memories/"], ["/memories/**", "/workspace/**"], false, false],
  ["R13", ["/memories/"], ["/{memories,x}/**"], false, false],
  ["R14", ["/memories/"], ["/memories//**"], true, true],
  ["R15", ["/memories/"], ["/memories/{a,b}/**"], true, true],
  ["R16", ["/m/"], ["/**"], "no check", "no check", { type: "store" }],
  ["R17", ["/sb/"], ["/**"], "no check", "no check", { type: "store" }],
];

for (const [row, routes, paths, js, py, defaultBackend] of R) {
  test(`§5.3 ${row}: routes ${JSON.stringify(routes)}, paths ${JSON.stringify(paths)}`, () => {
    for (const [runtime, expected] of [
      ["deepagents-js", js],
      ["deepagents-py", py],
    ] as const) {
      const routeBackends = Object.fromEntries(routes.map((p) => [p, row === "R17" ? SANDBOX : { type: "store" }]));
      const model = modelOf({ runtime, backend: { type: "composite", default: defaultBackend ?? SANDBOX, routes: routeBackends }, permissions: rule(...paths) });
      const outcomes = sandboxGuardOutcomes(model);
      if (expected === "no check") {
        assert.deepEqual(outcomes, [], `${runtime}: a non-sandbox default is never checked`);
        continue;
      }
      assert.equal(outcomes.length === 0, expected, `${runtime}: scoped=${expected}`);
      if (!expected) assert.ok(outcomes.every((o) => o.outcome === "throws" && o.unscoped.length > 0));
      // The predicate itself:
      const predicate = runtime === "deepagents-js" ? deepagentsJs : deepagentsPy;
      assert.equal(routes.length > 0 && paths.every((p) => predicate.routeScoped(p, routes)), expected);
    }
  });
}

const DENY = rule("/secrets/**");

test("§5.2: no permissions, no check; a backend that cannot execute, no check", () => {
  for (const runtime of ["deepagents-js", "deepagents-py"]) {
    assert.deepEqual(sandboxGuardOutcomes(modelOf({ runtime, backend: SANDBOX, permissions: [] })), []);
    assert.deepEqual(sandboxGuardOutcomes(modelOf({ runtime, backend: SANDBOX })), []);
    assert.deepEqual(sandboxGuardOutcomes(modelOf({ runtime, backend: { type: "store" }, permissions: DENY })), []);
  }
});

test("§5.2: a sandbox instance with rules not scoped throws, with each runtime's own message", () => {
  const js = sandboxGuardOutcomes(modelOf({ backend: SANDBOX, permissions: DENY }));
  assert.deepEqual(js.map((o) => [o.outcome, o.build.builtFor]), [["throws", ["main", "general-purpose"]]]);
  assert.match(deepagentsJs.sandboxGuard.message, /^Error: Filesystem permissions cannot be used with a backend that supports command execution\. Shell commands/);
  assert.match(deepagentsPy.sandboxGuard.message, /^NotImplementedError: FilesystemMiddleware does not yet support permissions with backends that provide command execution/);
  const py = sandboxGuardOutcomes(modelOf({ runtime: "deepagents-py", backend: SANDBOX, permissions: DENY }));
  assert.deepEqual(py.map((o) => o.outcome), ["throws"]);
});

test("§4.2: execute not allowlisted: JS accepts, Python still raises (its guard ignores tools)", () => {
  const config = { middleware: [{ type: "filesystem", backend: SANDBOX, tools: ["read_file", "ls"], permissions: DENY }] };
  assert.deepEqual(sandboxGuardOutcomes(modelOf({ runtime: "deepagents-js", ...config })), []);
  assert.deepEqual(sandboxGuardOutcomes(modelOf({ runtime: "deepagents-py", ...config })).map((o) => o.outcome), ["throws"]);
});

test("§5.2: a sandbox factory: JS does not throw (execute fails at call time); Python takes no factories", () => {
  const config = { backend: { type: "sandbox", factory: true }, permissions: DENY };
  assert.deepEqual(sandboxGuardOutcomes(modelOf({ runtime: "deepagents-js", ...config })).map((o) => o.outcome), ["factory"]);
  assert.deepEqual(sandboxGuardOutcomes(modelOf({ runtime: "deepagents-py", ...config })).map((o) => o.outcome), ["throws"]);
});

test("§11.6: paths: [] still trips the guard on a plain sandbox, passes vacuously on a composite", () => {
  const empty = [{ operations: ["read"], paths: [], mode: "deny" }];
  assert.equal(sandboxGuardOutcomes(modelOf({ backend: SANDBOX, permissions: empty })).length, 1);
  assert.equal(sandboxGuardOutcomes(modelOf({ backend: { type: "composite", default: SANDBOX, routes: { "/m/": { type: "store" } } }, permissions: empty })).length, 0);
});

test("§4.4 pitfall: the default filesystem middleware is still built when a custom one disables execute", () => {
  const outcomes = sandboxGuardOutcomes(
    modelOf({ backend: SANDBOX, permissions: DENY, middleware: [{ type: "filesystem", backend: SANDBOX, permissions: DENY, tools: ["read_file", "ls"] }] }),
  );
  assert.equal(outcomes.length, 1);
  assert.equal(outcomes[0]!.build.custom, undefined);
  assert.ok(outcomes[0]!.build.replacedBy, "the default one is replaced, yet built");
});

test("§4.4 pitfall: only a subagent's permissions, on a sandbox backend: its default middleware is built eagerly and throws", () => {
  const outcomes = sandboxGuardOutcomes(modelOf({ backend: SANDBOX, subagents: [{ name: "auditor", description: "a", permissions: DENY }] }));
  assert.deepEqual(outcomes.map((o) => o.build.builtFor), [["auditor"]]);
});

test("§6.1 in the guard: a subagent's permissions: null inherits in JS (guard fires), means none in Python", () => {
  const config = { backend: SANDBOX, subagents: [{ name: "a", description: "a", permissions: null }] };
  const withTop = { ...config, permissions: DENY };
  assert.deepEqual(sandboxGuardOutcomes(modelOf({ runtime: "deepagents-js", ...withTop })).flatMap((o) => o.build.builtFor), ["main", "general-purpose", "a"]);
  assert.deepEqual(sandboxGuardOutcomes(modelOf({ runtime: "deepagents-py", ...withTop })).flatMap((o) => o.build.builtFor), ["main", "general-purpose"]);
});
