import picomatch from "picomatch";

/**
 * deepagents-js matches with `micromatch.isMatch(path, pattern, { dot: true })` (§2). micromatch 4.0.8 hands that
 * to picomatch 2.3.2: `picomatch(pattern, opts)(path)`, which tries plain string equality first (why `/data/{a,b}`
 * matches the literal path `/data/{a,b}`, G48) and then the compiled regular expression. We compile the same
 * regular expression once with the same options, so the answer is bit-for-bit the runtime's.
 */
const PICOMATCH_OPTIONS = { dot: true, windows: false } as const;

/** picomatch refuses patterns longer than this (`Input length: N, exceeds maximum allowed length: 65536`). */
export const PICOMATCH_MAX_LENGTH = 65536;

export interface CompiledJsGlob {
  readonly pattern: string;
  /** The regular expression picomatch builds; `undefined` when picomatch throws for this pattern. */
  readonly regex: RegExp | undefined;
  /** The error micromatch would throw at call time, word for word. */
  readonly error: string | undefined;
  matches(path: string): boolean;
}

export function compileJsGlob(pattern: string): CompiledJsGlob {
  let regex: RegExp | undefined;
  let error: string | undefined;
  try {
    regex = picomatch.makeRe(pattern, PICOMATCH_OPTIONS as picomatch.PicomatchOptions);
  } catch (e) {
    error = (e as Error).message;
  }
  const compiled = regex;
  return {
    pattern,
    regex,
    error,
    matches: compiled
      ? (path: string) => path === pattern || compiled.test(path)
      : () => false,
  };
}

/** `micromatch.isMatch` semantics for one call; used where a single answer is needed (tests, explain). */
export function jsGlobMatch(path: string, pattern: string): boolean {
  return compileJsGlob(pattern).matches(path);
}
