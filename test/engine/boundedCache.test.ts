/**
 * The caches the engine keeps across runs (server/src/engine/boundedCache.ts) empty themselves when a new entry
 * would take them past their limit, in entries or in weight, and start over with that entry.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { BoundedCache } from "../../server/src/engine/boundedCache";

test("set returns the value; get finds it until the cache is emptied", () => {
  const cache = new BoundedCache<string, number>({ entries: 10 });
  assert.equal(cache.set("a", 1), 1);
  assert.equal(cache.get("a"), 1);
  assert.equal(cache.get("b"), undefined);
  cache.clear();
  assert.equal(cache.get("a"), undefined);
  assert.equal(cache.size, 0);
});

test("an entry limit: the entry past it starts the cache over", () => {
  const cache = new BoundedCache<number, number>({ entries: 3 });
  for (let k = 0; k < 3; k++) cache.set(k, k);
  assert.equal(cache.size, 3);
  cache.set(3, 3);
  assert.equal(cache.size, 1);
  assert.equal(cache.get(3), 3);
  assert.equal(cache.get(0), undefined);
});

test("a weight limit: entries are weighed, and the one that would pass the limit starts the cache over", () => {
  const cache = new BoundedCache<string, string>({ entries: Infinity, weight: 10, weigh: (key, value) => key.length + value.length });
  cache.set("ab", "cd"); // 4
  cache.set("ef", "gh"); // 8
  assert.equal(cache.size, 2);
  cache.set("ij", "k"); // 11 > 10
  assert.equal(cache.size, 1);
  assert.equal(cache.get("ab"), undefined);
  cache.set("l", "mnopqr"); // 3 + 7 = 10: fits
  assert.equal(cache.size, 2);
});

test("an entry heavier than the whole limit is still kept, alone", () => {
  const cache = new BoundedCache<string, string>({ entries: Infinity, weight: 4, weigh: (key) => key.length });
  cache.set("a", "");
  cache.set("abcdefgh", "");
  assert.equal(cache.size, 1);
  assert.equal(cache.get("abcdefgh"), "");
});
