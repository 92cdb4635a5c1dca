// Loaded by the extension host (like @vscode/test-electron's extensionTestsPath): must export run().
// The multi-root workspace e2e/fixtures/ws, which holds configs: the server starts at once.
import { runMocha } from "./mocha";

export function run(): Promise<void> {
  return runMocha("extension.test.js");
}
