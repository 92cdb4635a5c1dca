import type { Finding, Fix } from "./diagnostics";
import { applyEdits } from "./fixes";

/**
 * Fixes that add to the config or copy part of it elsewhere (rules, a backend, a renamed key's value): what they
 * bring can clash with the rest of the file (a copied backend with a schema error of its own, deny rules on an agent
 * whose backend executes shell commands, a pattern outside the composite's routes). Each is verified by checking the
 * fixed text; one that would break the file or add an error is not offered. (The property test of every fix,
 * test/fixes/everyFix.property.test.ts, holds every fix of every check to the same, and more.)
 */
export const VERIFIED_FIX_CODES: ReadonlySet<string> = new Set([
  "subagent-escalation",
  "middleware-drops-backend",
  "middleware-drops-permissions",
  "dot-segment-bypass",
  "dotfiles-unprotected",
  "schema",
  "tool-unknown",
  "paths-not-list",
]);

/**
 * `findings` without the fixes of VERIFIED_FIX_CODES that fail on the fixed text (`recheck`: the checks without the
 * exact analysis, whose findings no such fix can make worse than the property test allows): a JSON syntax error
 * where there was none, or more errors than before (of any code, for a fix of a finding below error level; in all,
 * for a fix of an error, which may leave another error in its place, as a renamed key whose value is now checked).
 */
export function withdrawFailingFixes(text: string, findings: Finding[], recheck: (text: string) => readonly Finding[]): Finding[] {
  if (!findings.some((f) => VERIFIED_FIX_CODES.has(f.code) && f.fixes?.some((x) => !x.safe))) return findings;
  // Each verification checks the whole text again: a file with thousands of such fixes (10,000 subagents) would
  // take hours. Past VERIFY_BUDGET characters checked, the fixes not verified are not offered (in file order, so
  // the same ones every time); once the first are applied, the next check verifies the next ones.
  let budget = Math.floor(VERIFY_BUDGET / Math.max(1, text.length)) - 1;
  if (budget < 1 || text.length > VERIFIED_TEXT_MAX) return findings.map((f) => withoutUnsafe(f));
  const before = errorCounts(recheck(text));
  const verdicts = new Map<string, boolean>();
  const holds = (finding: Finding, fix: Fix): boolean => {
    const fixed = applyEdits(text, fix.edits);
    const key = `${finding.severity === "error" ? "e" : "w"}${fixed}`;
    let ok: boolean | undefined = verdicts.get(key);
    if (ok === undefined && budget-- <= 0) return false;
    if (ok === undefined) {
      const after = errorCounts(recheck(fixed));
      ok = (after.get("json-syntax") ?? 0) <= (before.get("json-syntax") ?? 0)
        && (finding.severity === "error" ? (after.get("") ?? 0) <= (before.get("") ?? 0) : [...after].every(([code, n]) => code === "" || n <= (before.get(code) ?? 0)));
      verdicts.set(key, ok);
    }
    return ok;
  };
  return findings.map((f) => withoutUnsafe(f, (x) => holds(f, x)));
}

/**
 * Past this size a file's fixes of VERIFIED_FIX_CODES are not verified, and not offered: one check of a config of
 * 10,000 subagents (800 kB) takes seconds.
 */
const VERIFIED_TEXT_MAX = 250_000;

/** How many characters of checked text verifying one file's fixes may take (20 checks of a 100 kB file). */
const VERIFY_BUDGET = 2_000_000;

/** The finding with only the fixes that are safe or pass `keep` (none pass without it), when it is one to verify. */
function withoutUnsafe(f: Finding, keep: (fix: Fix) => boolean = () => false): Finding {
  if (!VERIFIED_FIX_CODES.has(f.code) || !f.fixes?.some((x) => !x.safe)) return f;
  const fixes = f.fixes.filter((x) => x.safe || keep(x));
  if (fixes.length === f.fixes.length) return f;
  const { fixes: _dropped, ...rest } = f;
  return fixes.length > 0 ? { ...rest, fixes } : rest;
}

/** Errors per code, and in all (under ""), with JSON syntax errors counted whatever their level. */
function errorCounts(findings: readonly Finding[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const f of findings) {
    if (f.severity !== "error" && f.code !== "json-syntax") continue;
    counts.set(f.code, (counts.get(f.code) ?? 0) + 1);
    counts.set("", (counts.get("") ?? 0) + 1);
  }
  return counts;
}
