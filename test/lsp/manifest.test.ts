/** The extension manifest, grammar and language configuration: what VS Code reads before any code runs. */
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import picomatch from "picomatch";
import { knownCodes } from "../../server/src/engine/checks/index";
import { ClientCommands, MAP_VIEW } from "../../client/src/constants";
import { ACCESS_COLORS } from "../../client/src/capabilityMapData";
import { Commands } from "../../server/src/protocol";
import { ROOT } from "./lspClient";

const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
const grammar = JSON.parse(readFileSync(join(ROOT, "syntaxes", "agent-sandbox.tmLanguage.json"), "utf8"));

/** Every regular expression in the grammar, with where it is. */
function regexes(node: unknown, where = "grammar"): [string, string][] {
  if (!node || typeof node !== "object") return [];
  const out: [string, string][] = [];
  for (const [key, value] of Object.entries(node)) {
    if ((key === "match" || key === "begin" || key === "end") && typeof value === "string") out.push([`${where}.${key}`, value]);
    else out.push(...regexes(value, `${where}.${key}`));
  }
  return out;
}

/** The first rule of a pattern list that matches at the start of `text` (a one-step tokenizer, enough to test scopes). */
function scopeAt(patterns: { match?: string; name?: string; captures?: Record<string, { name: string }> }[], text: string): string[] {
  for (const p of patterns) {
    if (!p.match) continue;
    const m = new RegExp(`^(?:${p.match})`).exec(text);
    if (m) return [p.name ?? "", ...Object.entries(p.captures ?? {}).filter(([i]) => m[+i]).map(([, c]) => c.name.replace("$2", m[2] ?? ""))];
  }
  return [];
}

describe("extension manifest", () => {
  it("activates only on workspaces that hold config or dry-run files, or on a source file that may call the runtime (and for its commands and languages)", () => {
    assert.deepEqual(pkg.activationEvents, [
      "workspaceContains:**/agent-sandbox.jsonc",
      "workspaceContains:**/agent-sandbox.json",
      "workspaceContains:**/*.agent-sandbox.jsonc",
      "workspaceContains:**/*.agent-sandbox.json",
      "workspaceContains:**/*.dryrun.jsonc",
      "workspaceContains:**/*.dryrun.json",
      // DeerFlow's own files, checked in place (the server stays silent on another program's config.yaml).
      "workspaceContains:**/config.yaml",
      "workspaceContains:**/config.yml",
      "workspaceContains:**/SKILL.md",
      // createDeepAgent / create_deep_agent calls are read where they are written (the source front ends). The
      // extension activates on these languages but starts the server only once a document names deepagents
      // (client/src/startWhen.ts; e2e/suite/lazyStart.test.ts shows it in VS Code).
      "onLanguage:typescript",
      "onLanguage:typescriptreact",
      "onLanguage:javascript",
      "onLanguage:javascriptreact",
      "onLanguage:python",
    ]);
    assert.equal(pkg.main, "./dist/client.js");
    assert.equal(pkg.capabilities.untrustedWorkspaces.supported, "limited");
  });

  it("declares the language for every file name of config-format.md, with grammar, configuration and schema", () => {
    const [config, dryRun] = pkg.contributes.languages;
    assert.equal(config.id, "agent-sandbox");
    assert.deepEqual([...config.filenames, ...config.filenamePatterns], ["agent-sandbox.jsonc", "agent-sandbox.json", "*.agent-sandbox.jsonc", "*.agent-sandbox.json"]);
    assert.deepEqual(dryRun.filenamePatterns, ["*.dryrun.jsonc", "*.dryrun.json"]);
    for (const l of pkg.contributes.languages) assert.ok(existsSync(join(ROOT, l.configuration)));
    for (const g of pkg.contributes.grammars) assert.ok(existsSync(join(ROOT, g.path)));
    for (const v of pkg.contributes.jsonValidation) assert.ok(existsSync(join(ROOT, v.url)), v.url);
  });

  it("contributes exactly the commands the client registers, and the settings the server reads", () => {
    assert.deepEqual(pkg.contributes.commands.map((c: { command: string }) => c.command).sort(), [...Object.values(Commands), ...Object.values(ClientCommands)].sort());
    assert.deepEqual(Object.keys(pkg.contributes.configuration.properties).sort(), ["agentSandbox.defaultRuntime", "agentSandbox.ruleAnalysis", "agentSandbox.severities", "agentSandbox.trace.server"]);
  });

  it("contributes the Capability Map view with its title-bar commands, its colours and a walkthrough whose pages ship", () => {
    assert.deepEqual(pkg.contributes.views.explorer.map((v: { id: string }) => v.id), [MAP_VIEW]);
    const titleBar = pkg.contributes.menus["view/title"].filter((m: { when: string }) => m.when === `view == ${MAP_VIEW}`).map((m: { command: string }) => m.command);
    assert.deepEqual(titleBar, [ClientCommands.mapChooseAgent, ClientCommands.mapChooseRole, ClientCommands.mapChooseConfig, ClientCommands.mapRefresh]);
    assert.deepEqual(pkg.contributes.colors.map((c: { id: string }) => c.id).sort(), Object.values(ACCESS_COLORS).sort());
    const steps: { media: { markdown: string } }[] = pkg.contributes.walkthroughs[0].steps;
    assert.equal(steps.length, 6);
    for (const step of steps) {
      assert.ok(existsSync(join(ROOT, step.media.markdown)), step.media.markdown);
      assert.ok(step.media.markdown.startsWith("docs/"), `${step.media.markdown} ships (.vscodeignore lets docs/ through)`);
    }
  });

  it("the severities setting offers and accepts exactly the engine's codes, each with its docs page", () => {
    const offered: string[] = pkg.contributes.configuration.properties["agentSandbox.severities"].propertyNames.enum;
    assert.deepEqual(offered, [...knownCodes()]);
    for (const code of offered) if (code !== "internal-error") assert.ok(existsSync(join(ROOT, "docs", "checks", `${code}.md`)), code);
  });

  it("ships what .vscodeignore lets through: every bundle, the schemas, grammar and language configuration; no sources", () => {
    const lines = readFileSync(join(ROOT, ".vscodeignore"), "utf8").split(/\r?\n/).map((l) => l.trim()).filter((l) => l && !l.startsWith("#"));
    assert.equal(lines[0], "**", "everything is left out unless let through");
    const through = lines.filter((l) => l.startsWith("!")).map((l) => picomatch(l.slice(1), { dot: true }));
    const ships = (path: string) => through.some((matches) => matches(path));
    const bundles = readdirSync(join(ROOT, "dist")).filter((n) => n.endsWith(".js"));
    assert.ok(bundles.includes("client.js") && bundles.includes("server.js") && bundles.includes("engine.js"), bundles.join(", "));
    for (const path of [...bundles.map((n) => `dist/${n}`), "package.json", "schemas/agent-sandbox.schema.json", "syntaxes/agent-sandbox.tmLanguage.json", "language-configuration.json"]) {
      assert.ok(ships(path), path);
    }
    for (const path of ["server/src/lsp/server.ts", "client/src/extension.ts", "node_modules/refa/index.js", "test/lsp/fixtures.ts", "bench/run.ts", "e2e/suite/index.ts", "build.mjs"]) {
      assert.ok(!ships(path), path);
    }
  });

  it("the language configuration declares comments, brackets and auto-closing pairs", () => {
    const lc = JSON.parse(readFileSync(join(ROOT, "language-configuration.json"), "utf8"));
    assert.deepEqual(lc.comments, { lineComment: "//", blockComment: ["/*", "*/"] });
    assert.deepEqual(lc.brackets, [["{", "}"], ["[", "]"]]);
    assert.ok(lc.autoClosingPairs.some((p: { open: string }) => p.open === '"'));
  });
});

describe("TextMate grammar", () => {
  it("every regular expression compiles", () => {
    const all = regexes(grammar);
    assert.ok(all.length > 20);
    for (const [where, source] of all) assert.doesNotThrow(() => new RegExp(source), where);
  });

  it("highlights glob metacharacters inside path strings", () => {
    const glob = grammar.repository.glob.patterns;
    assert.deepEqual(scopeAt(glob, "**/x"), ["keyword.operator.glob.globstar.agent-sandbox"]);
    assert.deepEqual(scopeAt(glob, "*.md"), ["keyword.operator.glob.star.agent-sandbox"]);
    assert.deepEqual(scopeAt(glob, "?"), ["keyword.operator.glob.question.agent-sandbox"]);
    assert.deepEqual(scopeAt(glob, "[!a]"), ["", "punctuation.definition.character-class.agent-sandbox", "keyword.operator.negation.agent-sandbox", "constant.other.character-class.set.agent-sandbox", "punctuation.definition.character-class.agent-sandbox"]);
    assert.deepEqual(scopeAt(glob, "{a,b}"), ["punctuation.definition.brace-expansion.agent-sandbox"]);
    const path = grammar.repository["string-value"].patterns.find((p: { begin?: string }) => p.begin === '"(?=/)');
    assert.ok(path.patterns.some((p: { include: string }) => p.include === "#glob"), "path strings include the glob rules");
  });

  it("highlights allow/deny and tool names inside strings, and ignore comments", () => {
    const values = grammar.repository["string-value"].patterns;
    assert.ok(scopeAt(values, '"deny"').includes("keyword.control.mode.deny.agent-sandbox"));
    assert.ok(scopeAt(values, '"allow"').includes("keyword.control.mode.allow.agent-sandbox"));
    assert.ok(scopeAt(values, '"read_file"').includes("support.function.tool.agent-sandbox"));
    assert.ok(scopeAt(values, '"execute"').includes("support.function.tool.agent-sandbox"));
    assert.deepEqual(scopeAt(values, '"web_search"'), []);
    const keys = grammar.repository["object-key"].patterns;
    assert.ok(scopeAt(keys, '"deny": [').includes("keyword.control.mode.deny.agent-sandbox"));
    const directive = grammar.repository["ignore-directive"];
    assert.ok(new RegExp(directive.match).test("agent-sandbox-ignore rule-redundant"));
  });
});
