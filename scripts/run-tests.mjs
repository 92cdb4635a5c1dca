// Runs every test/**/*.test.ts with Node's built-in test runner (TypeScript through tsx), so each run ends with
// the runner's standard summary. Arguments narrow the run: `npm test -- conformance` runs files whose path
// contains "conformance".
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";

function find(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? find(join(dir, e.name)) : e.name.endsWith(".test.ts") ? [join(dir, e.name)] : [],
  );
}

const filters = process.argv.slice(2);
const files = find("test").filter((f) => filters.length === 0 || filters.some((x) => f.includes(x))).sort();
if (files.length === 0) {
  console.error(`no test files match ${filters.join(", ")}`);
  process.exit(1);
}
const result = spawnSync(process.execPath, ["--import", "tsx", "--test", "--test-concurrency=2", "--test-reporter=spec", ...files], {
  stdio: "inherit",
});
process.exit(result.status ?? 1);
