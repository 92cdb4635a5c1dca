/**
 * A recorded run turned into a scenario (`dry-run --from-messages`): every AI message's tool calls, in order, as
 * steps. Reads a LangChain message list as `agent.invoke()` returns it under `messages` (serialised by
 * `JSON.stringify`, i.e. LangChain's `{ lc, type: "constructor", id, kwargs }` form), the plain `{ type: "ai", ... }`
 * or OpenAI `{ role: "assistant", tool_calls: [{ function: { name, arguments } }] }` forms, or a run export holding
 * such a list anywhere inside it. Calls of tools the config does not know are kept (they run as tool-unavailable).
 *
 * A `task` call gets the subagent's own calls as its nested steps when the export holds the subagent's messages: a
 * run tree (LangSmith's export, LangChain's `RunCollectorCallbackHandler`) has, under the `task` tool's run, the
 * subagent's run, whose `inputs.lg_tool_call.id` is the `task` call's id and whose `outputs.messages` are the
 * subagent's messages. Without them (a plain `agent.invoke()` result holds only the main agent's messages) the
 * `task` step has no nested steps. A recorded stream (`streamMode: "updates"` with `subgraphs: true`) holds them too,
 * under the namespace of the tool call that ran the subagent.
 */
export interface RecordedCall {
  tool: string;
  args: Record<string, unknown>;
  id?: string;
  /** For a `task` call: the subagent's own calls, when the recording holds its messages. */
  steps?: RecordedCall[];
}

export type FromMessagesResult = { ok: true; calls: RecordedCall[]; messages: number } | { ok: false; error: string };

/** How far into an export the search for messages goes: deeper than any real export, and a bounded amount of work. */
const MAX_SEARCH_DEPTH = 64;
const MAX_SEARCH_NODES = 500_000;
/** Subagents within subagents, at most (a subagent of deepagents cannot delegate; a custom graph might). */
const MAX_TASK_NESTING = 8;

export function callsFromRecording(value: unknown): FromMessagesResult {
  const streamed = streamedRun(value);
  const list = streamed?.main ?? findMessageList(value);
  if (!list) return { ok: false, error: "no message list found (expected a list of LangChain messages, or an object holding one under messages)" };
  const subagentMessages = streamed?.subagents ?? subagentRuns(value);
  const callsOf = (messages: readonly unknown[], depth: number, seen: Set<string>): RecordedCall[] => {
    const calls: RecordedCall[] = [];
    for (const raw of messages) {
      const m = unwrap(raw);
      if (!m || !isAi(m)) continue;
      for (const call of toolCallsOf(m)) {
        const nested = call.tool === "task" && call.id !== undefined && !seen.has(call.id) ? subagentMessages.get(call.id) : undefined;
        if (nested && depth < MAX_TASK_NESTING) call.steps = callsOf(nested, depth + 1, new Set(seen).add(call.id!));
        calls.push(call);
      }
    }
    return calls;
  };
  return { ok: true, calls: callsOf(list, 0, new Set()), messages: list.length };
}

/**
 * A recorded stream, `agent.stream(input, { streamMode: "updates", subgraphs: true })` collected into a list: each
 * chunk `[namespace, { node: { messages } }]`, the main agent's with an empty namespace, a subagent's under the
 * namespace of the tool call that runs it. Each subagent namespace, as it first appears, belongs to the earliest
 * `task` call of the main agent that has none yet (tools run in the order they were called).
 */
function streamedRun(value: unknown): { main: unknown[]; subagents: Map<string, unknown[]> } | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const isChunk = (c: unknown) => Array.isArray(c) && c.length === 2 && Array.isArray(c[0]) && c[0].every((s: unknown) => typeof s === "string") && c[1] !== null && typeof c[1] === "object";
  if (!value.every(isChunk)) return undefined;
  const main: unknown[] = [];
  const byNamespace = new Map<string, unknown[]>();
  const order: string[] = [];
  const waiting: string[] = [];
  const owner = new Map<string, string>();
  for (const [namespace, update] of value as [string[], Record<string, unknown>][]) {
    const messages = Object.values(update).flatMap((u) => (u && typeof u === "object" && Array.isArray((u as { messages?: unknown }).messages) ? ((u as { messages: unknown[] }).messages) : []));
    if (namespace.length === 0) {
      main.push(...messages);
      for (const raw of messages) {
        const m = unwrap(raw);
        if (m && isAi(m)) for (const call of toolCallsOf(m)) if (call.tool === "task" && call.id !== undefined) waiting.push(call.id);
      }
      continue;
    }
    const key = namespace[0]!;
    if (!byNamespace.has(key)) {
      byNamespace.set(key, []);
      order.push(key);
      const id = waiting.shift();
      if (id !== undefined) owner.set(key, id);
    }
    byNamespace.get(key)!.push(...messages);
  }
  const subagents = new Map<string, unknown[]>();
  for (const key of order) if (owner.has(key)) subagents.set(owner.get(key)!, byNamespace.get(key)!);
  return { main, subagents };
}

/**
 * The subagents' messages in a run tree, by the id of the `task` call that started each: every object with
 * `inputs.lg_tool_call.id` and a message list under `outputs.messages` (the first one for an id).
 */
function subagentRuns(value: unknown): Map<string, unknown[]> {
  const found = new Map<string, unknown[]>();
  walk(value, (o) => {
    const inputs = o.inputs as Record<string, unknown> | undefined;
    const call = inputs && typeof inputs === "object" ? (inputs.lg_tool_call as Record<string, unknown> | undefined) : undefined;
    const outputs = o.outputs as Record<string, unknown> | undefined;
    if (call && typeof call === "object" && typeof call.id === "string" && outputs && typeof outputs === "object" && Array.isArray(outputs.messages) && !found.has(call.id)) {
      found.set(call.id, outputs.messages);
    }
  });
  return found;
}

/**
 * Visits every object and list of an export breadth first, level by level, within MAX_SEARCH_DEPTH and
 * MAX_SEARCH_NODES. A list for which `onList` returns true is not entered, and the walk ends with its level.
 */
function walk(value: unknown, visit: (o: Record<string, unknown>) => void, onList?: (l: unknown[]) => boolean): void {
  let level: unknown[] = [value];
  let nodes = 0;
  for (let depth = 0; depth <= MAX_SEARCH_DEPTH && level.length > 0; depth++) {
    const next: unknown[] = [];
    let stop = false;
    for (const v of level) {
      if (++nodes > MAX_SEARCH_NODES) return;
      if (v === null || typeof v !== "object") continue;
      if (Array.isArray(v)) {
        if (onList?.(v)) stop = true;
        else for (const item of v) if (item !== null && typeof item === "object") next.push(item);
      } else {
        const o = v as Record<string, unknown>;
        visit(o);
        for (const child of Object.values(o)) if (child !== null && typeof child === "object") next.push(child);
      }
    }
    if (stop) return;
    level = next;
  }
}

/** `{ lc: 1, type: "constructor", id: [..., "AIMessage"], kwargs: {...} }` → kwargs with the class name as type. */
function unwrap(raw: unknown): Record<string, unknown> | undefined {
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return undefined;
  const o = raw as Record<string, unknown>;
  if (o.lc !== undefined && o.type === "constructor" && Array.isArray(o.id) && o.kwargs && typeof o.kwargs === "object") {
    return { ...(o.kwargs as Record<string, unknown>), __class: String(o.id.at(-1)) };
  }
  return o;
}

function isAi(m: Record<string, unknown>): boolean {
  const cls = m.__class;
  if (typeof cls === "string") return cls === "AIMessage" || cls === "AIMessageChunk";
  return m.type === "ai" || m.role === "assistant" || m._getType === "ai";
}

function toolCallsOf(m: Record<string, unknown>): RecordedCall[] {
  const out: RecordedCall[] = [];
  const calls = Array.isArray(m.tool_calls) ? m.tool_calls : Array.isArray((m.additional_kwargs as Record<string, unknown> | undefined)?.tool_calls) ? ((m.additional_kwargs as Record<string, unknown>).tool_calls as unknown[]) : [];
  for (const c of calls) {
    if (!c || typeof c !== "object") continue;
    const call = c as Record<string, unknown>;
    const fn = call.function as Record<string, unknown> | undefined;
    const name = typeof call.name === "string" ? call.name : typeof fn?.name === "string" ? fn.name : undefined;
    if (name === undefined) continue;
    let args: unknown = call.args ?? fn?.arguments ?? {};
    if (typeof args === "string") {
      try {
        args = JSON.parse(args);
      } catch {
        args = { __unparsed: args };
      }
    }
    const recorded: RecordedCall = { tool: name, args: args && typeof args === "object" && !Array.isArray(args) ? (args as Record<string, unknown>) : {} };
    if (typeof call.id === "string") recorded.id = call.id;
    out.push(recorded);
  }
  return out;
}

/**
 * The run's message list: the list that looks like messages nearest the top of the export (breadth first); of
 * several at that depth, the longest (a run tree's `outputs.messages`, not its `inputs.messages`).
 */
function findMessageList(value: unknown): unknown[] | undefined {
  let best: unknown[] | undefined;
  walk(value, () => {}, (list) => {
    const looksLikeMessages = list.some((v) => {
      const m = unwrap(v);
      return m !== undefined && (isAi(m) || m.type === "human" || m.role === "user" || m.__class !== undefined);
    });
    if (looksLikeMessages && (!best || list.length > best.length)) best = list;
    return looksLikeMessages;
  });
  return best;
}
