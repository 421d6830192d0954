// JSON-RPC 2.0 message shapes, error codes and envelope checks. Framing-free: transports
// turn bytes into values, this module tells requests, notifications and responses apart.
import { brand } from "./brand.js";

/** A request id as received: a string or an integer (a BigInt past 2^53, see parseMessage). */
export type RequestId = string | number | bigint;
export type Params = Record<string, unknown>;

export interface JsonRpcRequest {
  readonly jsonrpc: "2.0";
  readonly id: RequestId;
  readonly method: string;
  readonly params?: Params | undefined;
}

export interface JsonRpcNotification {
  readonly jsonrpc: "2.0";
  readonly method: string;
  readonly params?: Params | undefined;
}

export interface JsonRpcResult {
  readonly jsonrpc: "2.0";
  readonly id: RequestId;
  readonly result: Params;
}

export interface JsonRpcErrorObject {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

export interface JsonRpcErrorResponse {
  readonly jsonrpc: "2.0";
  readonly id: RequestId | null;
  readonly error: JsonRpcErrorObject;
}

export type JsonRpcResponse = JsonRpcResult | JsonRpcErrorResponse;
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

/** Standard JSON-RPC codes and the codes MCP defines. */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** 2025-11-25 and earlier: resources/read of an unknown URI. */
  ResourceNotFound: -32002,
  /** 2026-07-28: HTTP headers disagree with the body. */
  HeaderMismatch: -32020,
  /** 2026-07-28: the request needs a client capability the client did not declare. */
  MissingRequiredClientCapability: -32021,
  /** 2026-07-28: the requested protocol version is not served. */
  UnsupportedProtocolVersion: -32022,
} as const;

/** An error to send to the peer as a JSON-RPC error response. Handlers throw it for protocol errors. */
export class RpcError extends Error {
  static {
    brand(this, "RpcError");
  }

  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = "RpcError";
  }

  toJSON(): JsonRpcErrorObject {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}

/** The -32602 error of a request whose params are wrong: `Invalid params: <problem>`. */
export function invalidParams(problem: string): RpcError {
  return new RpcError(ErrorCode.InvalidParams, `Invalid params: ${problem}`);
}

export type Classified =
  | { readonly kind: "request"; readonly message: JsonRpcRequest }
  | { readonly kind: "notification"; readonly message: JsonRpcNotification }
  | { readonly kind: "response"; readonly message: JsonRpcResponse }
  | { readonly kind: "invalid"; readonly id: RequestId | null; readonly reason: string };

/** A JSON object: not null, not an array. Shared by every runtime module that inspects messages. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Whether `id` is a valid request id: a string or an integer (MCP forbids null). */
export function validId(id: unknown): id is RequestId {
  return typeof id === "string" || (typeof id === "number" && Number.isInteger(id)) || typeof id === "bigint";
}

/** Tells what kind of JSON-RPC message a parsed value is, or why it is not one. */
export function classify(value: unknown): Classified {
  if (!isObject(value)) return { kind: "invalid", id: null, reason: "a JSON-RPC message must be an object" };
  const id = value.id;
  if (value.jsonrpc !== "2.0") return { kind: "invalid", id: validId(id) ? id : null, reason: 'jsonrpc must be "2.0"' };
  if (typeof value.method === "string") {
    if (value.params !== undefined && !isObject(value.params)) {
      return { kind: "invalid", id: validId(id) ? id : null, reason: "params must be an object" };
    }
    if (id === undefined) return { kind: "notification", message: value as unknown as JsonRpcNotification };
    // MCP forbids null ids (JSON-RPC allows them).
    if (!validId(id)) return { kind: "invalid", id: null, reason: "id must be a string or an integer" };
    return { kind: "request", message: value as unknown as JsonRpcRequest };
  }
  if ("result" in value || "error" in value) {
    if (!validId(id) && !(id === null && "error" in value))
      return { kind: "invalid", id: null, reason: "response id must be a string or an integer" };
    const error = value.error as Record<string, unknown> | undefined;
    const message = error?.message;
    if ("error" in value && !(Number.isInteger(error?.code) && typeof message === "string")) {
      // Still the one answer to request `id`: it fails at once rather than at its timeout.
      return {
        kind: "response",
        message: errorResponse(
          id,
          ErrorCode.InternalError,
          `Malformed error response${typeof message === "string" && message ? `: ${message}` : ""}`,
          error,
        ),
      };
    }
    return { kind: "response", message: value as unknown as JsonRpcResponse };
  }
  return {
    kind: "invalid",
    id: validId(id) ? id : null,
    reason: "a JSON-RPC message needs a method, a result or an error",
  };
}

export function errorResponse(
  id: RequestId | null,
  code: number,
  message: string,
  data?: unknown,
): JsonRpcErrorResponse {
  return data === undefined
    ? { jsonrpc: "2.0", id, error: { code, message } }
    : { jsonrpc: "2.0", id, error: { code, message, data } };
}

/** Maps anything a handler may throw to the error object sent to the peer; unknown errors stay opaque. */
export function toErrorObject(error: unknown): JsonRpcErrorObject {
  if (error instanceof RpcError) return error.toJSON();
  return { code: ErrorCode.InternalError, message: "Internal error" };
}
