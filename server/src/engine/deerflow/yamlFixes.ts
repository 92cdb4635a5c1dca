/**
 * The YAML front end's fixes are rendered as the checks report them (yamlFrontEnd.ts); each rendered fix is then
 * verified by checking its result (`FixVerifier`), as fixVerification.ts does for the JSONC fixes: YAML's layout
 * rules are subtler than JSONC's, and a fix whose text would not read back as the change meant is not offered.
 */
import type { Finding, Fix } from "../diagnostics";
import { applyEdits } from "../fixes";

/**
 * Whether a rendered fix holds: its text parses with no more YAML errors than before and, checked again, has no
 * more errors than before (of any code, for the fix of a warning; in all, for the fix of an error). `findings` are
 * the text's own (its errors before); `recheck` checks a text without fixes. `budget`: how many checks it may run
 * (`undefined`: as many as asked for); a fix past it does not hold.
 */
export class FixVerifier {
  private readonly before: Map<string, number>;
  private readonly verdicts = new Map<string, boolean>();

  constructor(
    private readonly text: string,
    findings: readonly Finding[],
    private readonly recheck: (text: string) => readonly Finding[],
    private budget = Infinity,
  ) {
    this.before = errorCounts(findings);
  }

  holds(finding: Finding, fix: Fix): boolean {
    const fixed = applyEdits(this.text, fix.edits);
    if (fixed === this.text) return false;
    const key = `${finding.severity === "error" ? "e" : "w"}${fixed}`;
    const known = this.verdicts.get(key);
    if (known !== undefined) return known;
    if (this.budget-- <= 0) return false;
    const before = this.before;
    const after = errorCounts(this.recheck(fixed));
    const ok =
      (after.get("yaml-syntax") ?? 0) <= (before.get("yaml-syntax") ?? 0) &&
      (finding.severity === "error" ? (after.get("") ?? 0) <= (before.get("") ?? 0) : [...after].every(([code, n]) => code === "" || n <= (before.get(code) ?? 0)));
    this.verdicts.set(key, ok);
    return ok;
  }
}

/**
 * The findings with each fix kept only when it holds (FixVerifier), within a budget of checks: a fix past it is
 * not offered. A host that verifies the few it offers when asked (the editor's quick fixes: a check at every pause
 * in typing cannot afford a check per fix) does not call this.
 */
export function withVerifiedYamlFixes(text: string, findings: readonly Finding[], recheck: (text: string) => readonly Finding[]): Finding[] {
  const budget = text.length > VERIFIED_TEXT_MAX ? 0 : Math.floor(VERIFY_BUDGET / Math.max(1, text.length));
  const verifier = new FixVerifier(text, findings, recheck, budget);
  return findings.map((finding) => (finding.fixes?.length ? { ...finding, fixes: finding.fixes.filter((fix) => verifier.holds(finding, fix)) } : finding));
}

/**
 * Past this size a YAML file's fixes are not verified, and not offered: reading YAML costs some ten times what
 * reading JSONC does, and a check runs at every pause in typing.
 */
const VERIFIED_TEXT_MAX = 100_000;
/** How many characters of checked text verifying one file's fixes may take (some twenty checks of a 10 kB config.yaml). */
const VERIFY_BUDGET = 200_000;

function errorCounts(findings: readonly Finding[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const f of findings) {
    if (f.severity !== "error" && f.code !== "yaml-syntax") continue;
    counts.set(f.code, (counts.get(f.code) ?? 0) + 1);
    counts.set("", (counts.get("") ?? 0) + 1);
  }
  return counts;
}
