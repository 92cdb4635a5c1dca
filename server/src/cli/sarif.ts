import { isAbsolute } from "node:path";
import { pathToFileURL } from "node:url";
import type { DiagnosticJson } from "../engine/output";

const LEVEL = { error: "error", warning: "warning", information: "note", hint: "note" } as const;

/** SARIF 2.1.0 for code-scanning services. Regions are 1-based; columns count UTF-16 units like LSP. */
export function toSarif(files: { path: string; diagnostics: DiagnosticJson[]; error?: string }[], version: string, docsBase: string): object {
  const ruleIds = [...new Set(files.flatMap((f) => f.diagnostics.map((d) => d.code)))].sort();
  // A file that could not be read or written is the run's failure, not a result: SARIF's place for it is the
  // invocation's notifications (SARIF 2.1.0, section 3.20.21), with `executionSuccessful` false.
  const failures = files.filter((f) => f.error !== undefined);
  return {
    $schema: "https://json.schemastore.org/sarif-2.1.0.json",
    version: "2.1.0",
    runs: [
      {
        tool: {
          driver: {
            name: "agent-sandbox",
            version,
            informationUri: docsBase,
            rules: ruleIds.map((id) => ({ id, helpUri: `${docsBase}/checks/${id}.md` })),
          },
        },
        columnKind: "utf16CodeUnits",
        ...(failures.length > 0
          ? {
              invocations: [
                {
                  executionSuccessful: false,
                  toolExecutionNotifications: failures.map((f) => ({
                    level: "error",
                    message: { text: `${f.path}: ${f.error}` },
                    locations: [{ physicalLocation: { artifactLocation: { uri: artifactUri(f.path) } } }],
                  })),
                },
              ],
            }
          : {}),
        results: files.flatMap((file) => {
          const uri = artifactUri(file.path);
          return file.diagnostics.map((d) => ({
            ruleId: d.code,
            ruleIndex: ruleIds.indexOf(d.code),
            level: LEVEL[d.severity],
            message: { text: resultText(d) },
            locations: [{ physicalLocation: { artifactLocation: { uri }, region: region(d.range) } }],
            ...(d.related?.length
              ? { relatedLocations: d.related.map((r, i) => ({ id: i, message: { text: r.message }, physicalLocation: { artifactLocation: { uri }, region: region(r.range) } })) }
              : {}),
          }));
        }),
      },
    ],
  };
}

/**
 * A result's `message.text`: the short message, then its detail and the witness. SARIF has no second text field
 * on a result that viewers show (GitHub code scanning shows `message.text` and nothing of `properties`), and its
 * own guidance for plain-text messages is this shape: a first sentence that stands alone as the summary (a viewer
 * may show only that), then the sentences that explain it.
 */
function resultText(d: DiagnosticJson): string {
  const text = d.detail !== undefined ? `${d.message} ${d.detail}` : d.message;
  return d.witness !== undefined ? `${text} (witness: ${d.witness})` : text;
}

function region(range: DiagnosticJson["range"]) {
  return { startLine: range.start.line + 1, startColumn: range.start.character + 1, endLine: range.end.line + 1, endColumn: range.end.character + 1 };
}

/**
 * SARIF's `artifactLocation.uri` is a URI reference (SARIF 2.1.0, section 3.4.3): a file as the text output names it,
 * relative to the working directory, with every segment percent-encoded (`sp ace/my cfg.jsonc` →
 * `sp%20ace/my%20cfg.jsonc`); a file outside it as a `file://` URI.
 */
export function artifactUri(path: string): string {
  if (isAbsolute(path)) return pathToFileURL(path).href;
  return path.split("/").map(encodeURIComponent).join("/");
}
