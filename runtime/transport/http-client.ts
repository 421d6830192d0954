// A client channel to a Streamable HTTP endpoint, using fetch. Each message is a POST;
// replies come back as JSON or as an SSE stream. Modern requests carry the mirrored
// headers (MCP-Protocol-Version, Mcp-Method, Mcp-Name); legacy ones the session id.
import type { JsonRpcMessage, JsonRpcRequest, RequestId } from "../jsonrpc/messages.js";
import type { ClientChannel } from "../mcp/client.js";
import { hasProtocolVersionHeader, MetaKey } from "../mcp/revisions.js";

export interface HttpChannelOptions {
  /** Extra headers for every request (authorization, say). */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  readonly fetch?: typeof fetch | undefined;
}

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

const namedMethods: Record<string, string> = { "tools/call": "name", "prompts/get": "name", "resources/read": "uri" };

/** Header-safe form of a value: as is when plain visible ASCII, else the =?base64?…?= sentinel. */
export function encodeHeaderValue(value: string): string {
  const plain = /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(value) && !(value.startsWith("=?base64?") && value.endsWith("?="));
  if (plain) return value;
  const bytes = new TextEncoder().encode(value);
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return `=?base64?${btoa(binary)}?=`;
}

/** Reads `data:` payloads of an SSE body, one JSON value per event. */
async function* sseEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let data: string[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
    let newline: number;
    while ((newline = buffer.indexOf("\n")) >= 0) {
      let line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      if (line.endsWith("\r")) line = line.slice(0, -1);
      if (line === "") {
        if (data.length > 0) yield data.join("\n");
        data = [];
      } else if (line.startsWith("data:")) data.push(line.slice(line.startsWith("data: ") ? 6 : 5));
    }
    if (done) {
      if (data.length > 0) yield data.join("\n");
      return;
    }
  }
}

export function httpChannel(url: string | URL, options: HttpChannelOptions = {}): ClientChannel {
  const doFetch = options.fetch ?? fetch;
  let handlers: { receive(value: unknown): void; fail(id: RequestId, error: Error): void; closed(error?: Error): void } | undefined;
  let protocol: { era: "modern" | "legacy"; revision: string } | undefined;
  let sessionId: string | undefined;
  const inflight = new Map<RequestId, AbortController>();

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
    } else if (protocol?.era === "legacy") {
      if (sessionId !== undefined) headers["mcp-session-id"] = sessionId;
      if (hasProtocolVersionHeader(protocol.revision)) headers["mcp-protocol-version"] = protocol.revision;
    }
    return headers;
  };

  const post = async (message: JsonRpcMessage) => {
    const id = "method" in message && "id" in message ? (message as JsonRpcRequest).id : undefined;
    const controller = new AbortController();
    if (id !== undefined) inflight.set(id, controller);
    try {
      const response = await doFetch(url, { method: "POST", headers: headersFor(message), body: JSON.stringify(message), signal: controller.signal });
      const session = response.headers.get("mcp-session-id");
      if (session) sessionId = session;
      const type = response.headers.get("content-type") ?? "";
      if (type.includes("text/event-stream") && response.body) {
        for await (const data of sseEvents(response.body)) {
          try {
            handlers?.receive(JSON.parse(data));
          } catch {
            // A malformed event is skipped, as SSE readers do.
          }
        }
        return;
      }
      const text = await response.text();
      if (id === undefined) return;
      let value: unknown;
      try {
        value = text === "" ? undefined : JSON.parse(text);
      } catch {
        value = undefined;
      }
      const error = (value as { error?: unknown } | undefined)?.error;
      if (value !== null && typeof value === "object" && ("result" in value || error !== undefined)) {
        // Transport-level errors come with a null id; they still answer this request.
        handlers?.receive({ ...(value as object), id });
      } else handlers?.fail(id, new HttpStatusError(response.status, text));
    } catch (error) {
      if (id !== undefined && !controller.signal.aborted) handlers?.fail(id, error instanceof Error ? error : new Error(String(error)));
    } finally {
      if (id !== undefined) inflight.delete(id);
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
    send(message) {
      // Modern HTTP cancels a request by closing its stream, not with a notification.
      if ("method" in message && message.method === "notifications/cancelled" && protocol?.era === "modern") {
        const requestId = message.params?.requestId as RequestId | undefined;
        if (requestId !== undefined) inflight.get(requestId)?.abort();
        return;
      }
      void post(message);
    },
    async close() {
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

