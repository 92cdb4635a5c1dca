/**
 * Every config text the check tests use, read out of their source (test/checks/*.test.ts): string and template
 * literals, with `${NAME}` filled in from the file's own constants and `config(…)` wrapped as the helper wraps it,
 * the ⟦⟧ markers removed; kept when it reads as a config (an object with `version`). For tests that run every
 * fixture through something new (the property test of every fix) without each check test having to list them.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "jsonc-parser";
import ts from "typescript";
import { config, marked } from "./checkFixture";

export function checkTestFixtures(dir = join(__dirname, "..", "checks")): { file: string; text: string }[] {
  const out: { file: string; text: string }[] = [];
  const seen = new Set<string>();
  for (const name of readdirSync(dir).filter((n) => n.endsWith(".test.ts")).sort()) {
    const source = ts.createSourceFile(name, readFileSync(join(dir, name), "utf8"), ts.ScriptTarget.Latest, true);
    const constants = new Map<string, ts.Expression>();
    source.forEachChild((node) => {
      if (!ts.isVariableStatement(node)) return;
      for (const d of node.declarationList.declarations) if (ts.isIdentifier(d.name) && d.initializer) constants.set(d.name.text, d.initializer);
    });
    const value = (e: ts.Expression, depth = 0): string | undefined => {
      if (depth > 5) return undefined;
      if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) return e.text;
      if (ts.isIdentifier(e)) {
        const c = constants.get(e.text);
        return c ? value(c, depth + 1) : undefined;
      }
      if (ts.isTemplateExpression(e)) {
        let text = e.head.text;
        for (const span of e.templateSpans) {
          const v = value(span.expression, depth + 1);
          if (v === undefined) return undefined;
          text += v + span.literal.text;
        }
        return text;
      }
      if (ts.isCallExpression(e) && ts.isIdentifier(e.expression) && e.expression.text === "config" && e.arguments.length === 1) {
        const v = value(e.arguments[0]!, depth + 1);
        return v === undefined ? undefined : config(v);
      }
      if (ts.isParenthesizedExpression(e)) return value(e.expression, depth + 1);
      return undefined;
    };
    const visit = (node: ts.Node): void => {
      if (ts.isExpression(node) && (ts.isCallExpression(node) || ts.isTemplateExpression(node) || ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node))) {
        const v = value(node);
        if (v !== undefined && v.includes('"version"')) {
          const text = marked(v).text;
          const root = parse(text, [], { allowTrailingComma: true });
          if (root && typeof root === "object" && !Array.isArray(root) && "version" in root && !seen.has(text)) {
            seen.add(text);
            out.push({ file: name, text });
          }
        }
      }
      node.forEachChild(visit);
    };
    visit(source);
  }
  return out;
}
