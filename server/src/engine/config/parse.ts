import { printParseErrorCode, type Node, type ParseError } from "jsonc-parser";
import { NestingTooDeep, parseJsoncTree } from "./jsoncTree";
import type { Finding } from "../diagnostics";

export type JsonNode = Node;

/** Files larger than this are reported, not analysed: no agent config is this big, and checks must stay fast. */
export const MAX_FILE_BYTES = 4 * 1024 * 1024;
/** Deeper nesting than any config needs; the parser recurses per level and would overflow the stack. */
export const MAX_NESTING = 128;

export interface ParsedJsonc {
  text: string;
  /** `undefined` when the text could not be analysed at all (too large, too deep, binary, empty). */
  root: JsonNode | undefined;
  findings: Finding[];
  /**
   * Why the text was not parsed at all, when it was too large, binary or nested too deep: its only finding says so,
   * and a host that would parse it its own way (the editor's completion, with jsonc-parser's recursive visitor)
   * leaves it alone too.
   */
  refused?: "too-large" | "binary" | "too-deep";
}

export function parseJsonc(text: string): ParsedJsonc {
  const findings: Finding[] = [];
  const syntax = (message: string, detail: string | undefined, start: number, end = start + 1, refused?: ParsedJsonc["refused"]): ParsedJsonc => {
    const finding: Finding = { code: "json-syntax", severity: "error", message, span: { start, end: Math.min(Math.max(end, start), text.length) } };
    if (detail !== undefined) finding.detail = detail;
    findings.push(finding);
    return refused ? { text, root: undefined, findings, refused } : { text, root: undefined, findings };
  };
  if (text.length > MAX_FILE_BYTES) {
    return syntax(
      `The file is ${(text.length / 1024 / 1024).toFixed(1)} MB: files over ${MAX_FILE_BYTES / 1024 / 1024} MB are not analysed.`,
      "No agent configuration is this large.",
      0,
      1,
      "too-large",
    );
  }
  const nul = text.indexOf("\u0000");
  if (nul >= 0) return syntax("The file contains binary data (a NUL byte): it is not a JSONC configuration.", undefined, nul, nul + 1, "binary");
  const errors: ParseError[] = [];
  let root: JsonNode | undefined;
  try {
    // jsonc-parser's parseTree, exactly, built over its scanner without the visitor (see jsoncTree.ts). It also
    // counts the brackets, over the whole text: the first one opening level MAX_NESTING + 1 stops it (where
    // jsonc-parser's scanner counts it, test/helpers/nesting.ts); and it stops where error recovery would nest it
    // deeper than that (`[},[},…`).
    root = parseJsoncTree(text, errors, { allowTrailingComma: true, disallowComments: false, allowEmptyContent: true }, MAX_NESTING);
  } catch (e) {
    if (e instanceof NestingTooDeep) {
      return syntax(`Nesting deeper than ${MAX_NESTING} levels: the file was not analysed further.`, "No configuration is this deep.", e.offset, e.offset + 1, "too-deep");
    }
    throw e;
  }
  const reported = new Set<number>();
  for (const error of errors) {
    if (reported.has(error.offset) || reported.size >= 50) continue; // one message per place, and not thousands
    reported.add(error.offset);
    findings.push({
      code: "json-syntax",
      severity: "error",
      message: syntaxMessage(printParseErrorCode(error.error)),
      span: { start: error.offset, end: error.offset + Math.max(1, error.length) },
    });
  }
  if (!root) {
    if (errors.length === 0) return syntax("The file is empty.", 'A configuration needs at least { "version": 1 }.', 0, 0);
    return { text, root: undefined, findings };
  }
  return { text, root, findings };
}

function syntaxMessage(code: string): string {
  const words: Record<string, string> = {
    InvalidSymbol: "Invalid symbol",
    InvalidNumberFormat: "Invalid number",
    PropertyNameExpected: "A property name in double quotes is expected",
    ValueExpected: "A value is expected",
    ColonExpected: "A colon is expected",
    CommaExpected: "A comma is expected",
    CloseBraceExpected: 'A closing brace "}" is expected',
    CloseBracketExpected: 'A closing bracket "]" is expected',
    EndOfFileExpected: "End of file expected: there is text after the top-level value",
    InvalidCommentToken: "Invalid comment",
    UnexpectedEndOfComment: "The comment is not closed",
    UnexpectedEndOfString: "The string is not closed",
    UnexpectedEndOfNumber: "The number is not complete",
    InvalidUnicode: "Invalid unicode escape",
    InvalidEscapeCharacter: "Invalid escape character in a string",
    InvalidCharacter: "Invalid character in a string",
  };
  return `${words[code] ?? code}.`;
}

/** The node of a property's value (`undefined` when absent). Last one wins, as in JSON.parse. */
export function property(node: JsonNode | undefined, key: string): JsonNode | undefined {
  if (!node || node.type !== "object" || !node.children) return undefined;
  let found: JsonNode | undefined;
  // Indexing rather than `const [k, v] = prop.children`: destructuring runs the array iterator, and this is called
  // for every key the model and the checks read.
  const props = node.children;
  for (let i = 0; i < props.length; i++) {
    const pair = props[i]!.children;
    if (!pair) continue;
    const k = pair[0];
    if (k && k.value === key) found = pair[1];
  }
  return found;
}

export function propertyKeyNode(valueNode: JsonNode): JsonNode | undefined {
  const parent = valueNode.parent;
  return parent?.type === "property" ? parent.children?.[0] : undefined;
}

export function spanOf(node: JsonNode): { start: number; end: number } {
  return { start: node.offset, end: node.offset + node.length };
}
