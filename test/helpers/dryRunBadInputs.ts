/**
 * The dry run's bad inputs (issue 29): a 10 MB scenario, 100,000 steps, a `task` nested 10,000 deep, a step with a
 * 1 MB argument, a workspace of 1,000,000 files. Shared by the tests (test/dryrun/badInput.test.ts,
 * test/cli/dryRunBadInput.test.ts), which check the answer, and the benchmark (bench/dryrun.ts), which times it.
 */
import type { StepInput } from "../../server/src/engine/dryrun/runner";
import type { WorkspaceEntry, WorkspaceSource } from "../../server/src/engine/workspace/source";

const MB = 1024 * 1024;

/** A scenario naming `config`, with one step writing 10 MB. */
export function tenMegabyteScenario(config: string): string {
  return JSON.stringify({ config, steps: [{ tool: "write_file", args: { file_path: "/workspace/a", content: "x".repeat(10 * MB) } }] });
}

/** 100,000 `ls` steps written compactly: 2.4 MB, under the 4 MB a file may have, so the run itself meets them. */
export function hundredThousandSteps(config: string): string {
  return `{"config":${JSON.stringify(config)},"steps":[${Array(100_000).fill('{"tool":"ls","args":{}}').join(",")}]}`;
}

/** A `task` whose nested steps hold a `task`, 10,000 levels down, as scenario text. */
export function deepTaskText(config: string, depth = 10_000): string {
  const open = '{"tool":"task","args":{"subagent_type":"auditor","description":"x","steps":[';
  return `{"config":${JSON.stringify(config)},"steps":[${open.repeat(depth)}${"]}}".repeat(depth)}]}`;
}

/** The same nesting built as the runner's input (as a recorded run could give it), with no parser in between. */
export function deepTaskSteps(subagent: string, depth = 10_000): StepInput[] {
  let steps: StepInput[] = [{ tool: "read_file", args: { file_path: "/workspace/README.md" } }];
  for (let i = 0; i < depth; i++) steps = [{ tool: "task", args: { subagent_type: subagent, description: `level ${depth - i}` }, steps }];
  return steps;
}

/** One megabyte of `y`. */
export const ONE_MEGABYTE = "y".repeat(MB);

/**
 * A workspace of 1,000 folders of 1,000 files each (1,000,000 files), or with `flat` of 1,000,000 files in its
 * root, that exists only as answers: folders are listed and files read on demand, nothing is held between calls.
 * Every path asked for is recorded, and `outside` lists those that are no clean workspace-relative path (a
 * leading `/`, a `.` or `..` segment, an empty one).
 */
export function millionFileWorkspace(flat = false): WorkspaceSource & { asked: number; listedEntries: number; outside: string[] } {
  const name = (i: number) => String(i).padStart(3, "0");
  const clean = (p: string) => p === "" || (!p.startsWith("/") && !p.includes("\\") && p.split("/").every((s) => s !== "" && s !== "." && s !== ".."));
  const view = {
    asked: 0,
    listedEntries: 0,
    outside: [] as string[],
    list(dir: string): readonly WorkspaceEntry[] | undefined {
      view.asked++;
      if (!clean(dir)) {
        view.outside.push(dir);
        return undefined;
      }
      let entries: WorkspaceEntry[] | undefined;
      if (dir === "" && flat) entries = Array.from({ length: 1_000_000 }, (_, i) => ({ name: `f${String(i).padStart(7, "0")}.txt`, kind: "file" as const }));
      else if (dir === "") entries = Array.from({ length: 1000 }, (_, i) => ({ name: `d${name(i)}`, kind: "dir" as const }));
      else if (/^d\d{3}$/.test(dir)) entries = Array.from({ length: 1000 }, (_, i) => ({ name: `f${name(i)}.txt`, kind: "file" as const }));
      view.listedEntries += entries?.length ?? 0;
      return entries;
    },
    read(file: string): string | undefined {
      view.asked++;
      if (!clean(file)) {
        view.outside.push(file);
        return undefined;
      }
      return /^(d\d{3}\/f\d{3}|f\d{7})\.txt$/.test(file) ? `line of ${file}\n` : undefined;
    },
  };
  return view;
}
