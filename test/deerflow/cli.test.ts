/** `agent-sandbox check` on DeerFlow's config.yaml and SKILL.md, in place (the built CLI, as users run it). */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { scratchDir } from "../helpers/scratch";

const CLI = join(__dirname, "..", "..", "dist", "cli.js");

function run(args: string[], cwd: string) {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8", cwd, env: { ...process.env, NO_COLOR: "1" } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const CONFIG = `tools:
  - {name: web_search, group: web, use: deerflow.community.ddg_search.tools:web_search_tool}
authorization:
  enabled: true
  provider:
    use: deerflow.authz.rbac:RbacAuthorizationProvider
    config:
      roles:
        user:
          tools: {allow: [web_serch], deny: null}
`;
const SKILL = "---\nname: rw\nallowed-tools: [web_search, Bash]\n---\n# Report writer\n";
const STRING_SKILL = "---\nname: str\nallowed-tools: read_file, web_search\n---\n";

/** A DeerFlow project: config.yaml, two skills, another program's config.yaml and a README. */
function project(): string {
  const dir = scratchDir("deerflow-cli");
  writeFileSync(join(dir, "config.yaml"), CONFIG);
  for (const [name, text] of [["rw", SKILL], ["str", STRING_SKILL], ["plain", "# no frontmatter\n"]]) {
    mkdirSync(join(dir, "skills", "custom", name!), { recursive: true });
    writeFileSync(join(dir, "skills", "custom", name!, "SKILL.md"), text!);
  }
  mkdirSync(join(dir, "other"));
  writeFileSync(join(dir, "other", "config.yaml"), "server:\n  port: [80\n");
  writeFileSync(join(dir, "README.md"), "# x\n");
  return dir;
}

describe("agent-sandbox check on DeerFlow's files", () => {
  test("config.yaml: JSON with the diagnostics at their YAML ranges, exit 1 on an error", () => {
    const dir = project();
    const r = run(["check", "config.yaml", "--format", "json"], dir);
    assert.equal(r.code, 1, r.stderr);
    const json = JSON.parse(r.stdout);
    assert.equal(json.files[0].path, "config.yaml");
    const d = json.files[0].diagnostics.map((x: { code: string; range: { start: { line: number; character: number } } }) => [x.code, x.range.start.line, x.range.start.character]);
    const line = CONFIG.split("\n")[9]!;
    assert.deepEqual(d, [
      ["authz-tool-unknown", 9, line.indexOf("web_serch")],
      ["authz-invalid", 9, line.indexOf("null")],
    ]);
  });

  test("SARIF locations point into the YAML and markdown files", () => {
    const dir = project();
    const r = run(["check", "config.yaml", "skills/custom/rw/SKILL.md", "--format", "sarif"], dir);
    const sarif = JSON.parse(r.stdout);
    const places = sarif.runs[0].results.map((x: { ruleId: string; locations: { physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number; startColumn: number } } }[] }) => {
      const p = x.locations[0]!.physicalLocation;
      return [x.ruleId, p.artifactLocation.uri, p.region.startLine, p.region.startColumn];
    });
    assert.deepEqual(places, [
      ["authz-tool-unknown", "config.yaml", 10, CONFIG.split("\n")[9]!.indexOf("web_serch") + 1],
      ["authz-invalid", "config.yaml", 10, CONFIG.split("\n")[9]!.indexOf("null") + 1],
      ["skill-tool-unknown", "skills/custom/rw/SKILL.md", 3, SKILL.split("\n")[2]!.indexOf("Bash") + 1],
    ]);
  });

  test("a folder: DeerFlow's config.yaml and the SKILL.md files with allowed-tools; not another program's config.yaml", () => {
    const dir = project();
    const r = run(["check", ".", "--format", "json"], dir);
    const json = JSON.parse(r.stdout);
    assert.deepEqual(json.files.map((f: { path: string }) => f.path), ["config.yaml", "skills/custom/rw/SKILL.md", "skills/custom/str/SKILL.md"]);
    assert.equal(json.files[2].diagnostics[0].code, "skill-allowed-tools-string");
    assert.equal(json.files[2].diagnostics[0].message, "skills/custom/str/SKILL.md line 3: allowed-tools is a string, so DeerFlow drops the whole skill.");
  });

  test("text output names the files and codes", () => {
    const dir = project();
    const r = run(["check", "skills/custom/rw/SKILL.md"], dir);
    assert.equal(r.code, 0, "warnings only");
    assert.match(r.stdout, /skills\/custom\/rw\/SKILL\.md\n\s+3:\d+\s+warning\s+.*"Bash".*skill-tool-unknown/);
  });

  test("another program's YAML named on the command line is read as DeerFlow's: a syntax error is yaml-syntax", () => {
    const dir = project();
    const r = run(["check", "other/config.yaml", "--format", "json"], dir);
    assert.equal(r.code, 1);
    assert.equal(JSON.parse(r.stdout).files[0].diagnostics[0].code, "yaml-syntax");
  });

  test("--fix applies the safe YAML fixes and leaves the rest", () => {
    const dir = project();
    const r = run(["check", "config.yaml", "--fix"], dir);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stderr, /1 safe fix applied \(authz-invalid\)/);
    assert.equal(readFileSync(join(dir, "config.yaml"), "utf8"), CONFIG.replace(", deny: null}", "}"));
  });

  test("--fix changes nothing in a file with YAML errors", () => {
    const dir = project();
    const broken = `${CONFIG}extra: [\n`;
    writeFileSync(join(dir, "config.yaml"), broken);
    const r = run(["check", "config.yaml", "--fix"], dir);
    assert.match(r.stderr, /has YAML syntax errors; --fix changes nothing/);
    assert.equal(readFileSync(join(dir, "config.yaml"), "utf8"), broken);
  });

  test("--severity works on YAML codes", () => {
    const dir = project();
    const r = run(["check", "config.yaml", "--severity", "authz-invalid=off", "--severity", "yaml-syntax=off", "--format", "json"], dir);
    assert.deepEqual(JSON.parse(r.stdout).files[0].diagnostics.map((d: { code: string }) => d.code), ["authz-tool-unknown"]);
  });
});
