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
 * Nesting is bounded (`maxDepth`), two ways, and past either the parse stops with `NestingTooDeep`:
 * - the brackets' depth: `{`/`[` tokens minus `}`/`]` tokens, over the whole text (as jsonc-parser's scanner counts them,
 *   counted here as the tokens go by; test/helpers/nesting.ts is the reference);
 * - the parser's: recursion is one level per object or array the parser enters, and it can enter more than the
 *   brackets nest: in `[},[},[},…` each `}` is skipped as an error inside the open array and the `,` lets the next
 *   `[` open one inside it, so the brackets' depth stays at 1 while parseTree recurses until the stack overflows.
 *
 * Why not parseTree itself, measured (`node --expose-gc --import tsx bench/libraries.ts`: CPU time, interleaved,
 * medians of 11 rounds, the benchmark's configs of 10, 100 and 1,000 rules, load average 25 on 2 cores):
 * - in its place parseTree needs a guard, since its recursion has no bound: a pass of its scanner counting the
 *   brackets (which still misses `[},[},…`). parseTree with that guard takes 3.0, 2.8 and 2.6 times this parser's
 *   time (0.16 / 0.05 ms, 0.72 / 0.26 ms, 5.2 / 2.0 ms); parseTree alone 1.9 to 2.2 times;
 * - what the user waits for, the editor's diagnostics (`checkConfigText` without the exact analysis), would take
 *   1.07, 1.18 and 1.35 times as long with the guarded parseTree (1.03 to 1.27 with parseTree alone).
 * So the speed alone is not a 2× on what a user feels; the file is kept because it is the parse with a bound on
 * its recursion (bad input must not crash the server), and made that way it is more than 2× faster than the library.
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

/** Thrown when objects and arrays nest deeper than parseJsoncTree's `maxDepth`, at the `{`/`[` that is one too deep. */
export class NestingTooDeep extends Error {
  constructor(readonly offset: number) {
    super(`JSONC nesting too deep at offset ${offset}`);
    this.name = "NestingTooDeep";
  }
}

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

/** A string's characters that are its value as they are: no quote, backslash or control character (sticky: from `lastIndex`). */
const STRING_BODY = /[^"\\\u0000-\u001f]*/y;

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
 * `token` is the current significant token (what `_scanner.getToken()` is whenever `visit` looks at it), from
 * `tokenOffset` for `tokenLength` characters (the scanner's getTokenOffset/getTokenLength), and `value` is the
 * scanner's getTokenValue for a string or number token.
 */
class TreeParser {
  private readonly scanner: JSONScanner;
  private readonly length: number;
  /** Where the next token starts (the scanner's position; past the text's end after an unclosed `/*` at the end). */
  private pos = 0;
  private token: number = Token.EOF;
  private tokenOffset = 0;
  private tokenLength = 0;
  private value = "";
  /**
   * The finished children of the objects and arrays being parsed, innermost last: each container's become one
   * array of their exact size at its end. (parseTree pushes onto each node's own array, and V8 gives an array 17
   * slots at its first push: most arrays here hold one or two nodes, and the tree lives through the whole check.)
   */
  private readonly pending: TreeNode[] = [];
  /** Objects and arrays the parser has open around the current token. */
  private depth = 0;
  /**
   * `{`/`[` tokens read so far minus `}`/`]` tokens (never below 0), wherever they are: in a value, skipped after an
   * error, or after the top-level value. What jsonc-parser's scanner counts, token for token (test/helpers/nesting.ts).
   */
  private bracketDepth = 0;

  constructor(
    private readonly text: string,
    private errors: ParseError[],
    private readonly allowTrailingComma: boolean,
    private readonly disallowComments: boolean,
    private readonly maxDepth: number,
  ) {
    this.scanner = createScanner(text, false);
    this.length = text.length;
  }

  /** `handleError` without skipping: the error covers the current token. */
  private error(code: ParseErrorCode): void {
    this.errors.push({ error: code, offset: this.tokenOffset, length: this.tokenLength });
  }

  /**
   * visit's `scanNext`: the next token that is not trivia, a comment or an unknown symbol, reporting the scanner's
   * errors and the unknown symbols on the way.
   *
   * The tokens a config is mostly made of are read here, because the scanner's answer for them is plain and its
   * way to it is not cheap: spaces, tabs and line breaks (the scanner builds each run's text a character at a time),
   * the six punctuation characters, and a string with no backslash and no control character before its closing
   * quote (its value is its text). Everything else (numbers, words, comments, strings with escapes or unclosed)
   * goes to jsonc-parser's scanner from the token's first character, errors included.
   */
  private next(): number {
    const text = this.text;
    const length = this.length;
    let pos = this.pos;
    for (;;) {
      let c = text.charCodeAt(pos);
      while (c === 32 || c === 9 || c === 10 || c === 13) c = text.charCodeAt(++pos);
      if (pos >= length) {
        // The scanner's end-of-file token: at the text's end, as long as its position is past it.
        this.pos = pos;
        this.tokenOffset = length;
        this.tokenLength = pos - length;
        return (this.token = Token.EOF);
      }
      this.tokenOffset = pos;
      let single = 0;
      switch (c) {
        case 123 /* { */:
          if (++this.bracketDepth > this.maxDepth) throw new NestingTooDeep(pos);
          single = Token.OpenBrace;
          break;
        case 125 /* } */:
          if (this.bracketDepth > 0) this.bracketDepth--;
          single = Token.CloseBrace;
          break;
        case 91 /* [ */:
          if (++this.bracketDepth > this.maxDepth) throw new NestingTooDeep(pos);
          single = Token.OpenBracket;
          break;
        case 93 /* ] */:
          if (this.bracketDepth > 0) this.bracketDepth--;
          single = Token.CloseBracket;
          break;
        case 58 /* : */:
          single = Token.Colon;
          break;
        case 44 /* , */:
          single = Token.Comma;
          break;
        case 34 /* " */: {
          // Up to the first quote, backslash or control character (or the end), as machine code: a config is mostly
          // strings, and a short CLI run would interpret a loop over their characters.
          STRING_BODY.lastIndex = pos + 1;
          STRING_BODY.test(text);
          const end = STRING_BODY.lastIndex;
          if (text.charCodeAt(end) === 34) {
            this.value = text.slice(pos + 1, end);
            this.pos = end + 1;
            this.tokenLength = end + 1 - pos;
            return (this.token = Token.String);
          }
          break;
        }
      }
      if (single !== 0) {
        this.pos = pos + 1;
        this.tokenLength = 1;
        return (this.token = single);
      }
      const scanner = this.scanner;
      scanner.setPosition(pos);
      const token = scanner.scan();
      pos = scanner.getPosition();
      this.tokenLength = pos - this.tokenOffset;
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
          this.pos = pos;
          if (token === Token.String || token === Token.Number) this.value = scanner.getTokenValue();
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
   * visit's `parseValue` (with `parseString(true)`, `parseLiteral`): the value's node, with `parent` as its parent
   * (the caller adds it to the children), or `undefined` when the current token starts no value (nothing consumed).
   * The node ends (`offset + length`) where parseTree completes the property holding it: a literal's token end; a
   * container's closing token end, or the end-of-file token's when it is not closed.
   */
  private parseValue(parent: TreeNode): TreeNode | undefined {
    let type: "string" | "number" | "boolean" | "null";
    let value: string | number | boolean | null;
    switch (this.token) {
      case Token.OpenBracket:
        return this.parseArray(parent);
      case Token.OpenBrace:
        return this.parseObject(parent);
      case Token.String:
        type = "string";
        value = this.value;
        break;
      case Token.Number: {
        type = "number";
        value = Number(this.value);
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
        return undefined;
    }
    // Keys in parseTree's order (onLiteralValue), so the nodes share its hidden class and print the same.
    const node: TreeNode = { type, offset: this.tokenOffset, length: this.tokenLength, parent, value };
    this.next();
    return node;
  }

  /**
   * visit's `parseProperty`, the property pushed on `pending`. Returns the property when parseTree leaves it open
   * (no colon, or no value after it: the enclosing object completes it at the next `,` or at its own end), `null`
   * when it is complete, and `undefined` when the current token is not a property name (no property is added).
   */
  private parseProperty(object: TreeNode): TreeNode | null | undefined {
    if (this.token !== Token.String) {
      this.error(Err.PropertyNameExpected);
      this.skipUntil(Token.CloseBrace, Token.Comma);
      return undefined;
    }
    const offset = this.tokenOffset;
    const property: TreeNode = { type: "property", offset, length: -1, parent: object, children: undefined };
    this.pending.push(property);
    const key: TreeNode = { type: "string", value: this.value, offset, length: this.tokenLength, parent: property };
    if (this.next() !== Token.Colon) {
      this.error(Err.ColonExpected);
      this.skipUntil(Token.CloseBrace, Token.Comma);
      property.children = [key];
      return property;
    }
    property.colonOffset = this.tokenOffset;
    this.next(); // the colon
    const value = this.parseValue(property);
    if (value === undefined) {
      this.error(Err.ValueExpected);
      this.skipUntil(Token.CloseBrace, Token.Comma);
      property.children = [key];
      return property;
    }
    property.children = [key, value];
    property.length = value.offset + value.length - offset;
    return null;
  }

  /** visit's `parseObject` (see parseValue); its properties are gathered on `pending`. */
  private parseObject(parent: TreeNode): TreeNode {
    if (++this.depth > this.maxDepth) this.parserTooDeep();
    const object: TreeNode = { type: "object", offset: this.tokenOffset, length: -1, parent, children: undefined };
    const pending = this.pending;
    const first = pending.length;
    let token = this.next(); // the open brace
    let needsComma = false;
    let open: TreeNode | null | undefined = null; // a property parseTree has not completed yet
    while (token !== Token.CloseBrace && token !== Token.EOF) {
      if (token === Token.Comma) {
        if (!needsComma) this.error(Err.ValueExpected);
        // onSeparator(","): an open property ends where the comma starts.
        if (open) open.length = this.tokenOffset - open.offset;
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
    this.depth--;
    object.children = pending.slice(first);
    pending.length = first;
    // onObjectEnd: the current token (`}` or the end of file) closes an open property and the object.
    const end = this.tokenOffset + this.tokenLength;
    if (open) open.length = end - open.offset;
    object.length = end - object.offset;
    if (this.token !== Token.CloseBrace) {
      this.error(Err.CloseBraceExpected);
      this.skipUntilAfter(Token.CloseBrace);
    } else {
      this.next(); // the close brace
    }
    return object;
  }

  /** visit's `parseArray` (see parseValue); its items are gathered on `pending`. */
  private parseArray(parent: TreeNode): TreeNode {
    if (++this.depth > this.maxDepth) this.parserTooDeep();
    const array: TreeNode = { type: "array", offset: this.tokenOffset, length: -1, parent, children: undefined };
    const pending = this.pending;
    const first = pending.length;
    let token = this.next(); // the open bracket
    let needsComma = false;
    while (token !== Token.CloseBracket && token !== Token.EOF) {
      if (token === Token.Comma) {
        if (!needsComma) this.error(Err.ValueExpected);
        if (this.next() === Token.CloseBracket && this.allowTrailingComma) break;
      } else if (needsComma) {
        this.error(Err.CommaExpected);
      }
      const item = this.parseValue(array);
      if (item === undefined) {
        this.error(Err.ValueExpected);
        this.skipUntil(Token.CloseBracket, Token.Comma);
      } else {
        pending.push(item);
      }
      needsComma = true;
      token = this.token;
    }
    this.depth--;
    array.children = pending.slice(first);
    pending.length = first;
    const end = this.tokenOffset + this.tokenLength;
    array.length = end - array.offset;
    if (this.token !== Token.CloseBracket) {
      this.error(Err.CloseBracketExpected);
      this.skipUntilAfter(Token.CloseBracket);
    } else {
      this.next(); // the close bracket
    }
    return array;
  }

  /**
   * The parser is about to open one object or array too many, at the current token. Too deep brackets anywhere in
   * the text are the answer first (they are what callers checked before parsing), so the rest is read for them.
   */
  private parserTooDeep(): never {
    const offset = this.tokenOffset;
    this.readToEnd();
    throw new NestingTooDeep(offset);
  }

  /** Reads the remaining tokens for their brackets only (throws NestingTooDeep if they nest too deep). */
  private readToEnd(): void {
    this.errors = []; // what parseTree would not have reported: it stops reading where the parser stops
    while (this.token !== Token.EOF) this.next();
  }

  /** visit's top level, then parseTree's result: the one value under an artificial root, detached from it. */
  parseDocument(allowEmptyContent: boolean): TreeNode | undefined {
    if (this.next() === Token.EOF) {
      if (!allowEmptyContent) this.error(Err.ValueExpected);
      return undefined;
    }
    const root: TreeNode = { type: "array", offset: -1, length: -1, children: [], parent: undefined };
    const result = this.parseValue(root);
    if (result === undefined) {
      this.error(Err.ValueExpected);
      this.readToEnd();
      return undefined;
    }
    if (this.token !== Token.EOF) {
      this.error(Err.EndOfFileExpected);
      this.readToEnd();
    }
    delete result.parent; // parseTree's root has no `parent` key at all
    return result;
  }
}

/**
 * The tree and errors jsonc-parser's `parseTree(text, errors, options)` gives, identical for every input nested at
 * most `maxDepth` deep (see the file comment). Deeper, it throws `NestingTooDeep` at the first `{`/`[` token that
 * is one level too deep in bracket count, anywhere in the text, or if there is none, where the parser would open its
 * (maxDepth + 1)th object or array; errors found before are left in `errors`. `options` as parseTree's; parse.ts
 * passes trailing commas, comments and empty content allowed. The default depth is far beyond any configuration and
 * far within Node's stack.
 */
export function parseJsoncTree(text: string, errors: ParseError[] = [], options: ParseOptions = {}, maxDepth = 1000): Node | undefined {
  // Truthiness, as visit reads its options.
  const parser = new TreeParser(text, errors, !!options.allowTrailingComma, !!options.disallowComments, maxDepth);
  return parser.parseDocument(!!options.allowEmptyContent);
}
