// A client channel over the HTTP+SSE transport of protocol 2024-11-05, for servers that
// speak nothing newer: GET the stream, wait for its `endpoint` event, then POST each message
// to that endpoint; everything the server sends arrives on the stream as `message` events.
// The session ends with the stream. Pair it with legacy revisions (initialize).
import type { JsonRpcMessage, RequestId } from "../jsonrpc/messages.js";
import { parseBody, parseMessage } from "../jsonrpc/parse.js";
import { serializeMessage } from "../jsonrpc/serialize.js";
import type { ChannelHandlers, ClientChannel } from "../mcp/client.js";
import { hasProtocolVersionHeader } from "../mcp/revisions.js";
import { HttpStatusError, type HttpAuth } from "./http-client.js";
import { readSse, type SseEvent } from "./sse-reader.js";

export interface LegacySseChannelOptions {
  /** Extra headers for every request (authorization, say). */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  readonly fetch?: typeof fetch | undefined;
  /** Authorization for every request, as for httpChannel. */
  readonly auth?: HttpAuth | undefined;
  /** Milliseconds to wait for the stream's `endpoint` event. Default 30,000. */
  readonly connectTimeoutMs?: number | undefined;
}

/** Times one request is sent again after challenges, whatever the provider says. */
const MAX_AUTH_RESENDS = 3;

/**
 * A channel to a server's legacy HTTP+SSE endpoint (`url` is the stream's, e.g.
 * http://127.0.0.1:3000/sse). The endpoint the server names must be on the same origin.
 */
export function legacySseChannel(url: string | URL, options: LegacySseChannelOptions = {}): ClientChannel {
  return new LegacySseChannel(new URL(url), options);
}

class LegacySseChannel implements ClientChannel {
  readonly kind = "http";
  private readonly rawFetch: typeof fetch;
  private readonly stream = new AbortController();
  private readonly inflight = new Set<AbortController>();
  private handlers: ChannelHandlers | undefined;
  /** Where messages are POSTed, as the stream's `endpoint` event names it. */
  private endpoint: URL | undefined;
  private revision: string | undefined;
  private closed = false;

  constructor(
    private readonly streamUrl: URL,
    private readonly options: LegacySseChannelOptions,
  ) {
    this.rawFetch = options.fetch ?? fetch;
  }

  async start(handlers: ChannelHandlers): Promise<void> {
    this.handlers = handlers;
    const timeoutMs = this.options.connectTimeoutMs ?? 30_000;
    const timer = setTimeout(() => this.stream.abort(new Error(`No endpoint event within ${timeoutMs} ms`)), timeoutMs);
    try {
      const events = await this.openStream();
      this.endpoint = await this.namedEndpoint(events);
      void this.read(events);
    } catch (error) {
      this.closed = true;
      this.stream.abort();
      const reason = this.stream.signal.reason;
      throw reason instanceof Error && error instanceof Error && error.name === "AbortError" ? reason : error;
    } finally {
      clearTimeout(timer);
    }
  }

  setProtocol(protocol: { readonly revision: string }): void {
    this.revision = protocol.revision;
  }

  send(message: JsonRpcMessage): void {
    if (this.closed) {
      const id = "method" in message && "id" in message ? (message.id as RequestId) : undefined;
      if (id !== undefined) this.handlers?.fail(id, new Error("The session has ended: its event stream is closed"));
      return;
    }
    void this.post(message);
  }

  async close(): Promise<void> {
    this.finish();
  }

  private async fetch(target: URL, init: RequestInit & { headers: Record<string, string> }): Promise<Response> {
    const auth = this.options.auth;
    for (let resends = 0; ; resends++) {
      const headers = { ...this.options.headers, ...init.headers };
      const authorization = auth ? await auth.authorization(this.streamUrl) : undefined;
      if (authorization !== undefined) headers.authorization = authorization;
      const response = await this.rawFetch(target, { ...init, headers, redirect: "manual" });
      if (
        !auth ||
        (response.status !== 401 && response.status !== 403) ||
        !response.headers.has("www-authenticate") ||
        resends >= MAX_AUTH_RESENDS
      )
        return response;
      const again = await auth.challenged(response, this.streamUrl);
      await response.body?.cancel().catch(() => {});
      if (!again) return response;
    }
  }

  /** GETs the event stream. */
  private async openStream(): Promise<AsyncGenerator<SseEvent>> {
    const response = await this.fetch(this.streamUrl, {
      method: "GET",
      headers: { accept: "text/event-stream" },
      signal: this.stream.signal,
    });
    const type = response.headers.get("content-type") ?? "";
    if (!response.ok || !type.includes("text/event-stream") || !response.body) {
      const text = await response.text().catch(() => "");
      throw new HttpStatusError(response.status, text);
    }
    return readSse(response.body);
  }

  /** Waits for the stream's `endpoint` event: where to POST, on the stream's origin. */
  private async namedEndpoint(events: AsyncGenerator<SseEvent>): Promise<URL> {
    for (;;) {
      const next = await events.next();
      if (next.done) throw new Error("The server closed the event stream before naming its endpoint");
      if (next.value.event !== "endpoint") continue;
      const named = new URL(next.value.data.trim(), this.streamUrl);
      if (named.origin !== this.streamUrl.origin) {
        await events.return(undefined);
        throw new Error(`The endpoint ${named.origin} is not on the stream's origin ${this.streamUrl.origin}`);
      }
      return named;
    }
  }

  private finish(error?: Error): void {
    if (this.closed) return;
    this.closed = true;
    this.stream.abort();
    for (const controller of this.inflight) controller.abort();
    this.inflight.clear();
    this.handlers?.closed(error);
  }

  /** Delivers the stream's messages until it ends; the session ends with it. */
  private async read(events: AsyncGenerator<SseEvent>): Promise<void> {
    try {
      for await (const { event, data } of events) {
        if (event !== "message") continue;
        let value: unknown;
        try {
          value = parseMessage(data);
        } catch {
          continue; // A malformed event is skipped, as SSE readers do.
        }
        this.handlers?.receive(value);
      }
      this.finish(this.closed ? undefined : new Error("The server closed the event stream: the session has ended"));
    } catch (error) {
      this.finish(this.closed ? undefined : error instanceof Error ? error : new Error(String(error)));
    }
  }

  private async post(message: JsonRpcMessage): Promise<void> {
    const id = "method" in message && "id" in message ? (message.id as RequestId) : undefined;
    const controller = new AbortController();
    this.inflight.add(controller);
    try {
      if (!this.endpoint) throw new Error("Not connected: the stream has not named its endpoint");
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (this.revision !== undefined && hasProtocolVersionHeader(this.revision))
        headers["mcp-protocol-version"] = this.revision;
      const response = await this.fetch(this.endpoint, {
        method: "POST",
        headers,
        body: serializeMessage(message),
        signal: controller.signal,
      });
      const text = await response.text();
      if (response.ok || id === undefined) return;
      const value = parseBody(text);
      const error = (value as { error?: unknown } | undefined)?.error;
      // A refused message is answered in the POST's body (its id may be null): it answers this request.
      if (error !== null && typeof error === "object") this.handlers?.receive({ ...(value as object), id });
      else this.handlers?.fail(id, new HttpStatusError(response.status, text));
    } catch (error) {
      if (id !== undefined && !controller.signal.aborted)
        this.handlers?.fail(id, error instanceof Error ? error : new Error(String(error)));
    } finally {
      this.inflight.delete(controller);
    }
  }
}
