/**
 * A recorded run turned into a scenario (`dry-run --from-messages`): every AI message's tool calls, in order, as
 * steps. Reads a LangChain message list as `agent.invoke()` returns it under `messages` (serialised by
 * `JSON.stringify`, i.e. LangChain's `{ lc, type: "constructor", id, kwargs }` form), the plain `{ type: "ai", ... }`
 * or OpenAI `{ role: "assistant", tool_calls: [{ function: { name, arguments } }] }` forms, or a run export holding
 * such a list anywhere inside it. Calls of tools the config does not know are kept (they run as tool-unavailable).
 */
export interface RecordedCall {
  tool: string;
  args: Record<string, unknown>;
  id?: string;
}

export type FromMessagesResult = { ok: true; calls: RecordedCall[]; messages: number } | { ok: false; error: string };

export function callsFromRecording(value: unknown): FromMessagesResult {
  const list = findMessageList(value, 0);
  if (!list) return { ok: false, error: "no message list found (expected a list of LangChain messages, or an object holding one under messages)" };
  const calls: RecordedCall[] = [];
  for (const raw of list) {
    const m = unwrap(raw);
    if (!m || !isAi(m)) continue;
    for (const call of toolCallsOf(m)) calls.push(call);
  }
  return { ok: true, calls, messages: list.length };
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

/** The first list that looks like messages: the value itself, its `messages`, or one found inside (breadth first). */
function findMessageList(value: unknown, depth: number): unknown[] | undefined {
  if (depth > 8 || value === null || typeof value !== "object") return undefined;
  if (Array.isArray(value)) {
    if (value.some((v) => { const m = unwrap(v); return m !== undefined && (isAi(m) || m.type === "human" || m.role === "user" || m.__class !== undefined); })) return value;
    for (const v of value.slice(0, 100)) {
      const found = findMessageList(v, depth + 1);
      if (found) return found;
    }
    return undefined;
  }
  const o = value as Record<string, unknown>;
  if (Array.isArray(o.messages)) {
    const found = findMessageList(o.messages, depth + 1);
    if (found) return found;
  }
  for (const [k, v] of Object.entries(o)) {
    if (k === "messages") continue;
    const found = findMessageList(v, depth + 1);
    if (found) return found;
  }
  return undefined;
}
