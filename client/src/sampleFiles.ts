/**
 * What "Agent Sandbox: Create Sample Config" writes (plain data, no VS Code API, so that node:test checks it with the
 * engine): a commented starter config, a small sample workspace and a dry-run scenario. The starter has one mistake
 * on purpose, for the walkthrough: the rule meant to keep docs/ read-only ends in "/" and so never matches
 * (pattern-never-matches, with a quick fix), and the scenario's step that expects the docs write to be denied fails
 * (scenario-expectation-failed) until the fix is applied. Everything else checks clean.
 */

/** The config's file name, relative to the chosen folder (the others are listed in SAMPLE_FILES). */
export const SAMPLE_CONFIG = "agent-sandbox.jsonc";
export const SAMPLE_SCENARIO = "sample.dryrun.jsonc";
/** The codes the starter reports before its intentional mistake is fixed, by file. */
export const TEACHING_FINDINGS: Readonly<Record<string, string>> = { [SAMPLE_CONFIG]: "pattern-never-matches", [SAMPLE_SCENARIO]: "scenario-expectation-failed" };

const CONFIG = `{
  // Agent Sandbox starter config: one deepagents agent, a read-only reviewer subagent, two roles, and the sample
  // files in ./sample-workspace that the capability map colours and the dry run reads. Nothing here runs an agent:
  // the editor and \`npx agent-sandbox check\` read this file and say what the runtime would do.
  "version": 1,
  "runtime": "deepagents-js",
  "name": "my-agent",
  "systemPrompt": "You are a careful coding assistant. Work only inside /workspace.",

  // Path rules of the main agent: the first rule that matches a path decides; no match means allowed.
  "permissions": [
    // Secrets stay out of reach: no reads, no writes.
    { "operations": ["read", "write"], "paths": ["/workspace/.env", "/workspace/secrets/**"], "mode": "deny" },
    // Meant to keep docs/ read-only, but a pattern ending in "/" never matches a tool path: see the warning and
    // its quick fix (it changes the pattern to "/workspace/docs/**").
    { "operations": ["write"], "paths": ["/workspace/docs/"], "mode": "deny" }
  ],

  // Subagents get their own rules (not the main agent's): the reviewer may read the code but change nothing.
  "subagents": [
    {
      "name": "reviewer",
      "description": "Reads the code and reports mistakes; never changes files.",
      "systemPrompt": "Review the code in /workspace and report what looks wrong. Never change files.",
      "permissions": [
        { "operations": ["read", "write"], "paths": ["/workspace/.env", "/workspace/secrets/**"], "mode": "deny" },
        { "operations": ["write"], "paths": ["/**"], "mode": "deny" }
      ]
    }
  ],

  // DeerFlow-style roles: which tools a request may call. A deny wins over an allow.
  "authorization": {
    "enabled": true,
    "default_role": "developer",
    "roles": {
      "developer": { "tools": { "allow": "*", "deny": ["execute", "delete"] } },
      "viewer": { "tools": { "allow": ["read_file", "ls", "glob", "grep"] } }
    }
  },

  // The sample files: mounted at /workspace for hovers, completion, the capability map and dry runs. Never written.
  "workspace": { "root": "./sample-workspace", "mountAt": "/workspace" }
}
`;

const SCENARIO = `{
  // A dry run: each step is a tool call as the model would emit it, run against ./sample-workspace through the
  // config's rules and roles. Nothing on disk changes (writes go to memory) and no process starts. Each step may
  // say the outcome it expects: ok, permission-denied, authorization-denied, tool-unavailable or error.
  "config": "./agent-sandbox.jsonc",
  "agent": "main",
  "role": "developer",
  "steps": [
    { "tool": "ls", "args": { "path": "/workspace" }, "expect": "ok" },
    { "tool": "read_file", "args": { "file_path": "/workspace/README.md" }, "expect": "ok" },
    { "tool": "read_file", "args": { "file_path": "/workspace/.env" }, "expect": "permission-denied" },
    { "tool": "write_file", "args": { "file_path": "/workspace/notes/plan.md", "content": "# Plan\\n" }, "expect": "ok" },
    // Fails until the docs rule of the config is fixed.
    { "tool": "write_file", "args": { "file_path": "/workspace/docs/changelog.md", "content": "- first entry\\n" }, "expect": "permission-denied" },
    { "tool": "delete", "args": { "file_path": "/workspace/notes" }, "expect": "authorization-denied" },
    { "tool": "execute", "args": { "command": "cat /workspace/.env" }, "expect": "tool-unavailable" },
    // The reviewer runs its own steps with its own rules.
    { "tool": "task", "args": { "subagent_type": "reviewer", "description": "Review the code", "steps": [
      { "tool": "read_file", "args": { "file_path": "/workspace/src/app.py" }, "expect": "ok" },
      { "tool": "edit_file", "args": { "file_path": "/workspace/src/app.py", "old_string": "Hello", "new_string": "Bye" }, "expect": "permission-denied" }
    ] }, "expect": "ok" }
  ]
}
`;

/** Every file, by path relative to the chosen folder ("/" separated), in the order they are written. */
export const SAMPLE_FILES: ReadonlyArray<{ path: string; text: string }> = [
  { path: SAMPLE_CONFIG, text: CONFIG },
  { path: SAMPLE_SCENARIO, text: SCENARIO },
  { path: "sample-workspace/README.md", text: "# Sample workspace\n\nFiles the agent would see at /workspace. The dry run reads them and never changes them.\n" },
  { path: "sample-workspace/.env", text: "API_KEY=not-a-real-key\n" },
  { path: "sample-workspace/secrets/token.txt", text: "not-a-real-token\n" },
  { path: "sample-workspace/docs/guide.md", text: "# Guide\n\nHow the project works. The agent may read this, not change it.\n" },
  { path: "sample-workspace/notes/todo.md", text: "- [ ] write the plan\n" },
  { path: "sample-workspace/src/app.py", text: 'print("Hello from the sample workspace")\n' },
];
