import type { JsonNode } from "./config/parse";
import type { Edit, Finding, Fix, FixGroup } from "./diagnostics";
import type { Span } from "./text";

/*
 * Fixes in the model's language. A check never writes text: it proposes a fix as a few operations on the model's
 * values (insert elements into a list, remove some, replace a value, move one element before another, add, remove
 * or rename a key), naming its targets by their nodes, and what it inserts is plain data (strings, numbers,
 * booleans, null, lists and objects of them), a copy of another model value, or such data with a layout wish. The
 * front end that built the model (config/jsoncFrontEnd.ts for JSONC, deerflow/yamlFrontEnd.ts for DeerFlow's YAML,
 * sources/fixRenderer.ts for TypeScript, JavaScript and Python source) renders the
 * operations into text edits in its own syntax and the file's formatting, once, as the check reports them: every
 * host, `check --fix`, fix verification and `Fix.together` see the rendered edits (`Fix.edits`).
 * docs/reference/fixes.md says the same for readers of the product.
 */

/** A value a fix writes: plain data, a copy of a model value, or data with a layout wish or suppression note. */
export type FixValue = string | number | boolean | null | readonly FixValue[] | FixObject | CopiedValue | OnePerLine | Suppressed;

/** An object of plain data, its keys in the order written. */
export interface FixObject {
  readonly [key: string]: FixValue;
}

/** The model value at `node`, as the user wrote it (its comments and layout kept, re-indented where it lands). */
export class CopiedValue {
  constructor(readonly node: JsonNode) {}
}

/** A list or object written one element (member) per line, not on one line as front ends write small data. */
export class OnePerLine {
  constructor(readonly value: readonly FixValue[] | FixObject) {}
}

/** A value that carries an ignore note for `codes` (the file's own suppression syntax: a comment in JSONC). */
export class Suppressed {
  constructor(
    readonly codes: readonly string[],
    readonly value: FixValue,
  ) {}
}

export const copyOf = (node: JsonNode): CopiedValue => new CopiedValue(node);
export const onePerLine = (value: readonly FixValue[] | FixObject): OnePerLine => new OnePerLine(value);
export const suppressing = (codes: readonly string[], value: FixValue): Suppressed => new Suppressed(codes, value);

/** One change to the model, its targets named by their nodes. */
export type FixOperation =
  /** `node`'s value becomes `value`. */
  | { readonly op: "replace"; readonly node: JsonNode; readonly value: FixValue }
  /** The list element `element` becomes the elements `values` (a glob becomes the names it meant). */
  | { readonly op: "replace-element"; readonly list: JsonNode; readonly element: JsonNode; readonly values: readonly FixValue[] }
  /**
   * `values` go into `list` before its element `index` (its length: at the end). `onePerLine`: the list is then
   * written one element per line, whatever it was (copied rules would otherwise make a line hundreds of characters long).
   */
  | { readonly op: "insert"; readonly list: JsonNode; readonly index: number; readonly values: readonly FixValue[]; readonly onePerLine?: boolean }
  /** The elements `elements` of `list` go (several at once: none overlapping another's edit). */
  | { readonly op: "remove"; readonly list: JsonNode; readonly elements: readonly JsonNode[] }
  /** The element `element` of `list` moves to just before its element `before`, which comes earlier. */
  | { readonly op: "move"; readonly list: JsonNode; readonly element: JsonNode; readonly before: JsonNode }
  /** `object` gets the member `key`: `value` (after its last one). */
  | { readonly op: "add-key"; readonly object: JsonNode; readonly key: string; readonly value: FixValue }
  /** The member whose value is `value` goes from its object, key and all. */
  | { readonly op: "remove-key"; readonly value: JsonNode }
  /** The key `key` (a key node) is renamed `to`. */
  | { readonly op: "rename-key"; readonly key: JsonNode; readonly to: string };

export const replaceWith = (node: JsonNode, value: FixValue): FixOperation => ({ op: "replace", node, value });
export const replaceElement = (list: JsonNode, element: JsonNode, values: readonly FixValue[]): FixOperation => ({ op: "replace-element", list, element, values });
export const insertElements = (list: JsonNode, index: number, values: readonly FixValue[], layout?: { onePerLine: boolean }): FixOperation =>
  layout?.onePerLine ? { op: "insert", list, index, values, onePerLine: true } : { op: "insert", list, index, values };
export const removeElements = (list: JsonNode, ...elements: JsonNode[]): FixOperation => ({ op: "remove", list, elements });
export const moveBefore = (list: JsonNode, element: JsonNode, before: JsonNode): FixOperation => ({ op: "move", list, element, before });
export const addKey = (object: JsonNode, key: string, value: FixValue): FixOperation => ({ op: "add-key", object, key, value });
export const renameKey = (key: JsonNode, to: string): FixOperation => ({ op: "rename-key", key, to });

/** Removing the member that holds `value`, when it is a member's value (`undefined` for a list element or the root). */
export function removeKey(value: JsonNode): FixOperation | undefined {
  const member = value.parent;
  return member?.type === "property" && member.parent && member.children?.[1] === value ? { op: "remove-key", value } : undefined;
}

/** A fix as a check proposes it: `Fix` (diagnostics.ts) with operations where the rendered fix has edits. */
export interface ModelFix extends Omit<Fix, "edits" | "together"> {
  operations: FixOperation[];
  /** See `Fix.together`: the group's fixes share this object. */
  together?: ModelFixGroup;
}

/** `FixGroup` in operations. */
export interface ModelFixGroup {
  readonly list: Span;
  readonly operations: readonly FixOperation[];
  readonly applied: readonly string[];
}

/** A finding whose fixes are still on the model (the schema validator's, before its front end renders them). */
export type ProposedFinding = Omit<Finding, "fixes"> & { fixes?: ModelFix[] };

/**
 * Where a model came from: a front end parses its syntax into the Node-shaped trees the model is built of, and
 * renders fixes back into that syntax. Each kind of source file has one.
 */
export interface FrontEnd {
  /** The syntax's name ("jsonc"). */
  readonly syntax: string;
  /** A renderer of operations on the values of the model built from `text`, into edits of `text`. */
  renderer(text: string): FixRenderer;
}

export interface FixRenderer {
  /**
   * The text edits that carry out `operations` in the file's syntax, keeping its layout and comments; no two
   * overlap. An operation the file's shape cannot take renders to no edit (a fix left with none is not offered);
   * a renderer that cannot write one operation of a fix may return no edit for the whole fix, never half of it.
   */
  render(operations: readonly FixOperation[]): Edit[];
}

/**
 * Renders the fixes of one run of checks: each group (`Fix.together`) once, so that the rendered fixes share one
 * `FixGroup` as the proposed ones share one `ModelFixGroup`.
 */
export class FixRendering {
  private readonly groups = new Map<ModelFixGroup, FixGroup>();

  constructor(private readonly renderer: FixRenderer) {}

  /** `fixes` rendered; a fix whose operations render to no edit is left out. */
  fixes(fixes: readonly ModelFix[]): Fix[] {
    const out: Fix[] = [];
    for (const f of fixes) {
      const edits = this.renderer.render(f.operations);
      if (edits.length === 0) continue;
      // Field by field: the rendered fix has exactly the fields the proposed one has, in the same order.
      const fix: Fix = { title: f.title, edits, safe: f.safe };
      if (f.provenOn !== undefined) fix.provenOn = f.provenOn;
      if (f.together !== undefined) fix.together = this.group(f.together);
      if (f.applied !== undefined) fix.applied = f.applied;
      out.push(fix);
    }
    return out;
  }

  /** `finding` with its fixes rendered. */
  finding({ fixes, ...finding }: ProposedFinding): Finding {
    return fixes === undefined ? finding : { ...finding, fixes: this.fixes(fixes) };
  }

  private group(group: ModelFixGroup): FixGroup {
    let rendered = this.groups.get(group);
    if (!rendered) {
      rendered = { list: group.list, edits: this.renderer.render(group.operations), applied: group.applied };
      this.groups.set(group, rendered);
    }
    return rendered;
  }
}
