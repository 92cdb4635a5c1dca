// The benchmark's timing harness (bench/measure.ts): what it promises about the order in which contenders run,
// since the figures of `npm run bench` depend on it.
import assert from "node:assert/strict";
import { test } from "node:test";
import { cpuNowMs, measureInterleaved, type Contender, type RoundOptions } from "../../bench/measure";

/** Burns `ms` of this process's CPU time: the harness's default clock. */
function burn(ms: number): number {
  const end = cpuNowMs() + ms;
  let spins = 0;
  while (cpuNowMs() < end) spins++;
  return spins & 1;
}

function contender(name: string, log: string[], passMs: number): Contender {
  return { name, unitsPerPass: 1, pass: () => (log.push(name), burn(passMs)) };
}

test("warm-ups are interleaved: no contender is warmed up whole before the next one starts", async () => {
  const log: string[] = [];
  const options: RoundOptions = { rounds: 3, minRoundMs: 10, warmupMs: 200, minWarmupPasses: 3 };
  const [a, b] = await measureInterleaved([contender("a", log, 1), contender("b", log, 1)], options);
  // Warmed up one after the other, `a` ran for its whole warm-up (200 ms: over a hundred passes of 1 ms or a bit
  // more) before `b`'s first pass; interleaved, one slice of a round's length (10 ms).
  const aBeforeB = log.indexOf("b");
  assert.ok(aBeforeB > 0 && aBeforeB < 50, `a ran ${aBeforeB} passes before b's first`);
  // And `a` is warmed up again after `b` has started: it does not sit idle through b's whole warm-up.
  const bPasses = log.filter((n) => n === "b").length;
  const aAfterBStarted = log.slice(aBeforeB).filter((n) => n === "a").length;
  assert.ok(aAfterBStarted > bPasses / 3, `a ran ${aAfterBStarted} passes after b started, b ${bPasses}`);
  for (const m of [a!, b!]) {
    assert.equal(m.rates.length, 3);
    assert.ok(m.rate > 0 && Number.isFinite(m.rate));
  }
});

test("a pass slower than slowPassMs ends that contender's warm-up after one pass; the other warms up in full", async () => {
  const log: string[] = [];
  const options: RoundOptions = { rounds: 1, minRoundMs: 5, warmupMs: 60, minWarmupPasses: 3, slowPassMs: 5 };
  await measureInterleaved([contender("slow", log, 12), contender("fast", log, 1)], options);
  // One warm-up pass and one round of one pass (a pass is longer than the round's minimum).
  assert.equal(log.filter((n) => n === "slow").length, 2);
  // Its warm-up is not cut short: 60 ms of passes of 1 ms (a little more each, with the clock's own cost).
  assert.ok(log.filter((n) => n === "fast").length >= 30, "the fast contender still warms up for its whole 60 ms");
});
