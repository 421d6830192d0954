// A client channel to a Streamable HTTP endpoint, using fetch. Each message is a POST;
// replies come back as JSON or as an SSE stream, resumed with GET and Last-Event-ID when
// the server ends it early. Modern requests carry the mirrored headers (MCP-Protocol-Version,
// Mcp-Method, Mcp-Name, Mcp-Param-*); legacy ones the session id, and a legacy session
// listens on the GET stream for what the server sends outside any request.
import type { JsonRpcMessage, JsonRpcRequest, RequestId } from "../jsonrpc/messages.js";
import { parseBody, parseMessage } from "../jsonrpc/parse.js";
import { serializeMessage } from "../jsonrpc/serialize.js";
import type { ChannelHandlers, ClientChannel } from "../mcp/client.js";
import { hasProtocolVersionHeader, MetaKey } from "../mcp/revisions.js";
import { encodeHeaderValue, namedMethods, paramHeaderText, toolParamHeaders } from "../mcp/mirrored-headers.js";
import { readSse, type SseState } from "./sse-reader.js";

export interface HttpChannelOptions {
  /** Extra headers for every request (authorization, say). */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  readonly fetch?: typeof fetch | undefined;
  /** Authorization for every request (OAuth: see @mcp-gen/runtime/oauth). */
  readonly auth?: HttpAuth | undefined;
}

/**
 * What authorizes a channel's requests. The channel asks it for the Authorization header
 * of every request, and tells it about 401 and 403 challenges; the provider decides
 * whether to try again (and must itself bound step-up attempts).
 */
export interface HttpAuth {
  /** The Authorization header value for the next request to `url`, if any (e.g. "Bearer abc"). */
  authorization(url: URL): Promise<string | undefined> | string | undefined;
  /** Called when the server answered 401 or 403 with a WWW-Authenticate challenge; resolves true when credentials changed and the request should be sent again. */
  challenged(response: Response, url: URL): Promise<boolean>;
}

/** Times one message is sent again after challenges, whatever the provider says (no endless loops). */
const MAX_AUTH_RESENDS = 3;

/** An HTTP reply that carried no JSON-RPC answer. */
export class HttpStatusError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
  ) {
    super(`HTTP ${status}${body ? `: ${body.slice(0, 200)}` : ""}`);
    this.name = "HttpStatusError";
  }
}

/** Delay before reconnecting an SSE stream when the server named none (`retry:`). */
const DEFAULT_RETRY_MS = 1_000;
/** Reconnections in a row that bring nothing new before a stream is given up. */
const MAX_IDLE_RECONNECTS = 3;

/** Waits `ms`, or less if `signal` aborts. */
const delay = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolveDelay) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolveDelay();
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolveDelay();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });

export function httpChannel(url: string | URL, options: HttpChannelOptions = {}): ClientChannel {
  const rawFetch = options.fetch ?? fetch;
  const endpoint = new URL(url);
  const auth = options.auth;
  /**
   * Sends a request with the provider's Authorization header; on a 401 or 403 challenge
   * the provider may renew credentials and the same request goes again (headers rebuilt).
   */
  const doFetch = async (target: string | URL, init: RequestInit & { headers: Record<string, string> }, id?: RequestId): Promise<Response> => {
    if (!auth) return rawFetch(target, init);
    // Authorizing may wait on the user for minutes: the request's own timeout waits too.
    const hold = () => (id === undefined ? undefined : handlers?.hold?.(id));
    for (let resends = 0; ; resends++) {
      const headers = { ...init.headers };
      const releaseRefresh = hold();
      const authorization = await Promise.resolve(auth.authorization(endpoint)).finally(() => releaseRefresh?.());
      if (authorization !== undefined) headers.authorization = authorization;
      const response = await rawFetch(target, { ...init, headers });
      if ((response.status !== 401 && response.status !== 403) || !response.headers.has("www-authenticate") || resends >= MAX_AUTH_RESENDS) return response;
      let again: boolean;
      const release = hold();
      try {
        again = await auth.challenged(response, endpoint);
      } catch (error) {
        await response.body?.cancel().catch(() => {});
        throw error;
      } finally {
        release?.();
      }
      if (!again) return response;
      await response.body?.cancel().catch(() => {});
    }
  };
  let handlers: ChannelHandlers | undefined;
  let protocol: { era: "modern" | "legacy"; revision: string } | undefined;
  let sessionId: string | undefined;
  const inflight = new Map<RequestId, AbortController>();
  // Ids of tools/list requests in flight, and what their answers declared: the channel
  // mirrors x-mcp-header arguments of later tools/call requests as Mcp-Param-* headers.
  const toolLists = new Set<RequestId>();
  const paramHeaders = new Map<string, Map<string, string>>();
  // The legacy standalone GET stream (server-initiated requests and notifications).
  const listening = new AbortController();

  const headersFor = (message: JsonRpcMessage): Record<string, string> => {
    const headers: Record<string, string> = {
      ...options.headers,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    };
    const method = (message as { method?: string }).method;
    const params = (message as JsonRpcRequest).params;
    const version = (params?._meta as Record<string, unknown> | undefined)?.[MetaKey.protocolVersion];
    if (typeof version === "string") {
      headers["mcp-protocol-version"] = version;
      if (method !== undefined) headers["mcp-method"] = method;
      const field = method === undefined ? undefined : namedMethods[method];
      const name = field === undefined ? undefined : params?.[field];
      if (typeof name === "string") headers["mcp-name"] = encodeHeaderValue(name);
      const args = params?.arguments;
      const declared = method === "tools/call" && typeof name === "string" ? paramHeaders.get(name) : undefined;
      if (declared && args !== null && typeof args === "object") {
        for (const [argument, header] of declared) {
          const text = paramHeaderText((args as Record<string, unknown>)[argument]);
          if (text !== undefined) headers[`mcp-param-${header.toLowerCase()}`] = encodeHeaderValue(text);
        }
      }
    } else if (protocol?.era === "legacy") {
      if (sessionId !== undefined) headers["mcp-session-id"] = sessionId;
      if (hasProtocolVersionHeader(protocol.revision)) headers["mcp-protocol-version"] = protocol.revision;
    }
    return headers;
  };

  /** Hands one inbound message to the session; returns whether it answered request `id`. */
  const deliver = (value: unknown, id: RequestId | undefined): boolean => {
    const message = value as { id?: RequestId; method?: unknown; result?: { tools?: unknown } } | null;
    if (message === null || typeof message !== "object") return false;
    const isResponse = message.method === undefined && message.id !== undefined;
    if (isResponse && toolLists.delete(message.id!) && Array.isArray(message.result?.tools)) {
      // SEP-2243: a tool with an invalid x-mcp-header declaration MUST be excluded, so the
      // session never sees it; the others' declarations are remembered for their calls.
      message.result.tools = message.result.tools.filter((tool: unknown) => {
        const name = (tool as { name?: unknown } | null)?.name;
        const headers = toolParamHeaders((tool as { inputSchema?: unknown } | undefined)?.inputSchema);
        if (typeof name === "string" && headers) paramHeaders.set(name, headers);
        return headers !== undefined;
      });
    }
    handlers?.receive(value);
    return isResponse && message.id === id;
  };

  /**
   * Reads an SSE response, delivering its messages, to its end or until one answers request
   * `id` (a resumed GET stream may stay open after that); returns whether one did.
   */
  const readStream = async (body: ReadableStream<Uint8Array>, id: RequestId | undefined, state: SseState): Promise<boolean> => {
    for await (const { data } of readSse(body, state)) {
      let value: unknown;
      try {
        value = parseMessage(data);
      } catch {
        continue; // A malformed event is skipped, as SSE readers do.
      }
      if (deliver(value, id)) {
        await body.cancel().catch(() => {});
        return true;
      }
    }
    return false;
  };

  /**
   * Reconnects to an SSE stream with GET and Last-Event-ID after the server's `retry:` delay
   * (the server may end a stream early and replay the rest on resumption, SEP-1699), until
   * request `id` is answered, the server refuses, or a few reconnections in a row bring nothing.
   */
  const resume = async (state: SseState, signal: AbortSignal, id: RequestId | undefined, immediate = false): Promise<boolean> => {
    let idle = 0;
    for (let first = true; !signal.aborted && idle < MAX_IDLE_RECONNECTS; first = false) {
      if (!(immediate && first)) await delay(state.retryMs ?? DEFAULT_RETRY_MS, signal);
      if (signal.aborted) return false;
      const headers: Record<string, string> = { ...options.headers, accept: "text/event-stream" };
      if (sessionId !== undefined) headers["mcp-session-id"] = sessionId;
      if (protocol && hasProtocolVersionHeader(protocol.revision)) headers["mcp-protocol-version"] = protocol.revision;
      if (state.lastEventId !== undefined) headers["last-event-id"] = state.lastEventId;
      const response = await doFetch(url, { method: "GET", headers, signal });
      if (!response.ok || !(response.headers.get("content-type") ?? "").includes("text/event-stream") || !response.body) {
        await response.body?.cancel().catch(() => {});
        return false;
      }
      const before = state.lastEventId;
      if (await readStream(response.body, id, state)) return true;
      idle = state.lastEventId === before ? idle + 1 : 0;
    }
    return false;
  };

  /** Legacy sessions: the standalone GET stream, open while the channel is, resumed when the server ends it. */
  const listen = async () => {
    const state: SseState = { lastEventId: undefined, retryMs: undefined };
    // 405 (no stream offered) and failures end it quietly: requests still work over POST.
    await resume(state, listening.signal, undefined, true).catch(() => {});
  };

  const post = async (message: JsonRpcMessage) => {
    const id = "method" in message && "id" in message ? (message as JsonRpcRequest).id : undefined;
    const controller = new AbortController();
    if (id !== undefined) inflight.set(id, controller);
    if (id !== undefined && (message as JsonRpcRequest).method === "tools/list") toolLists.add(id);
    try {
      const response = await doFetch(url, { method: "POST", headers: headersFor(message), body: serializeMessage(message), signal: controller.signal }, id);
      const session = response.headers.get("mcp-session-id");
      if (session) sessionId = session;
      const type = response.headers.get("content-type") ?? "";
      if (type.includes("text/event-stream") && response.body) {
        const state: SseState = { lastEventId: undefined, retryMs: undefined };
        let answered = await readStream(response.body, id, state);
        // The stream ended before the answer: resumable if the server gave it event ids.
        if (id !== undefined && !answered && state.lastEventId !== undefined) {
          answered = await resume(state, controller.signal, id);
        }
        if (id !== undefined && !answered && !controller.signal.aborted) {
          handlers?.fail(id, new HttpStatusError(response.status, "the server ended the event stream without answering"));
        }
        return;
      }
      const text = await response.text();
      if (id === undefined) return;
      const value = parseBody(text);
      const error = (value as { error?: unknown } | undefined)?.error;
      // An OAuth error body ({"error": "insufficient_scope"}) is no JSON-RPC error object.
      if (value !== null && typeof value === "object" && ("result" in value || (error !== null && typeof error === "object"))) {
        // Transport-level errors come with a null id; they still answer this request.
        deliver({ ...(value as object), id }, id);
      } else handlers?.fail(id, new HttpStatusError(response.status, text));
    } catch (error) {
      if (id !== undefined && !controller.signal.aborted) handlers?.fail(id, error instanceof Error ? error : new Error(String(error)));
    } finally {
      if (id !== undefined) {
        inflight.delete(id);
        toolLists.delete(id);
      }
    }
  };

  return {
    kind: "http",
    async start(h) {
      handlers = h;
    },
    setProtocol(p) {
      protocol = p;
    },
    declareParamHeaders(tool, headers) {
      paramHeaders.set(tool, new Map(headers));
    },
    send(message) {
      // Modern HTTP cancels a request by closing its stream, not with a notification.
      if ("method" in message && message.method === "notifications/cancelled" && protocol?.era === "modern") {
        const requestId = message.params?.requestId as RequestId | undefined;
        if (requestId !== undefined) inflight.get(requestId)?.abort();
        return;
      }
      void post(message);
      // Once a legacy session is initialized, the server may send requests (elicitation,
      // sampling, roots) and notifications outside any request: open the GET stream for them.
      if ("method" in message && message.method === "notifications/initialized" && protocol?.era === "legacy") void listen();
    },
    async close() {
      listening.abort();
      for (const controller of inflight.values()) controller.abort();
      inflight.clear();
      if (protocol?.era === "legacy" && sessionId !== undefined) {
        await doFetch(url, { method: "DELETE", headers: { ...options.headers, "mcp-session-id": sessionId } }).then(
          (r) => r.body?.cancel(),
          () => {},
        );
      }
      handlers?.closed();
    },
  };
}
