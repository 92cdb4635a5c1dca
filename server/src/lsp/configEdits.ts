/**
 * A config edited in the editor (or closed, back to its text on disk) changes what its dry-run scenarios run
 * against: after the debounce, the scenarios whose last analysis read another text of it are re-run (server.ts
 * says how: invalidate, check again, publish), so that their diagnostics, code lenses and Test Explorer results
 * follow the config's unsaved text. Opening or closing a config whose text is unchanged re-runs nothing.
 */
import { readFile } from "node:fs/promises";
import { withoutByteOrderMark } from "../engine/text";
import type { ConfigStore } from "./configStore";
import { URI } from "./uri";
import { sourceLanguageOf } from "../engine/sources";

export class ConfigEdits {
  /** Edited configs whose scenarios have not been re-run yet, by path: the timer, and what it runs. */
  private readonly pending = new Map<string, { timer: NodeJS.Timeout; rerun: () => Promise<void> }>();

  constructor(
    private readonly store: ConfigStore,
    private readonly delayMs: () => number,
    private readonly rerunScenarios: (uris: string[]) => void,
    private readonly log: (message: string) => void,
  ) {}

  /**
   * A document changed or closed: when it is a config, or a source file (a scenario may name its call as its
   * config), its scenarios re-run after the debounce.
   */
  edited(uri: string): void {
    const fsPath = URI.toFsPath(uri);
    // (A closed source file is no longer the store's: it is known by its name.)
    const kind = this.store.targetOf(uri)?.kind;
    if (!fsPath || (kind !== "config" && kind !== "source" && !sourceLanguageOf(fsPath))) return;
    clearTimeout(this.pending.get(fsPath)?.timer);
    const rerun = async () => {
      this.pending.delete(fsPath);
      const text = this.store.openText(fsPath) ?? (await readFile(fsPath, "utf8").then(withoutByteOrderMark, () => null));
      const stale = this.store.scenariosReadingOtherwise(fsPath, text);
      if (stale.length) this.rerunScenarios(stale);
    };
    const timer = setTimeout(() => void rerun().catch((e) => this.log(`re-running the scenarios of ${uri} failed: ${(e as Error).stack ?? e}`)), this.delayMs());
    this.pending.set(fsPath, { timer, rerun });
  }

  /** A run asked for now must see every config edit made before it, debounced or not. */
  async flush(): Promise<void> {
    for (const { timer, rerun } of [...this.pending.values()]) {
      clearTimeout(timer);
      await rerun();
    }
  }
}
