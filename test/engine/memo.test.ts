/**
 * Memos kept on the object they are about (server/src/engine/memo.ts): they answer like the WeakMaps they replace,
 * stay invisible to the object's readers, and never travel with a copy of the object.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { Memo } from "../../server/src/engine/memo";
import { parseJsonc } from "../../server/src/engine/config/parse";
import { allRuleLists, buildModel } from "../../server/src/engine/config/model";
import { findAgent } from "../../server/src/engine/agents/agents";

test("a memo answers what was set for that object only, and can be replaced", () => {
  const memo = new Memo<object, number>("test");
  const a = {};
  const b = {};
  assert.equal(memo.get(a), undefined);
  memo.set(a, 1);
  assert.equal(memo.get(a), 1);
  assert.equal(memo.get(b), undefined);
  memo.set(a, 2);
  assert.equal(memo.get(a), 2);
  const other = new Memo<object, number>("test");
  assert.equal(other.get(a), undefined, "two memos of the same name are separate slots");
});

test("a memo is invisible to keys, JSON and spread, so a copied object starts without it", () => {
  const memo = new Memo<object, string>("hidden");
  const key: Record<string, unknown> = { x: 1 };
  memo.set(key, "value");
  assert.deepEqual(Object.keys(key), ["x"]);
  assert.equal(JSON.stringify(key), '{"x":1}');
  const copy = { ...key };
  assert.equal(memo.get(copy), undefined);
  assert.deepEqual(copy, { x: 1 });
});

test("a model's memos belong to that model: a copy with other subagents is indexed afresh", () => {
  const text = '{ "version": 1, "runtime": "deepagents-js", "subagents": [{ "name": "a", "description": "d", "systemPrompt": "p" }] }';
  const model = buildModel(parseJsonc(text).root!);
  assert.equal(findAgent(model, "a")?.name, "a");
  const lists = allRuleLists(model);
  assert.equal(allRuleLists(model), lists, "worked out once per model");
  const copy = { ...model, subagents: [] };
  assert.equal(findAgent(copy, "a"), undefined);
  assert.notEqual(allRuleLists(copy), lists);
});
