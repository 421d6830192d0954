// The request and reply shapes the HTTP bindings work on, and the replies they build: a
// minimal request (so the web-standard handler and the node:http adapter both stay thin), a
// reply that is a body or an SSE stream, and JSON-RPC error replies.
import { ErrorCode, errorResponse, type JsonRpcMessage, type RequestId } from "../jsonrpc/messages.js";
import { serializeMessage } from "../jsonrpc/serialize.js";
import type { BodyBudget } from "./body.js";
import { SseStream } from "./sse.js";

/** The little an HTTP binding needs from a request. Header names are lower case. */
export interface HttpRequestLike {
  readonly method: string;
  /** The request's absolute URL (needed to serve and name the protected resource metadata). */
  readonly url?: string | undefined;
  header(name: string): string | undefined;
  /**
   * The body as text; rejects with BodyTooLargeError past `limit` bytes, with
   * BodyTimeoutError when it is not complete within `timeoutMs` (0 or absent: no limit), and
   * with BodyBudgetError when `budget` refuses to reserve its bytes.
   */
  text(limit: number, timeoutMs?: number, budget?: BodyBudget): Promise<string>;
  /** Aborted when the client disconnects. */
  readonly signal?: AbortSignal | undefined;
  /**
   * Calls `callback` if the client disconnects before the reply is complete. Preferred
   * over `signal` when present: adapters can implement it without an AbortController
   * per request.
   */
  onDisconnect?(callback: () => void): void;
}

/** Calls `callback` when the client goes away before the reply is complete. */
export function onDisconnect(request: HttpRequestLike, callback: () => void): void {
  if (request.onDisconnect) request.onDisconnect(callback);
  else request.signal?.addEventListener("abort", callback, { once: true });
}

export type HttpReply =
  | { readonly status: number; readonly headers: Record<string, string>; readonly body?: string | undefined }
  | { readonly status: number; readonly headers: Record<string, string>; readonly stream: SseStream };

export const jsonHeaders = { "content-type": "application/json" };
export const sseHeaders = {
  "content-type": "text/event-stream",
  "cache-control": "no-cache",
  "x-accel-buffering": "no",
};

export function jsonReply(status: number, body: unknown, headers: Record<string, string> = {}): HttpReply {
  // serializeMessage: a BigInt id (past 2^53) is written back digit for digit.
  return {
    status,
    headers: { ...jsonHeaders, ...headers },
    body: typeof body === "string" ? body : serializeMessage(body as JsonRpcMessage),
  };
}

export function errorReply(
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
  data?: unknown,
): HttpReply {
  return jsonReply(status, errorResponse(null, code, message, data), headers);
}

export function duplicateId(id: RequestId): JsonRpcMessage {
  return errorResponse(id, ErrorCode.InvalidRequest, "Invalid request: id is already in use by a request in progress");
}

export function isResponse(message: JsonRpcMessage): boolean {
  return "result" in message || "error" in message;
}

/** An SSE reply without events, closed at once: the POST of a request that ends without a response. */
export function emptyStream(headers: Record<string, string>): HttpReply {
  const stream = new SseStream();
  stream.end();
  return { status: 200, headers: { ...sseHeaders, ...headers }, stream };
}
