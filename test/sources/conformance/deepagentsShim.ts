// What a fixture imports instead of "deepagents" in the source conformance test: the real package, except that
// `createDeepAgent` records the options it was given (the model is the test's to supply). On a global: an ES
// module fixture and the CommonJS test load this file as two modules.
export * from "deepagents";

const store = globalThis as { agentSandboxCalls?: Record<string, unknown>[] };
export const calls: Record<string, unknown>[] = (store.agentSandboxCalls ??= []);

export function createDeepAgent(options: Record<string, unknown>): { calledWith: number } {
  calls.push(options);
  return { calledWith: calls.length - 1 };
}
