// Turns what handlers return into protocol results, projected onto the revision a
// request is served under.
import { describeIssue, type Validator } from "../validation.js";
import { ErrorCode, isObject, RpcError } from "../jsonrpc/messages.js";
import type { JsonObject, PromptReturn, ResourceReturn } from "./handler-types.js";
import { hasStructuredContent } from "./revisions.js";

export function textResult(text: string, isError = false): JsonObject {
  const content = [{ type: "text", text }];
  return isError ? { content, isError: true } : { content };
}

/** A tools/call result from a handler's return value. */
export function toolResult(
  toolName: string,
  returned: unknown,
  validateOutput: Validator | undefined,
  revision: string,
): JsonObject {
  if (typeof returned === "string") return textResult(returned);
  if (!isObject(returned)) {
    throw new RpcError(ErrorCode.InternalError, `Tool ${toolName} returned neither a string nor a result object`);
  }
  if ("structuredContent" in returned && returned.isError !== true) {
    const structured = returned.structuredContent;
    if (validateOutput) {
      const issue = validateOutput(structured);
      if (issue) {
        throw new RpcError(
          ErrorCode.InternalError,
          `Tool ${toolName} returned structured content that does not match its output schema: ${describeIssue(issue)}`,
        );
      }
    }
    const content = Array.isArray(returned.content)
      ? returned.content
      : [{ type: "text", text: JSON.stringify(structured) }];
    const result: JsonObject = { content };
    if (hasStructuredContent(revision)) result.structuredContent = structured;
    if (returned._meta !== undefined) result._meta = returned._meta;
    return result;
  }
  if (!Array.isArray(returned.content)) {
    throw new RpcError(ErrorCode.InternalError, `Tool ${toolName} returned a result without a content array`);
  }
  if (validateOutput && returned.isError !== true) {
    throw new RpcError(
      ErrorCode.InternalError,
      `Tool ${toolName} declares an output schema but returned no structuredContent`,
    );
  }
  const result: JsonObject = { content: returned.content };
  if (returned.isError === true) result.isError = true;
  if (returned._meta !== undefined) result._meta = returned._meta;
  return result;
}

/** Standard base64 through btoa, which every platform the runtime targets has (Node, browsers, edge). */
export function base64Encode(bytes: Uint8Array): string {
  let binary = "";
  // Chunks keep the argument list of fromCharCode well under engine limits.
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** resources/read contents from a handler's return value. */
export function resourceContents(uri: string, mimeType: string | undefined, returned: ResourceReturn): JsonObject[] {
  const withDefaults = (content: JsonObject): JsonObject => {
    const out: JsonObject = { uri: typeof content.uri === "string" ? content.uri : uri };
    const type = typeof content.mimeType === "string" ? content.mimeType : mimeType;
    if (type !== undefined) out.mimeType = type;
    if (typeof content.text === "string") out.text = content.text;
    else if (typeof content.blob === "string") out.blob = content.blob;
    else throw new RpcError(ErrorCode.InternalError, `Resource ${uri}: contents need text or blob`);
    if (content._meta !== undefined) out._meta = content._meta;
    return out;
  };
  if (typeof returned === "string") return [withDefaults({ text: returned })];
  if (returned instanceof Uint8Array) return [withDefaults({ blob: base64Encode(returned) })];
  if (Array.isArray(returned)) return (returned as JsonObject[]).map(withDefaults);
  return [withDefaults(returned as JsonObject)];
}

/** prompts/get result from a handler's return value. */
export function promptResult(returned: PromptReturn<unknown>): JsonObject {
  if (Array.isArray(returned)) return { messages: returned };
  const value = returned as { description?: string; messages: readonly unknown[] };
  return value.description === undefined
    ? { messages: value.messages }
    : { description: value.description, messages: value.messages };
}
