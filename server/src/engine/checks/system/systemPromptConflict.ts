import { propertyKeyNode, spanOf } from "../../config/parse";
import type { Check } from "../check";

/** `systemPrompt` and `systemPromptFile` together, or a prompt file that does not exist (config-format.md). */
export const systemPromptConflict: Check = {
  code: "system-prompt-conflict",
  severity: "error",
  summary: "Both `systemPrompt` and `systemPromptFile`, or a prompt file that does not exist.",
  run(context) {
    const { systemPrompt, systemPromptFile } = context.model;
    if (systemPrompt && systemPromptFile) {
      context.report({
        message: "Give the system prompt once: systemPrompt or systemPromptFile, not both.",
        span: spanOf(propertyKeyNode(systemPromptFile.node) ?? systemPromptFile.node),
        related: [{ message: "the inline prompt", span: spanOf(propertyKeyNode(systemPrompt.node) ?? systemPrompt.node) }],
      });
    }
    if (systemPromptFile && !context.fileExists(systemPromptFile.value)) {
      context.report({
        message: `The system prompt file ${JSON.stringify(systemPromptFile.value)} does not exist or is not a file.`,
        detail: "Paths are relative to this config file.",
        span: spanOf(systemPromptFile.node),
      });
    }
  },
};
