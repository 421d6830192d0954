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
  const rawFetch = options.fetch ?? fetch;
  const streamUrl = new URL(url);
  const auth = options.auth;
  const stream = new AbortController();
  const inflight = new Set<AbortController>();
  let handlers: ChannelHandlers | undefined;
  let endpoint: URL | undefined;
  let revision: string | undefined;
  let closed = false;

  const doFetch = async (target: URL, init: RequestInit & { headers: Record<string, string> }): Promise<Response> => {
    for (let resends = 0; ; resends++) {
      const headers = { ...options.headers, ...init.headers };
      const authorization = auth ? await auth.authorization(streamUrl) : undefined;
      if (authorization !== undefined) headers.authorization = authorization;
      const response = await rawFetch(target, { ...init, headers, redirect: "manual" });
      if (!auth || (response.status !== 401 && response.status !== 403) || !response.headers.has("www-authenticate") || resends >= MAX_AUTH_RESENDS) return response;
      const again = await auth.challenged(response, streamUrl);
      await response.body?.cancel().catch(() => {});
      if (!again) return response;
    }
  };

  const finish = (error?: Error) => {
    if (closed) return;
    closed = true;
    stream.abort();
    for (const controller of inflight) controller.abort();
    inflight.clear();
    handlers?.closed(error);
  };

  /** Delivers the stream's messages until it ends; the session ends with it. */
  const read = async (events: AsyncGenerator<SseEvent>) => {
    try {
      for await (const { event, data } of events) {
        if (event !== "message") continue;
        let value: unknown;
        try {
          value = parseMessage(data);
        } catch {
          continue; // A malformed event is skipped, as SSE readers do.
        }
        handlers?.receive(value);
      }
      finish(closed ? undefined : new Error("The server closed the event stream: the session has ended"));
    } catch (error) {
      finish(closed ? undefined : error instanceof Error ? error : new Error(String(error)));
    }
  };

  const post = async (message: JsonRpcMessage) => {
    const id = "method" in message && "id" in message ? (message.id as RequestId) : undefined;
    const controller = new AbortController();
    inflight.add(controller);
    try {
      if (!endpoint) throw new Error("Not connected: the stream has not named its endpoint");
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (revision !== undefined && hasProtocolVersionHeader(revision)) headers["mcp-protocol-version"] = revision;
      const response = await doFetch(endpoint, { method: "POST", headers, body: serializeMessage(message), signal: controller.signal });
      const text = await response.text();
      if (response.ok || id === undefined) return;
      const value = parseBody(text);
      const error = (value as { error?: unknown } | undefined)?.error;
      // A refused message is answered in the POST's body (its id may be null): it answers this request.
      if (error !== null && typeof error === "object") handlers?.receive({ ...(value as object), id });
      else handlers?.fail(id, new HttpStatusError(response.status, text));
    } catch (error) {
      if (id !== undefined && !controller.signal.aborted) handlers?.fail(id, error instanceof Error ? error : new Error(String(error)));
    } finally {
      inflight.delete(controller);
    }
  };

  return {
    kind: "http",
    async start(h) {
      handlers = h;
      const timeoutMs = options.connectTimeoutMs ?? 30_000;
      const timer = setTimeout(() => stream.abort(new Error(`No endpoint event within ${timeoutMs} ms`)), timeoutMs);
      try {
        const response = await doFetch(streamUrl, { method: "GET", headers: { accept: "text/event-stream" }, signal: stream.signal });
        const type = response.headers.get("content-type") ?? "";
        if (!response.ok || !type.includes("text/event-stream") || !response.body) {
          const text = await response.text().catch(() => "");
          throw new HttpStatusError(response.status, text);
        }
        const events = readSse(response.body);
        for (;;) {
          const next = await events.next();
          if (next.done) throw new Error("The server closed the event stream before naming its endpoint");
          if (next.value.event !== "endpoint") continue;
          const named = new URL(next.value.data.trim(), streamUrl);
          if (named.origin !== streamUrl.origin) {
            await events.return(undefined);
            throw new Error(`The endpoint ${named.origin} is not on the stream's origin ${streamUrl.origin}`);
          }
          endpoint = named;
          break;
        }
        void read(events);
      } catch (error) {
        closed = true;
        stream.abort();
        const reason = stream.signal.reason;
        throw reason instanceof Error && error instanceof Error && error.name === "AbortError" ? reason : error;
      } finally {
        clearTimeout(timer);
      }
    },
    setProtocol(p) {
      revision = p.revision;
    },
    send(message) {
      if (closed) {
        const id = "method" in message && "id" in message ? (message.id as RequestId) : undefined;
        if (id !== undefined) handlers?.fail(id, new Error("The session has ended: its event stream is closed"));
        return;
      }
      void post(message);
    },
    async close() {
      finish();
    },
  };
}
