// What the Streamable HTTP binding checks before it reads a message: Host and Origin
// (DNS-rebinding protection, see host-check.ts), CORS for the origins it shares with, and a
// POST's Content-Type and Accept.
import { ErrorCode } from "../jsonrpc/messages.js";
import type { HostCheck } from "./host-check.js";
import { errorReply, type HttpReply, type HttpRequestLike } from "./http-reply.js";

/**
 * CORS headers for an allowed `origin`: the origin itself on every reply, and for a preflight
 * (`requested` = its Access-Control-Request-Headers) the methods and MCP request headers,
 * Mcp-Param-* (2026-07-28 mirrored arguments) included.
 */
export function corsHeaders(origin: string, requested?: string): Record<string, string> {
  const headers: Record<string, string> = { "access-control-allow-origin": origin, vary: "origin" };
  if (requested === undefined)
    return { ...headers, "access-control-expose-headers": "mcp-session-id, mcp-protocol-version, www-authenticate" };
  // Each name once, and only so many (of a sane length), so the reply stays small whatever is asked.
  const requestedParams = requested
    .split(",")
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name.length <= 256 && /^mcp-param-[!#$%&'*+\-.^_`|~0-9a-z]+$/.test(name));
  const params = [...new Set(requestedParams)].slice(0, 100);
  const allowed = [
    "content-type",
    "accept",
    "mcp-protocol-version",
    "mcp-session-id",
    "mcp-method",
    "mcp-name",
    "last-event-id",
    "authorization",
    ...params,
  ];
  return {
    ...headers,
    "access-control-allow-methods": "POST, GET, DELETE",
    "access-control-allow-headers": allowed.join(", "),
    "access-control-max-age": "600",
  };
}

/** 403 when the Host header names no allowed host. */
export function checkHost(hostCheck: HostCheck, request: HttpRequestLike): HttpReply | undefined {
  const problem = hostCheck.hostProblem(request.header("host"));
  return problem === undefined ? undefined : errorReply(403, ErrorCode.InvalidRequest, problem);
}

/** 403 when the Host header names no allowed host, or a browser's Origin is not allowed. */
export function checkHostAndOrigin(hostCheck: HostCheck, request: HttpRequestLike): HttpReply | undefined {
  const problem = hostCheck.hostProblem(request.header("host")) ?? hostCheck.originProblem(request.header("origin"));
  return problem === undefined ? undefined : errorReply(403, ErrorCode.InvalidRequest, problem);
}

/** 415 or 406 for a POST whose body is not JSON or whose client cannot read both reply forms. */
export function checkPostHeaders(request: HttpRequestLike): HttpReply | undefined {
  const contentType = request.header("content-type") ?? "";
  if (!contentType.toLowerCase().includes("application/json")) {
    return errorReply(415, ErrorCode.InvalidRequest, "Unsupported Media Type: Content-Type must be application/json");
  }
  const accept = (request.header("accept") ?? "").toLowerCase();
  const acceptsAll = accept.includes("*/*");
  if (!acceptsAll && !(accept.includes("application/json") && accept.includes("text/event-stream"))) {
    return errorReply(
      406,
      ErrorCode.InvalidRequest,
      "Not Acceptable: Accept must list application/json and text/event-stream",
    );
  }
  return undefined;
}
