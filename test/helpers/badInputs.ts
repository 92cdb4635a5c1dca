/**
 * The bad inputs of issue #2 ("Bad input: a 10 MB file, 10,000-deep nesting, binary bytes, a brace pattern that
 * expands to millions of alternatives, a 100,000-character pattern: each gets a clear diagnostic in under a
 * second"), one definition for the two places that use them: test/engine/badInput.test.ts (what the answer says)
 * and bench/badInput.ts (how long the CLI takes to give it, `npm run bench` section 7).
 */

export interface BadInput {
  /** What it is, in the words. */
  readonly name: string;
  /** The whole file. */
  readonly text: () => string | Uint8Array;
  /**
   * The clear answer: a diagnostic of `code` whose message (or its detail) matches `message`, or, where the runtime is right to
   * accept the input, the "not analysed" note (`skipped`) whose reason matches it.
   */
  readonly expect: { readonly code: string; readonly message: RegExp } | { readonly skipped: RegExp };
}

/** A rule list of one deny rule with `pattern`, in `runtime`. */
function onePattern(runtime: "deepagents-js" | "deepagents-py", pattern: string): string {
  return JSON.stringify({ version: 1, runtime, permissions: [{ operations: ["read"], paths: [pattern], mode: "deny" }] });
}

/**
 * `{1..1000000}` then twenty `{a,b}`: 10 × 10⁶ × 2²⁰ alternatives once expanded. deepagents-py's wcmatch expands
 * braces and gives up past 1,000 patterns; deepagents-js's picomatch does not expand them, and reads the numeric
 * range as a one-character class.
 */
export const BRACE_BOMB = `/data/{a,b,c,d,e,f,g,h,i,j}{1..1000000}${"{a,b}".repeat(20)}`;
/** 100,003 characters: over picomatch's 65,536-character limit. */
export const LONG_PATTERN = `/${"ab*".repeat(33_334)}`;

export const BAD_INPUTS: readonly BadInput[] = [
  {
    name: "a 10 MB file",
    text: () => `{"version": 1, "name": "${"x".repeat(10 * 1024 * 1024)}"}`,
    expect: { code: "json-syntax", message: /10\.0 MB: files over 4 MB are not analysed/ },
  },
  {
    name: "10,000-deep nesting",
    text: () => `{"version": 1, "x": ${"[".repeat(10_000)}${"]".repeat(10_000)}}`,
    expect: { code: "json-syntax", message: /Nesting deeper than 128 levels/ },
  },
  {
    name: "binary bytes",
    text: () => Uint8Array.from([...Buffer.from('{"version": 1}'), 0, 1, 0xff, 0xfe, 7, ...Buffer.from(" garbage")]),
    expect: { code: "json-syntax", message: /binary data/ },
  },
  {
    name: "a brace pattern of millions of alternatives, deepagents-js",
    text: () => onePattern("deepagents-js", BRACE_BOMB),
    expect: { code: "pattern-never-matches", message: /does not expand the brace range "\{1\.\.1000000\}"/ },
  },
  {
    name: "a brace pattern of millions of alternatives, deepagents-py",
    text: () => onePattern("deepagents-py", BRACE_BOMB),
    expect: { code: "pattern-too-complex", message: /Pattern limit exceeded the limit of 1000/ },
  },
  {
    name: "a 100,000-character pattern, deepagents-js",
    text: () => onePattern("deepagents-js", LONG_PATTERN),
    expect: { code: "pattern-too-complex", message: /exceeds maximum allowed length: 65536/ },
  },
  {
    // wcmatch has no length limit and Python's `re` compiles the pattern: deepagents-py uses it as written, so
    // there is nothing to report, and the exact analysis says it did not read it.
    name: "a 100,000-character pattern, deepagents-py",
    text: () => onePattern("deepagents-py", LONG_PATTERN),
    expect: { skipped: /\(100,003 characters\) was not analysed/ },
  },
];
