import { renameKey, replaceWith, type ProposedFinding } from "../fixOperations";
import { didYouMean } from "../didYouMean";
import { pydanticBool } from "../authorization/python";
import { spanOf, type JsonNode } from "./parse";

/**
 * A validator for the JSON Schema subset our schemas use (type, const, enum, properties, required,
 * additionalProperties, items, minItems, minLength, $ref, anyOf, oneOf with a `discriminator` key). It walks the
 * jsonc-parser tree directly, so every message has an exact range, and says what a person needs: the key that
 * is wrong, what is allowed, and the likely intended word.
 *
 * Against a maintained validator, vscode-json-languageservice's `doValidation` with the same schema (its JSON
 * document parsed beforehand, untimed), measured with `node --expose-gc --import tsx bench/libraries.ts` (CPU
 * time, interleaved, medians of 11 rounds, load average 25 on 2 cores): on the benchmark's configs of 10, 100 and
 * 1,000 rules this takes 0.046, 0.21 and 1.8 ms where the library takes 0.51, 0.89 and 5.8 (11, 4.3 and 3.2 times
 * faster); the editor's diagnostics (`checkConfigText` without the exact analysis) would take 1.31, 1.27 and 1.43
 * times as long with the library. Besides the time, the library cannot say what these messages say (the
 * misplaced DeerFlow keys, Pydantic's lax booleans, the likely intended word) without a pass of our own after it.
 */
export interface Schema {
  $ref?: string;
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  minItems?: number;
  minLength?: number;
  anyOf?: Schema[];
  oneOf?: Schema[];
  discriminator?: string;
  description?: string;
  definitions?: Record<string, Schema>;
  /** Keys people bring from elsewhere (DeerFlow's config.yaml) that belong somewhere else here: key → where. */
  "x-misplacedKeys"?: Record<string, string>;
  /** A bool as Pydantic reads it in lax mode (DeerFlow's config): true/false, 1/0, or "yes", "off", "t", … in any case. */
  "x-laxBool"?: boolean;
  /** What a value other than `const` means, `{found}` standing for the value found ("Expected 1." says too little). */
  "x-constMessage"?: string;
}

export class SchemaValidator {
  constructor(private readonly rootSchema: Schema) {}

  validate(root: JsonNode): ProposedFinding[] {
    const findings: ProposedFinding[] = [];
    this.check(root, this.rootSchema, findings);
    return findings;
  }

  /**
   * Every schema object the walk meets, with its `$ref`s followed, once: the walk visits each rule of a 1,000-rule
   * file with the same few schema objects, and building the merged object again per node was a good part of it.
   */
  private readonly resolved = new WeakMap<Schema, Schema>();
  private readonly facts = new WeakMap<Schema, SchemaFacts>();
  private readonly discriminated = new WeakMap<Schema, Discriminated>();

  private resolve(schema: Schema): Schema {
    let r = this.resolved.get(schema);
    if (!r) this.resolved.set(schema, (r = this.resolveNow(schema)));
    return r;
  }

  /** What the walk derives from one (resolved) schema object, once. */
  private factsOf(schema: Schema): SchemaFacts {
    let f = this.facts.get(schema);
    if (!f) {
      f = {
        types: schema.type === undefined ? undefined : Array.isArray(schema.type) ? schema.type : [schema.type],
        known: Object.keys(schema.properties ?? {}),
      };
      this.facts.set(schema, f);
    }
    return f;
  }

  private resolveNow(schema: Schema): Schema {
    let s = schema;
    for (let guard = 0; s.$ref && guard < 16; guard++) {
      const name = s.$ref.replace(/^#\/definitions\//, "");
      const target = this.rootSchema.definitions?.[name];
      if (!target) break;
      // Keep the referring schema's own annotations (description) but take the target's constraints.
      s = { ...target, ...withoutRef(s) };
    }
    return s;
  }

  private check(node: JsonNode, schemaIn: Schema, out: ProposedFinding[]): void {
    const schema = this.resolve(schemaIn);
    if (schema.oneOf && schema.discriminator) return this.checkDiscriminated(node, schema, out);
    if (schema.anyOf) return this.checkAnyOf(node, schema, out);
    if (schema["x-laxBool"]) {
      if (pydanticBool(node.type === "string" || node.type === "number" || node.type === "boolean" ? node.value : undefined) === undefined) {
        out.push(error(node, `Expected true or false, found ${node.type === "string" ? JSON.stringify(node.value) : article(kindOf(node))}.`, false, `DeerFlow also reads Pydantic's lax forms: "yes"/"no", "on"/"off", "t"/"f", "y"/"n", 1/0.`));
      }
      return;
    }
    if (!this.checkTypeAndValue(node, schema, out)) return;
    if (node.type === "object") this.checkObject(node, schema, out);
    else if (node.type === "array") {
      const items = node.children ?? [];
      if (schema.minItems !== undefined && items.length < schema.minItems) {
        out.push(error(node, `At least ${schema.minItems} item(s) expected.`));
      }
      if (schema.items) for (let i = 0; i < items.length; i++) this.check(items[i]!, schema.items, out);
    } else if (node.type === "string" && schema.minLength !== undefined && String(node.value).length < schema.minLength) {
      out.push(error(node, "An empty string is not allowed here."));
    }
  }

  /** Type, const and enum. Returns false when the value is of the wrong kind (no point looking inside). */
  private checkTypeAndValue(node: JsonNode, schema: Schema, out: ProposedFinding[]): boolean {
    const { types } = this.factsOf(schema);
    if (types && !anyTypeMatches(node, types)) {
      out.push(error(node, `Expected ${types.map(article).join(" or ")}, found ${article(kindOf(node))}.`));
      return false;
    }
    if (schema.const !== undefined && node.value !== schema.const) {
      const found = node.type === "number" || node.type === "string" || node.type === "boolean" || node.type === "null" ? JSON.stringify(node.value) : `(${article(kindOf(node))})`;
      out.push(error(node, schema["x-constMessage"]?.replace("{found}", found) ?? `Expected ${JSON.stringify(schema.const)}.`));
      return false;
    }
    if (schema.enum) {
      if (!schema.enum.includes(node.value) || (node.type !== "string" && node.type !== "number" && node.type !== "boolean")) {
        const words = schema.enum.map((v) => JSON.stringify(v)).join(", ");
        const suggestion = typeof node.value === "string" ? didYouMean(node.value, schema.enum.filter(isString)) : undefined;
        out.push({
          ...error(node, `${node.type === "string" ? JSON.stringify(node.value) : `A ${kindOf(node)}`} is not allowed here${didYouMeanNote(suggestion)}.`, false, `Expected one of: ${words}.`),
          ...(suggestion ? { fixes: [{ title: `Change to ${JSON.stringify(suggestion)}`, operations: [replaceWith(node, suggestion)], safe: false }] } : {}),
        });
        return false;
      }
    }
    return true;
  }

  private checkObject(node: JsonNode, schema: Schema, out: ProposedFinding[]): void {
    const { known } = this.factsOf(schema);
    const props = node.children ?? [];
    // The keys present (for `required`) and, when some key is written twice, each key's last position: only its
    // last value counts (JSON.parse, the model and every runtime read it so), so only that one is checked.
    const lastOf = lastPositions(props);
    const reported = lastOf ? new Set<string>() : undefined;
    // Indexed, without destructuring: every object of the file passes here, mostly while V8 has not optimised it.
    for (let p = 0; p < props.length; p++) {
      const pair = props[p]!.children;
      const keyNode = pair?.[0];
      const valueNode = pair?.[1];
      if (!keyNode) continue;
      const key = String(keyNode.value);
      if (lastOf !== undefined) {
        // Said at every occurrence after the first, as before; only the last is checked.
        if (reported!.has(key)) out.push(error(keyNode, `Duplicate key ${JSON.stringify(key)}: only the last one counts.`));
        reported!.add(key);
        if (lastOf.get(key) !== p) continue;
      }
      // Own keys only: `constructor`, `toString` or `__proto__` written in a config are unknown keys, not the
      // schema object's inherited members.
      const propertySchema = schema.properties && Object.prototype.hasOwnProperty.call(schema.properties, key) ? schema.properties[key] : undefined;
      if (propertySchema) {
        if (valueNode) this.check(valueNode, propertySchema, out);
      } else if (schema.additionalProperties === false && schema["x-misplacedKeys"] && Object.prototype.hasOwnProperty.call(schema["x-misplacedKeys"], key)) {
        out.push(error(keyNode, `Unknown key ${JSON.stringify(key)}.`, false, schema["x-misplacedKeys"][key]));
      } else if (schema.additionalProperties === false) {
        const suggestion = didYouMean(key, known);
        const allowed = known.filter((k) => k !== "$schema").map((k) => `"${k}"`).join(", ");
        out.push({
          ...error(keyNode, `Unknown key ${JSON.stringify(key)}${didYouMeanNote(suggestion)}.`, false, suggestion ? undefined : `Allowed keys: ${allowed}.`),
          ...(suggestion
            ? { fixes: [{ title: `Rename to ${JSON.stringify(suggestion)}`, operations: [renameKey(keyNode, suggestion)], safe: false }] }
            : {}),
        });
      } else if (typeof schema.additionalProperties === "object" && valueNode) {
        this.check(valueNode, schema.additionalProperties, out);
      }
    }
    for (const key of schema.required ?? []) {
      if (!hasKey(props, key)) out.push(error(node, `Missing required key ${JSON.stringify(key)}.`, true));
    }
  }

  private checkDiscriminated(node: JsonNode, schema: Schema, out: ProposedFinding[]): void {
    if (!this.checkTypeAndValue(node, OBJECT, out)) return;
    const key = schema.discriminator!;
    let d = this.discriminated.get(schema);
    if (!d) {
      const branches = schema.oneOf!.map((b) => this.resolve(b));
      d = {
        values: branches.map((b) => b.properties?.[key]?.const).filter(isString),
        // Each branch as checked: its own keys, and the required keys of both.
        branches: branches.map((b) => ({ tag: b.properties?.[key]?.const, schema: { ...b, required: [...(schema.required ?? []), ...(b.required ?? [])] } })),
      };
      d.enumSchema = { enum: d.values };
      this.discriminated.set(schema, d);
    }
    // The last one, when the key is written twice: the one that counts.
    let tagNode: JsonNode | undefined;
    for (const p of node.children ?? []) if (p.children?.[0]?.value === key) tagNode = p.children[1];
    if (!tagNode) {
      out.push(error(node, `Missing required key ${JSON.stringify(key)}: one of ${d.values.map((v) => JSON.stringify(v)).join(", ")}.`, true));
      return;
    }
    const branch = d.branches.find((b) => b.tag === tagNode.value);
    if (!branch) {
      this.checkTypeAndValue(tagNode, d.enumSchema!, out);
      return;
    }
    this.checkObject(node, branch.schema, out);
  }

  private checkAnyOf(node: JsonNode, schema: Schema, out: ProposedFinding[]): void {
    const branches = schema.anyOf!.map((b) => this.resolve(b));
    const fitting = branches.filter((b) => branchAccepts(node, b));
    if (fitting.length === 0) {
      const kinds = [...new Set(branches.flatMap(describeBranch))];
      const words = branches.flatMap((b) => (b.enum ?? (b.const !== undefined ? [b.const] : []))).filter(isString);
      const suggestion = node.type === "string" ? didYouMean(String(node.value), words) : undefined;
      const found = node.type === "string" ? JSON.stringify(node.value) : article(kindOf(node));
      out.push({
        // A long list of what would do goes into the detail: the message says what is wrong in a few words.
        ...(kinds.length > 3
          ? error(node, `${found.replace(/^./, (c) => c.toUpperCase())} is not allowed here${didYouMeanNote(suggestion)}.`, false, `Expected ${kinds.join(" or ")}.`)
          : error(node, `Expected ${kinds.join(" or ")}, found ${found}${didYouMeanNote(suggestion)}.`)),
        ...(suggestion ? { fixes: [{ title: `Change to ${JSON.stringify(suggestion)}`, operations: [replaceWith(node, suggestion)], safe: false }] } : {}),
      });
      return;
    }
    // The first branch whose kind fits is the one the author meant; report what is wrong inside it.
    this.check(node, fitting[0]!, out);
  }
}

interface SchemaFacts {
  readonly types: readonly string[] | undefined;
  readonly known: readonly string[];
}
interface Discriminated {
  readonly values: string[];
  readonly branches: { readonly tag: unknown; readonly schema: Schema }[];
  enumSchema?: Schema;
}
const OBJECT: Schema = { type: "object" };

function branchAccepts(node: JsonNode, schema: Schema): boolean {
  if (schema.const !== undefined) return node.value === schema.const;
  if (schema.enum) return schema.enum.includes(node.value);
  if (schema.type === undefined) return true;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return types.some((t) => typeMatches(node, t));
}

function describeBranch(schema: Schema): string[] {
  if (schema.const !== undefined) return [JSON.stringify(schema.const)];
  if (schema.enum) return schema.enum.map((v) => JSON.stringify(v));
  if (schema.type === undefined) return ["a value"];
  return (Array.isArray(schema.type) ? schema.type : [schema.type]).map(article);
}

/** `types.some((t) => typeMatches(node, t))` without a closure per node: the validator visits every node. */
function anyTypeMatches(node: JsonNode, types: readonly string[]): boolean {
  for (let i = 0; i < types.length; i++) if (typeMatches(node, types[i]!)) return true;
  return false;
}

function typeMatches(node: JsonNode, type: string): boolean {
  if (type === "integer") return node.type === "number" && Number.isInteger(node.value);
  return node.type === type;
}

function kindOf(node: JsonNode): string {
  return node.type === "property" ? "property" : node.type;
}

function article(kind: string): string {
  const words: Record<string, string> = {
    object: "an object",
    array: "a list",
    string: "a string",
    number: "a number",
    integer: "a whole number",
    boolean: "true or false",
    null: "null",
  };
  return words[kind] ?? kind;
}

function isString(v: unknown): v is string {
  return typeof v === "string";
}

function withoutRef(s: Schema): Schema {
  const { $ref: _ref, ...rest } = s;
  return rest.description === undefined ? {} : { description: rest.description };
}

function error(node: JsonNode, message: string, atStart = false, detail?: string): ProposedFinding {
  const key = node.parent?.type === "property" ? node.parent.children?.[0] : undefined;
  // A missing key is reported on the key that names the object (or its opening brace), not on the whole block.
  const span = atStart ? (key ? spanOf(key) : { start: node.offset, end: node.offset + 1 }) : spanOf(node);
  return detail === undefined ? { code: "schema", severity: "error", message, span } : { code: "schema", severity: "error", message, detail, span };
}

/** ` (did you mean "x"?)` before a message's period, or nothing. */
function didYouMeanNote(suggestion: string | undefined): string {
  return suggestion ? ` (did you mean ${JSON.stringify(suggestion)}?)` : "";
}

/** The key of a property node (`String` of it, as the walk reads keys), or undefined without one. */
function keyOf(prop: JsonNode): string | undefined {
  const keyNode = prop.children?.[0];
  return keyNode ? String(keyNode.value) : undefined;
}

/** Whether some property has this key (a scan: the schema's required keys are few, and so are most objects' keys). */
function hasKey(props: readonly JsonNode[], key: string): boolean {
  for (let p = 0; p < props.length; p++) if (keyOf(props[p]!) === key) return true;
  return false;
}

/** A small object's keys are compared pairwise: no Set for each of a 100,000-step scenario's steps and arguments. */
const PAIRWISE_KEYS = 8;

/** Each key's last position when some key is written twice; undefined when every key is written once. */
function lastPositions(props: readonly JsonNode[]): Map<string, number> | undefined {
  let duplicate = false;
  if (props.length <= PAIRWISE_KEYS) {
    for (let p = 1; p < props.length && !duplicate; p++) {
      const key = keyOf(props[p]!);
      if (key === undefined) continue;
      for (let q = 0; q < p; q++) {
        if (keyOf(props[q]!) === key) {
          duplicate = true;
          break;
        }
      }
    }
  } else {
    const seen = new Set<string>();
    for (let p = 0; p < props.length; p++) {
      const key = keyOf(props[p]!);
      if (key === undefined) continue;
      if (seen.has(key)) {
        duplicate = true;
        break;
      }
      seen.add(key);
    }
  }
  if (!duplicate) return undefined;
  const lastOf = new Map<string, number>();
  for (let p = 0; p < props.length; p++) {
    const key = keyOf(props[p]!);
    if (key !== undefined) lastOf.set(key, p);
  }
  return lastOf;
}
