// Bounded outbound HTTP for the authorization layers: every request the runtime makes to an
// authorization server (metadata, JWKS, registration, token, refresh) gets a deadline that
// covers the whole exchange, a cap on the body it reads, and no redirects followed, so a
// server that never answers, answers forever or redirects elsewhere cannot hold us.

export interface OutboundLimits {
  /** Milliseconds for the whole exchange, headers and body. Default 10,000. */
  readonly timeoutMs?: number | undefined;
  /** Bytes of response body read at most. Default 1 MiB. */
  readonly maxBytes?: number | undefined;
}

export const DEFAULT_OUTBOUND_TIMEOUT_MS = 10_000;
export const DEFAULT_OUTBOUND_MAX_BYTES = 1024 * 1024;

/** An outbound request that timed out, was too large, or could not be made. */
export class OutboundError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "OutboundError";
  }
}

const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

/**
 * `fetchFn` with limits: the response comes back with its body already read (at most
 * `maxBytes`), within `timeoutMs`, or the call rejects with an OutboundError. A redirect
 * is not followed: its 3xx response is what the caller sees. The caller's own signal is
 * honoured too.
 */
export function boundedFetch(fetchFn: typeof fetch, limits: OutboundLimits = {}): typeof fetch {
  const timeoutMs = limits.timeoutMs ?? DEFAULT_OUTBOUND_TIMEOUT_MS;
  const maxBytes = limits.maxBytes ?? DEFAULT_OUTBOUND_MAX_BYTES;
  return async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    const deadline = AbortSignal.timeout(timeoutMs);
    const signal = init?.signal ? AbortSignal.any([init.signal, deadline]) : deadline;
    const failed = (error: unknown): never => {
      if (deadline.aborted) throw new OutboundError(`${url} did not answer within ${timeoutMs} ms`, { cause: error });
      if (error instanceof OutboundError) throw error;
      if (init?.signal?.aborted) throw init.signal.reason;
      throw new OutboundError(`${url}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    };
    try {
      const response = await fetchFn(input, { ...init, signal, redirect: "manual" });
      const body = await readCapped(response, maxBytes, url);
      return new Response(NULL_BODY_STATUSES.has(response.status) ? null : body, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    } catch (error) {
      return failed(error);
    }
  };
}

/** The body of `response`, refused once it passes `maxBytes` (declared or actual). */
async function readCapped(response: Response, maxBytes: number, url: string): Promise<Uint8Array<ArrayBuffer>> {
  const tooLarge = () => new OutboundError(`${url} answered more than ${maxBytes} bytes`);
  const declared = Number(response.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => {});
    throw tooLarge();
  }
  if (!response.body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.byteLength;
  }
  return body;
}
