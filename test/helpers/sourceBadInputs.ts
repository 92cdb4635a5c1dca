import assert from "node:assert/strict";
import type { SourceCheckResult, SourceLanguage } from "../../server/src/engine/sources";

/** Bad source inputs (test/sources/badInput.test.ts asserts the answers, bench/sources.ts times them). */
export interface SourceBadInput {
  name: string;
  language: SourceLanguage;
  text: () => string;
  expect: (result: SourceCheckResult) => void;
}

const CALL = `createDeepAgent({ permissions: [{ operations: ["read"], paths: ["relative"] }] })`;
const IMPORT = `import { createDeepAgent } from "deepagents";\n`;

export const SOURCE_BAD_INPUTS: SourceBadInput[] = [
  {
    name: "a 10 MB TypeScript file that names the runtime",
    language: "typescript",
    text: () => `${IMPORT}${CALL};\n${"const filler = [1, 2, 3];\n".repeat(Math.ceil((10 * 1024 * 1024) / 26))}`,
    // Over the size limit: not parsed, so nothing is said of it (as of any file that is not an agent's).
    expect: (r) => assert.deepEqual(r.agents, []),
  },
  {
    name: "a call nested in 10,000 brackets",
    language: "typescript",
    text: () => `${IMPORT}const x = ${"[".repeat(10_000)}${CALL}${"]".repeat(10_000)};`,
    expect: (r) => assert.deepEqual(r.findings.map((f) => f.code), ["path-not-absolute"]),
  },
  {
    name: "options nested 10,000 deep inside the call",
    language: "typescript",
    text: () => `${IMPORT}createDeepAgent({ permissions: ${"[".repeat(10_000)}${"]".repeat(10_000)} });`,
    expect: (r) => assert.equal(r.agents.length, 1),
  },
  {
    name: "binary bytes in a .py",
    language: "python",
    text: () => `from deepagents import create_deep_agent\n${"\u0000\u00ff\u0001\ufffd".repeat(50_000)}\ncreate_deep_agent(permissions=[FilesystemPermission(operations=["read"], paths=["x"])])\n`,
    // Not source code: not parsed, nothing said (as of any file that is not an agent's).
    expect: (r) => assert.deepEqual(r.agents, []),
  },
  {
    name: "200 kB of random text without control characters in a .py that names the runtime",
    language: "python",
    text: () => {
      // A fixed generator: the same text every run.
      let seed = 7;
      let junk = "";
      while (junk.length < 200_000) {
        seed = (seed * 1103515245 + 12345) & 0x7fffffff;
        junk += String.fromCharCode(0x21 + (seed % 0x5e));
      }
      return `from deepagents import create_deep_agent\n${junk}\n`;
    },
    // Either parsed (with errors) or given up at the parse deadline: silence either way, and no crash.
    expect: (r) => assert.ok(!r.findings.some((f) => f.code === "internal-error")),
  },
  {
    name: "a Python call nested in 10,000 parentheses",
    language: "python",
    text: () => `from deepagents import create_deep_agent\nx = ${"(".repeat(10_000)}create_deep_agent(name="a")${")".repeat(10_000)}\n`,
    expect: (r) => assert.ok(!r.findings.some((f) => f.code === "internal-error")),
  },
];
