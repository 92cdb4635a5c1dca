/**
 * Walks the shipped JSON Schemas (the same files the engine validates with) to the schema of a place in a
 * document: the keys an object may have, the values a property may take, a key's description. Only the schema
 * subset our schemas use: $ref, properties, additionalProperties, items, enum, const, anyOf, and oneOf with a
 * `discriminator` key (the `type` of backends and middleware).
 */
import type { JSONPath, Node } from "jsonc-parser";
import configSchemaJson from "../../../schemas/agent-sandbox.schema.json";
import dryRunSchemaJson from "../../../schemas/dryrun.schema.json";
import type { Schema } from "../engine/config/schemaValidator";
import type { FileKind } from "./engineFacade";

interface SchemaEx extends Schema {
  default?: unknown;
  examples?: unknown[];
}

// DeerFlow's files and source files are never completed by schema (server.ts answers nothing there).
const SCHEMAS: Partial<Record<FileKind, SchemaEx>> = {
  config: configSchemaJson as unknown as SchemaEx,
  "dry-run": dryRunSchemaJson as unknown as SchemaEx,
};

function resolveRef(root: SchemaEx, schema: SchemaEx): SchemaEx {
  let s = schema;
  for (let guard = 0; s.$ref && guard < 16; guard++) {
    const target = root.definitions?.[s.$ref.replace(/^#\/definitions\//, "")] as SchemaEx | undefined;
    if (!target) break;
    const { $ref: _ignored, ...own } = s;
    s = { ...target, ...own };
  }
  return s;
}

/**
 * The alternatives a schema stands for at one node: a discriminated `oneOf` narrows to the branch the node's
 * `type` names (every branch when it names none), `anyOf` keeps every branch.
 */
function alternatives(root: SchemaEx, schemaIn: SchemaEx, node: Node | undefined): SchemaEx[] {
  const schema = resolveRef(root, schemaIn);
  if (schema.oneOf) {
    const branches = schema.oneOf.map((b) => resolveRef(root, b as SchemaEx));
    const key = schema.discriminator;
    const value = key && node?.type === "object" ? node.children?.find((p) => p.children?.[0]?.value === key)?.children?.[1]?.value : undefined;
    const chosen = value === undefined ? branches : branches.filter((b) => (b.properties?.[key!] as SchemaEx | undefined)?.const === value);
    const { oneOf: _o, ...base } = schema;
    return (chosen.length ? chosen : branches).flatMap((b) => alternatives(root, { ...base, ...b, properties: { ...(base.properties ?? {}), ...(b.properties ?? {}) } } as SchemaEx, node));
  }
  if (schema.anyOf) {
    const { anyOf: _a, ...base } = schema;
    return schema.anyOf.flatMap((b) => alternatives(root, { ...base, ...(resolveRef(root, b as SchemaEx)) } as SchemaEx, node));
  }
  return [schema];
}

/** The schema alternatives at a JSON path, following the document's own nodes to pick discriminated branches. */
export function schemasAt(kind: FileKind, root: Node | undefined, path: JSONPath): SchemaEx[] {
  const rootSchema = SCHEMAS[kind] ?? SCHEMAS.config!;
  let current: { schema: SchemaEx; node: Node | undefined }[] = [{ schema: rootSchema, node: root }];
  for (const segment of path) {
    const next: { schema: SchemaEx; node: Node | undefined }[] = [];
    for (const { schema, node } of current) {
      for (const alt of alternatives(rootSchema, schema, node)) {
        const child = childNode(node, segment);
        if (typeof segment === "number") {
          if (alt.items) next.push({ schema: alt.items as SchemaEx, node: child });
        } else if (alt.properties?.[segment]) next.push({ schema: alt.properties[segment] as SchemaEx, node: child });
        else if (alt.additionalProperties && typeof alt.additionalProperties === "object") next.push({ schema: alt.additionalProperties as SchemaEx, node: child });
      }
    }
    current = next;
    if (current.length === 0) return [];
  }
  return current.flatMap(({ schema, node }) => alternatives(rootSchema, schema, node));
}

function childNode(node: Node | undefined, segment: string | number): Node | undefined {
  if (!node) return undefined;
  if (typeof segment === "number") return node.type === "array" ? node.children?.[segment] : undefined;
  if (node.type !== "object") return undefined;
  let found: Node | undefined;
  for (const p of node.children ?? []) if (p.children?.[0]?.value === segment) found = p.children[1];
  return found;
}

export interface KeyProposal {
  key: string;
  description?: string;
  /** The value's shape, to insert a matching snippet. */
  valueKind: "object" | "array" | "string" | "boolean" | "number" | "other";
  required: boolean;
}

/** Keys an object at `path` may have, by the schema. */
export function keysAt(kind: FileKind, root: Node | undefined, path: JSONPath): KeyProposal[] {
  const out = new Map<string, KeyProposal>();
  const rootSchema = SCHEMAS[kind] ?? SCHEMAS.config!;
  for (const alt of schemasAt(kind, root, path)) {
    for (const [key, propSchema] of Object.entries(alt.properties ?? {})) {
      if (out.has(key)) continue;
      const resolved = alternatives(rootSchema, propSchema as SchemaEx, undefined);
      const proposal: KeyProposal = { key, valueKind: valueKindOf(resolved), required: alt.required?.includes(key) ?? false };
      const description = (propSchema as SchemaEx).description ?? resolved.find((r) => r.description)?.description;
      if (description) proposal.description = description;
      out.set(key, proposal);
    }
  }
  return [...out.values()];
}

function valueKindOf(schemas: SchemaEx[]): KeyProposal["valueKind"] {
  const types = new Set<string>();
  for (const s of schemas) {
    if (s.type) for (const t of Array.isArray(s.type) ? s.type : [s.type]) types.add(t);
    if (s.properties) types.add("object");
    if (s.const !== undefined || s.enum) types.add(typeof (s.const ?? s.enum?.[0]));
  }
  if (types.size !== 1) return types.has("array") ? "array" : "other";
  const [t] = types;
  return t === "object" || t === "array" || t === "string" || t === "boolean" || t === "number" ? t : t === "integer" ? "number" : "other";
}

/** Values the schema names for a place: enum and const values, examples, defaults, booleans. */
export function valuesAt(kind: FileKind, root: Node | undefined, path: JSONPath): { value: unknown; description?: string }[] {
  const out: { value: unknown; description?: string }[] = [];
  const seen = new Set<string>();
  const add = (value: unknown, description?: string) => {
    const key = JSON.stringify(value);
    if (seen.has(key)) return;
    seen.add(key);
    out.push(description ? { value, description } : { value });
  };
  for (const alt of schemasAt(kind, root, path)) {
    if (alt.const !== undefined) add(alt.const, alt.description);
    for (const v of alt.enum ?? []) add(v);
    for (const v of alt.examples ?? []) add(v);
    const types = alt.type ? (Array.isArray(alt.type) ? alt.type : [alt.type]) : [];
    if (types.includes("boolean")) {
      add(true);
      add(false);
    }
  }
  return out;
}

/** The description of a key at `path` (the last segment), for hovers on keys nothing more specific explains. */
export function descriptionAt(kind: FileKind, root: Node | undefined, path: JSONPath): string | undefined {
  if (path.length === 0) return undefined;
  const parentPath = path.slice(0, -1);
  const key = path.at(-1);
  if (typeof key !== "string") return undefined;
  return keysAt(kind, root, parentPath).find((k) => k.key === key)?.description;
}
