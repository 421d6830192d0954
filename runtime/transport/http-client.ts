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
  return new HttpChannel(url, options);
}

/** An SSE reply's or stream's reading position: where to resume from, and when. */
const freshStream = (): SseState => ({ lastEventId: undefined, retryMs: undefined });

class HttpChannel implements ClientChannel {
  readonly kind = "http";
  private readonly rawFetch: typeof fetch;
  private readonly endpoint: URL;
  private handlers: ChannelHandlers | undefined;
  private protocol: { readonly era: "modern" | "legacy"; readonly revision: string } | undefined;
  private sessionId: string | undefined;
  private readonly inflight = new Map<RequestId, AbortController>();
  // Ids of tools/list requests in flight, and what their answers declared: the channel
  // mirrors x-mcp-header arguments of later tools/call requests as Mcp-Param-* headers.
  private readonly toolLists = new Set<RequestId>();
  private readonly paramHeaders = new Map<string, Map<string, string>>();
  // The legacy standalone GET stream (server-initiated requests and notifications).
  private readonly listening = new AbortController();

  constructor(
    private readonly url: string | URL,
    private readonly options: HttpChannelOptions,
  ) {
    this.rawFetch = options.fetch ?? fetch;
    this.endpoint = new URL(url);
  }

  async start(handlers: ChannelHandlers): Promise<void> {
    this.handlers = handlers;
  }

  setProtocol(protocol: { readonly era: "modern" | "legacy"; readonly revision: string }): void {
    this.protocol = protocol;
  }

  declareParamHeaders(tool: string, headers: ReadonlyMap<string, string>): void {
    this.paramHeaders.set(tool, new Map(headers));
  }

  send(message: JsonRpcMessage): void {
    // Modern HTTP cancels a request by closing its stream, not with a notification.
    if ("method" in message && message.method === "notifications/cancelled" && this.protocol?.era === "modern") {
      const requestId = message.params?.requestId as RequestId | undefined;
      if (requestId !== undefined) this.inflight.get(requestId)?.abort();
      return;
    }
    void this.post(message);
    // Once a legacy session is initialized, the server may send requests (elicitation,
    // sampling, roots) and notifications outside any request: open the GET stream for them.
    if ("method" in message && message.method === "notifications/initialized" && this.protocol?.era === "legacy")
      void this.listen();
  }

  async close(): Promise<void> {
    this.listening.abort();
    for (const controller of this.inflight.values()) controller.abort();
    this.inflight.clear();
    if (this.protocol?.era === "legacy" && this.sessionId !== undefined) {
      await this.fetch(this.url, {
        method: "DELETE",
        headers: { ...this.options.headers, "mcp-session-id": this.sessionId },
      }).then(
        (r) => r.body?.cancel(),
        () => {},
      );
    }
    this.handlers?.closed();
  }

  /**
   * Sends a request with the provider's Authorization header; on a 401 or 403 challenge
   * the provider may renew credentials and the same request goes again (headers rebuilt).
   */
  private async fetch(
    target: string | URL,
    init: RequestInit & { headers: Record<string, string> },
    id?: RequestId,
  ): Promise<Response> {
    const auth = this.options.auth;
    if (!auth) return this.rawFetch(target, init);
    // Authorizing may wait on the user for minutes: the request's own timeout waits too.
    const hold = () => (id === undefined ? undefined : this.handlers?.hold?.(id));
    for (let resends = 0; ; resends++) {
      const headers = { ...init.headers };
      const releaseRefresh = hold();
      const authorization = await Promise.resolve(auth.authorization(this.endpoint)).finally(() => releaseRefresh?.());
      if (authorization !== undefined) headers.authorization = authorization;
      const response = await this.rawFetch(target, { ...init, headers });
      if (
        (response.status !== 401 && response.status !== 403) ||
        !response.headers.has("www-authenticate") ||
        resends >= MAX_AUTH_RESENDS
      )
        return response;
      let again: boolean;
      const release = hold();
      try {
        again = await auth.challenged(response, this.endpoint);
      } catch (error) {
        await response.body?.cancel().catch(() => {});
        throw error;
      } finally {
        release?.();
      }
      if (!again) return response;
      await response.body?.cancel().catch(() => {});
    }
  }

  /** The headers of a POST of `message`: modern ones mirror the body, legacy ones name the session. */
  private headersFor(message: JsonRpcMessage): Record<string, string> {
    const headers: Record<string, string> = {
      ...this.options.headers,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    };
    const params = (message as JsonRpcRequest).params;
    const version = (params?._meta as Record<string, unknown> | undefined)?.[MetaKey.protocolVersion];
    if (typeof version === "string") this.mirror(headers, version, (message as { method?: string }).method, params);
    else if (this.protocol?.era === "legacy") {
      if (this.sessionId !== undefined) headers["mcp-session-id"] = this.sessionId;
      if (hasProtocolVersionHeader(this.protocol.revision)) headers["mcp-protocol-version"] = this.protocol.revision;
    }
    return headers;
  }

  /** Modern requests: MCP-Protocol-Version, Mcp-Method, Mcp-Name and the tool's Mcp-Param-* headers. */
  private mirror(
    headers: Record<string, string>,
    version: string,
    method: string | undefined,
    params: JsonRpcRequest["params"],
  ): void {
    headers["mcp-protocol-version"] = version;
    if (method !== undefined) headers["mcp-method"] = method;
    const field = method === undefined ? undefined : namedMethods[method];
    const name = field === undefined ? undefined : params?.[field];
    if (typeof name === "string") headers["mcp-name"] = encodeHeaderValue(name);
    const args = params?.arguments;
    const declared = method === "tools/call" && typeof name === "string" ? this.paramHeaders.get(name) : undefined;
    if (!declared || args === null || typeof args !== "object") return;
    for (const [argument, header] of declared) {
      const text = paramHeaderText((args as Record<string, unknown>)[argument]);
      if (text !== undefined) headers[`mcp-param-${header.toLowerCase()}`] = encodeHeaderValue(text);
    }
  }

  /** Hands one inbound message to the session; returns whether it answered request `id`. */
  private deliver(value: unknown, id: RequestId | undefined): boolean {
    const message = value as { id?: RequestId; method?: unknown; result?: { tools?: unknown } } | null;
    if (message === null || typeof message !== "object") return false;
    const isResponse = message.method === undefined && message.id !== undefined;
    if (isResponse && this.toolLists.delete(message.id!) && Array.isArray(message.result?.tools)) {
      message.result.tools = this.keepDeclaredTools(message.result.tools);
    }
    this.handlers?.receive(value);
    return isResponse && message.id === id;
  }

  /**
   * SEP-2243: a tool with an invalid x-mcp-header declaration MUST be excluded, so the
   * session never sees it; the others' declarations are remembered for their calls.
   */
  private keepDeclaredTools(tools: unknown[]): unknown[] {
    return tools.filter((tool: unknown) => {
      const name = (tool as { name?: unknown } | null)?.name;
      const headers = toolParamHeaders((tool as { inputSchema?: unknown } | undefined)?.inputSchema);
      if (typeof name === "string" && headers) this.paramHeaders.set(name, headers);
      return headers !== undefined;
    });
  }

  /**
   * Reads an SSE response, delivering its messages, to its end or until one answers request
   * `id` (a resumed GET stream may stay open after that); returns whether one did.
   */
  private async readStream(
    body: ReadableStream<Uint8Array>,
    id: RequestId | undefined,
    state: SseState,
  ): Promise<boolean> {
    for await (const { data } of readSse(body, state)) {
      let value: unknown;
      try {
        value = parseMessage(data);
      } catch {
        continue; // A malformed event is skipped, as SSE readers do.
      }
      if (this.deliver(value, id)) {
        await body.cancel().catch(() => {});
        return true;
      }
    }
    return false;
  }

  /**
   * Reconnects to an SSE stream with GET and Last-Event-ID after the server's `retry:` delay
   * (the server may end a stream early and replay the rest on resumption, SEP-1699), until
   * request `id` is answered, the server refuses, or a few reconnections in a row bring nothing.
   */
  private async resume(
    state: SseState,
    signal: AbortSignal,
    id: RequestId | undefined,
    immediate = false,
  ): Promise<boolean> {
    let idle = 0;
    for (let first = true; !signal.aborted && idle < MAX_IDLE_RECONNECTS; first = false) {
      if (!(immediate && first)) await delay(state.retryMs ?? DEFAULT_RETRY_MS, signal);
      if (signal.aborted) return false;
      const response = await this.fetch(this.url, { method: "GET", headers: this.resumeHeaders(state), signal });
      if (
        !response.ok ||
        !(response.headers.get("content-type") ?? "").includes("text/event-stream") ||
        !response.body
      ) {
        await response.body?.cancel().catch(() => {});
        return false;
      }
      const before = state.lastEventId;
      if (await this.readStream(response.body, id, state)) return true;
      idle = state.lastEventId === before ? idle + 1 : 0;
    }
    return false;
  }

  private resumeHeaders(state: SseState): Record<string, string> {
    const headers: Record<string, string> = { ...this.options.headers, accept: "text/event-stream" };
    if (this.sessionId !== undefined) headers["mcp-session-id"] = this.sessionId;
    if (this.protocol && hasProtocolVersionHeader(this.protocol.revision))
      headers["mcp-protocol-version"] = this.protocol.revision;
    if (state.lastEventId !== undefined) headers["last-event-id"] = state.lastEventId;
    return headers;
  }

  /** Legacy sessions: the standalone GET stream, open while the channel is, resumed when the server ends it. */
  private async listen(): Promise<void> {
    // 405 (no stream offered) and failures end it quietly: requests still work over POST.
    await this.resume(freshStream(), this.listening.signal, undefined, true).catch(() => {});
  }

  private async post(message: JsonRpcMessage): Promise<void> {
    const id = "method" in message && "id" in message ? (message as JsonRpcRequest).id : undefined;
    const controller = new AbortController();
    if (id !== undefined) this.inflight.set(id, controller);
    if (id !== undefined && (message as JsonRpcRequest).method === "tools/list") this.toolLists.add(id);
    try {
      const response = await this.fetch(
        this.url,
        {
          method: "POST",
          headers: this.headersFor(message),
          body: serializeMessage(message),
          signal: controller.signal,
        },
        id,
      );
      const session = response.headers.get("mcp-session-id");
      if (session) this.sessionId = session;
      const type = response.headers.get("content-type") ?? "";
      if (type.includes("text/event-stream") && response.body)
        await this.readStreamReply(response, response.body, id, controller.signal);
      else await this.readJsonReply(response, id);
    } catch (error) {
      if (id !== undefined && !controller.signal.aborted)
        this.handlers?.fail(id, error instanceof Error ? error : new Error(String(error)));
    } finally {
      if (id !== undefined) {
        this.inflight.delete(id);
        this.toolLists.delete(id);
      }
    }
  }

  /** A POST answered with an SSE stream: read to the answer, resuming it if the server ends it early. */
  private async readStreamReply(
    response: Response,
    body: ReadableStream<Uint8Array>,
    id: RequestId | undefined,
    signal: AbortSignal,
  ): Promise<void> {
    const state = freshStream();
    let answered = await this.readStream(body, id, state);
    // The stream ended before the answer: resumable if the server gave it event ids.
    if (id !== undefined && !answered && state.lastEventId !== undefined)
      answered = await this.resume(state, signal, id);
    if (id !== undefined && !answered && !signal.aborted) {
      this.handlers?.fail(
        id,
        new HttpStatusError(response.status, "the server ended the event stream without answering"),
      );
    }
  }

  /** A POST answered with JSON (or anything else): the answer to request `id`, or its failure. */
  private async readJsonReply(response: Response, id: RequestId | undefined): Promise<void> {
    const text = await response.text();
    if (id === undefined) return;
    const value = parseBody(text);
    const error = (value as { error?: unknown } | undefined)?.error;
    // An OAuth error body ({"error": "insufficient_scope"}) is no JSON-RPC error object; a
    // "2.0" body with a malformed error still answers (classify fails the request with it).
    if (
      value !== null &&
      typeof value === "object" &&
      ("result" in value ||
        (error !== null && typeof error === "object") ||
        (value as { jsonrpc?: unknown }).jsonrpc === "2.0")
    ) {
      // Transport-level errors come with a null id; they still answer this request.
      this.deliver({ ...(value as object), id }, id);
    } else this.handlers?.fail(id, new HttpStatusError(response.status, text));
  }
}
