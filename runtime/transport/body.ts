// Reading a POSTed JSON-RPC body under the HTTP bindings' limits: its size (413), how long it
// may take to arrive (408), how many are read at once (503), and its JSON (400).
import { ErrorCode, errorResponse } from "../jsonrpc/messages.js";
import { parseMessage } from "../jsonrpc/parse.js";
import { serializeMessage } from "../jsonrpc/serialize.js";

/** A body over the size limit. */
export class BodyTooLargeError extends Error {}
/** The client did not send the whole body in time. */
export class BodyTimeoutError extends Error {}

/** JSON-RPC code (implementation-defined server error) of the bindings' 503 answers. */
export const SERVER_BUSY = -32000;

export interface BodyLimitOptions {
  readonly maxBodyBytes?: number | undefined;
  readonly maxConcurrentBodies?: number | undefined;
  readonly bodyTimeoutMs?: number | undefined;
}

/** A refusal, as the bindings' replies are shaped. */
export interface BodyRefusal {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

const refusal = (status: number, code: number, message: string, headers: Record<string, string> = {}): BodyRefusal => ({
  status,
  headers: { "content-type": "application/json", ...headers },
  body: serializeMessage(errorResponse(null, code, message)),
});
/** For replies sent before the body was read whole: the connection cannot carry another request. */
const closeHeaders = { connection: "close" };

export class BodyLimits {
  readonly maxBodyBytes: number;
  readonly maxConcurrentBodies: number;
  readonly bodyTimeoutMs: number;
  private reading = 0;

  constructor(options: BodyLimitOptions) {
    this.maxBodyBytes = options.maxBodyBytes ?? 4 * 1024 * 1024;
    this.maxConcurrentBodies = options.maxConcurrentBodies ?? 512;
    this.bodyTimeoutMs = options.bodyTimeoutMs ?? 30_000;
  }

  /** Reads and parses a body with `text(limit, timeoutMs)`; resolves with the value or the reply refusing it. */
  async read(text: (limit: number, timeoutMs: number) => Promise<string>): Promise<{ readonly value: unknown } | { readonly refused: BodyRefusal }> {
    if (this.reading >= this.maxConcurrentBodies) {
      return { refused: refusal(503, SERVER_BUSY, "Service Unavailable: too many requests are being read; retry later", { "retry-after": "1" }) };
    }
    let raw: string;
    this.reading++;
    try {
      raw = await text(this.maxBodyBytes, this.bodyTimeoutMs);
    } catch (error) {
      if (error instanceof BodyTooLargeError) return { refused: refusal(413, ErrorCode.InvalidRequest, `Payload Too Large: limit is ${this.maxBodyBytes} bytes`, closeHeaders) };
      if (error instanceof BodyTimeoutError) {
        return { refused: refusal(408, ErrorCode.InvalidRequest, `Request Timeout: the body did not arrive within ${this.bodyTimeoutMs} ms`, closeHeaders) };
      }
      throw error;
    } finally {
      this.reading--;
    }
    try {
      return { value: parseMessage(raw) };
    } catch (error) {
      return { refused: refusal(400, ErrorCode.ParseError, `Parse error: ${(error as Error).message}`) };
    }
  }
}
