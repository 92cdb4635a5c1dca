// Runs one test file of this folder with mocha, inside the extension host (each entry module's run() calls it).
import { join } from "node:path";
import Mocha from "mocha";

export function runMocha(file: string): Promise<void> {
  const mocha = new Mocha({ ui: "bdd", timeout: 180_000, color: false, reporter: "spec" });
  mocha.addFile(join(__dirname, file));
  return new Promise((resolve, reject) => {
    const runner = mocha.run((failures) => {
      const s = runner.stats!;
      console.log(`${s.passes} passed, ${s.failures} failed, ${s.pending} skipped`);
      if (failures) reject(new Error(`${failures} tests failed.`));
      else resolve();
    });
  });
}
