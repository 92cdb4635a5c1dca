import { checkConfigText } from "../../server/src/engine/checkConfig";
import type { ConfigModel } from "../../server/src/engine/config/model";
import { effectiveTools } from "../../server/src/engine/agents/effectiveTools";

/** The model of a config given as a JS object (written as JSONC text, parsed like any file). */
export function modelOf(config: Record<string, unknown>): ConfigModel {
  const model = checkConfigText(JSON.stringify({ version: 1, ...config }, null, 2)).model;
  if (!model) throw new Error("the config did not parse");
  return model;
}

/** The names an agent sees (visible tools, in the order `effectiveTools` lists them). */
export function visibleTools(config: Record<string, unknown>, agent = "main", role: string | null = null): string[] {
  const tools = effectiveTools(modelOf(config), agent, role);
  if (!tools) throw new Error(`no agent ${agent}`);
  return tools.filter((t) => t.visible).map((t) => t.name);
}

export const RUNTIMES = ["deepagents-js", "deepagents-py"] as const;
