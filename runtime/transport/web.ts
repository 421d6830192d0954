// The Streamable HTTP binding as a web-standard handler, `(Request) => Promise<Response>`,
// for Deno, Bun, Cloudflare Workers, Vercel/Netlify functions and any fetch-style router.
import type { McpEndpoint } from "../mcp/server.js";
import { BodyBudgetError, BodyTimeoutError, BodyTooLargeError, type BodyBudget } from "./body.js";
import { StreamableHttpBinding, type HttpOptions, type HttpReply, type HttpRequestLike } from "./http.js";

export interface WebHandler {
  (request: Request): Promise<Response>;
  /** Ends legacy sessions and their streams. */
  close(): void;
}

/**
 * Reads a web Request's body up to `limit` bytes within `timeoutMs` (0: no limit), reserving
 * its bytes from `budget` (all of a declared Content-Length at once, else chunk by chunk).
 */
export async function readLimited(
  request: Request,
  limit: number,
  timeoutMs: number,
  budget?: BodyBudget,
): Promise<string> {
  const length = request.headers.get("content-length");
  const declared = length === null ? undefined : Number(length);
  if (declared !== undefined && declared > limit) throw new BodyTooLargeError();
  if (!request.body) return "";
  const whole = declared !== undefined && Number.isSafeInteger(declared) && declared >= 0;
  if (whole && budget && !budget.reserve(declared)) {
    await request.body.cancel().catch(() => {});
    throw new BodyBudgetError();
  }
  const reader = request.body.getReader();
  // One buffer of the declared size; chunks (then one copy) when the size is not known.
  let bytes: Uint8Array | undefined = whole ? new Uint8Array(declared) : undefined;
  let chunks: Uint8Array[] = [];
  let size = 0;
  let timedOut = false;
  const timer =
    timeoutMs > 0
      ? setTimeout(() => {
          timedOut = true;
          reader.cancel().catch(() => {});
        }, timeoutMs)
      : undefined;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (size + value.byteLength > (bytes ? bytes.byteLength : limit)) {
        await reader.cancel();
        throw new BodyTooLargeError();
      }
      if (bytes) bytes.set(value, size);
      else if (budget && !budget.reserve(value.byteLength)) {
        await reader.cancel();
        throw new BodyBudgetError(true);
      } else chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
  if (timedOut) throw new BodyTimeoutError();
  if (!bytes) {
    bytes = new Uint8Array(size);
    let offset = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, offset);
      offset += chunk.byteLength;
    }
    chunks = [];
  }
  return new TextDecoder().decode(bytes.subarray(0, size));
}

export function toResponse(reply: HttpReply): Response {
  if (!("stream" in reply)) return new Response(reply.body ?? null, { status: reply.status, headers: reply.headers });
  const encoder = new TextEncoder();
  const { stream } = reply;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      stream.attach(
        (chunk) => controller.enqueue(encoder.encode(chunk)),
        () => controller.close(),
      );
    },
    cancel() {
      stream.cancel();
    },
  });
  return new Response(body, { status: reply.status, headers: reply.headers });
}

/** A web Request as the bindings see it. */
export function requestLike(request: Request): HttpRequestLike {
  return {
    method: request.method,
    url: request.url,
    header: (name) => request.headers.get(name) ?? undefined,
    text: (limit, timeoutMs, budget) => readLimited(request, limit, timeoutMs ?? 0, budget),
    signal: request.signal,
  };
}

/**
 * Serves `server` over Streamable HTTP as a fetch-style handler. Mount it at your MCP endpoint
 * path; with `auth`, route `/.well-known/oauth-protected-resource` and the paths below it
 * to it as well (it serves the protected resource metadata there).
 */
export function createWebHandler(server: McpEndpoint, options?: HttpOptions): WebHandler {
  const binding = new StreamableHttpBinding(server, options);
  const handler = async (request: Request): Promise<Response> => {
    return toResponse(await binding.handle(requestLike(request)));
  };
  return Object.assign(handler, { close: () => binding.close() });
}
