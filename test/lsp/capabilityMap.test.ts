/** The capabilityMap request: the engine's map of a config's sample workspace for the editor, through a real server. */
import assert from "node:assert/strict";
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { before, describe, it } from "node:test";
import { capabilityMap } from "../../server/src/engine/dryrun/capabilityMap";
import { memoryWorkspace } from "../../server/src/engine/workspace/source";
import { analyze } from "../../server/src/lsp/engineFacade";
import { capabilityMapOfConfig, EDITOR_MAP_ENTRIES } from "../../server/src/lsp/customRequests";
import { CapabilityMapRequest, type CapabilityMapResult } from "../../server/src/protocol";
import type { LspTestClient } from "./lspClient";
import { serverSession, type Opened } from "./session";

const CONFIG = {
  version: 1,
  // deepagents-py: the runtime with interrupt rules (in deepagents-js, a mode-unknown error that allows).
  runtime: "deepagents-py",
  permissions: [
    { operations: ["read", "write"], paths: ["/data/.env", "/data/secrets/**"], mode: "deny" },
    { operations: ["write"], paths: ["/data/docs/**"], mode: "deny" },
    { operations: ["write"], paths: ["/data/inbox/**"], mode: "interrupt" },
  ],
  authorization: { enabled: true, default_role: "dev", roles: { dev: { tools: { allow: "*" } }, viewer: { tools: { allow: ["read_file", "ls"] } } } },
  workspace: { root: "./files", mountAt: "/data" },
};
const FILES: Record<string, string> = {
  "files/.env": "KEY=1\n",
  "files/README.md": "hello\n",
  "files/docs/guide.md": "guide\n",
  "files/inbox/new.txt": "new\n",
  "files/secrets/token.txt": "t\n",
};

describe("capabilityMap request", () => {
  const session = serverSession();
  let client: LspTestClient;
  let config: Opened;
  const ask = (params: object) => client.request<CapabilityMapResult>(CapabilityMapRequest.method, { uri: config.uri, ...params }) as Promise<CapabilityMapResult>;
  before(async () => {
    client = session.client;
    config = await session.open({ text: JSON.stringify(CONFIG, null, 2), files: FILES });
  });

  it("answers the engine's map (as `map --format json`), with the sample root as a file URI", async () => {
    const result = await ask({ agent: "main", role: null });
    assert.equal(result.available, true, result.reason);
    assert.equal(fileURLToPath(result.rootUri!), join(config.folder, "files"));
    assert.equal(result.mountAt, "/data");
    const engine = capabilityMap(analyze(config.path, JSON.stringify(CONFIG), { severities: {} }, "config").model!, "main", null, memoryWorkspace(Object.fromEntries(Object.entries(FILES).map(([k, v]) => [k.slice("files/".length), v]))))!;
    assert.deepEqual(result.entries, engine.entries);
    const byPath = new Map(result.entries.map((e) => [e.path, e]));
    assert.deepEqual([byPath.get("/data/.env")!.read, byPath.get("/data/.env")!.readRule, byPath.get("/data/.env")!.readPattern], ["deny", 0, "/data/.env"]);
    assert.equal(byPath.get("/data/docs/guide.md")!.write, "deny");
    assert.equal(byPath.get("/data/inbox/new.txt")!.write, "interrupt");
    assert.deepEqual([byPath.get("/data/README.md")!.write, byPath.get("/data/README.md")!.writeRule], ["allow", null]);
    assert.deepEqual(result.agents, ["main", "general-purpose"]);
    assert.deepEqual(result.roles, ["dev", "viewer"]);
  });

  it("names the role's tools per operation: a role without write tools has none", async () => {
    const dev = await ask({ role: "dev" });
    assert.ok(dev.tools.write.includes("write_file") && dev.tools.read.includes("read_file"), JSON.stringify(dev.tools));
    const viewer = await ask({ role: "viewer" });
    assert.deepEqual(viewer.tools, { read: ["ls", "read_file"], write: [] });
    // The path decisions do not depend on the role: only the tools do.
    assert.deepEqual(viewer.entries, dev.entries);
  });

  it("is bounded: maxEntries cuts the list and says so", async () => {
    const result = await ask({ maxEntries: 2 });
    assert.equal(result.entries.length, 2);
    assert.equal(result.truncated, true);
    assert.equal((await ask({})).truncated, undefined);
  });

  it("follows the sample folder and the open document's text", async () => {
    writeFileSync(join(config.folder, "files", "added.txt"), "x");
    try {
      assert.ok((await ask({})).entries.some((e) => e.path === "/data/added.txt"), "read from disk on each request");
    } finally {
      rmSync(join(config.folder, "files", "added.txt"));
    }
    const edited = JSON.stringify({ ...CONFIG, permissions: [{ operations: ["read", "write"], paths: ["/data/**", "/data/.env"], mode: "deny" }] }, null, 2);
    await client.replaceAll(config.uri, edited);
    const result = await ask({});
    assert.ok(result.entries.every((e) => e.read === "deny" && e.write === "deny"));
    await client.replaceAll(config.uri, JSON.stringify(CONFIG, null, 2));
  });

  it("says why when there is no map: an unknown agent or role, no workspace, an unreadable root, not a config", async () => {
    const agent = await ask({ agent: "mian" });
    assert.equal(agent.available, false);
    assert.match(agent.reason!, /No agent named "mian"\. Did you mean "main"\?/);
    assert.deepEqual(agent.agents, ["main", "general-purpose"], "the pickers still get the names");
    assert.match((await ask({ role: "admin" })).reason!, /No role named "admin"/);
    const bare = await session.open({ text: '{ "version": 1 }' });
    const none = (await client.request<CapabilityMapResult>(CapabilityMapRequest.method, { uri: bare.uri }))!;
    assert.equal(none.available, false);
    assert.match(none.reason!, /names no sample workspace/);
    const missing = await session.open({ text: JSON.stringify({ version: 1, workspace: { root: "./nowhere" } }) });
    assert.match((await client.request<CapabilityMapResult>(CapabilityMapRequest.method, { uri: missing.uri }))!.reason!, /\.\/nowhere is no readable folder/);
    const other = (await client.request<CapabilityMapResult>(CapabilityMapRequest.method, { uri: "file:///nowhere/notes.txt" }))!;
    assert.equal(other.available, false);
    assert.deepEqual(other.entries, []);
  });

  it("never lists what a symbolic link reaches outside the sample folder", async () => {
    const outside = join(session.folder.root, "outside");
    mkdirSync(outside, { recursive: true });
    writeFileSync(join(outside, "secret.txt"), "s");
    const linked = await session.open({ text: JSON.stringify(CONFIG), files: { "files/a.txt": "a" } });
    symlinkSync(join(outside, "secret.txt"), join(linked.folder, "files", "link.txt"));
    symlinkSync(outside, join(linked.folder, "files", "dir-link"));
    const result = (await client.request<CapabilityMapResult>(CapabilityMapRequest.method, { uri: linked.uri }))!;
    assert.deepEqual(result.entries.map((e) => e.path), ["/data/a.txt"]);
  });
});

describe("capabilityMapOfConfig (the handler, over a workspace in memory)", () => {
  it("caps the editor's map at the engine's bound, and at least one entry", () => {
    const analysis = analyze("/tmp/x/agent-sandbox.jsonc", JSON.stringify({ version: 1, workspace: { root: "./w" } }), { severities: {} }, "config");
    const files = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`f${i}.txt`, ""]));
    let opened = "";
    const result = capabilityMapOfConfig(analysis, "/tmp/x/agent-sandbox.jsonc", { uri: "file:///tmp/x/agent-sandbox.jsonc", maxEntries: 0 }, (root) => {
      opened = root;
      return memoryWorkspace(files);
    });
    assert.equal(opened, "/tmp/x/w");
    assert.equal(result.entries.length, 1);
    assert.equal(result.truncated, true);
    const all = capabilityMapOfConfig(analysis, "/tmp/x/agent-sandbox.jsonc", { uri: "file:///tmp/x/agent-sandbox.jsonc" }, () => memoryWorkspace(files));
    assert.equal(all.entries.length, 30);
    // A limit that is no number is the default, never no limit at all.
    for (const maxEntries of [Number.NaN, "5", Infinity, null]) {
      const odd = capabilityMapOfConfig(analysis, "/tmp/x/agent-sandbox.jsonc", { uri: "file:///tmp/x/agent-sandbox.jsonc", maxEntries: maxEntries as number }, () => memoryWorkspace(files));
      assert.equal(odd.entries.length, 30, String(maxEntries));
    }
    const many = Object.fromEntries(Array.from({ length: EDITOR_MAP_ENTRIES + 5 }, (_, i) => [`f${i}`, ""]));
    const bounded = capabilityMapOfConfig(analysis, "/tmp/x/agent-sandbox.jsonc", { uri: "file:///tmp/x/agent-sandbox.jsonc", maxEntries: Number.NaN }, () => memoryWorkspace(many));
    assert.equal(bounded.entries.length, EDITOR_MAP_ENTRIES);
    assert.equal(bounded.truncated, true);
    assert.equal(all.mountAt, "/workspace");
  });
});
