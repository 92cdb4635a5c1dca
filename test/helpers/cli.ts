import { main } from "../../server/src/cli/main";

/** The CLI run in this process, its output and exit code captured (no colour). */
export async function runCli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const code = await main(args, { out: (t) => void (out += t), err: (t) => void (err += t), color: false });
  return { code, out, err };
}
