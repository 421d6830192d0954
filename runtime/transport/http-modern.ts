// The modern era (2026-07-28) on HTTP: headers mirror the body (MCP-Protocol-Version,
// Mcp-Method, Mcp-Name, the Mcp-Param-* arguments a tool declares) and are checked against
// it; protocol errors map onto 4xx statuses.
import { ErrorCode, isObject, type JsonRpcMessage } from "../jsonrpc/messages.js";
import type { McpEndpoint } from "../mcp/server.js";
import { MetaKey } from "../mcp/revisions.js";
import { decodeHeaderValue, namedMethods, paramHeaderMismatch } from "../mcp/mirrored-headers.js";
import { excerpt } from "../excerpt.js";
import type { HttpRequestLike } from "./http-reply.js";

/** Text for an error message of any value that came from JSON (whose String() may throw). */
function describe(value: unknown): string {
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value) ?? typeof value;
  } catch {
    return typeof value;
  }
}

/** HTTP status of a modern error response: the binding maps protocol errors onto 4xx. */
export function modernStatus(message: JsonRpcMessage): number {
  if (!("error" in message)) return 200;
  switch (message.error.code) {
    case ErrorCode.MethodNotFound:
      return 404;
    case ErrorCode.ParseError:
    case ErrorCode.InvalidRequest:
    case ErrorCode.InvalidParams:
    case ErrorCode.HeaderMismatch:
    case ErrorCode.MissingRequiredClientCapability:
    case ErrorCode.UnsupportedProtocolVersion:
      return 400;
    default:
      return 200;
  }
}

/** Checks the modern request headers against the body; returns why they disagree, if they do. */
export function headerMismatch(
  request: HttpRequestLike,
  method: string,
  params: Record<string, unknown> | undefined,
  server: McpEndpoint,
): string | undefined {
  const meta = isObject(params?._meta) ? params._meta : undefined;
  const bodyVersion = meta?.[MetaKey.protocolVersion];
  const version = request.header("mcp-protocol-version");
  if (version === undefined) return "required header MCP-Protocol-Version is missing";
  if (typeof bodyVersion === "string" && version !== bodyVersion) {
    return `MCP-Protocol-Version header value '${excerpt(version)}' does not match body value '${excerpt(bodyVersion)}'`;
  }
  const headerMethod = request.header("mcp-method");
  if (headerMethod === undefined) return "required header Mcp-Method is missing";
  if (headerMethod !== method)
    return `Mcp-Method header value '${excerpt(headerMethod)}' does not match body value '${excerpt(method)}'`;
  const field = namedMethods[method];
  if (field !== undefined) {
    const raw = request.header("mcp-name");
    if (raw === undefined) return "required header Mcp-Name is missing";
    const name = decodeHeaderValue(raw);
    if (name === undefined) return "Mcp-Name header has an invalid base64 value";
    const bodyValue = params?.[field];
    if (name !== bodyValue)
      return `Mcp-Name header value '${excerpt(name)}' does not match body value '${excerpt(describe(bodyValue))}'`;
    // The arguments of the tool mirrored into Mcp-Param-* headers (`x-mcp-header`): argument -> header name.
    const table = server.definition?.paramHeaders;
    const declared =
      method === "tools/call" && typeof bodyValue === "string" && table && Object.hasOwn(table, bodyValue)
        ? table[bodyValue]
        : undefined;
    if (declared) return paramHeaderMismatch(declared, params?.arguments, (header) => request.header(header));
  }
  return undefined;
}
