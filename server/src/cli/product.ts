import { basename, resolve } from "node:path";
import { pathToFileURL } from "node:url";

declare const AGENT_SANDBOX_VERSION: string;
export const VERSION = typeof AGENT_SANDBOX_VERSION === "string" ? AGENT_SANDBOX_VERSION : "dev";
// The installed package's own docs folder, as a `file:` URI: the pages of this version, readable offline (no web
// page of the product is assumed). SARIF's `helpUri` must be an absolute URI, which this is. The folder is beside
// the bundle's dist/, or three folders up when run from server/src/cli. (The language server's docsLocation.ts
// answers the same question; importing it here would load the engine's bundle at start-up, where build.mjs keeps
// every module two entries share.)
// (This module must stay in server/src/cli, beside the bundle's entry: the path is from its own folder.)
export const DOCS = pathToFileURL(resolve(__dirname, basename(__dirname) === "cli" ? "../../.." : "..", "docs")).href;
