/** The custom requests of server/src/protocol.ts: agents, effective tools, prompt preview, explain. */
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { AgentsRequest, EffectiveToolsRequest, ExplainRequest, PromptPreviewRequest, type AgentsResult, type EffectiveToolsResult, type ExplainResult, type PromptPreviewResult } from "../../server/src/protocol";
import { FIXTURES } from "./fixtures";
import { rangeText, type LspTestClient } from "./lspClient";
import { serverSession } from "./session";

describe("custom requests", () => {
  const session = serverSession();
  let client: LspTestClient;
  let uri: string;
  before(async () => {
    client = session.client;
    uri = (await session.open(FIXTURES.research)).uri;
  });

  it("agents: every agent and role, and the mount point", async () => {
    const result = await client.request<AgentsResult>(AgentsRequest.method, { uri });
    assert.deepEqual(result, { available: true, agents: ["main", "general-purpose", "auditor"], roles: ["user", "guest"], mountAt: "/workspace" });
  });

  it("effectiveTools: one table per agent and role, as `agent-sandbox tools` computes them", async () => {
    const result = (await client.request<EffectiveToolsResult>(EffectiveToolsRequest.method, { uri }))!;
    assert.equal(result.tables.length, 9);
    const guest = result.tables.find((t) => t.agent === "main" && t.role === "guest")!;
    assert.deepEqual(guest.tools.filter((t) => t.visible).map((t) => t.name), ["ls", "read_file", "web_search"]);
    assert.equal(guest.tools.find((t) => t.name === "write_file")?.hiddenBy, "authorization");
    assert.match(result.markdown, /# Effective tools/);
  });

  it("promptPreview: markdown for an agent and role; hidden tools appear nowhere", async () => {
    const result = (await client.request<PromptPreviewResult>(PromptPreviewRequest.method, { uri, agent: "main", role: "guest" }))!;
    assert.equal(result.available, true);
    assert.match(result.markdown, /You are a careful research assistant\./);
    assert.match(result.markdown, /`read_file`/);
    assert.doesNotMatch(result.markdown, /`write_file`/);
    const unknown = (await client.request<PromptPreviewResult>(PromptPreviewRequest.method, { uri, agent: "nobody", role: null }))!;
    assert.equal(unknown.available, false);
    assert.match(unknown.reason!, /No agent named "nobody"/);
  });

  it("an unknown agent or role is answered as the CLI answers it: the closest name first, at most 20 names", async () => {
    const roles = Object.fromEntries([["admin", { tools: { allow: "*" } }], ...Array.from({ length: 300 }, (_, i) => [`role-${i}`, { tools: { allow: ["read_file"] } }])]);
    const many = await session.open({ text: JSON.stringify({ version: 1, authorization: { enabled: true, default_role: "admin", roles } }, null, 2) });
    const role = (await client.request<PromptPreviewResult>(PromptPreviewRequest.method, { uri: many.uri, agent: "main", role: "admn" }))!;
    assert.equal(role.available, false);
    assert.match(role.reason!, /^No role named "admn"\. Did you mean "admin"\? Roles: admin, role-0, role-1, .*, … and 281 more\.$/);
    const agent = (await client.request<EffectiveToolsResult>(EffectiveToolsRequest.method, { uri: many.uri, agent: "mian" }))!;
    assert.equal(agent.available, false);
    assert.equal(agent.reason, 'No agent named "mian". Did you mean "main"? Agents: main, general-purpose.');
  });

  it("explain: the deciding rule with its place in the file", async () => {
    const result = (await client.request<ExplainResult>(ExplainRequest.method, { uri, agent: "main", operation: "write", path: "/workspace/secrets/key.txt" }))!;
    assert.equal(result.decision, "deny");
    assert.equal(result.rule?.index, 0);
    assert.equal(rangeText(client.document(uri), result.rule!.patternRange!), '"/workspace/secrets/**"');
    assert.equal(result.rule!.location.uri, uri);
    const byDefault = (await client.request<ExplainResult>(ExplainRequest.method, { uri, agent: "auditor", operation: "read", path: "/etc/passwd" }))!;
    assert.equal(byDefault.decision, "allow");
    assert.equal(byDefault.rule, undefined);
    const rejected = (await client.request<ExplainResult>(ExplainRequest.method, { uri, agent: "main", operation: "read", path: "../x" }))!;
    assert.equal(rejected.decision, "error");
  });

  it("answers, without an error, for files that are not configs or do not parse", async () => {
    const broken = await session.open(FIXTURES.broken);
    await client.request(ExplainRequest.method, { uri: broken.uri, agent: "main", operation: "read", path: "/a" });
    await client.request(PromptPreviewRequest.method, { uri: broken.uri, agent: "main", role: null });
    for (const u of ["file:///nowhere/agent-sandbox.jsonc", "untitled:Untitled-1", "file:///nowhere/notes.txt"]) {
      assert.equal((await client.request<AgentsResult>(AgentsRequest.method, { uri: u }))?.available, false);
      assert.equal((await client.request<ExplainResult>(ExplainRequest.method, { uri: u, agent: "main", operation: "read", path: "/a" }))?.available, false);
    }
  });
});
