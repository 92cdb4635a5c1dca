import type { JsonNode } from "../../server/src/engine/config/parse";

/** Every value node of a parsed tree, the root first, in document order (property values, not their keys). */
export function valueNodes(node: JsonNode, out: JsonNode[] = []): JsonNode[] {
  out.push(node);
  for (const child of node.children ?? []) {
    if (child.type === "property") {
      if (child.children?.[1]) valueNodes(child.children[1], out);
    } else valueNodes(child, out);
  }
  return out;
}
