import type { JsonNode } from "../config/parse";
import { pyStrRepr, pyTypeName } from "../runtime/pyRepr";

// One `repr` of a str and one `type(x).__name__` for the whole engine: the path messages of deepagents-py and
// DeerFlow's messages print strings the same way.
export { pyStrRepr, pyTypeName };

/**
 * Just enough of Python to reproduce DeerFlow's messages and its dict semantics on a JSON(C) value:
 * `repr()`, `type(x).__name__`, `sorted()` of strings, and Pydantic's lax bool.
 *
 * Values are normalised first with `toPy`: JSON objects become `Map`s (insertion order as a Python dict built
 * by a YAML loader: a repeated key keeps its first position and its last value; no `__proto__` surprises), arrays
 * stay arrays, scalars stay scalars.
 */
export type PyValue = null | boolean | number | string | PyValue[] | Map<string, PyValue>;

const NODE_TYPES = new Set(["object", "array", "property", "string", "number", "boolean", "null"]);

/** A jsonc-parser node (what `model.authorization` holds), as opposed to a plain JSON value. */
export function isJsonNode(value: unknown): value is JsonNode {
  if (typeof value !== "object" || value === null || Array.isArray(value) || value instanceof Map) return false;
  const v = value as Record<string, unknown>;
  return typeof v.offset === "number" && typeof v.length === "number" && typeof v.type === "string" && NODE_TYPES.has(v.type);
}

/** Normalises a plain JSON value or a jsonc-parser node. `undefined` stays `undefined` (an absent key). */
export function toPy(value: unknown): PyValue | undefined {
  if (value === undefined) return undefined;
  if (isJsonNode(value)) return fromNode(value);
  return fromPlain(value);
}

function fromPlain(value: unknown): PyValue {
  if (value === null || value === undefined) return null;
  if (typeof value === "boolean" || typeof value === "number" || typeof value === "string") return value;
  if (Array.isArray(value)) return value.map(fromPlain);
  if (value instanceof Map) {
    const out = new Map<string, PyValue>();
    for (const [k, v] of value) out.set(String(k), fromPlain(v));
    return out;
  }
  if (typeof value === "object") {
    const out = new Map<string, PyValue>();
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) out.set(k, fromPlain(v));
    return out;
  }
  return null; // functions, symbols, bigints: not JSON
}

function fromNode(node: JsonNode): PyValue {
  switch (node.type) {
    case "object": {
      const out = new Map<string, PyValue>();
      for (const prop of node.children ?? []) {
        const [k, v] = prop.children ?? [];
        if (k && typeof k.value === "string") out.set(k.value, v ? fromNode(v) : null);
      }
      return out;
    }
    case "array":
      return (node.children ?? []).map(fromNode);
    case "property":
      return node.children?.[1] ? fromNode(node.children[1]) : null;
    case "string":
    case "number":
    case "boolean":
      return node.value as PyValue;
    default:
      return null;
  }
}

export function isDict(value: unknown): value is Map<string, PyValue> {
  return value instanceof Map;
}

/** `repr(x)` of an int or a float. */
export function pyNumberRepr(n: number): string {
  if (Number.isNaN(n)) return "nan";
  if (!Number.isFinite(n)) return n > 0 ? "inf" : "-inf";
  if (Number.isInteger(n)) return Math.abs(n) < 1e21 ? (n === 0 ? "0" : n.toFixed(0)) : BigInt(n).toString();
  // Python's float repr: the shortest round-tripping digits, fixed notation for 1e-4 <= |x| < 1e16.
  const [mantissa, expText] = Math.abs(n).toExponential().split("e") as [string, string];
  const digits = mantissa.replace(".", "");
  const exp = Number(expText);
  const sign = n < 0 ? "-" : "";
  if (exp >= -4 && exp < 16) {
    if (exp < 0) return `${sign}0.${"0".repeat(-exp - 1)}${digits}`;
    const intPart = digits.slice(0, exp + 1).padEnd(exp + 1, "0");
    return `${sign}${intPart}.${digits.slice(exp + 1) || "0"}`;
  }
  const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  return `${sign}${m}e${exp < 0 ? "-" : "+"}${String(Math.abs(exp)).padStart(2, "0")}`;
}

/** `repr(x)` of any JSON value. */
export function pyRepr(value: unknown): string {
  if (value === null || value === undefined) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "number") return pyNumberRepr(value);
  if (typeof value === "string") return pyStrRepr(value);
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(", ")}]`;
  const entries = value instanceof Map ? [...value.entries()] : Object.entries(value as object);
  return `{${entries.map(([k, v]) => `${pyRepr(k)}: ${pyRepr(v)}`).join(", ")}}`;
}

/** Python compares str by code point; JavaScript by UTF-16 unit. This maps units so both orders agree. */
function unitOrder(u: number): number {
  if (u >= 0xd800 && u <= 0xdfff) return u + 0x2000;
  if (u >= 0xe000) return u - 0x800;
  return u;
}

export function pyCompareStr(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return unitOrder(x) - unitOrder(y);
  }
  return a.length - b.length;
}

const SURROGATE = /[\ud800-\udfff]/;

/** `sorted(strings)`. */
export function pySorted(strings: Iterable<string>): string[] {
  const out = [...strings];
  // Without surrogates, UTF-16 unit order is code point order: the built-in comparison (much faster on 10,000
  // role names than a comparator function) gives Python's order.
  return out.some((s) => SURROGATE.test(s)) ? out.sort(pyCompareStr) : out.sort();
}

/** `sorted(strings, key=repr)`. */
export function pySortedByRepr(strings: Iterable<string>): string[] {
  return [...strings]
    .map((s) => ({ s, r: pyStrRepr(s) }))
    .sort((a, b) => pyCompareStr(a.r, b.r))
    .map((e) => e.s);
}

/** `repr()` of a list of str: `['a', 'b']`. */
export function pyStrListRepr(strings: readonly string[]): string {
  return `[${strings.map(pyStrRepr).join(", ")}]`;
}

const TRUE_WORDS = new Set(["1", "on", "t", "true", "y", "yes"]);
const FALSE_WORDS = new Set(["0", "off", "f", "false", "n", "no"]);

/** Pydantic's lax `bool`: `true`, `"yes"`, `"on"`, `1`, … `undefined` when Pydantic would reject the value. */
export function pydanticBool(value: unknown): boolean | undefined {
  if (typeof value === "boolean") return value;
  if (typeof value === "number") return value === 1 ? true : value === 0 ? false : undefined;
  if (typeof value === "string") {
    const word = value.toLowerCase();
    if (TRUE_WORDS.has(word)) return true;
    if (FALSE_WORDS.has(word)) return false;
  }
  return undefined;
}
