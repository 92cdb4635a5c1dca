/**
 * YAML read the way DeerFlow reads it (PyYAML's `safe_load`), into the same value tree the JSONC front end builds
 * (jsonc-parser's `Node`: `type`, `offset`, `length`, `value`, `children`, `parent`), with offsets into the YAML
 * text, so that the checks that walk a JSONC tree walk this one unchanged and report at YAML spans.
 *
 * How each YAML construct becomes a node:
 * - scalars are typed by the YAML 1.1 schema, as PyYAML types them (`yes`/`on` are booleans, `~` is null);
 *   timestamps and binary stay strings (their source text): no check reads them;
 * - an alias is the anchored node again, with the anchor's spans (that is where the value is written);
 * - a merge key (`<<: *base`, `<<: [*a, *b]`) puts the merged pairs before the mapping's own, as PyYAML's
 *   `flatten_mapping` does, so the mapping's own keys win and, of several merged mappings, the first wins;
 * - a repeated key is kept twice: every reader of the tree takes the last one, as `safe_load` does;
 * - an empty value (`user:`) is a null node on its key's span (a zero-width squiggle is easy to miss).
 */
import { isAlias, isMap, isPair, isScalar, isSeq, parseAllDocuments, visit, type Alias, type Document, type Node as YamlNode } from "yaml";
import type { JsonNode } from "../config/parse";
import { MAX_FILE_BYTES, MAX_NESTING } from "../config/parse";
import type { Finding } from "../diagnostics";

/** The diagnostic code of a YAML file DeerFlow's loader cannot read (docs/checks/yaml-syntax.md). */
export const YAML_SYNTAX = "yaml-syntax";

/**
 * Aliases can make a small text a huge value ("billion laughs"): past this many values built through aliases the
 * tree is not built further. (The values written out are bounded by the file's size.)
 */
export const MAX_YAML_NODES = 100_000;

export interface ParsedYaml {
  text: string;
  /** The first document's value; `undefined` when there is none (empty, refused, or not analysable). */
  root: JsonNode | undefined;
  /** yaml-syntax findings: what PyYAML's `safe_load` would refuse. */
  findings: Finding[];
  /** Why the text was not read at all (too large, binary, nested too deep, aliases past MAX_YAML_NODES). */
  refused?: "too-large" | "binary" | "too-deep" | "too-many-nodes";
}

/** Options of the `yaml` package that give PyYAML's reading: YAML 1.1 types, merge keys, repeated keys allowed. */
const YAML_OPTIONS = { schema: "yaml-1.1", merge: true, uniqueKeys: false, prettyErrors: false, strict: false } as const;

export function parseYaml(text: string, base = 0): ParsedYaml {
  const findings: Finding[] = [];
  const refuse = (message: string, detail: string | undefined, start: number, end: number, refused: ParsedYaml["refused"]): ParsedYaml => {
    findings.push(syntaxFinding(message, detail, base + start, base + Math.min(Math.max(end, start), text.length)));
    return { text, root: undefined, findings, refused };
  };
  if (text.length > MAX_FILE_BYTES) {
    return refuse(`The file is ${(text.length / 1024 / 1024).toFixed(1)} MB: files over ${MAX_FILE_BYTES / 1024 / 1024} MB are not analysed.`, "No DeerFlow configuration is this large.", 0, 1, "too-large");
  }
  const nul = text.indexOf("\u0000");
  if (nul >= 0) return refuse("The file contains binary data (a NUL byte): it is not a YAML file.", undefined, nul, nul + 1, "binary");
  const deep = flowDepthPast(text, MAX_NESTING);
  if (deep >= 0) return refuse(`Nesting deeper than ${MAX_NESTING} levels: the file was not analysed further.`, "No configuration is this deep.", deep, deep + 1, "too-deep");
  let documents: Document.Parsed[];
  try {
    documents = parseAllDocuments(text, YAML_OPTIONS) as Document.Parsed[];
  } catch (error) {
    // The parser recurses per block level: a text it cannot take is said, never thrown at the host.
    if (error instanceof RangeError) return refuse(`Nesting deeper than ${MAX_NESTING} levels: the file was not analysed further.`, "No configuration is this deep.", 0, 1, "too-deep");
    throw error;
  }
  if (!Array.isArray(documents)) documents = [];
  const reported = new Set<number>();
  for (const document of documents) {
    for (const error of [...document.errors, ...document.warnings]) {
      const start = error.pos[0];
      if (reported.has(start) || reported.size >= 50) continue;
      // The `yaml` package warns about a tag it does not know; PyYAML's safe_load refuses the file over it.
      if (error.code !== "TAG_RESOLVE_FAILED" && !document.errors.includes(error as never)) continue;
      reported.add(start);
      const first = firstLine(error.message);
      const tag = error.code === "TAG_RESOLVE_FAILED" ? /tag:?\s*(\S+)/i.exec(first)?.[1] : undefined;
      const message = tag ? `DeerFlow's YAML loader cannot read the tag ${tag.replace(/`/g, "")}: it refuses the whole file.` : sentence(first);
      const detail = tag
        ? "PyYAML's safe_load builds only the standard YAML types; any other tag is an error, and DeerFlow does not start with this file."
        : `${first}. DeerFlow's loader (PyYAML's safe_load) refuses the whole file.`;
      // An error at the end of the text (an unclosed bracket) is placed on its last character.
      const from = Math.max(0, Math.min(start, text.length - 1));
      findings.push(syntaxFinding(message, detail, base + from, base + Math.min(text.length, Math.max(from + 1, error.pos[1]))));
    }
  }
  if (documents.length > 1) {
    const second = documents[1]!;
    const at = documentStart(text, second.range[0]);
    findings.push(
      syntaxFinding(
        `DeerFlow's loader reads one YAML document; this file holds ${documents.length}.`,
        "PyYAML's safe_load refuses a stream of several documents (expected a single document in the stream). Only the first document is checked.",
        base + at,
        base + Math.min(text.length, at + 3),
      ),
    );
  }
  const first = documents[0];
  if (!first || first.contents === null || first.contents === undefined) return { text, root: undefined, findings };
  const builder = new TreeBuilder(first, base, text);
  try {
    const root = builder.node(first.contents as YamlNode, undefined, 0, undefined);
    return { text, root, findings };
  } catch (error) {
    if (error instanceof TooMuch) {
      const what = error.kind === "too-deep" ? `Nesting deeper than ${MAX_NESTING} levels: the file was not analysed further.` : `Aliases expand to more than ${MAX_YAML_NODES.toLocaleString("en")} values: the file was not analysed.`;
      return refuse(what, error.kind === "too-deep" ? "No configuration is this deep." : "No configuration is this large once its aliases are expanded.", error.offset - base, error.offset - base + 1, error.kind);
    }
    throw error;
  }
}

function syntaxFinding(message: string, detail: string | undefined, start: number, end: number): Finding {
  const finding: Finding = { code: YAML_SYNTAX, severity: "error", message, span: { start, end } };
  if (detail !== undefined) finding.detail = detail;
  return finding;
}

/** The `yaml` package's message without its " at line L, column C:" and the excerpt that follows. */
function firstLine(message: string): string {
  return message.split("\n")[0]!.replace(/ at line \d+, column \d+:?\s*$/, "").replace(/[.:]\s*$/, "").trim();
}

/** The library's words as one plain sentence of at most 19 words (the house style of a finding's message). */
function sentence(text: string): string {
  const plain = text.replace(/`/g, "'");
  const words = plain.split(/\s+/).filter((w) => w !== "");
  if (words.length === 0 || words.length > 13) return "The YAML does not parse here.";
  return `The YAML does not parse here: ${words.join(" ").replace(/^./, (c) => c.toLowerCase())}.`;
}

/** The offset of the `---` that opens the document starting near `from` (or `from`). */
function documentStart(text: string, from: number): number {
  const at = text.lastIndexOf("---", from + 3);
  return at >= 0 && at <= from + 3 ? at : from;
}

/** Where flow brackets open level `limit + 1` (outside quotes and comments), or -1: the `yaml` package recurses per level. */
function flowDepthPast(text: string, limit: number): number {
  let depth = 0;
  let quote = "";
  let comment = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (comment) {
      if (c === "\n") comment = false;
      continue;
    }
    if (quote) {
      if (c === quote) quote = "";
      continue;
    }
    if (c === "#" && (i === 0 || /\s/.test(text[i - 1]!))) comment = true;
    else if (c === '"' || (c === "'" && (i === 0 || /[\s[{,:]/.test(text[i - 1]!)))) quote = c;
    else if (c === "[" || c === "{") {
      if (++depth > limit) return i;
    } else if ((c === "]" || c === "}") && depth > 0) depth--;
  }
  return -1;
}

/** A node while it is built (jsonc-parser's `Node` is read-only to its readers). */
export type MutableNode = { -readonly [K in keyof JsonNode]: JsonNode[K] };

class TooMuch extends Error {
  constructor(
    readonly kind: "too-deep" | "too-many-nodes",
    readonly offset: number,
  ) {
    super(kind);
  }
}

class TreeBuilder {
  /** Values built through aliases so far, and how deep in alias expansions the builder is. */
  private count = 0;
  private expanding = 0;
  /** Every anchor, in text order, by name: `Alias.resolve` searches the whole document on each call. */
  private readonly anchors = new Map<string, YamlNode[]>();

  constructor(
    document: Document.Parsed,
    private readonly base: number,
    private readonly text: string,
  ) {
    visit(document, {
      Node: (_key, node) => {
        const anchor = (node as { anchor?: string }).anchor;
        if (anchor && !isAlias(node)) {
          const list = this.anchors.get(anchor);
          if (list) list.push(node as YamlNode);
          else this.anchors.set(anchor, [node as YamlNode]);
        }
      },
    });
  }

  /** The node an alias names: the last node anchored so before it (a later one with the same name is another). */
  private resolve(alias: Alias): YamlNode | undefined {
    const at = alias.range?.[0] ?? 0;
    let found: YamlNode | undefined;
    for (const node of this.anchors.get(alias.source) ?? []) if ((node.range?.[0] ?? 0) < at) found = node;
    return found;
  }

  /** `keyNode`: for an empty value, the key whose span it takes. */
  node(yaml: YamlNode | null | undefined, parent: JsonNode | undefined, depth: number, keyNode: JsonNode | undefined): JsonNode {
    if (this.expanding > 0 && ++this.count > MAX_YAML_NODES) throw new TooMuch("too-many-nodes", this.base + (yaml?.range?.[0] ?? 0));
    if (depth > MAX_NESTING) throw new TooMuch("too-deep", this.base + (yaml?.range?.[0] ?? 0));
    if (yaml && isAlias(yaml)) {
      const target = this.resolve(yaml);
      // An alias of nothing (an anchor not defined before it) is an error the parser has reported.
      if (!target) return this.leaf("null", null, yaml.range ?? [0, 0], parent);
      this.expanding++;
      try {
        return this.node(target, parent, depth + 1, keyNode);
      } finally {
        this.expanding--;
      }
    }
    if (!yaml || isScalar(yaml)) {
      const value = yaml?.value;
      const range = yaml?.range;
      if (!range || range[1] === range[0]) {
        // `key:` with nothing after it.
        const at = keyNode ? [keyNode.offset - this.base, keyNode.offset + keyNode.length - this.base] : range ? [range[0], range[0]] : [0, 0];
        return this.leaf("null", null, [at[0]!, at[1]!], parent);
      }
      if (value === null || value === undefined) return this.leaf("null", null, range, parent);
      if (typeof value === "boolean") return this.leaf("boolean", value, range, parent);
      if (typeof value === "number") return this.leaf("number", value, range, parent);
      if (typeof value === "bigint") return this.leaf("number", Number(value), range, parent);
      if (typeof value === "string") return this.leaf("string", value, range, parent);
      // A timestamp, binary data, a set: kept as the text written (no check reads such a value).
      return this.leaf("string", this.sourceOf(range), range, parent);
    }
    if (isSeq(yaml)) {
      const node: MutableNode = { type: "array", offset: this.base + yaml.range![0], length: 0, parent, children: [] };
      for (const item of yaml.items) node.children!.push(this.node(item as YamlNode, node, depth + 1, undefined));
      node.length = this.endOf(yaml, node) - node.offset;
      return node;
    }
    if (isMap(yaml)) {
      const node: MutableNode = { type: "object", offset: this.base + yaml.range![0], length: 0, parent, children: [] };
      const own: JsonNode[] = [];
      const merged: JsonNode[][] = [];
      for (const pair of yaml.items) {
        if (!isPair(pair)) continue;
        const key = pair.key as YamlNode | null;
        if (key && isScalar(key) && typeof key.value === "symbol") {
          merged.push(this.mergedPairs(pair.value as YamlNode, node, depth));
          continue;
        }
        own.push(this.property(key, pair.value as YamlNode | null, node, depth));
      }
      // PyYAML: the merged mappings' pairs first (the last merge key's first, each list in reverse), then its own.
      for (const list of merged.reverse()) node.children!.push(...list);
      node.children!.push(...own);
      node.length = this.endOf(yaml, node) - node.offset;
      return node;
    }
    return this.leaf("null", null, [0, 0], parent);
  }

  private property(key: YamlNode | null, value: YamlNode | null, parent: JsonNode, depth: number): JsonNode {
    const prop: MutableNode = { type: "property", offset: 0, length: 0, parent, children: [] };
    const keyNode = key && (isScalar(key) || isAlias(key)) ? this.node(key, prop, depth + 1, undefined) : this.complexKey(key, prop);
    prop.offset = keyNode.offset;
    const valueNode = this.node(value, prop, depth + 1, keyNode);
    prop.children!.push(keyNode, valueNode);
    prop.colonOffset = keyNode.offset + keyNode.length;
    prop.length = Math.max(keyNode.offset + keyNode.length, valueNode.offset + valueNode.length) - prop.offset;
    return prop;
  }

  /** A mapping or list used as a key (`? [a, b]`): Python cannot hash it; kept as its text, a string no check asks for. */
  private complexKey(key: YamlNode | null, parent: JsonNode): JsonNode {
    const range = key?.range ?? [0, 0, 0];
    return this.leaf("string", this.sourceOf(range), range, parent);
  }

  /** The pairs a merge key brings: from one mapping, or from each of a list of them (the first one's win). */
  private mergedPairs(value: YamlNode | null, parent: JsonNode, depth: number): JsonNode[] {
    const resolve = (n: YamlNode | null | undefined) => (n && isAlias(n) ? this.resolve(n) : (n ?? undefined));
    this.expanding++;
    try {
      return this.mergedFrom(resolve(value), resolve, parent, depth);
    } finally {
      this.expanding--;
    }
  }

  private mergedFrom(v: YamlNode | undefined, resolve: (n: YamlNode | null | undefined) => YamlNode | undefined, parent: JsonNode, depth: number): JsonNode[] {
    const sources: YamlNode[] = [];
    if (v && isSeq(v)) {
      for (const item of v.items) {
        const r = resolve(item as YamlNode);
        if (r) sources.push(r);
      }
    } else if (v) sources.push(v);
    const out: JsonNode[] = [];
    for (const source of sources.reverse()) {
      if (!isMap(source)) continue; // PyYAML refuses it; the `yaml` package has said so
      const built = this.node(source, parent, depth + 1, undefined);
      for (const prop of built.children ?? []) {
        (prop as MutableNode).parent = parent;
        out.push(prop);
      }
    }
    return out;
  }

  private leaf(type: JsonNode["type"], value: unknown, range: readonly number[], parent: JsonNode | undefined): JsonNode {
    return { type, value, offset: this.base + range[0]!, length: range[1]! - range[0]!, parent };
  }

  private sourceOf(range: readonly number[]): string {
    return this.text.slice(range[0], range[1]);
  }

  /**
   * Where a collection's value ends: a flow collection at its closing bracket; a block one at the end of its last
   * value (the `yaml` package's range runs on over the line break and trailing comments).
   */
  private endOf(yaml: YamlNode, node: JsonNode): number {
    if ((yaml as { flow?: boolean }).flow) return this.base + yaml.range![1];
    let end = node.offset;
    for (const child of node.children ?? []) end = Math.max(end, child.offset + child.length);
    return end === node.offset ? this.base + yaml.range![1] : end;
  }
}
