import { deepagentsJs } from "./deepagentsJs";
import { deepagentsPy } from "./deepagentsPy";
import type { Runtime, RuntimeId } from "./runtime";

export * from "./runtime";
export { deepagentsJs, deepagentsPy };

const RUNTIMES: Record<RuntimeId, Runtime> = { "deepagents-js": deepagentsJs, "deepagents-py": deepagentsPy };

export function runtimeById(id: RuntimeId): Runtime {
  return RUNTIMES[id];
}
