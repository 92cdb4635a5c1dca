import { fileURLToPath, pathToFileURL } from "node:url";

/** file: URIs ↔ paths. Other schemes (untitled:, vscode-vfs:) have no path: the server checks their text only. */
export const URI = {
  toFsPath(uri: string): string | undefined {
    if (!uri.startsWith("file:")) return undefined;
    try {
      return fileURLToPath(uri);
    } catch {
      return undefined;
    }
  },
  fromFsPath(path: string): string {
    return pathToFileURL(path).href;
  },
};
