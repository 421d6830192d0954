// Reading a POSTed JSON-RPC body under the HTTP bindings' limits: its size (413), how long it
// may take to arrive (408), how many are read at once and how many bytes they hold together
// (503), and its JSON (400).
import { ErrorCode, errorResponse } from "../jsonrpc/messages.js";
import { parseMessage } from "../jsonrpc/parse.js";
import { serializeMessage } from "../jsonrpc/serialize.js";

/** A body over the size limit. */
export class BodyTooLargeError extends Error {}
/** The client did not send the whole body in time. */
export class BodyTimeoutError extends Error {}
/**
 * The body does not fit in what is left of the bytes all bodies being read may hold. `midway`:
 * part of it was read (a chunked body), so the reply closes the connection; refused before
 * any of it was kept, the rest is read and dropped and the connection can carry another request.
 */
export class BodyBudgetError extends Error {
  constructor(readonly midway = false) {
    super("request bodies being read hold too many bytes");
  }
}

/**
 * The bytes the bodies being read may still hold: a reader reserves each body's bytes before it
 * keeps them (the whole Content-Length at once when it is declared) and throws
 * BodyBudgetError when `reserve` answers false.
 */
export interface BodyBudget {
  reserve(bytes: number): boolean;
}

/** JSON-RPC code (implementation-defined server error) of the bindings' 503 answers. */
export const SERVER_BUSY = -32000;

export interface BodyLimitOptions {
  readonly maxBodyBytes?: number | undefined;
  readonly maxConcurrentBodies?: number | undefined;
  readonly bodyTimeoutMs?: number | undefined;
  readonly maxBufferedBodyBytes?: number | undefined;
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
/**
 * 64 MiB: sixteen bodies of the largest default size at once, or thousands of ordinary ones
 * (a few KB), while their bytes, decoded text and parsed values (about three times the bytes)
 * stay within ~200 MB, which a 512 MB container has room for beside Node itself.
 */
export const DEFAULT_MAX_BUFFERED_BODY_BYTES = 64 * 1024 * 1024;

/** 4 MiB: the largest body a request may have by default (maxBodyBytes). */
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

/** For replies sent before the body was read whole: the connection cannot carry another request. */
const closeHeaders = { connection: "close" };

export class BodyLimits {
  readonly maxBodyBytes: number;
  readonly maxConcurrentBodies: number;
  readonly bodyTimeoutMs: number;
  readonly maxBufferedBodyBytes: number;
  private reading = 0;
  /** Bytes reserved by the bodies being read. */
  private buffered = 0;

  constructor(options: BodyLimitOptions) {
    this.maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    this.maxConcurrentBodies = options.maxConcurrentBodies ?? 512;
    this.bodyTimeoutMs = options.bodyTimeoutMs ?? 30_000;
    this.maxBufferedBodyBytes = options.maxBufferedBodyBytes ?? DEFAULT_MAX_BUFFERED_BODY_BYTES;
  }

  /** Reads and parses a body with `text(limit, timeoutMs, budget)`; resolves with the value or the reply refusing it. */
  async read(
    text: (limit: number, timeoutMs: number, budget: BodyBudget) => Promise<string>,
  ): Promise<{ readonly value: unknown } | { readonly refused: BodyRefusal }> {
    if (this.reading >= this.maxConcurrentBodies) {
      return {
        refused: refusal(503, SERVER_BUSY, "Service Unavailable: too many requests are being read; retry later", {
          "retry-after": "1",
        }),
      };
    }
    // This body's share of `buffered`, given back once it is parsed (its bytes and text are garbage then).
    let reserved = 0;
    const budget: BodyBudget = {
      reserve: (bytes) => {
        if (this.buffered + bytes > this.maxBufferedBodyBytes) return false;
        this.buffered += bytes;
        reserved += bytes;
        return true;
      },
    };
    let raw: string;
    this.reading++;
    try {
      raw = await text(this.maxBodyBytes, this.bodyTimeoutMs, budget);
    } catch (error) {
      this.buffered -= reserved;
      if (error instanceof BodyBudgetError) {
        return {
          refused: refusal(
            503,
            SERVER_BUSY,
            `Service Unavailable: the request bodies being read hold ${this.maxBufferedBodyBytes} bytes at most; retry later`,
            {
              "retry-after": "1",
              ...(error.midway ? closeHeaders : {}),
            },
          ),
        };
      }
      if (error instanceof BodyTooLargeError)
        return {
          refused: refusal(
            413,
            ErrorCode.InvalidRequest,
            `Payload Too Large: limit is ${this.maxBodyBytes} bytes`,
            closeHeaders,
          ),
        };
      if (error instanceof BodyTimeoutError) {
        return {
          refused: refusal(
            408,
            ErrorCode.InvalidRequest,
            `Request Timeout: the body did not arrive within ${this.bodyTimeoutMs} ms`,
            closeHeaders,
          ),
        };
      }
      throw error;
    } finally {
      this.reading--;
    }
    try {
      return { value: parseMessage(raw) };
    } catch (error) {
      return { refused: refusal(400, ErrorCode.ParseError, `Parse error: ${(error as Error).message}`) };
    } finally {
      this.buffered -= reserved;
    }
  }
}
