// Loaded by the extension host for the workspace e2e/fixtures/plain (no config, no file naming deepagents yet).
import { runMocha } from "./mocha";

export function run(): Promise<void> {
  return runMocha("lazyStart.test.js");
}
