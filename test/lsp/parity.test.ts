/**
 * One engine, two hosts: `dist/cli.js check --format json` and the language server's diagnostics must agree exactly
 * (code, severity, range, message, related information, tags) on every LSP fixture, every example and every e2e
 * fixture file: with the exact rule analysis (the default of both; the CLI's `--no-analysis` turns it off) and without it.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { after, before, describe, it } from "node:test";
import type { Diagnostic } from "vscode-languageserver-protocol/node";
import { FIXTURES, FixtureFolder } from "./fixtures";
import { LspTestClient, ROOT } from "./lspClient";

const SEVERITY = ["", "error", "warning", "information", "hint"];
const OURS = /^((.+\.)?agent-sandbox\.jsonc?|.+\.dryrun\.jsonc?)$/;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)) : OURS.test(e.name) ? [join(dir, e.name)] : [],
  );
}

interface CliDiagnostic {
  code: string;
  severity: string;
  message: string;
  range: Diagnostic["range"];
  related?: { message: string; range: Diagnostic["range"] }[];
  tags?: string[];
}

for (const analysis of [true, false]) {
  describe(`CLI and language server agree (${analysis ? "with" : "without"} the exact rule analysis)`, () => {
    const folder = new FixtureFolder();
    let client: LspTestClient;
    const files: string[] = [];
    let cli: Map<string, CliDiagnostic[]>;
    before(async () => {
      for (const fixture of Object.values(FIXTURES)) files.push(folder.write(fixture).path);
      files.push(...filesUnder(join(ROOT, "examples")), ...filesUnder(join(ROOT, "e2e", "fixtures")));
      let out: string;
      try {
        const flags = analysis ? [] : ["--no-analysis"];
        out = execFileSync(process.execPath, [join(ROOT, "dist", "cli.js"), "check", "--format", "json", ...flags, ...files], { encoding: "utf8", maxBuffer: 64 << 20 });
      } catch (error) {
        out = (error as { stdout: string }).stdout; // exit 1: findings at error level
      }
      const report = JSON.parse(out) as { files: { path: string; diagnostics: CliDiagnostic[] }[] };
      cli = new Map(report.files.map((f) => [resolve(f.path), f.diagnostics]));
      client = await LspTestClient.start({ pull: true, settings: () => ({ ruleAnalysis: analysis }) });
    });
    after(async () => {
      assert.deepEqual(client.failures, [], "no request may fail");
      await client.stop();
      folder.dispose();
    });

    it("on every fixture and example", async () => {
      assert.ok(files.length >= 15, `${files.length} files`);
      for (const path of files) {
        const expected = cli.get(resolve(path));
        assert.ok(expected, `the CLI reported ${path}`);
        const uri = pathToFileURL(path).href;
        await client.open(uri, readFileSync(path, "utf8"), /\.dryrun\.jsonc?$/.test(path) ? "agent-sandbox-dryrun" : "agent-sandbox");
        // With the analysis on, the server answers with the other checks first and the analysis's findings after; a
        // scenario's run is such a second phase too, with the analysis on or off.
        const actual = await client.pullCompleteDiagnostics(uri);
        await client.close(uri);
        assert.deepEqual(
          actual.map((d) => ({
            code: d.code,
            severity: SEVERITY[d.severity!],
            message: d.message,
            range: d.range,
            ...(d.relatedInformation ? { related: d.relatedInformation.map((r) => ({ message: r.message, range: r.location.range })) } : {}),
            ...(d.tags ? { tags: d.tags.map((t) => (t === 1 ? "unnecessary" : String(t))) } : {}),
          })),
          expected.map((d) => ({
            code: d.code,
            severity: d.severity,
            message: d.message,
            range: d.range,
            ...(d.related ? { related: d.related } : {}),
            ...(d.tags ? { tags: d.tags } : {}),
          })),
          path,
        );
      }
    });
  });
}

/**
 * Severities and suppressions are the engine's, for every kind of file: `check --severity` and the editor's
 * `severities` setting give the same list on a dry-run scenario with an `agent-sandbox-ignore` comment (the CLI
 * once ignored `--severity` there while the editor applied it).
 */
describe("CLI and language server agree on a dry-run file with severities and a suppression", () => {
  const folder = new FixtureFolder();
  const text = `{
  "config": "agent-sandbox.jsonc",
  "steps": [
    // agent-sandbox-ignore schema
    { "tool": "read_file", "args": { "file_path": "/README.md" }, "silenced": 1 },
    { "tool": "write_file", "args": { "file_path": "/a.txt", "content": "" }, "reported": 2 }
  ]
}
`;
  // With the config it names beside it, so the scenario checks run it (and find nothing) in both hosts.
  const path = folder.write({ file: "scenario.dryrun.jsonc", text, files: { "agent-sandbox.jsonc": '{ "version": 1 }\n' } }).path;
  const cli = (severity: string): { status: number; diagnostics: CliDiagnostic[] } => {
    let out: string;
    let status = 0;
    try {
      out = execFileSync(process.execPath, [join(ROOT, "dist", "cli.js"), "check", "--format", "json", "--severity", severity, path], { encoding: "utf8" });
    } catch (error) {
      ({ stdout: out, status } = error as { stdout: string; status: number });
    }
    return { status, diagnostics: (JSON.parse(out) as { files: { diagnostics: CliDiagnostic[] }[] }).files[0]!.diagnostics };
  };
  const server = async (severities: Record<string, string>) => {
    const client = await LspTestClient.start({ pull: true, settings: () => ({ ruleAnalysis: false, severities }) });
    try {
      const uri = pathToFileURL(path).href;
      await client.open(uri, text, "agent-sandbox-dryrun");
      const diagnostics = await client.pullDiagnostics(uri);
      assert.deepEqual(client.failures, [], "no request may fail");
      return diagnostics.map((d) => ({ code: d.code, severity: SEVERITY[d.severity!], message: d.message, range: d.range }));
    } finally {
      await client.stop();
    }
  };
  after(() => folder.dispose());

  it("schema=warning: the suppressed step is silent in both, the other is a warning in both", async () => {
    const fromCli = cli("schema=warning");
    assert.equal(fromCli.status, 0, "warnings only: exit 0");
    assert.deepEqual(fromCli.diagnostics.map((d) => [d.code, d.severity, d.range.start.line]), [["schema", "warning", 5]]);
    assert.match(fromCli.diagnostics[0]!.message, /"reported"/);
    assert.deepEqual(await server({ schema: "warning" }), fromCli.diagnostics.map((d) => ({ code: d.code, severity: d.severity, message: d.message, range: d.range })));
  });

  it("schema=off: nothing in either, and the CLI exits 0", async () => {
    const fromCli = cli("schema=off");
    assert.deepEqual(fromCli, { status: 0, diagnostics: [] });
    assert.deepEqual(await server({ schema: "off" }), []);
  });
});
