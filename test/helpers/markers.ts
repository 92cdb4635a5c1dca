/**
 * The fixture markers every test uses: `⟦…⟧` mark a range a test expects (they may nest), `‸` the caret. All are
 * removed; the ranges come back in the order they start.
 */
export interface Marked {
  text: string;
  caret: number | undefined;
  ranges: { start: number; end: number }[];
}

export function marked(withMarkers: string): Marked {
  let text = "";
  let caret: number | undefined;
  const ranges: { start: number; end: number }[] = [];
  const open: number[] = [];
  for (const ch of withMarkers) {
    if (ch === "‸") caret = text.length;
    else if (ch === "⟦") open.push(text.length);
    else if (ch === "⟧") ranges.push({ start: open.pop()!, end: text.length });
    else text += ch;
  }
  return { text, caret, ranges: ranges.sort((a, b) => a.start - b.start) };
}
