/**
 * How an exported module (exportConfig.ts) reaches what only the application supplies, per language, and how the
 * source front ends read those spellings back (sources/typescript.ts, sources/python.ts), so that the import of an
 * export gives the config it came from: `parts.tools.web_search` (TypeScript; Python `tools["web_search"]`) is the
 * user tool `web_search`, `parts.middleware.Audit` the custom middleware `Audit`, `parts.sandbox("daytona")` a
 * sandbox backend of that provider, `parts.backend("name", caps)` a custom backend. They are read as such only
 * inside the exported function (`createAgent(model, parts)`, `create_agent(model, *, tools, ...)`), whose contract
 * says each tool and middleware is supplied under the config's name for it.
 */
export type Language = "ts" | "py";

/** The exported function's name in each language. */
export const EXPORTED_FUNCTION: Record<Language, string> = { ts: "createAgent", py: "create_agent" };

export const PARTS: Record<Language, { tools: string; middleware: string; sandbox: string; backend: string }> = {
  ts: { tools: "parts.tools", middleware: "parts.middleware", sandbox: "parts.sandbox", backend: "parts.backend" },
  py: { tools: "tools", middleware: "middleware", sandbox: "sandbox", backend: "backend" },
};
