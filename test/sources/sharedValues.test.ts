import { before, test } from "node:test";
import assert from "node:assert/strict";
import { checkSource, loadGrammars } from "../helpers/sources";

// One value of the source can stand in two places of the model (a rule list bound once, given to the main agent
// and to a subagent): what a check finds in it is said once, at the one span the value has.

before(loadGrammars);

const SHARED = {
  typescript: `import { createDeepAgent } from "deepagents";
const rules = [{ operations: ["read"], paths: ["secrets/**"], mode: "deny" }];
export const agent = createDeepAgent({
  permissions: rules,
  subagents: [{ name: "w", description: "writes", permissions: rules }],
});
`,
  python: `from deepagents import create_deep_agent, FilesystemPermission
rules = [FilesystemPermission(operations=["read"], paths=["secrets/**"], mode="deny")]
agent = create_deep_agent(
    permissions=rules,
    subagents=[{"name": "w", "description": "writes", "system_prompt": "w", "permissions": rules}],
)
`,
} as const;

for (const [language, source] of Object.entries(SHARED) as [keyof typeof SHARED, string][]) {
  test(`${language}: a rule list given twice gets its finding once`, () => {
    const found = checkSource(source, language).findings.filter((f) => f.code === "path-not-absolute");
    assert.equal(found.length, 1, JSON.stringify(found.map((f) => [f.span, f.message])));
    assert.equal(source.slice(found[0]!.span.start, found[0]!.span.end), `"secrets/**"`);
  });
}
