// The client's check of a tools/call result against the tool's output schema, shared by
// plain calls (client-calls.ts) and calls run as tasks (client-tasks.ts).
import { describeIssue, type Validator } from "../validation.js";
import type { JsonObject } from "./handler-types.js";

/** The server returned structured output that does not match the tool's output schema. */
export class ToolOutputError extends Error {
  constructor(
    readonly tool: string,
    message: string,
  ) {
    super(message);
    this.name = "ToolOutputError";
  }
}

/**
 * Checks a tools/call result's structured output against the tool's output schema (parsing
 * the JSON text of revisions before 2025-06-18); tool error results pass as they are.
 */
export function checkToolResult(name: string, result: JsonObject, validateOutput?: Validator): JsonObject {
  if (!validateOutput || result.isError === true) return result;
  let structured = result.structuredContent;
  if (structured === undefined) {
    // Revisions before 2025-06-18 have no structuredContent: the server sends its JSON as text.
    const text = Array.isArray(result.content)
      ? (result.content as JsonObject[]).find((c) => c.type === "text")?.text
      : undefined;
    try {
      structured = typeof text === "string" ? JSON.parse(text) : undefined;
    } catch {
      structured = undefined;
    }
    if (structured === undefined) throw new ToolOutputError(name, `Tool ${name} returned no structured content`);
  }
  const issue = validateOutput(structured);
  if (issue)
    throw new ToolOutputError(
      name,
      `Tool ${name} returned structured content that does not match its output schema: ${describeIssue(issue)}`,
    );
  return { ...result, structuredContent: structured };
}
