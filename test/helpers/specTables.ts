import { readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * The spec's vector tables, read from the copy kept in test/vectors/ (kept identical to ../shared/spec by
 * test/runtime/specCopy.test.ts), so every row is a test and nothing is transcribed by hand.
 */
export function specText(name: "deepagents-semantics.md" | "deerflow-authorization.md"): string {
  return readFileSync(join(__dirname, "..", "vectors", name), "utf8");
}

/** Rows of every markdown table whose first cell matches `rowId` (e.g. /^G\d+$/), as cleaned cells. */
export function tableRows(markdown: string, rowId: RegExp): string[][] {
  const rows: string[][] = [];
  for (const line of markdown.split("\n")) {
    if (!line.startsWith("|")) continue;
    const cells = splitRow(line);
    if (cells.length > 1 && rowId.test(stripMarkup(cells[0]!))) rows.push(cells);
  }
  return rows;
}

function splitRow(line: string): string[] {
  const cells: string[] = [];
  let cell = "";
  for (let i = 1; i < line.length; i++) {
    const c = line[i];
    if (c === "\\" && line[i + 1] === "|") {
      cell += "|";
      i++;
    } else if (c === "|") {
      cells.push(cell.trim());
      cell = "";
    } else cell += c;
  }
  return cells;
}

/** Removes bold markers, keeps the text. */
export function stripMarkup(cell: string): string {
  return cell.replace(/\*\*/g, "").trim();
}

/** The contents of the first `code span` in a cell (undefined when there is none). */
export function firstCode(cell: string): string | undefined {
  const m = /`([^`]*)`/.exec(cell);
  return m ? m[1] : undefined;
}

/** All code spans of a cell. */
export function codes(cell: string): string[] {
  return [...cell.matchAll(/`([^`]*)`/g)].map((m) => m[1]!);
}
