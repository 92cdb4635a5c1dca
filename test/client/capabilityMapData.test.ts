/** The capability map as the Explorer and its view show it (client/src/capabilityMapData.ts), from the server's answer. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { lookOf, mapLooks, relativeOf } from "../../client/src/capabilityMapData";
import { memoryWorkspace } from "../../server/src/engine/workspace/source";
import { capabilityMapOfConfig } from "../../server/src/lsp/customRequests";
import { analyze } from "../../server/src/lsp/engineFacade";

const PATH = "/tmp/sample/agent-sandbox.jsonc";
/** The server's answer for a config over files in memory, as the client receives it. */
function mapOf(config: object, files: Record<string, string>, agent = "main", role: string | null = null) {
  const analysis = analyze(PATH, JSON.stringify(config), { severities: {} }, "config");
  const result = capabilityMapOfConfig(analysis, PATH, { uri: `file://${PATH}`, agent, role }, () => memoryWorkspace(files));
  assert.ok(result.available, result.reason);
  return result;
}

const CONFIG = {
  version: 1,
  runtime: "deepagents-py",
  permissions: [
    { operations: ["read", "write"], paths: ["/workspace/.env", "/workspace/secrets/**"], mode: "deny" },
    { operations: ["write"], paths: ["/workspace/docs/**"], mode: "deny" },
    { operations: ["write"], paths: ["/workspace/inbox/**"], mode: "interrupt" },
  ],
  authorization: { enabled: true, default_role: "dev", roles: { dev: { tools: { allow: "*" } }, viewer: { tools: { allow: ["read_file", "ls"] } } } },
  workspace: { root: "./w", mountAt: "/workspace" },
};
const FILES = { ".env": "", "README.md": "", "docs/guide.md": "", "inbox/new.txt": "", "secrets/token.txt": "", "src/app.py": "" };

test("the path after mountAt is the file under workspace.root; paths outside it have none", () => {
  assert.equal(relativeOf("/workspace", "/workspace/src/a.py"), "src/a.py");
  assert.equal(relativeOf("/workspace/", "/workspace/a"), "a");
  assert.equal(relativeOf("/", "/a/b"), "a/b");
  assert.equal(relativeOf("/workspace", "/workspaces/a"), undefined);
  assert.equal(relativeOf("/workspace", "/workspace"), undefined);
});

test("badge, colour and tooltip say what the agent may do, naming the deciding rule per operation", () => {
  const map = mapOf(CONFIG, FILES);
  const looks = new Map(mapLooks(map).looks.map((l) => [l.relative, l]));
  assert.deepEqual(
    [...looks.values()].map((l) => `${l.relative} ${l.badge} ${l.access}`),
    // In deepagents-py, "/workspace/docs/**" does not match the folder itself, and "secrets/**" not "secrets".
    [".env ✕ none", "README.md RW readWrite", "docs RW readWrite", "docs/guide.md R partial", "inbox RW readWrite", "inbox/new.txt R? asks", "secrets RW readWrite", "secrets/token.txt ✕ none", "src RW readWrite", "src/app.py RW readWrite"],
  );
  const env = looks.get(".env")!;
  assert.equal(env.colorId, "agentSandbox.map.none");
  assert.equal(env.tooltip.split("\n")[0], "/workspace/.env: main");
  assert.match(env.tooltip, /^read: deny by rule 0 \(\/workspace\/\.env\), with /m);
  assert.match(env.tooltip, /^write: deny by rule 0 \(\/workspace\/\.env\), with .*write_file/m);
  assert.match(looks.get("README.md")!.tooltip, /^read: allow \(no rule matches: the default allows\)/m);
  assert.match(looks.get("inbox/new.txt")!.tooltip, /^write: interrupt by rule 2 \(\/workspace\/inbox\/\*\*\)/m);
  assert.equal(looks.get("docs/guide.md")!.description, "read allow · write deny");
  for (const look of looks.values()) assert.ok([...look.badge].length <= 2, `${look.badge}: VS Code shows at most two characters`);
});

test("an operation the role has no tool for is not allowed, whatever the rules say", () => {
  const viewer = mapOf(CONFIG, FILES, "main", "viewer");
  const readme = mapLooks(viewer).looks.find((l) => l.relative === "README.md")!;
  assert.equal(readme.badge, "R");
  assert.equal(readme.access, "partial");
  assert.equal(readme.description, "read allow · write no tool");
  assert.match(readme.tooltip, /^write: allow \(no rule matches: the default allows\), but main as viewer has no write tool$/m);
  assert.equal(readme.tooltip.split("\n")[0], "/workspace/README.md: main (role viewer)");
});

test("the tree: each folder's children, folders first, then by name", () => {
  const { children } = mapLooks(mapOf(CONFIG, { "b.txt": "", "a/z.txt": "", "a/y/x.txt": "", "c/d.txt": "", "A.txt": "" }));
  assert.deepEqual(children.get("")!.map((l) => l.name), ["a", "c", "A.txt", "b.txt"]);
  assert.deepEqual(children.get("a")!.map((l) => l.name), ["y", "z.txt"]);
  assert.deepEqual(children.get("a/y")!.map((l) => l.relative), ["a/y/x.txt"]);
});

test("an entry outside mountAt is left out, not shown at a wrong file", () => {
  const look = lookOf({ path: "/elsewhere/a", kind: "file", read: "allow", write: "allow", readRule: null, writeRule: null }, { mountAt: "/workspace", tools: { read: ["read_file"], write: [] }, agent: "main", role: null });
  assert.equal(look, undefined);
});
