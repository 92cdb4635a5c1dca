import assert from "node:assert/strict";
import { checkConfigText, type CheckOptions } from "../../server/src/engine/checkConfig";
import type { Edit, Finding } from "../../server/src/engine/diagnostics";
import { marked } from "./markers";
import { STYLE_EXEMPT_CODES, styleProblems } from "./messageStyle";

export { marked } from "./markers";

/**
 * Small fixtures for check tests: a config text in, the findings of one code out, a fix applied and the text
 * checked again. `⟦` and `⟧` in a fixture mark the range a finding must have (they are removed before checking).
 */
export function findings(text: string, code?: string, options?: CheckOptions): Finding[] {
  // Tests run every check, the exact analysis included.
  const all = checkConfigText(text, { analysis: true, ...options }).findings;
  // Every finding any check test meets is held to the message style (messageStyle.ts).
  assert.deepEqual(all.filter((f) => !STYLE_EXEMPT_CODES.has(f.code)).flatMap(styleProblems), []);
  return code ? all.filter((f) => f.code === code) : all;
}

/** Asserts that `code` fires exactly on the marked ranges of the fixture, and returns those findings. */
export function expectFindings(fixture: string, code: string, options?: CheckOptions): Finding[] {
  const { text, ranges: spans } = marked(fixture);
  const found = findings(text, code, options);
  assert.deepEqual(
    found.map((f) => text.slice(f.span.start, f.span.end)),
    spans.map((s) => text.slice(s.start, s.end)),
    `${code}: found ${JSON.stringify(found.map((f) => f.message))}`,
  );
  assert.deepEqual(found.map((f) => f.span), spans);
  return found;
}

export function expectNoFindings(text: string, code: string, options?: CheckOptions): void {
  const found = findings(text, code, options);
  assert.deepEqual(found.map((f) => f.message), [], `${code} should not fire`);
}

export function applyEdits(text: string, edits: readonly Edit[]): string {
  const sorted = [...edits].sort((a, b) => b.span.start - a.span.start);
  let out = text;
  for (const e of sorted) out = out.slice(0, e.span.start) + e.newText + out.slice(e.span.end);
  return out;
}

/** Applies the finding's fix number `index` and returns the new text. */
export function applyFix(text: string, finding: Finding, index = 0): string {
  const fix = finding.fixes?.[index];
  assert.ok(fix, `${finding.code} has no fix #${index}`);
  return applyEdits(text, fix.edits);
}

/** A minimal valid config with the given top-level JSONC members (a string of `"key": value` pairs). */
export function config(members: string): string {
  return `{\n  "version": 1,\n  ${members}\n}\n`;
}
