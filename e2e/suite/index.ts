// Loaded by the extension host (like @vscode/test-electron's extensionTestsPath): must export run().
import { join } from "node:path";
import Mocha from "mocha";

export function run(): Promise<void> {
  const mocha = new Mocha({ ui: "bdd", timeout: 180_000, color: false, reporter: "spec" });
  mocha.addFile(join(__dirname, "extension.test.js"));
  return new Promise((resolve, reject) => {
    const runner = mocha.run((failures) => {
      const s = runner.stats!;
      console.log(`${s.passes} passed, ${s.failures} failed, ${s.pending} skipped`);
      if (failures) reject(new Error(`${failures} tests failed.`));
      else resolve();
    });
  });
}
