/**
 * Conformance of the source front ends: for TypeScript/JavaScript fixtures, the options object the real code builds
 * (the fixture run for real, its "deepagents" import pointed at a shim that records `createDeepAgent`'s argument) is
 * given to the real deepagents@1.14.1 with a scripted model. The engine, reading the same file statically, must
 * predict it: a construction refusal exactly when it reports one of the construction codes at error level, else the
 * main agent's bound tools.
 */
import { before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { createDeepAgent } from "deepagents";
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, HumanMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import { effectiveTools } from "../../server/src/engine/agents/effectiveTools";
import { checkSource, loadGrammars, sourceFixtures } from "../helpers/sources";
import { scratchDir } from "../helpers/scratch";

before(loadGrammars);

const CONSTRUCTION_CODES = ["permissions-with-sandbox", "permission-outside-routes", "read-file-required", "tool-name-collision", "subagent-duplicate-name", "path-not-absolute", "path-parent-segment"];

/** Records the tools bound on the first call (the main agent's) and answers at once. */
class RecordingModel extends BaseChatModel {
  constructor(readonly seen: { tools?: string[] }, readonly bound: string[] = []) {
    super({});
  }
  _llmType(): string {
    return "recording";
  }
  override bindTools(tools: { name?: string }[]): RecordingModel {
    return new RecordingModel(this.seen, tools.map((t) => String(t.name)));
  }
  async _generate(): Promise<ChatResult> {
    this.seen.tools ??= this.bound;
    return { generations: [{ text: "", message: new AIMessage("done") }] };
  }
}

// The fixtures run from a scratch folder, where no package resolves: their imports name the packages' files.
const dir = scratchDir("source-conformance");
const shim = join(dir, "deepagentsShim.ts");
const packageFile = (name: string) => require.resolve(name);
writeFileSync(shim, readFileSync(join(__dirname, "conformance", "deepagentsShim.ts"), "utf8").replace(/(["'])deepagents\1/g, JSON.stringify(packageFile("deepagents"))));

// Fixtures whose code runs without anything the test does not have (every import is deepagents or langchain).
const RUNNABLE = new Set(["alias-import", "namespace-import", "options-in-variable", "spread-defaults", "composite-backend", "concat-lists", "user-tools", "factory-backend", "set-tools", "subagents-in-variables"]);

for (const fixture of sourceFixtures("ts").filter((f) => RUNNABLE.has(f.name))) {
  test(`the real createDeepAgent does what the engine predicts from ${fixture.name}`, async () => {
    const file = join(dir, `${fixture.name}${fixture.file.slice(fixture.file.lastIndexOf("."))}`);
    writeFileSync(file, fixture.source.replace(/(["'])deepagents\1/g, JSON.stringify(shim)).replace(/(["'])langchain\1/g, JSON.stringify(packageFile("langchain"))));
    const { calls } = (await import(pathToFileURL(shim).href)) as { calls: Record<string, unknown>[] };
    const before = calls.length;
    const { findings, agents } = checkSource(fixture.source, fixture.language);
    const predicted = new Set(findings.filter((f) => f.severity === "error" && CONSTRUCTION_CODES.includes(f.code)).map((f) => f.code));
    const seen: { tools?: string[] } = {};
    let refused: string | undefined;
    try {
      // The options are built by the fixture's own code: the runtime's factories may refuse them already.
      await import(pathToFileURL(file).href);
      assert.equal(calls.length, before + 1, "the fixture calls createDeepAgent once");
      const agent = createDeepAgent({ ...calls.at(-1)!, model: new RecordingModel(seen) } as never) as { invoke(input: unknown): Promise<unknown> };
      await agent.invoke({ messages: [new HumanMessage("hi")] });
    } catch (error) {
      if (error instanceof assert.AssertionError) throw error;
      refused = (error as Error).message;
    }
    if (refused !== undefined) {
      assert.ok(predicted.size > 0, `the real library refuses (${refused}); the engine predicts no construction error`);
      return;
    }
    assert.deepEqual([...predicted], [], "the real library accepts the options");
    const visible = (effectiveTools(agents[0]!.model, "main", null) ?? []).filter((t) => t.visible).map((t) => t.name).sort();
    assert.deepEqual(visible, [...(seen.tools ?? [])].sort());
  });
}
