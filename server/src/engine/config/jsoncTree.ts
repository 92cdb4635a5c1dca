import { createScanner, type JSONScanner, type Node, type NodeType, type ParseError, type ParseErrorCode, type ParseOptions } from "jsonc-parser";
import { Token } from "./tokens";

/**
 * jsonc-parser's `parseTree`, rebuilt as a recursive-descent parser over jsonc-parser's own scanner (as VS Code's
 * JSON language service does). `parseTree` runs on the callback `visit`or: a closure call per event, a JSON path
 * kept up to date for callbacks nobody passes, a whitespace token (built character by character) per indentation.
 * This builds the same `Node`s directly.
 *
 * The contract is parseTree's, exactly: for every text, valid or not, the same tree (type, offset, length,
 * colonOffset, value, children, parent links, root without `parent`) and the same errors in the same order. Every
 * branch below mirrors one in jsonc-parser 3.3.1's `visit` (lib/esm/impl/parser.js); the comments name them.
 * test/engine/jsoncTree.test.ts compares the two on every config in the repository and on generated broken input.
 *
 * Recursion is one level per `{`/`[`: callers bound the nesting first (parse.ts, `firstTooDeepOffset`).
 */

/** jsonc-parser's `ParseErrorCode` values (a `const enum` in its types, which isolated builds cannot inline). */
const Err = {
  InvalidSymbol: 1 as ParseErrorCode,
  InvalidNumberFormat: 2 as ParseErrorCode,
  PropertyNameExpected: 3 as ParseErrorCode,
  ValueExpected: 4 as ParseErrorCode,
  ColonExpected: 5 as ParseErrorCode,
  CommaExpected: 6 as ParseErrorCode,
  CloseBraceExpected: 7 as ParseErrorCode,
  CloseBracketExpected: 8 as ParseErrorCode,
  EndOfFileExpected: 9 as ParseErrorCode,
  InvalidCommentToken: 10 as ParseErrorCode,
  UnexpectedEndOfComment: 11 as ParseErrorCode,
  UnexpectedEndOfString: 12 as ParseErrorCode,
  UnexpectedEndOfNumber: 13 as ParseErrorCode,
  InvalidUnicode: 14 as ParseErrorCode,
  InvalidEscapeCharacter: 15 as ParseErrorCode,
  InvalidCharacter: 16 as ParseErrorCode,
} as const;

/** jsonc-parser's `Node` while it is built (its declaration is read-only; lengths and colons are set late). */
interface TreeNode {
  type: NodeType;
  value?: string | number | boolean | null;
  offset: number;
  length: number;
  colonOffset?: number;
  parent?: TreeNode;
  children?: TreeNode[];
}

/** jsonc-parser's `ScanError` → the `ParseErrorCode` `visit` reports for it (index = ScanError value). */
const SCAN_ERROR_CODE: readonly (ParseErrorCode | 0)[] = [
  0, // None
  Err.UnexpectedEndOfComment,
  Err.UnexpectedEndOfString,
  Err.UnexpectedEndOfNumber,
  Err.InvalidUnicode,
  Err.InvalidEscapeCharacter,
  Err.InvalidCharacter,
];

/**
 * One parse's state. A class rather than closures: the parse allocates no functions, and V8 sees one shape.
 * `token` is the current significant token (what `_scanner.getToken()` is whenever `visit` looks at it).
 */
class TreeParser {
  private readonly scanner: JSONScanner;
  private token: number = Token.EOF;

  constructor(
    private readonly text: string,
    private readonly errors: ParseError[],
    private readonly allowTrailingComma: boolean,
    private readonly disallowComments: boolean,
  ) {
    this.scanner = createScanner(text, false);
  }

  /** `handleError` without skipping: the error covers the scanner's current token. */
  private error(code: ParseErrorCode): void {
    this.errors.push({ error: code, offset: this.scanner.getTokenOffset(), length: this.scanner.getTokenLength() });
  }

  /**
   * visit's `scanNext`: the next token that is not trivia, a comment or an unknown symbol, reporting the scanner's
   * errors and the unknown symbols on the way. Spaces, tabs and line breaks are stepped over here rather than by
   * the scanner, which would build each run's text a character at a time; they never carry an error, so nothing
   * observable changes.
   */
  private next(): number {
    const scanner = this.scanner;
    const text = this.text;
    for (;;) {
      let pos = scanner.getPosition();
      let c = text.charCodeAt(pos);
      if (c === 32 || c === 9 || c === 10 || c === 13) {
        do c = text.charCodeAt(++pos);
        while (c === 32 || c === 9 || c === 10 || c === 13);
        scanner.setPosition(pos);
      }
      const token = scanner.scan();
      const scanError = scanner.getTokenError();
      if (scanError !== 0) {
        const code = SCAN_ERROR_CODE[scanError];
        // visit reports an unclosed comment only when comments are allowed (otherwise the comment itself is the error).
        if (code && !(code === Err.UnexpectedEndOfComment && this.disallowComments)) this.error(code);
      }
      switch (token) {
        case Token.LineComment:
        case Token.BlockComment:
          if (this.disallowComments) this.error(Err.InvalidCommentToken);
          break;
        case Token.Unknown:
          this.error(Err.InvalidSymbol);
          break;
        case Token.Trivia:
        case Token.LineBreak:
          break;
        default:
          return (this.token = token);
      }
    }
  }

  /** handleError's skip to the first `a` or `b` (left current) or the end. */
  private skipUntil(a: number, b: number): void {
    let token = this.token;
    while (token !== Token.EOF && token !== a && token !== b) token = this.next();
  }

  /** handleError's skip past the first `a`, or to the end. */
  private skipUntilAfter(a: number): void {
    let token = this.token;
    while (token !== Token.EOF) {
      if (token === a) {
        this.next();
        return;
      }
      token = this.next();
    }
  }

  /**
   * visit's `parseValue` (with `parseString(true)`, `parseLiteral`): the value's node is added to `parent`'s
   * children. Returns where the value ends, which is where parseTree completes the property holding it (a literal's
   * token end; a container's closing token end, or the end-of-file token's when it is not closed), or -1 when the
   * current token starts no value (nothing consumed, nothing added).
   */
  parseValue(parent: TreeNode): number {
    const scanner = this.scanner;
    let type: "string" | "number" | "boolean" | "null";
    let value: string | number | boolean | null;
    switch (this.token) {
      case Token.OpenBracket:
        return this.parseArray(parent);
      case Token.OpenBrace:
        return this.parseObject(parent);
      case Token.String:
        type = "string";
        value = scanner.getTokenValue();
        break;
      case Token.Number: {
        type = "number";
        value = Number(scanner.getTokenValue());
        if (isNaN(value)) {
          this.error(Err.InvalidNumberFormat);
          value = 0;
        }
        break;
      }
      case Token.Null:
        type = "null";
        value = null;
        break;
      case Token.True:
        type = "boolean";
        value = true;
        break;
      case Token.False:
        type = "boolean";
        value = false;
        break;
      default:
        return -1;
    }
    const offset = scanner.getTokenOffset();
    const length = scanner.getTokenLength();
    // Keys in parseTree's order (onLiteralValue), so the nodes share its hidden class and print the same.
    parent.children!.push({ type, offset, length, parent, value });
    this.next();
    return offset + length;
  }

  /**
   * visit's `parseProperty`. Returns the property node when parseTree leaves it open (no colon, or no value after
   * it: the enclosing object completes it at the next `,` or at its own end), `null` when it is complete, and
   * `undefined` when the current token is not a property name (no property is added).
   */
  private parseProperty(object: TreeNode): TreeNode | null | undefined {
    const scanner = this.scanner;
    if (this.token !== Token.String) {
      this.error(Err.PropertyNameExpected);
      this.skipUntil(Token.CloseBrace, Token.Comma);
      return undefined;
    }
    const offset = scanner.getTokenOffset();
    const property: TreeNode = { type: "property", offset, length: -1, parent: object, children: [] };
    object.children!.push(property);
    property.children!.push({ type: "string", value: scanner.getTokenValue(), offset, length: scanner.getTokenLength(), parent: property });
    if (this.next() !== Token.Colon) {
      this.error(Err.ColonExpected);
      this.skipUntil(Token.CloseBrace, Token.Comma);
      return property;
    }
    property.colonOffset = scanner.getTokenOffset();
    this.next(); // the colon
    const end = this.parseValue(property);
    if (end < 0) {
      this.error(Err.ValueExpected);
      this.skipUntil(Token.CloseBrace, Token.Comma);
      return property;
    }
    property.length = end - offset;
    return null;
  }

  /** visit's `parseObject`; returns where parseTree ends the object (see parseValue). */
  private parseObject(parent: TreeNode): number {
    const scanner = this.scanner;
    const object: TreeNode = { type: "object", offset: scanner.getTokenOffset(), length: -1, parent, children: [] };
    parent.children!.push(object);
    let token = this.next(); // the open brace
    let needsComma = false;
    let open: TreeNode | null | undefined = null; // a property parseTree has not completed yet
    while (token !== Token.CloseBrace && token !== Token.EOF) {
      if (token === Token.Comma) {
        if (!needsComma) this.error(Err.ValueExpected);
        // onSeparator(","): an open property ends where the comma starts.
        if (open) open.length = scanner.getTokenOffset() - open.offset;
        open = null;
        if (this.next() === Token.CloseBrace && this.allowTrailingComma) break;
      } else if (needsComma) {
        this.error(Err.CommaExpected);
      }
      open = this.parseProperty(object);
      if (open === undefined) {
        this.error(Err.ValueExpected);
        this.skipUntil(Token.CloseBrace, Token.Comma);
      }
      needsComma = true;
      token = this.token;
    }
    // onObjectEnd: the current token (`}` or the end of file) closes an open property and the object.
    const end = scanner.getTokenOffset() + scanner.getTokenLength();
    if (open) open.length = end - open.offset;
    object.length = end - object.offset;
    if (this.token !== Token.CloseBrace) {
      this.error(Err.CloseBraceExpected);
      this.skipUntilAfter(Token.CloseBrace);
    } else {
      this.next(); // the close brace
    }
    return end;
  }

  /** visit's `parseArray`; returns where parseTree ends the array (see parseValue). */
  private parseArray(parent: TreeNode): number {
    const scanner = this.scanner;
    const array: TreeNode = { type: "array", offset: scanner.getTokenOffset(), length: -1, parent, children: [] };
    parent.children!.push(array);
    let token = this.next(); // the open bracket
    let needsComma = false;
    while (token !== Token.CloseBracket && token !== Token.EOF) {
      if (token === Token.Comma) {
        if (!needsComma) this.error(Err.ValueExpected);
        if (this.next() === Token.CloseBracket && this.allowTrailingComma) break;
      } else if (needsComma) {
        this.error(Err.CommaExpected);
      }
      if (this.parseValue(array) < 0) {
        this.error(Err.ValueExpected);
        this.skipUntil(Token.CloseBracket, Token.Comma);
      }
      needsComma = true;
      token = this.token;
    }
    const end = scanner.getTokenOffset() + scanner.getTokenLength();
    array.length = end - array.offset;
    if (this.token !== Token.CloseBracket) {
      this.error(Err.CloseBracketExpected);
      this.skipUntilAfter(Token.CloseBracket);
    } else {
      this.next(); // the close bracket
    }
    return end;
  }

  /** visit's top level, then parseTree's result: the one value under an artificial root, detached from it. */
  parseDocument(allowEmptyContent: boolean): TreeNode | undefined {
    if (this.next() === Token.EOF) {
      if (!allowEmptyContent) this.error(Err.ValueExpected);
      return undefined;
    }
    const root: TreeNode = { type: "array", offset: -1, length: -1, children: [], parent: undefined };
    if (this.parseValue(root) < 0) {
      this.error(Err.ValueExpected);
      return undefined;
    }
    if (this.token !== Token.EOF) this.error(Err.EndOfFileExpected);
    const result = root.children![0]!;
    delete result.parent; // parseTree's root has no `parent` key at all
    return result;
  }
}

/**
 * The tree and errors jsonc-parser's `parseTree(text, errors, options)` gives, identical for every input (see the
 * file comment). `options` as parseTree's; parse.ts passes trailing commas, comments and empty content allowed.
 */
export function parseJsoncTree(text: string, errors: ParseError[] = [], options: ParseOptions = {}): Node | undefined {
  // Truthiness, as visit reads its options.
  const parser = new TreeParser(text, errors, !!options.allowTrailingComma, !!options.disallowComments);
  return parser.parseDocument(!!options.allowEmptyContent);
}
