import { flag, oneOf, UsageError, type ParsedArgs } from "../args";
import { later } from "../later";
import { loadModel } from "../loadModel";
import type { Io } from "../stdio";

/** `agent-sandbox prompt CONFIG`: the system prompt the agent is built with, as far as the config decides it. */
export function prompt(args: ParsedArgs, io: Io): number {
  const format = oneOf(flag(args, "format"), ["text", "json"] as const, "format", "text");
  const loaded = loadModel(args, io, "prompt");
  if (!loaded) return 2;
  const { promptPreview, renderPromptPreview } = later.promptPreview();
  const preview = promptPreview(loaded.model, loaded.agent ?? "main", loaded.role, loaded.readFile, { listDirectory: loaded.listDirectory });
  if (!preview) throw new UsageError(`No agent named ${JSON.stringify(loaded.agent)}`);
  io.out(format === "json" ? `${JSON.stringify(preview, null, 2)}\n` : renderPromptPreview(preview));
  return loaded.exitCode;
}
