/**
 * A small expression tree for exported source code and its printer, one for TypeScript and one for Python, so
 * that the exporter says once what a config becomes and each language says how it is spelt. The layout is
 * deterministic: an expression goes on one line when it fits (and holds no comment), else one element per line
 * with a trailing comma, as prettier (TypeScript) and black (Python) would lay it out.
 */

export type Language = "ts" | "py";

/** A leading comment, one string per line (without the comment marker). */
export type Comment = readonly string[];

export type Expr = (
  /** A JSON value exactly as the config wrote it. */
  | { kind: "value"; value: unknown }
  /** Code taken as it is: an identifier, a member access. */
  | { kind: "code"; text: string }
  | { kind: "call"; callee: string; isNew?: boolean; args: Expr[]; keywords?: Entry[] }
  /** A TypeScript object literal or a Python dict. */
  | { kind: "object"; entries: Entry[] }
  | { kind: "list"; items: Expr[] }
  /** A function returning `body`: a backend given as a factory. */
  | { kind: "factory"; body: Expr }
) & { comment?: Comment };

export interface Entry {
  key: string;
  value: Expr;
  comment?: Comment;
}

export const value = (v: unknown): Expr => ({ kind: "value", value: v });
export const code = (text: string): Expr => ({ kind: "code", text });
export const call = (callee: string, args: Expr[], keywords?: Entry[]): Expr => (keywords ? { kind: "call", callee, args, keywords: lastWins(keywords) } : { kind: "call", callee, args });
export const construct = (callee: string, args: Expr[], keywords?: Entry[]): Expr => ({ ...(call(callee, args, keywords) as Extract<Expr, { kind: "call" }>), isNew: true });
export const object = (entries: Entry[]): Expr => ({ kind: "object", entries: lastWins(entries) });

/**
 * A key given twice keeps its last value, as when the config is read (and as a JavaScript object literal would);
 * Python refuses a repeated keyword argument and TypeScript a repeated property, so only the last is written.
 */
function lastWins(entries: Entry[]): Entry[] {
  const last = new Map<string, number>();
  entries.forEach((e, i) => last.set(e.key, i));
  if (last.size === entries.length) return entries;
  const repeated = new Set(entries.filter((e, i) => last.get(e.key) !== i).map((e) => e.key));
  return entries
    .filter((e, i) => last.get(e.key) === i)
    .map((e) => (repeated.has(e.key) ? { ...e, comment: [...(e.comment ?? []), `${e.key} is given more than once: the last one counts.`] } : e));
}
export const list = (items: Expr[]): Expr => ({ kind: "list", items });
export const withComment = <T extends Expr>(expr: T, comment: Comment | undefined): T => (comment && comment.length > 0 ? { ...expr, comment } : expr);

const WIDTH = 100;

/** An entry's comment and its value's, said before the entry. */
function commentOf(e: Entry): Comment {
  return [...(e.comment ?? []), ...(e.value.comment ?? [])];
}

/** A string literal both languages read the same way (JSON's escapes are valid in each). */
export function stringLiteral(text: string): string {
  return JSON.stringify(text);
}

export class Printer {
  private readonly unit: string;
  private readonly marker: string;

  /** `jsonKeys`: every object key quoted, as JSON writes it (a config block quoted in a comment). */
  constructor(
    readonly language: Language,
    private readonly jsonKeys = false,
  ) {
    this.unit = language === "ts" ? "  " : "    ";
    this.marker = language === "ts" ? "//" : "#";
  }

  /** Comment lines at an indentation level (an empty string is an empty comment line). */
  comment(lines: Comment, level: number): string {
    const pad = this.unit.repeat(level);
    return lines.map((l) => (l === "" ? `${pad}${this.marker}` : `${pad}${this.marker} ${l}`)).join("\n");
  }

  /** `expr` printed at `level`, its first line starting after `column` characters already on the line. */
  print(expr: Expr, level: number, column = level * this.unit.length): string {
    // Its own comment is the container's to print, on the lines before it.
    if (expr.comment?.length) expr = { ...expr, comment: undefined };
    const flat = this.flat(expr);
    if (flat !== undefined && column + flat.length <= WIDTH) return flat;
    const pad = this.unit.repeat(level);
    const inner = this.unit.repeat(level + 1);
    const lines = (items: { comment?: Comment; text: (column: number) => string }[]) =>
      items.map((item) => `${item.comment?.length ? `${this.comment(item.comment, level + 1)}\n` : ""}${inner}${item.text(inner.length)},`).join("\n");
    switch (expr.kind) {
      case "value":
        return this.print(this.spreadOf(expr), level, column);
      case "code":
        return expr.text;
      case "factory":
        return this.language === "ts" ? `() => ${this.print(expr.body, level, column + 6)}` : `lambda rt: ${this.print(expr.body, level, column + 11)}`;
      case "list":
        if (expr.items.length === 0) return "[]";
        return `[\n${lines(expr.items.map((item) => ({ comment: item.comment, text: (c: number) => this.print(item, level + 1, c) })))}\n${pad}]`;
      case "object":
        if (expr.entries.length === 0) return "{}";
        return `{\n${lines(expr.entries.map((e) => ({ comment: commentOf(e), text: (c: number) => this.entry(e, level + 1, c) })))}\n${pad}}`;
      case "call": {
        const head = `${expr.isNew ? "new " : ""}${expr.callee}(`;
        const keywords = expr.keywords ?? [];
        const last = expr.args.at(-1);
        // prettier's hugging of a last object or list argument: `createFilesystemMiddleware({` … `})`.
        if (this.language === "ts" && keywords.length === 0 && last && (last.kind === "object" || last.kind === "list") && !last.comment) {
          const before = expr.args.slice(0, -1).map((a) => this.flat(a));
          if (before.every((b) => b !== undefined)) {
            const prefix = `${head}${before.map((b) => `${b}, `).join("")}`;
            if (column + prefix.length + 1 <= WIDTH) return `${prefix}${this.print(last, level, column + prefix.length)})`;
          }
        }
        const items = [
          ...expr.args.map((a) => ({ comment: a.comment, text: (c: number) => this.print(a, level + 1, c) })),
          ...keywords.map((k) => ({ comment: commentOf(k), text: (c: number) => this.keyword(k, level + 1, c) })),
        ];
        if (items.length === 0) return `${head})`;
        return `${head}\n${lines(items)}\n${pad})`;
      }
    }
  }

  /** Each expression's one-line form, once: every level of a nested layout asks for its children's again. */
  private readonly flats = new Map<Expr, string | null>();

  /** One line, or `undefined` when the expression holds a comment (a comment needs lines of its own). */
  flat(expr: Expr): string | undefined {
    let known = this.flats.get(expr);
    if (known === undefined) {
      const line = this.flatNow(expr);
      // Longer than a line can be: it goes on lines of its own whatever it holds, so building it is wasted (a list
      // of 10,000 subagents would be built once per level above it).
      known = line === undefined || (line.length > WIDTH && expr.kind !== "code") ? null : line;
      this.flats.set(expr, known);
    }
    return known ?? undefined;
  }

  private flatNow(expr: Expr): string | undefined {
    if (expr.comment?.length) return undefined;
    // Every part on one line, or `undefined` as soon as one cannot be or the line is already too long.
    const all = <T>(items: readonly T[], flat: (item: T) => string | undefined): string[] | undefined => {
      const parts: string[] = [];
      let length = 0;
      for (const item of items) {
        const part = flat(item);
        if (part === undefined || (length += part.length + 2) > WIDTH) return undefined;
        parts.push(part);
      }
      return parts;
    };
    switch (expr.kind) {
      case "value":
        return this.flat(this.spreadOf(expr));
      case "code":
        return expr.text;
      case "factory": {
        const body = this.flat(expr.body);
        return body === undefined ? undefined : this.language === "ts" ? `() => ${body}` : `lambda rt: ${body}`;
      }
      case "list": {
        const items = all(expr.items, (i) => this.flat(i));
        return items && `[${items.join(", ")}]`;
      }
      case "object": {
        if (expr.entries.some((e) => e.comment?.length)) return undefined;
        const entries = all(expr.entries, (e) => this.flatEntry(e));
        if (!entries) return undefined;
        if (entries.length === 0) return "{}";
        return this.language === "ts" ? `{ ${entries.join(", ")} }` : `{${entries.join(", ")}}`;
      }
      case "call": {
        const keywords = expr.keywords ?? [];
        if (keywords.some((k) => k.comment?.length)) return undefined;
        const parts = all<Expr | Entry>([...expr.args, ...keywords], (p) => ("key" in p ? this.flatKeyword(p) : this.flat(p)));
        return parts && `${expr.isNew ? "new " : ""}${expr.callee}(${parts.join(", ")})`;
      }
    }
  }

  private readonly spreads = new Map<Expr, Expr>();

  /** A JSON value's expression, made once per value expression. */
  private spreadOf(expr: Extract<Expr, { kind: "value" }>): Expr {
    let spread = this.spreads.get(expr);
    if (!spread) this.spreads.set(expr, (spread = this.spread(expr.value)));
    return spread;
  }

  /** A JSON value as list and object expressions, so that its layout follows the same rules. */
  private spread(v: unknown): Expr {
    if (Array.isArray(v)) return list(v.map((item) => value(item)));
    if (v !== null && typeof v === "object") return object(Object.entries(v).map(([key, item]) => ({ key, value: value(item) })));
    return code(this.primitive(v));
  }

  private primitive(v: unknown): string {
    if (typeof v === "string") return stringLiteral(v);
    if (typeof v === "number") return Number.isFinite(v) ? String(v) : this.language === "ts" ? "null" : "None";
    if (typeof v === "boolean") return this.language === "ts" ? String(v) : v ? "True" : "False";
    if (v === undefined) return this.language === "ts" ? "undefined" : "None";
    return this.language === "ts" ? "null" : "None";
  }

  private key(key: string): string {
    if (this.language === "py" || this.jsonKeys) return stringLiteral(key);
    // `"__proto__": x` in a literal sets the prototype; a computed key makes it a property, as in the JSON.
    if (key === "__proto__") return `["__proto__"]`;
    return /^[A-Za-z_$][\w$]*$/.test(key) ? key : stringLiteral(key);
  }

  private entry(e: Entry, level: number, column: number): string {
    if (this.shorthand(e)) return e.key;
    const head = `${this.key(e.key)}: `;
    return `${head}${this.print(e.value, level, column + head.length)}`;
  }

  private flatEntry(e: Entry): string | undefined {
    if (this.shorthand(e)) return e.key;
    const v = this.flat(e.value);
    return v === undefined ? undefined : `${this.key(e.key)}: ${v}`;
  }

  /** `{ model }` for `{ model: model }`. */
  private shorthand(e: Entry): boolean {
    return this.language === "ts" && !this.jsonKeys && e.value.kind === "code" && e.value.text === e.key && !e.value.comment?.length;
  }

  /** A Python keyword argument; a key that is no identifier is passed by `**{…}`, as Python allows. */
  private keyword(k: Entry, level: number, column: number): string {
    if (isPythonName(k.key)) return `${k.key}=${this.print(k.value, level, column + k.key.length + 1)}`;
    return `**${this.print(object([k]), level, column + 2)}`;
  }

  private flatKeyword(k: Entry): string | undefined {
    const v = this.flat(k.value);
    if (v === undefined) return undefined;
    return isPythonName(k.key) ? `${k.key}=${v}` : `**{${stringLiteral(k.key)}: ${v}}`;
  }
}

const PYTHON_KEYWORDS = new Set(
  "False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield".split(" "),
);

export function isPythonName(name: string): boolean {
  return /^[A-Za-z_]\w*$/.test(name) && !PYTHON_KEYWORDS.has(name);
}
