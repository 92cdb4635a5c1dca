import { test } from "node:test";
import assert from "node:assert/strict";
import { config, expectFindings, expectNoFindings, findings } from "../helpers/checkFixture";

const CODE = "runtime-divergence";

/** A config for deepagents-js that must also run on deepagents-py. */
const both = (permissions: string, runtime = "deepagents-js", other = "deepagents-py") =>
  config(`"runtime": "${runtime}", "compatibleWith": ["${other}"], "permissions": [${permissions}]`);

test("§2.2 item 2, the workspace-isolation recipe: /workspace itself is allowed in JS and denied in Python", () => {
  const text = both(`
    { "operations": ["read", "write"], "paths": [⟦"/workspace/**"⟧], "mode": "allow" },
    { "operations": ["read", "write"], "paths": [⟦"/**"⟧], "mode": "deny" }`);
  const [first, second] = expectFindings(text, CODE);
  assert.equal(first!.severity, "information");
  assert.equal(first!.witness, "/workspace");
  assert.equal(
    first!.message,
    'deepagents-py 0.7.8 decides read "/workspace" differently from deepagents-js 1.14.1.',
  );
  assert.equal(
    first!.detail,
    'deepagents-js 1.14.1 allows it (rule 0 (allow "/workspace/**")); deepagents-py 0.7.8, in compatibleWith, denies it (rule 1 (deny "/**")). "/workspace/**" matches "/workspace" in deepagents-js 1.14.1 only.',
  );
  // §2.2 item 1: `/**` covers dotfiles in JS only, so /.env is denied there and allowed by default in Python.
  assert.match(second!.witness!, /^\/\.[a-z]+$/);
  assert.match(second!.message, /^deepagents-py 0\.7\.8 decides read "\/\.[a-z]+" differently from deepagents-js 1\.14\.1\.$/);
  assert.match(second!.detail!, /^deepagents-js 1\.14\.1 denies it \(rule 1 \(deny "\/\*\*"\)\); deepagents-py 0\.7\.8, in compatibleWith, allows it \(the permissive default\)/);
});

test("§2.2 item 3: deny /**/.env leaves /.env readable in JS only", () => {
  const [f] = findings(both(`{ "operations": ["read"], "paths": ["/**/.env"], "mode": "deny" }`), CODE);
  assert.equal(f!.witness, "/.env");
  assert.match(f!.detail!, /deepagents-js 1\.14\.1 allows it \(the permissive default\); deepagents-py 0\.7\.8, in compatibleWith, denies it/);
});

test("§2.2 item 4: [!a] is a class of `!` and `a` in JS, a negation in Python", () => {
  const found = findings(both(`{ "operations": ["read"], "paths": ["/data/[!a].txt"], "mode": "deny" }`), CODE);
  assert.equal(found.length, 1);
  assert.ok(["/data/a.txt", "/data/b.txt", "/data/!.txt"].includes(found[0]!.witness!), found[0]!.witness);
});

test("§2.2 items 5–8: extglob, a doubled slash, literal braces and stepped ranges each give a witness", () => {
  const cases: [string, RegExp][] = [
    ["/data/+(a|b).txt", /\/data\/(a|b|aa|\+\(a\|b\))\.txt|\/data\/\+\(a\|b\)\.txt/],
    ["/secrets//**", /\/secrets\//],
    ["/data/{a,b}", /\/data\/\{a,b\}/],
    ["/data/{1..10..2}.txt", /\/data\/\d+\.txt|\{1\.\.10\.\.2\}/],
  ];
  for (const [pattern, witness] of cases) {
    const found = findings(both(`{ "operations": ["read"], "paths": [${JSON.stringify(pattern)}], "mode": "deny" }`), CODE);
    assert.equal(found.length, 1, pattern);
    assert.match(found[0]!.witness!, witness, `${pattern}: ${found[0]!.witness}`);
  }
});

test("interrupt exists only in deepagents-py: a Python config that must run on JS", () => {
  const [f] = findings(both(`{ "operations": ["write"], "paths": ["/workspace/a"], "mode": "interrupt" }`, "deepagents-py", "deepagents-js"), CODE);
  assert.equal(f!.witness, "/workspace/a");
  assert.match(f!.detail!, /deepagents-py 0\.7\.8 sends for approval \(interrupt\) it .* deepagents-js 1\.14\.1, in compatibleWith, allows it/);
  assert.match(f!.detail!, /means something else in each runtime/);
});

test("does not fire without compatibleWith, or on rules both runtimes read alike", () => {
  expectNoFindings(config(`"permissions": [{ "operations": ["read"], "paths": ["/**"], "mode": "deny" }]`), CODE);
  expectNoFindings(both(`{ "operations": ["read", "write"], "paths": ["/workspace/.env", "/workspace/x.git"], "mode": "deny" }`), CODE);
  // Even the portable idiom differs on a dot folder in between (§2.2: "except for the dotfile caveat").
  assert.match(findings(both(`{ "operations": ["read"], "paths": ["/workspace/{,**/}.git"], "mode": "deny" }`), CODE)[0]!.witness!, /^\/workspace\/\.[a-z]+\/\.git$/);
  expectNoFindings(both(`{ "operations": ["read"], "paths": ["/a/b c/d", "/data/x.txt"], "mode": "deny" }`), CODE);
});

test("exact down to single characters: `[^a]` also matches a leading dot in JS, never in Python (dotfile rule)", () => {
  const [f] = findings(both(`{ "operations": ["read"], "paths": ["/data/[^a].txt"], "mode": "deny" }`), CODE);
  assert.equal(f!.witness, "/data/..txt");
});
