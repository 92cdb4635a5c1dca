/** jsonc-parser's `SyntaxKind` values. The package declares them as a `const enum`, which isolated builds cannot inline. */
export const Token = {
  OpenBrace: 1,
  CloseBrace: 2,
  OpenBracket: 3,
  CloseBracket: 4,
  LineComment: 12,
  BlockComment: 13,
  LineBreak: 14,
  Trivia: 15,
  EOF: 17,
} as const;
