import { createScanner } from "jsonc-parser";
import { MAX_NESTING } from "../../server/src/engine/config/parse";
import { Token } from "../../server/src/engine/config/tokens";

/**
 * Offset of the first `{`/`[` token that opens level MAX_NESTING + 1, or -1, as jsonc-parser's own scanner counts
 * the brackets over the whole text: where parseJsonc must stop with its nesting finding (the parser counts the same
 * brackets as it reads, server/src/engine/config/jsoncTree.ts).
 */
export function firstTooDeepOffset(text: string): number {
  const scanner = createScanner(text, true);
  let depth = 0;
  for (let kind = scanner.scan(); kind !== Token.EOF; kind = scanner.scan()) {
    if (kind === Token.OpenBrace || kind === Token.OpenBracket) {
      if (++depth > MAX_NESTING) return scanner.getTokenOffset();
    } else if (kind === Token.CloseBrace || kind === Token.CloseBracket) {
      depth = Math.max(0, depth - 1);
    }
  }
  return -1;
}
