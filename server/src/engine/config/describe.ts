import type { RuleListSpec } from "./model";

/** A rule list in words, for messages and the `skipped` list: "the top-level permissions", "… of subagent "x"". */
export function describeList(list: RuleListSpec): string {
  switch (list.owner.kind) {
    case "top-level":
      return "the top-level permissions";
    case "subagent":
      return `the permissions of subagent ${JSON.stringify(list.owner.subagent)}`;
    case "middleware":
      return list.owner.agent === "main"
        ? `the permissions of middleware #${list.owner.middlewareIndex}`
        : `the permissions of middleware #${list.owner.middlewareIndex} of subagent ${JSON.stringify(list.owner.agent)}`;
  }
}
