/** The role step of the effective tool set: DeerFlow RBAC (authorization/rbac.ts) applied after allowlist and backend. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { effectiveTools } from "../../server/src/engine/agents/effectiveTools";
import { modelOf } from "./helpers";

const CONFIG = {
  backend: { type: "sandbox" },
  tools: ["web_search"],
  authorization: {
    enabled: true,
    default_role: "user",
    roles: {
      admin: { tools: { allow: "*" } },
      user: { tools: { allow: "*", deny: ["execute", "delete"] } },
      guest: { tools: { allow: ["read_file", "ls", "glob", "grep", "web_search"] } },
    },
  },
};

function hidden(role: string | null): Record<string, string | undefined> {
  const tools = effectiveTools(modelOf(CONFIG), "main", role)!;
  return Object.fromEntries(tools.filter((t) => !t.visible).map((t) => [t.name, t.hiddenBy]));
}

test("no role: DeerFlow applies the default role (A.1.1 `default_role`; principal vectors: missing/None/\"\" → default_role)", () => {
  assert.deepEqual(hidden(null), hidden("user"));
  assert.deepEqual(hidden(null), { delete: "authorization", execute: "authorization" });
  const reason = effectiveTools(modelOf(CONFIG), "main", null)!.find((t) => t.name === "delete")!.reason!;
  assert.equal(reason, 'denied by DeerFlow\'s authorization to the default role "user", which a request with no role gets');
  // Without an enabled block there is no authorization step at all.
  const { authorization: _, ...withoutBlock } = CONFIG;
  assert.deepEqual(Object.keys(Object.fromEntries(effectiveTools(modelOf(withoutBlock), "main", null)!.filter((t) => !t.visible).map((t) => [t.name, 1]))), []);
});

test("deny wins over allow *", () => {
  assert.deepEqual(hidden("user"), { delete: "authorization", execute: "authorization" });
  assert.deepEqual(hidden("admin"), {});
});

test("an allow list hides everything else, task included", () => {
  assert.deepEqual(hidden("guest"), { write_file: "authorization", edit_file: "authorization", delete: "authorization", execute: "authorization", task: "authorization" });
  const reason = effectiveTools(modelOf(CONFIG), "main", "guest")!.find((t) => t.name === "task")!.reason!;
  // Said once: DeerFlow's own message (role 'guest' is denied 'task' on resource 'tool') would repeat the role.
  assert.equal(reason, 'denied by DeerFlow\'s authorization to role "guest"');
  // Words that do not depend on the tool: every tool the role is denied has the same reason.
  const reasons = new Set(effectiveTools(modelOf(CONFIG), "main", "guest")!.filter((t) => t.hiddenBy === "authorization").map((t) => t.reason));
  assert.equal(reasons.size, 1);
});

test("the first step that hides a tool is the one reported", () => {
  const tools = effectiveTools(modelOf({ ...CONFIG, backend: { type: "store" } }), "main", "user")!;
  assert.equal(tools.find((t) => t.name === "execute")!.hiddenBy, "backend");
  assert.equal(tools.find((t) => t.name === "delete")!.hiddenBy, "authorization");
});

test("authorization disabled: roles change nothing", () => {
  const tools = effectiveTools(modelOf({ ...CONFIG, authorization: { ...CONFIG.authorization, enabled: false } }), "main", "guest")!;
  assert.ok(tools.every((t) => t.visible));
});

test("an active skill keeps its allowed-tools plus DeerFlow's framework tools", () => {
  const tools = effectiveTools(modelOf(CONFIG), "main", null, { activeSkill: { name: "report", allowedTools: ["web_search", "write_file"] } })!;
  assert.deepEqual(tools.filter((t) => t.visible).map((t) => t.name), ["read_file", "write_file", "web_search"]);
  assert.equal(tools.find((t) => t.name === "ls")!.hiddenBy, "skill");
});
