/**
 * "Agent Sandbox: Create Sample Config": writes the starter config, the sample workspace and a scenario
 * (sampleFiles.ts) into a folder the user chooses, never over an existing file without asking, and opens them.
 */
import * as vscode from "vscode";
import { SAMPLE_CONFIG, SAMPLE_FILES, SAMPLE_SCENARIO } from "./sampleFiles";

export interface CreateSampleArgs {
  /** The folder (a URI); without it, a folder dialog opens at the first workspace folder. */
  folder?: string;
  /** What to do with files that exist already; without it, the user is asked (a modal dialog). */
  overwrite?: boolean;
  /** Open the config and the scenario afterwards (default true). */
  open?: boolean;
}

export interface CreateSampleResult {
  folder: string;
  /** Paths relative to the folder, as written or left alone. */
  written: string[];
  kept: string[];
}

export async function createSampleConfig(args?: CreateSampleArgs): Promise<CreateSampleResult | undefined> {
  const folder = args?.folder ? vscode.Uri.parse(args.folder) : await askFolder();
  if (!folder) return undefined;
  const target = (path: string) => vscode.Uri.joinPath(folder, ...path.split("/"));
  const existing: string[] = [];
  for (const file of SAMPLE_FILES) {
    try {
      await vscode.workspace.fs.stat(target(file.path));
      existing.push(file.path);
    } catch {
      // Not there: it is written.
    }
  }
  let overwrite = args?.overwrite ?? false;
  if (existing.length > 0 && args?.overwrite === undefined) {
    const OVERWRITE = "Overwrite";
    const KEEP = "Keep Existing Files";
    const listed = existing.length > 3 ? `${existing.slice(0, 3).join(", ")} and ${existing.length - 3} more` : existing.join(", ");
    const answer = await vscode.window.showWarningMessage(
      `${existing.length === 1 ? "A file" : `${existing.length} files`} of the sample exist already in ${folder.path.split("/").at(-1)}: ${listed}.`,
      { modal: true, detail: "Overwrite them with the sample, or keep them and write only the missing files?" },
      OVERWRITE,
      KEEP,
    );
    if (answer === undefined) return undefined;
    overwrite = answer === OVERWRITE;
  }
  const result: CreateSampleResult = { folder: folder.toString(), written: [], kept: [] };
  for (const file of SAMPLE_FILES) {
    if (existing.includes(file.path) && !overwrite) {
      result.kept.push(file.path);
      continue;
    }
    // workspace.fs creates the missing parent folders.
    await vscode.workspace.fs.writeFile(target(file.path), new TextEncoder().encode(file.text));
    result.written.push(file.path);
  }
  if (args?.open !== false) {
    const config = await vscode.workspace.openTextDocument(target(SAMPLE_CONFIG));
    await vscode.window.showTextDocument(config, { preview: false });
    const scenario = await vscode.workspace.openTextDocument(target(SAMPLE_SCENARIO));
    await vscode.window.showTextDocument(scenario, { viewColumn: vscode.ViewColumn.Beside, preview: false, preserveFocus: true });
  }
  return result;
}

async function askFolder(): Promise<vscode.Uri | undefined> {
  const [picked] =
    (await vscode.window.showOpenDialog({
      title: "Create the Agent Sandbox sample in which folder?",
      openLabel: "Create Sample Here",
      canSelectFiles: false,
      canSelectFolders: true,
      canSelectMany: false,
      ...(vscode.workspace.workspaceFolders?.[0] ? { defaultUri: vscode.workspace.workspaceFolders[0].uri } : {}),
    })) ?? [];
  return picked;
}
