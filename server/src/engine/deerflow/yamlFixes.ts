/**
 * The checks write their fixes as JSONC text edits on the nodes they report on (a value replaced by a JSON value, a
 * list element or a property removed with its comma). On a YAML tree those nodes have YAML spans, but the text must
 * be YAML: this file renders each edit in the file's own style (a plain, single- or double-quoted scalar as the
 * replaced one was written; a list item in a block list as `- item` lines, in a flow list between commas; a block
 * list replaced by a scalar after its key's colon), and drops a fix it cannot render. Every rendered fix is then
 * verified by checking its result (`verifyYamlFixes`), as fixVerification.ts does for the JSONC fixes.
 *
 * `renderYamlFix` is the one seam: when fixes become operations on the model that each front end renders, it is
 * what the YAML front end plugs in.
 */
import { isScalar, parseDocument } from "yaml";
import { removeArrayElement } from "../config/edits";
import type { JsonNode } from "../config/parse";
import type { Edit, Finding, Fix } from "../diagnostics";
import { applyEdits } from "../fixes";

/** Every node of a YAML tree by its span, to find the node a JSONC edit was written for. */
export class NodeIndex {
  private readonly bySpan = new Map<string, JsonNode>();
  private readonly containers: JsonNode[] = [];

  constructor(root: JsonNode | undefined) {
    const stack = root ? [root] : [];
    const seen = new Set<JsonNode>();
    while (stack.length > 0) {
      const node = stack.pop()!;
      if (seen.has(node)) continue;
      seen.add(node);
      const key = `${node.offset}:${node.length}`;
      if (!this.bySpan.has(key) || node.type !== "property") this.bySpan.set(key, node);
      if (node.type === "array" || node.type === "object") this.containers.push(node);
      for (const child of node.children ?? []) stack.push(child);
    }
  }

  at(start: number, end: number): JsonNode | undefined {
    return this.bySpan.get(`${start}:${end - start}`);
  }

  /** The outermost list element or property wholly inside the span, with its container (removals). */
  elementWithin(start: number, end: number): { container: JsonNode; index: number } | undefined {
    let best: { container: JsonNode; index: number; length: number } | undefined;
    for (const container of this.containers) {
      if (container.offset + container.length < start || container.offset > end) continue;
      (container.children ?? []).forEach((child, index) => {
        // A merged or aliased element lies elsewhere in the text: its own container is the one written there.
        if (child.parent !== container) return;
        if (child.offset >= start && child.offset + child.length <= end && (!best || child.length > best.length)) best = { container, index, length: child.length };
      });
    }
    return best && { container: best.container, index: best.index };
  }
}

/** The fix in YAML, or `undefined` when one of its edits has no YAML rendering here. */
export function renderYamlFix(text: string, index: NodeIndex, fix: Fix): Fix | undefined {
  const edits: Edit[] = [];
  for (const edit of fix.edits) {
    const rendered = renderEdit(text, index, edit);
    if (!rendered) return undefined;
    edits.push(rendered);
  }
  // Group proofs are about JSONC rule lists; no fix of a YAML front end's checks carries one.
  const { together: _together, provenOn: _provenOn, ...rest } = fix;
  return { ...rest, edits };
}

function renderEdit(text: string, index: NodeIndex, edit: Edit): Edit | undefined {
  const { start, end } = edit.span;
  const node = index.at(start, end);
  const values = node ? jsonValues(edit.newText) : undefined;
  if (node && values) return replaceNode(text, node, values);
  if (edit.newText.trim() === "") return removal(text, index, edit);
  return undefined;
}

/** `"a"`, `["a"]`, `"a", "b"`: the JSON values a replacement writes; `undefined` when it is not that. */
function jsonValues(newText: string): unknown[] | undefined {
  try {
    const values = JSON.parse(`[${newText}]`) as unknown[];
    return values.length > 0 ? values : undefined;
  } catch {
    return undefined;
  }
}

function replaceNode(text: string, node: JsonNode, values: unknown[]): Edit | undefined {
  const span = { start: node.offset, end: node.offset + node.length };
  const written = text.slice(span.start, span.end);
  const strings = values.every((v) => typeof v === "string") ? (values as string[]) : undefined;
  if (node.type !== "array" && node.type !== "object") {
    if (values.length === 1 && typeof values[0] === "string") return { span, newText: yamlScalar(values[0], written) };
    if (values.length === 1 && Array.isArray(values[0]) && values[0].every((v) => typeof v === "string")) {
      return { span, newText: `[${(values[0] as string[]).map((v) => yamlScalar(v, written, true)).join(", ")}]` };
    }
    // One list element replaced by several: more elements of the same list, in its style.
    if (strings && node.parent?.type === "array") {
      if (isFlow(text, node.parent)) return { span, newText: strings.map((v) => yamlScalar(v, written, true)).join(", ") };
      const lineStart = text.lastIndexOf("\n", span.start - 1) + 1;
      const prefix = text.slice(lineStart, span.start);
      if (!/^[ \t]*-[ \t]+$/.test(prefix)) return undefined;
      return { span, newText: strings.map((v) => yamlScalar(v, written)).join(`\n${prefix}`) };
    }
    return undefined;
  }
  // A list or mapping replaced by a scalar: in flow style, in place; a block one, after its key's colon.
  if (values.length !== 1 || typeof values[0] !== "string") return undefined;
  const scalar = yamlScalar(values[0], "", true);
  if (isFlow(text, node)) return { span, newText: scalar };
  const colon = colonBefore(text, node);
  return colon === undefined ? undefined : { span: { start: colon + 1, end: span.end }, newText: ` ${scalar}` };
}

/** A removal of one list element or mapping entry (the JSONC edit took its comma and line with it). */
function removal(text: string, index: NodeIndex, edit: Edit): Edit | undefined {
  const found = index.elementWithin(edit.span.start, edit.span.end);
  if (!found) return undefined;
  const { container, index: at } = found;
  const children = container.children ?? [];
  if (isFlow(text, container)) return removeArrayElement(text, container, at);
  const element = children[at]!;
  if (children.length === 1) {
    // The last element of a block collection: an empty one in flow style (an empty block would be null).
    const colon = colonBefore(text, container);
    if (colon === undefined) return undefined;
    // Through the end of the element's line: an empty value (`deny:`) ends before its own colon.
    const lineEnd = text.indexOf("\n", container.offset + container.length);
    const end = lineEnd < 0 ? text.length : text[lineEnd - 1] === "\r" ? lineEnd - 1 : lineEnd;
    return { span: { start: colon + 1, end }, newText: container.type === "array" ? " []" : " {}" };
  }
  const lineStart = text.lastIndexOf("\n", element.offset - 1) + 1;
  const prefix = text.slice(lineStart, element.offset);
  if (!(container.type === "array" ? /^[ \t]*-[ \t]+$/ : /^[ \t]*$/).test(prefix)) return undefined;
  const endOfElement = element.offset + element.length;
  const lineEnd = text.indexOf("\n", endOfElement);
  return { span: { start: lineStart, end: lineEnd < 0 ? text.length : lineEnd + 1 }, newText: "" };
}

function isFlow(text: string, node: JsonNode): boolean {
  const c = text[node.offset];
  return (node.type === "array" && c === "[") || (node.type === "object" && c === "{");
}

/** The colon of the entry whose value `node` is (`undefined` when it is not a mapping's value). */
function colonBefore(text: string, node: JsonNode): number | undefined {
  const prop = node.parent;
  const key = prop?.type === "property" ? prop.children?.[0] : undefined;
  if (!key || prop!.children?.[1] !== node) return undefined;
  const colon = text.indexOf(":", key.offset + key.length);
  return colon >= 0 && colon < node.offset ? colon : undefined;
}

/**
 * A string as a YAML scalar in the style `written` uses: double- or single-quoted as it was, else plain when
 * PyYAML reads the plain text back as this very string (not `yes`, `~`, `12`, `*`, `a: b`), else double-quoted.
 */
export function yamlScalar(value: string, written: string, inFlow = false): string {
  if (written.startsWith('"')) return JSON.stringify(value);
  if (written.startsWith("'")) return `'${value.replace(/'/g, "''")}'`;
  if (plainReadsAs(value, inFlow)) return value;
  return JSON.stringify(value);
}

/** YAML 1.1's words for booleans and null, which a plain scalar must not be to stay a string. */
const SPECIAL_WORDS = /^(y|n|yes|no|on|off|true|false|null|~)$/i;

function plainReadsAs(value: string, inFlow: boolean): boolean {
  if (value === "" || /[\n\r\t#]/.test(value) || value !== value.trim()) return false;
  // Most names (tool names, roles): a letter or `_` first, then letters, digits, `_`, `-`, `.`: plain, unless a YAML 1.1 word.
  if (/^[A-Za-z_][A-Za-z0-9_.-]*$/.test(value)) return !SPECIAL_WORDS.test(value);
  if (inFlow && /[,[\]{}]/.test(value)) return false;
  try {
    const document = parseDocument(inFlow ? `[${value}]` : `k: ${value}`, { schema: "yaml-1.1" });
    if (document.errors.length > 0) return false;
    const contents = document.contents as { items?: { value?: unknown }[] } | null;
    const item = inFlow ? contents?.items?.[0] : (contents?.items?.[0] as { value?: unknown } | undefined)?.value;
    if (inFlow && contents?.items?.length !== 1) return false;
    return isScalar(item) && item.value === value;
  } catch {
    return false;
  }
}

/**
 * Whether a rendered fix holds: its text parses with no more YAML errors than before and, checked again, has no
 * more errors than before (of any code, for the fix of a warning; in all, for the fix of an error). `findings` are
 * the text's own (its errors before); `recheck` checks a text without fixes. `budget`: how many checks it may run
 * (`undefined`: as many as asked for); a fix past it does not hold.
 */
export class FixVerifier {
  private readonly before: Map<string, number>;
  private readonly verdicts = new Map<string, boolean>();

  constructor(
    private readonly text: string,
    findings: readonly Finding[],
    private readonly recheck: (text: string) => readonly Finding[],
    private budget = Infinity,
  ) {
    this.before = errorCounts(findings);
  }

  holds(finding: Finding, fix: Fix): boolean {
    const fixed = applyEdits(this.text, fix.edits);
    if (fixed === this.text) return false;
    const key = `${finding.severity === "error" ? "e" : "w"}${fixed}`;
    const known = this.verdicts.get(key);
    if (known !== undefined) return known;
    if (this.budget-- <= 0) return false;
    const before = this.before;
    const after = errorCounts(this.recheck(fixed));
    const ok =
      (after.get("yaml-syntax") ?? 0) <= (before.get("yaml-syntax") ?? 0) &&
      (finding.severity === "error" ? (after.get("") ?? 0) <= (before.get("") ?? 0) : [...after].every(([code, n]) => code === "" || n <= (before.get(code) ?? 0)));
    this.verdicts.set(key, ok);
    return ok;
  }
}

/**
 * The findings with each fix rendered in YAML, and, with `verify`, kept only when it holds (FixVerifier), within a
 * budget of checks. Without, the fixes are the renderings, for a host that verifies the few it offers when asked
 * (the editor's quick fixes: a check at every pause in typing cannot afford a check per fix).
 */
export function yamlFindingsWithFixes(text: string, index: NodeIndex, findings: readonly Finding[], recheck: (text: string) => readonly Finding[], verify = true): Finding[] {
  const budget = text.length > VERIFIED_TEXT_MAX ? 0 : Math.floor(VERIFY_BUDGET / Math.max(1, text.length));
  const verifier = new FixVerifier(text, findings, recheck, budget);
  return findings.map((finding) => {
    if (!finding.fixes?.length) return finding;
    const fixes: Fix[] = [];
    for (const fix of finding.fixes) {
      const rendered = renderYamlFix(text, index, fix);
      if (rendered && (!verify || verifier.holds(finding, rendered))) fixes.push(rendered);
    }
    return { ...finding, fixes };
  });
}

/**
 * Past this size a YAML file's fixes are not verified, and not offered: reading YAML costs some ten times what
 * reading JSONC does, and a check runs at every pause in typing.
 */
const VERIFIED_TEXT_MAX = 100_000;
/** How many characters of checked text verifying one file's fixes may take (some twenty checks of a 10 kB config.yaml). */
const VERIFY_BUDGET = 200_000;

function errorCounts(findings: readonly Finding[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const f of findings) {
    if (f.severity !== "error" && f.code !== "yaml-syntax") continue;
    counts.set(f.code, (counts.get(f.code) ?? 0) + 1);
    counts.set("", (counts.get("") ?? 0) + 1);
  }
  return counts;
}
