// The Streamable HTTP binding of MCP, for both eras on one endpoint:
//  - modern (2026-07-28): every POST is self-contained; headers mirror the body
//    (MCP-Protocol-Version, Mcp-Method, Mcp-Name) and are checked against it;
//  - legacy (2025-03-26 ... 2025-11-25): `initialize` opens a session named by the
//    Mcp-Session-Id header; GET opens the session's stream for server-initiated
//    messages; DELETE ends the session.
// A POSTed request is answered with JSON, or with an SSE stream when notifications or
// server requests come before the response. The logic works on a minimal request/reply
// shape so that the web-standard handler and the node:http adapter both stay thin.
import { classify, ErrorCode, isObject, errorResponse, validId, type JsonRpcMessage, type RequestId } from "../jsonrpc/messages.js";
import { serveRequest, type Exchange, type MessageSink, type Peer } from "../jsonrpc/peer.js";
import { serializeMessage } from "../jsonrpc/serialize.js";
import type { McpEndpoint } from "../mcp/server.js";
import { allowsBatches, hasProtocolVersionHeader, isModern, MetaKey, primesEventStreams } from "../mcp/revisions.js";
import { decodeHeaderValue, namedMethods, paramHeaderMismatch } from "../mcp/mirrored-headers.js";
import { MemoryEventStore, type EventStore } from "./event-store.js";
import { BodyLimits, SERVER_BUSY, type BodyBudget } from "./body.js";
import { HostCheck } from "./host-check.js";
import { ResourceGuard, type HttpAuthOptions } from "../auth/http-guard.js";
import { entryScopes } from "../auth/scopes.js";
import type { AuthInfo } from "../auth/resource-server.js";

export type { HttpAuthOptions } from "../auth/http-guard.js";
import { ResumableStream, writeReplay } from "./resumable-stream.js";
import { SseStream } from "./sse.js";
import { excerpt } from "../mcp/excerpt.js";

export interface HttpOptions {
  /**
   * Host header values accepted (DNS-rebinding protection), without port. Default:
   * localhost, 127.0.0.1 and [::1]. "any" turns the check off (behind a proxy that checks).
   */
  readonly allowedHosts?: readonly string[] | "any" | undefined;
  /** Origins accepted when a browser sends one; default: http(s) origins on the allowed hosts. "any" turns the check off. */
  readonly allowedOrigins?: readonly string[] | "any" | undefined;
  /** Largest accepted request body in bytes. Default 4 MiB. */
  readonly maxBodyBytes?: number | undefined;
  /** Legacy sessions idle this long are closed. Default 30 minutes. */
  readonly sessionIdleMs?: number | undefined;
  /**
   * Seconds between SSE keep-alive comments on long-lived streams. Default 5: below the idle
   * timeouts of common hosts and proxies (Bun 10 s, nginx 60 s, Cloudflare 100 s), which
   * otherwise cut a quiet GET stream. 0 disables.
   */
  readonly keepAliveSeconds?: number | undefined;
  /**
   * Where legacy sessions keep their SSE events so that a client can resume a stream (GET with
   * Last-Event-ID) after losing its connection; with a store, a lost connection no longer
   * cancels its request. Default: a MemoryEventStore of this binding (256 events per stream,
   * 1024 streams). `false`: events carry no ids and a client disconnect cancels the request.
   */
  readonly eventStore?: EventStore | false | undefined;
  /**
   * The MCP endpoint's path (default /mcp): where the protected resource metadata says the
   * resource is, when its identifier is derived from requests (see `auth`).
   */
  readonly path?: string | undefined;
  /**
   * OAuth protection (required when the server's manifest declares `auth:`): every request
   * needs a bearer token that `verifyToken` accepts and whose audience is this server.
   */
  readonly auth?: HttpAuthOptions | undefined;
  /**
   * Most legacy sessions open at once. Default 10,000; an `initialize` beyond it is answered
   * 503 with a JSON-RPC error (idle sessions are swept after `sessionIdleMs`).
   */
  readonly maxSessions?: number | undefined;
  /**
   * Most request bodies being read at once. Default 512; a POST beyond it is answered 503
   * with a JSON-RPC error. Their bytes are bounded by `maxBufferedBodyBytes`.
   */
  readonly maxConcurrentBodies?: number | undefined;
  /**
   * Most bytes the request bodies being read may hold together. Default 64 MiB (16 bodies of
   * the default `maxBodyBytes`). A body is reserved its Content-Length when it arrives (a
   * chunked one, chunk by chunk); one that does not fit is answered 503 with `retry-after`
   * and a JSON-RPC error. Memory for bodies stays within about three times this (bytes,
   * decoded text and parsed value) until their requests are dispatched.
   */
  readonly maxBufferedBodyBytes?: number | undefined;
  /**
   * Milliseconds a client has to send a request's whole body. Default 30,000; a body still
   * incomplete then is answered 408 with a JSON-RPC error. 0 disables the limit.
   */
  readonly bodyTimeoutMs?: number | undefined;
  /**
   * SSE polling (SEP-1699; 2025-11-25 sessions with an event store): the connection carrying
   * a request's SSE stream is ended after this many milliseconds, with a `retry:` hint
   * (`pollRetryMs`), even though the request is still running; the client resumes the stream
   * with GET and Last-Event-ID after that delay and gets what was sent meanwhile, the response
   * included. Each resumed connection is ended after as long again. So long requests hold no
   * connection (nor a proxy's) for longer. Default 0: off (a handler may still ask, with
   * ctx.pollLater). Older sessions, whose clients need not resume, keep their connections.
   */
  readonly pollAfterMs?: number | undefined;
  /** The `retry:` hint, in milliseconds, sent before ending a connection early (pollAfterMs, ctx.pollLater without a delay). Default 1000. */
  readonly pollRetryMs?: number | undefined;
}

/** A `retry:` value (whole milliseconds, not negative) from `ms`, else `fallback`. */
function retryHint(ms: number | undefined, fallback: number): number {
  return ms !== undefined && Number.isFinite(ms) && ms >= 0 ? Math.floor(ms) : fallback;
}

/** SSE polling (SEP-1699): when request streams' connections end early, and the retry hint then. */
interface PollingPolicy {
  /** 0: only when a handler asks (ctx.pollLater). */
  readonly afterMs: number;
  readonly retryMs: number;
}


/** The little an HTTP binding needs from a request. Header names are lower case. */
export interface HttpRequestLike {
  readonly method: string;
  /** The request's absolute URL (needed to serve and name the protected resource metadata). */
  readonly url?: string | undefined;
  header(name: string): string | undefined;
  /**
   * The body as text; rejects with BodyTooLargeError past `limit` bytes, with
   * BodyTimeoutError when it is not complete within `timeoutMs` (0 or absent: no limit), and
   * with BodyBudgetError when `budget` refuses to reserve its bytes.
   */
  text(limit: number, timeoutMs?: number, budget?: BodyBudget): Promise<string>;
  /** Aborted when the client disconnects. */
  readonly signal?: AbortSignal | undefined;
  /**
   * Calls `callback` if the client disconnects before the reply is complete. Preferred
   * over `signal` when present: adapters can implement it without an AbortController
   * per request.
   */
  onDisconnect?(callback: () => void): void;
}

const ok = () => 200;

/** Calls `callback` when the client goes away before the reply is complete. */
export function onDisconnect(request: HttpRequestLike, callback: () => void): void {
  if (request.onDisconnect) request.onDisconnect(callback);
  else request.signal?.addEventListener("abort", callback, { once: true });
}

/**
 * CORS headers for an allowed `origin`: the origin itself on every reply, and for a preflight
 * (`requested` = its Access-Control-Request-Headers) the methods and MCP request headers,
 * Mcp-Param-* (2026-07-28 mirrored arguments) included.
 */
function corsHeaders(origin: string, requested?: string): Record<string, string> {
  const headers: Record<string, string> = { "access-control-allow-origin": origin, vary: "origin" };
  if (requested === undefined) return { ...headers, "access-control-expose-headers": "mcp-session-id, mcp-protocol-version, www-authenticate" };
  // Each name once, and only so many (of a sane length), so the reply stays small whatever is asked.
  const requestedParams = requested.split(",").map((name) => name.trim().toLowerCase()).filter((name) => name.length <= 256 && /^mcp-param-[!#$%&'*+\-.^_`|~0-9a-z]+$/.test(name));
  const params = [...new Set(requestedParams)].slice(0, 100);
  const allowed = ["content-type", "accept", "mcp-protocol-version", "mcp-session-id", "mcp-method", "mcp-name", "last-event-id", "authorization", ...params];
  return { ...headers, "access-control-allow-methods": "POST, GET, DELETE", "access-control-allow-headers": allowed.join(", "), "access-control-max-age": "600" };
}

export type HttpReply =
  | { readonly status: number; readonly headers: Record<string, string>; readonly body?: string | undefined }
  | { readonly status: number; readonly headers: Record<string, string>; readonly stream: SseStream };

export { BodyBudgetError, BodyTimeoutError, BodyTooLargeError } from "./body.js";
export type { BodyBudget } from "./body.js";

/** Text for an error message of any value that came from JSON (whose String() may throw). */
function describe(value: unknown): string {
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value) ?? typeof value;
  } catch {
    return typeof value;
  }
}

const jsonHeaders = { "content-type": "application/json" };
const sseHeaders = { "content-type": "text/event-stream", "cache-control": "no-cache", "x-accel-buffering": "no" };

export function jsonReply(status: number, body: unknown, headers: Record<string, string> = {}): HttpReply {
  // serializeMessage: a BigInt id (past 2^53) is written back digit for digit.
  return { status, headers: { ...jsonHeaders, ...headers }, body: typeof body === "string" ? body : serializeMessage(body as JsonRpcMessage) };
}

export function errorReply(status: number, code: number, message: string, headers: Record<string, string> = {}, data?: unknown): HttpReply {
  return jsonReply(status, errorResponse(null, code, message, data), headers);
}

function duplicateId(id: RequestId): JsonRpcMessage {
  return errorResponse(id, ErrorCode.InvalidRequest, "Invalid request: id is already in use by a request in progress");
}

/** HTTP status of a modern error response: the binding maps protocol errors onto 4xx. */
function modernStatus(message: JsonRpcMessage): number {
  if (!("error" in message)) return 200;
  switch (message.error.code) {
    case ErrorCode.MethodNotFound:
      return 404;
    case ErrorCode.ParseError:
    case ErrorCode.InvalidRequest:
    case ErrorCode.InvalidParams:
    case ErrorCode.HeaderMismatch:
    case ErrorCode.MissingRequiredClientCapability:
    case ErrorCode.UnsupportedProtocolVersion:
      return 400;
    default:
      return 200;
  }
}

/** Where a reply's events go once it is a stream: the connection itself, or a stream that outlives it. */
interface EventSink {
  send(data: string): void;
  end(): void;
}

/** A POST waiting for the responses of its requests in a legacy session (LegacySession.replies). */
interface PendingReply {
  /** A message of request `id`; its response is the last. */
  push(message: JsonRpcMessage, id: RequestId): void;
  /**
   * Request `id` ends without a response of its own: cancelled (no `message`: nothing more is
   * sent for it, its stream closes) or its session closed (`message`: the error that answers it).
   */
  end(id: RequestId, message?: JsonRpcMessage): void;
}

function isResponse(message: JsonRpcMessage): boolean {
  return "result" in message || "error" in message;
}

/** An SSE reply without events, closed at once: the POST of a request that ends without a response. */
function emptyStream(headers: Record<string, string>): HttpReply {
  const stream = new SseStream();
  stream.end();
  return { status: 200, headers: { ...sseHeaders, ...headers }, stream };
}

/**
 * Collects what the server sends for one POSTed request until its response. The reply is
 * a settled promise when the response comes at once, else one made when first asked for.
 */
class ReplyChannel implements MessageSink, PendingReply {
  private settled: HttpReply | undefined;
  private pending: Promise<HttpReply> | undefined;
  private resolve: ((reply: HttpReply) => void) | undefined;
  private stream: EventSink | undefined;
  /** With a polling policy (pollAfterMs): ends the request's connection when it fires. */
  private pollTimer: ReturnType<typeof setTimeout> | undefined;
  /** The lone request being answered (modern), cancelled when the client goes away. */
  exchange: Exchange | undefined;
  done = false;

  constructor(
    private readonly id: RequestId,
    private readonly headers: Record<string, string>,
    private readonly statusOf: (message: JsonRpcMessage) => number,
    /** The legacy session the request belongs to; undefined for a request served on its own. */
    private readonly session: LegacySession | undefined,
    /**
     * Whether its stream is resumable (a legacy session with an event store): then a lost
     * connection is not cancellation, and the stream's events are stored.
     */
    private readonly resumable: boolean,
  ) {}

  get reply(): Promise<HttpReply> {
    if (this.settled) return Promise.resolve(this.settled);
    this.pending ??= new Promise((resolve) => (this.resolve = resolve));
    return this.pending;
  }

  send(message: JsonRpcMessage): void {
    this.push(message);
  }

  private settle(reply: HttpReply): void {
    if (this.resolve) this.resolve(reply);
    else this.settled = reply;
  }

  /** Nothing more goes through this channel: its session forgets it. */
  private finish(): void {
    this.done = true;
    if (this.pollTimer !== undefined) clearTimeout(this.pollTimer);
    const session = this.session;
    if (session && session.replies.get(this.id) === this) session.replies.delete(this.id);
  }

  push(message: JsonRpcMessage): void {
    if (this.done) return;
    const final = isResponse(message) && (message as { id: unknown }).id === this.id;
    if (!this.stream) {
      if (final) {
        this.finish();
        const headers = Object.keys(this.headers).length === 0 ? jsonHeaders : { ...jsonHeaders, ...this.headers };
        this.settle({ status: this.statusOf(message), headers, body: serializeMessage(message) });
        return;
      }
      // Something comes before the response: switch to a stream for this request.
      this.openStream();
    }
    this.stream!.send(serializeMessage(message));
    if (final) {
      this.finish();
      this.stream!.end();
    }
  }

  /** Makes the reply an SSE stream (resumable when the request's session has an event store). */
  private openStream(): void {
    const connection = new SseStream();
    if (!this.resumable) connection.onCancel = () => this.abandon();
    this.stream = this.resumable ? this.session!.openStream!(connection) : connection;
    this.settle({ status: 200, headers: { ...sseHeaders, ...this.headers }, stream: connection });
  }

  /**
   * Ends the connection carrying this request's stream without ending the stream (SEP-1699):
   * the reply becomes a stream if it is not one (its priming event gives the client an id to
   * resume from), then ends after a `retry: retryMs` hint. False when the request's session
   * cannot: no event store, or a revision before 2025-11-25 (whose clients need not resume).
   */
  poll(retryMs: number): boolean {
    if (this.done || !this.resumable || !this.session!.primes) return false;
    if (!this.stream) this.openStream();
    (this.stream as ResumableStream).poll(retryMs);
    return true;
  }

  /** Polls (see poll()) once the request has run `policy.afterMs`. */
  pollAfter(policy: PollingPolicy): void {
    this.pollTimer = setTimeout(() => {
      this.pollTimer = undefined;
      this.poll(policy.retryMs);
    }, policy.afterMs);
    (this.pollTimer as { unref?: () => void }).unref?.();
  }

  end(_id: RequestId, message?: JsonRpcMessage): void {
    if (this.done) return;
    this.finish();
    if (this.stream) {
      if (message) this.stream.send(serializeMessage(message));
      this.stream.end();
    } else if (message) this.settle({ status: 200, headers: { ...jsonHeaders, ...this.headers }, body: serializeMessage(message) });
    else this.settle(emptyStream(this.headers));
  }

  /** The client went away before the reply was sent: the request is cancelled. */
  abandon(): void {
    if (this.done) return;
    this.finish();
    if (this.session) this.session.peer.cancelInbound(this.id, "Client disconnected");
    else this.exchange?.cancel("Client disconnected");
    // Nobody reads it; settling lets the adapter let go of the request.
    if (!this.stream) this.settle(emptyStream(this.headers));
  }
}

/**
 * The reply to a POSTed batch (2025-03-26): the array of its requests' responses and of its
 * invalid elements' errors, or, once something comes before the last response, an SSE stream
 * that carries them all and closes after the last.
 */
class BatchReply implements PendingReply {
  /** Serialized responses in the batch's order (undefined: not yet, or never for a cancelled request). */
  private readonly parts: (string | undefined)[] = [];
  /** The requests still waiting for their response: where their response goes in `parts`. */
  private readonly slots = new Map<RequestId, number>();
  private stream: EventSink | undefined;
  private settled: HttpReply | undefined;
  private resolve: ((reply: HttpReply) => void) | undefined;
  /** Every element is handed to the session: the reply may complete. */
  private started = false;

  constructor(
    private readonly session: LegacySession,
    private readonly resumable: boolean,
  ) {}

  get isEmpty(): boolean {
    return this.parts.length === 0;
  }

  /** Expects a response to request `id`; false when the id is in use (in this batch or by a request in progress). */
  expect(id: RequestId): boolean {
    if (this.session.replies.has(id)) return false;
    this.slots.set(id, this.parts.length);
    this.parts.push(undefined);
    this.session.replies.set(id, this);
    return true;
  }

  /** An element answered by the binding (an invalid element's error). */
  answer(message: JsonRpcMessage): void {
    this.parts.push(serializeMessage(message));
  }

  /** The reply, once every element is handed to the session. */
  start(): Promise<HttpReply> {
    this.started = true;
    if (this.slots.size === 0) this.complete();
    if (this.settled) return Promise.resolve(this.settled);
    return new Promise((resolve) => (this.resolve = resolve));
  }

  private settle(reply: HttpReply): void {
    if (this.resolve) this.resolve(reply);
    else this.settled = reply;
  }

  push(message: JsonRpcMessage, id: RequestId): void {
    const slot = this.slots.get(id);
    if (slot === undefined) return;
    const final = isResponse(message) && (message as { id: unknown }).id === id;
    if (!this.stream) {
      if (final) {
        this.parts[slot] = serializeMessage(message);
        this.forget(id);
        return;
      }
      const connection = new SseStream();
      if (!this.resumable) connection.onCancel = () => this.abandon();
      const stream = this.resumable ? this.session.openStream!(connection) : connection;
      this.stream = stream;
      this.settle({ status: 200, headers: { ...sseHeaders }, stream: connection });
      for (const part of this.parts) if (part !== undefined) stream.send(part);
    }
    this.stream.send(serializeMessage(message));
    if (final) this.forget(id);
  }

  end(id: RequestId, message?: JsonRpcMessage): void {
    if (!this.slots.has(id)) return;
    if (message) this.push(message, id);
    else this.forget(id);
  }

  /** The client went away: the batch's requests still running are cancelled. */
  abandon(): void {
    const ids = [...this.slots.keys()];
    for (const id of ids) {
      this.forget(id);
      this.session.peer.cancelInbound(id, "Client disconnected");
    }
  }

  private forget(id: RequestId): void {
    this.slots.delete(id);
    if (this.session.replies.get(id) === this) this.session.replies.delete(id);
    if (this.slots.size === 0 && this.started) this.complete();
  }

  private complete(): void {
    if (this.stream) {
      this.stream.end();
      return;
    }
    const bodies = this.parts.filter((part) => part !== undefined);
    this.settle(bodies.length === 0 ? emptyStream({}) : jsonReply(200, `[${bodies.join(",")}]`));
  }
}

/** A request that passed the guard: who sent it and for which resource. */
interface Authenticated {
  readonly info: AuthInfo;
  readonly resource: string;
  readonly guard: ResourceGuard;
}

class LegacySession implements MessageSink {
  readonly peer: Peer;
  /** With auth: the subject (user) that opened the session; only its tokens may use it. */
  owner: string | undefined;
  /** The POSTs waiting for responses, by request id. */
  readonly replies = new Map<RequestId, PendingReply>();
  /** The GET stream: its connection, or with an event store a stream that outlives connections. */
  standalone: SseStream | ResumableStream | undefined;
  /** With an event store: the streams that still take events, by stream id. */
  readonly streams = new Map<string, ResumableStream>();
  private streamsOpened = 0;
  lastActive = Date.now();
  /** Messages sent so far, and as of the last sweep: a session that sends is not idle. */
  sent = 0;
  sentAtSweep = 0;
  /** With an event store: makes the connection of a reply that became a stream resumable. */
  readonly openStream: ((connection: SseStream) => ResumableStream) | undefined;

  constructor(
    readonly id: string,
    server: McpEndpoint,
    readonly events: EventStore | undefined,
    readonly polling: PollingPolicy,
  ) {
    this.peer = server.connect(this);
    this.openStream = events && ((connection) => this.resumable(connection, events, true));
  }

  get revision(): string | undefined {
    return (this.peer.state as { revision?: string } | undefined)?.revision;
  }

  /** Whether the session's streams start with a priming event (2025-11-25), so that the client can always resume them. */
  get primes(): boolean {
    const revision = this.revision;
    return revision !== undefined && primesEventStreams(revision);
  }

  /** ctx.pollLater of request `requestId`'s handler (see ReplyChannel.poll); only resumable streams can. */
  pollLater(requestId: RequestId, retryMs: number | undefined): boolean {
    if (!this.events) return false;
    const reply = this.replies.get(requestId);
    return reply instanceof ReplyChannel && reply.poll(retryHint(retryMs, this.polling.retryMs));
  }

  /** Whether the client reads the GET stream now. */
  get listening(): boolean {
    const standalone = this.standalone;
    return standalone instanceof ResumableStream ? standalone.connected : standalone?.isOpen === true;
  }

  /** A new resumable stream read by `connection`: a request's (`request`), or the GET stream. */
  private resumable(connection: SseStream, events: EventStore, request: boolean): ResumableStream {
    const prime = this.primes;
    // A request's stream is polled when the policy says so; the GET stream is left alone.
    const autoPoll = request && prime && this.polling.afterMs > 0 ? this.polling : undefined;
    const stream = new ResumableStream(events, this.id, String(++this.streamsOpened), connection, prime, (s) => this.streams.delete(s.id), autoPoll);
    this.streams.set(stream.id, stream);
    return stream;
  }

  send(message: JsonRpcMessage, relatedTo?: RequestId): void {
    this.sent++;
    // An error without relatedTo is the peer refusing a request (its id is in use): it answers that request's POST.
    const key = relatedTo ?? ("error" in message && message.id !== null ? message.id : undefined);
    const reply = key === undefined ? undefined : this.replies.get(key);
    if (reply) {
      reply.push(message, key!);
      return;
    }
    // Not tied to a pending POST: the session's GET stream, when the client opened one.
    if (this.standalone?.isOpen) this.standalone.send(serializeMessage(message));
  }

  /** After notifications/cancelled: the cancelled request's POST ends without its response. */
  cancelled(params: unknown): void {
    const id = isObject(params) ? params.requestId : undefined;
    if (typeof id === "string" || typeof id === "number") this.replies.get(id)?.end(id);
  }

  /** Opens the GET stream on `connection`. */
  listen(connection: SseStream): void {
    if (!this.events) {
      this.standalone = connection;
      connection.onCancel = () => {
        if (this.standalone === connection) this.standalone = undefined;
      };
      return;
    }
    // A new GET stream replaces the one the client left without resuming it.
    const previous = this.standalone as ResumableStream | undefined;
    this.standalone = this.resumable(connection, this.events, false);
    if (previous) this.retire([previous], previous.id);
  }

  close(): void {
    this.peer.close("Session closed");
    this.standalone?.end();
    // The POSTs still waiting end with an error: their requests will not be answered.
    const waiting = [...this.replies];
    this.replies.clear();
    for (const [id, reply] of waiting) reply.end(id, errorResponse(id, ErrorCode.InternalError, "Session closed before the request completed"));
    if (this.events) this.retire([...this.streams.values()], undefined);
  }

  /** Ends `streams` and then forgets stream `streamId`'s events, or the whole session's. */
  private retire(streams: readonly ResumableStream[], streamId: string | undefined): void {
    const events = this.events!;
    for (const stream of streams) stream.end();
    // Once the events still being stored are, so that none outlives what is forgotten.
    void Promise.all(streams.map((stream) => stream.drained()))
      .then(() => events.forget(this.id, streamId))
      .catch((error: unknown) => console.error("mcp http: event store failed to forget events:", error));
  }
}

/** Checks the modern request headers against the body; returns why they disagree, if they do. */
function headerMismatch(
  request: HttpRequestLike,
  method: string,
  params: Record<string, unknown> | undefined,
  server: McpEndpoint,
): string | undefined {
  const meta = isObject(params?._meta) ? params._meta : undefined;
  const bodyVersion = meta?.[MetaKey.protocolVersion];
  const version = request.header("mcp-protocol-version");
  if (version === undefined) return "required header MCP-Protocol-Version is missing";
  if (typeof bodyVersion === "string" && version !== bodyVersion) {
    return `MCP-Protocol-Version header value '${excerpt(version)}' does not match body value '${excerpt(bodyVersion)}'`;
  }
  const headerMethod = request.header("mcp-method");
  if (headerMethod === undefined) return "required header Mcp-Method is missing";
  if (headerMethod !== method) return `Mcp-Method header value '${excerpt(headerMethod)}' does not match body value '${excerpt(method)}'`;
  const field = namedMethods[method];
  if (field !== undefined) {
    const raw = request.header("mcp-name");
    if (raw === undefined) return "required header Mcp-Name is missing";
    const name = decodeHeaderValue(raw);
    if (name === undefined) return "Mcp-Name header has an invalid base64 value";
    const bodyValue = params?.[field];
    if (name !== bodyValue) return `Mcp-Name header value '${excerpt(name)}' does not match body value '${excerpt(describe(bodyValue))}'`;
    // The arguments of the tool mirrored into Mcp-Param-* headers (`x-mcp-header`): argument -> header name.
    const table = server.definition?.paramHeaders;
    const declared = method === "tools/call" && typeof bodyValue === "string" && table && Object.hasOwn(table, bodyValue) ? table[bodyValue] : undefined;
    if (declared) return paramHeaderMismatch(declared, params?.arguments, (header) => request.header(header));
  }
  return undefined;
}

export class StreamableHttpBinding {
  private readonly sessions = new Map<string, LegacySession>();
  private readonly hostCheck: HostCheck;
  private readonly bodies: BodyLimits;
  private readonly maxSessions: number;
  /** Request bodies being read now. */
  private readonly sessionIdleMs: number;
  private readonly keepAliveMs: number;
  private readonly events: EventStore | undefined;
  private readonly polling: PollingPolicy;
  private sweeper: ReturnType<typeof setInterval> | undefined;
  /** When a request may next sweep, and when the last sweep ran. */
  private nextSweepAt = 0;
  private lastSweepAt = 0;
  private readonly servesLegacy: boolean;
  private readonly servesModern: boolean;
  /** OAuth protection, when the server declares it or the options ask for it. */
  private readonly guard: ResourceGuard | undefined;

  constructor(
    private readonly server: McpEndpoint,
    options: HttpOptions = {},
  ) {
    this.hostCheck = new HostCheck(options);
    this.maxSessions = options.maxSessions ?? 10_000;
    this.bodies = new BodyLimits(options);
    this.sessionIdleMs = options.sessionIdleMs ?? 30 * 60_000;
    this.keepAliveMs = (options.keepAliveSeconds ?? 5) * 1000;
    this.events = options.eventStore === false ? undefined : (options.eventStore ?? new MemoryEventStore());
    this.polling = { afterMs: options.pollAfterMs ?? 0, retryMs: retryHint(options.pollRetryMs, 1000) };
    this.servesLegacy = server.revisions.some((r) => !isModern(r));
    this.servesModern = server.revisions.some(isModern);
    const policy = server.definition?.auth;
    if (policy !== undefined && options.auth === undefined) {
      throw new Error("This server declares `auth:` in its manifest: pass `auth: { verifyToken }` to the HTTP binding (e.g. jwtVerifier from @mcp-gen/runtime/jwt)");
    }
    if (options.auth && this.hostCheck.hosts === "any" && options.auth.resource === undefined && policy?.resource === undefined) {
      // The resource would come from the Host header, which anyone may then choose: a token for
      // another server could be made to look like one for this server.
      throw new Error("auth: set `resource` (this server's canonical URI) when allowedHosts is \"any\"");
    }
    this.guard = options.auth && new ResourceGuard(policy, options.auth, options.path);
  }

  /** Number of open legacy sessions. */
  get sessionCount(): number {
    return this.sessions.size;
  }

  async handle(request: HttpRequestLike): Promise<HttpReply> {
    // Sweep on requests too: where timers die with the request that set them (workerd), the
    // interval never runs.
    if (this.sessions.size > 0) {
      const now = Date.now();
      if (now >= this.nextSweepAt) {
        this.nextSweepAt = now + Math.min(this.sessionIdleMs, 60_000);
        this.sweep();
      }
    }
    const guard = this.guard;
    // Public metadata: read by clients of any origin before they have a token.
    if (guard?.isMetadataRequest(request)) return this.checkHost(request) ?? guard.metadata(request);
    const refused = this.checkHostAndOrigin(request);
    if (refused) return refused;
    // A browser page on an origin listed in allowedOrigins (a catalog's "try it" panel) may read
    // the replies: preflights are answered here, replies carry that exact origin. Refused origins
    // got a 403 above; others accepted by default are served without CORS headers.
    const origin = request.header("origin");
    if (origin === undefined || !this.hostCheck.sharesWith(origin)) return this.route(request);
    if (request.method === "OPTIONS") return { status: 204, headers: corsHeaders(origin, request.header("access-control-request-headers")) };
    const reply = await this.route(request);
    return { ...reply, headers: { ...reply.headers, ...corsHeaders(origin) } };
  }

  private async route(request: HttpRequestLike): Promise<HttpReply> {
    const guard = this.guard;
    let auth: Authenticated | undefined;
    if (guard) {
      const result = await guard.authenticate(request);
      if ("reply" in result) return result.reply;
      auth = { info: result.auth, resource: result.resource, guard };
      // A POST's calls are checked one by one once its body is read; streams need what every request needs.
      if (request.method !== "POST") {
        const forbidden = guard.insufficientScope(result.auth, result.resource, guard.requiredScopes, null);
        if (forbidden) return forbidden;
      }
    }
    switch (request.method) {
      case "POST":
        return this.post(request, auth);
      case "GET":
        return this.get(request, auth);
      case "DELETE":
        return this.delete(request, auth);
      default:
        return errorReply(405, ErrorCode.InvalidRequest, "Method not allowed", { allow: this.servesLegacy ? "GET, POST, DELETE" : "POST" });
    }
  }

  /** Ends every legacy session and stream. */
  close(): void {
    for (const session of this.sessions.values()) session.close();
    this.sessions.clear();
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = undefined;
  }

  private checkHost(request: HttpRequestLike): HttpReply | undefined {
    const problem = this.hostCheck.hostProblem(request.header("host"));
    return problem === undefined ? undefined : errorReply(403, ErrorCode.InvalidRequest, problem);
  }

  private checkHostAndOrigin(request: HttpRequestLike): HttpReply | undefined {
    const problem = this.hostCheck.hostProblem(request.header("host")) ?? this.hostCheck.originProblem(request.header("origin"));
    return problem === undefined ? undefined : errorReply(403, ErrorCode.InvalidRequest, problem);
  }

  private async post(request: HttpRequestLike, auth: Authenticated | undefined): Promise<HttpReply> {
    const contentType = request.header("content-type") ?? "";
    if (!contentType.toLowerCase().includes("application/json")) {
      return errorReply(415, ErrorCode.InvalidRequest, "Unsupported Media Type: Content-Type must be application/json");
    }
    const accept = (request.header("accept") ?? "").toLowerCase();
    const acceptsAll = accept.includes("*/*");
    if (!acceptsAll && !(accept.includes("application/json") && accept.includes("text/event-stream"))) {
      return errorReply(406, ErrorCode.InvalidRequest, "Not Acceptable: Accept must list application/json and text/event-stream");
    }
    const read = await this.bodies.read((limit, timeoutMs, budget) => request.text(limit, timeoutMs, budget));
    if ("refused" in read) return read.refused;
    const body = read.value;
    if (auth) {
      const forbidden = this.checkScopes(auth, Array.isArray(body) ? body : [body]);
      if (forbidden) return forbidden;
    }
    if (Array.isArray(body)) return this.batch(request, body, auth);
    if (!isObject(body)) return errorReply(400, ErrorCode.InvalidRequest, "Invalid request: the body must be one JSON-RPC message");
    // Whatever fails the envelope is answered here: it has no request id to route an answer by.
    const kind = classify(body);
    if (kind.kind === "invalid") return jsonReply(400, errorResponse(kind.id, ErrorCode.InvalidRequest, `Invalid request: ${kind.reason}`));

    const sessionId = request.header("mcp-session-id");
    const method = kind.kind === "response" ? undefined : kind.message.method;
    const isRequest = kind.kind === "request";
    const params = kind.kind === "response" ? undefined : kind.message.params;

    if (method === "initialize" && isRequest) return this.initialize(request, body, auth);
    if (sessionId !== undefined && this.servesLegacy) {
      const session = this.sessionOf(sessionId, auth);
      if (!session) return errorReply(404, -32001, "Session not found: initialize a new session");
      return this.legacyMessage(request, session, body, isRequest, auth);
    }
    const headerVersion = request.header("mcp-protocol-version");
    const metaVersion = isObject(params?._meta) ? params._meta[MetaKey.protocolVersion] : undefined;
    const modern = metaVersion !== undefined || (headerVersion !== undefined && isModern(headerVersion));
    if (modern && this.servesModern) return this.modernMessage(request, body, method, isRequest, params, auth);
    if (!this.servesLegacy || modern) {
      // A modern-only server: the request lacks what every modern request must carry.
      const mismatch = method === undefined ? undefined : headerMismatch(request, method, params, this.server);
      return jsonReply(400, errorResponse(isRequest ? (body.id as RequestId) : null, mismatch ? ErrorCode.HeaderMismatch : ErrorCode.InvalidParams, mismatch ? `Header mismatch: ${mismatch}` : `Invalid params: _meta must carry ${MetaKey.protocolVersion}`));
    }
    return errorReply(400, ErrorCode.InvalidRequest, "Bad Request: Mcp-Session-Id header is required; send initialize first");
  }

  /** The 403 for the first request in `messages` that needs scopes the token lacks. */
  private checkScopes(auth: Authenticated, messages: readonly unknown[]): HttpReply | undefined {
    for (const message of messages) {
      if (!isObject(message) || typeof message.method !== "string" || message.id === undefined) continue;
      const params = isObject(message.params) ? message.params : undefined;
      const definition = this.server.definition;
      const entry = definition ? entryScopes(definition, message.method, params) : [];
      const needed = [...new Set([...auth.guard.requiredScopes, ...entry])];
      const forbidden = auth.guard.insufficientScope(auth.info, auth.resource, needed, validId(message.id) ? message.id : null);
      if (forbidden) return forbidden;
    }
    return undefined;
  }

  /**
   * A legacy session, if it exists and (with auth) belongs to the token's subject: nobody else
   * may use it (the spec's session hijacking advice). The same user's refreshed, stepped-up or
   * re-registered client's tokens keep it.
   */
  private sessionOf(sessionId: string, auth: Authenticated | undefined): LegacySession | undefined {
    const session = this.sessions.get(sessionId);
    if (session && auth && session.owner !== auth.info.subject) return undefined;
    return session;
  }

  private batch(request: HttpRequestLike, messages: unknown[], auth: Authenticated | undefined): Promise<HttpReply> | HttpReply {
    const sessionId = request.header("mcp-session-id");
    const session = sessionId === undefined ? undefined : this.sessionOf(sessionId, auth);
    if (!session || !allowsBatches(session.revision)) {
      return errorReply(400, ErrorCode.InvalidRequest, "Invalid request: JSON-RPC batches are only part of protocol 2025-03-26");
    }
    if (messages.length === 0) return errorReply(400, ErrorCode.InvalidRequest, "Invalid request: empty batch");
    return this.legacyBatch(request, session, messages, auth?.info);
  }

  private legacyBatch(request: HttpRequestLike, session: LegacySession, messages: unknown[], auth: AuthInfo | undefined): Promise<HttpReply> | HttpReply {
    session.lastActive = Date.now();
    const batch = new BatchReply(session, session.openStream !== undefined);
    const accepted: unknown[] = [];
    for (const message of messages) {
      const kind = classify(message);
      if (kind.kind === "invalid") batch.answer(errorResponse(kind.id, ErrorCode.InvalidRequest, `Invalid request: ${kind.reason}`));
      else if (kind.kind === "request" && !batch.expect(kind.message.id)) batch.answer(duplicateId(kind.message.id));
      else accepted.push(message);
    }
    if (batch.isEmpty) {
      for (const message of accepted) this.legacyNotification(session, message as Record<string, unknown>, auth);
      return { status: 202, headers: {} };
    }
    if (!session.openStream) onDisconnect(request, () => batch.abandon());
    for (const message of accepted) this.legacyNotification(session, message as Record<string, unknown>, auth);
    // A batch of requests is answered with the array of their responses (or a stream of them).
    return batch.start();
  }

  /** Hands a valid message to the session; a cancellation also ends the cancelled request's POST. */
  private legacyNotification(session: LegacySession, message: Record<string, unknown>, auth: AuthInfo | undefined): void {
    session.peer.receive(message, auth);
    if (message.method === "notifications/cancelled") session.cancelled(message.params);
  }

  private initialize(request: HttpRequestLike, body: Record<string, unknown>, auth: Authenticated | undefined): Promise<HttpReply> | HttpReply {
    const params = isObject(body.params) ? body.params : undefined;
    const modern = isObject(params?._meta) && params._meta[MetaKey.protocolVersion] !== undefined;
    if (!this.servesLegacy || (modern && this.servesModern)) {
      // Let the server explain which versions it speaks; a modern error body tells dual-era clients to retry.
      // An initialize carrying a modern _meta is a modern request (the server answers -32601, HTTP 404).
      return this.modernMessage(request, body, "initialize", true, isObject(body.params) ? body.params : undefined, auth);
    }
    const id = body.id as RequestId;
    if (this.sessions.size >= this.maxSessions) {
      this.sweep();
      if (this.sessions.size >= this.maxSessions) {
        return jsonReply(503, errorResponse(id, SERVER_BUSY, `Service Unavailable: ${this.maxSessions} sessions are open; retry later`), { "retry-after": "60" });
      }
    }
    const session = new LegacySession(crypto.randomUUID(), this.server, this.events, this.polling);
    session.owner = auth?.info.subject;
    const channel = new ReplyChannel(id, { "mcp-session-id": session.id }, ok, session, false);
    session.replies.set(id, channel);
    session.peer.receive(body, auth?.info);
    return channel.reply.then((reply) => {
      if (session.revision !== undefined) {
        this.sessions.set(session.id, session);
        this.startSweeper();
        return reply;
      }
      // initialize failed: no session to keep.
      session.close();
      const { "mcp-session-id": _dropped, ...headers } = reply.headers;
      return { ...reply, headers } as HttpReply;
    });
  }

  private legacyMessage(
    request: HttpRequestLike,
    session: LegacySession,
    body: Record<string, unknown>,
    isRequest: boolean,
    auth: Authenticated | undefined,
  ): HttpReply | Promise<HttpReply> {
    session.lastActive = Date.now();
    const revision = session.revision!;
    const version = request.header("mcp-protocol-version");
    if (version !== undefined && hasProtocolVersionHeader(revision) && version !== revision) {
      return errorReply(400, ErrorCode.InvalidRequest, `Bad Request: MCP-Protocol-Version '${version}' does not match the session's version ${revision}`);
    }
    if (!isRequest) {
      this.legacyNotification(session, body, auth?.info);
      return { status: 202, headers: {} };
    }
    const id = body.id as RequestId;
    // An id in use by a request in progress: refused here, so that each POST gets its own answer.
    if (session.replies.has(id)) return jsonReply(200, duplicateId(id));
    // With an event store the stream is resumable: disconnection is not cancellation (the
    // client resumes the stream, or sends notifications/cancelled); its events are stored.
    const resumable = session.openStream !== undefined;
    const channel = new ReplyChannel(id, {}, ok, session, resumable);
    session.replies.set(id, channel);
    if (!resumable) onDisconnect(request, () => channel.abandon());
    else if (this.polling.afterMs > 0 && session.primes) channel.pollAfter(this.polling);
    session.peer.receive(body, auth?.info);
    return channel.reply;
  }

  private modernMessage(
    request: HttpRequestLike,
    body: Record<string, unknown>,
    method: string | undefined,
    isRequest: boolean,
    params: Record<string, unknown> | undefined,
    auth: Authenticated | undefined,
  ): HttpReply | Promise<HttpReply> {
    if (method === undefined) {
      return errorReply(400, ErrorCode.InvalidRequest, "Invalid request: clients send requests and notifications only");
    }
    const mismatch = headerMismatch(request, method, params, this.server);
    if (mismatch) {
      return jsonReply(400, errorResponse(isRequest ? (body.id as RequestId) : null, ErrorCode.HeaderMismatch, `Header mismatch: ${mismatch}`));
    }
    if (!isRequest) return { status: 202, headers: {} };
    // A modern request is its own connection: served without one, nothing outlives its reply.
    const channel = new ReplyChannel(body.id as RequestId, {}, modernStatus, undefined, false);
    channel.exchange = serveRequest(this.server, body, channel, auth?.info);
    if (!channel.done) onDisconnect(request, () => channel.abandon());
    return channel.reply;
  }

  private get(request: HttpRequestLike, auth: Authenticated | undefined): HttpReply | Promise<HttpReply> {
    const accept = (request.header("accept") ?? "").toLowerCase();
    const sessionId = request.header("mcp-session-id");
    if (!this.servesLegacy || sessionId === undefined) {
      return errorReply(405, ErrorCode.InvalidRequest, "Method not allowed: this endpoint has no stream without a legacy session", { allow: "POST" });
    }
    if (!accept.includes("text/event-stream") && !accept.includes("*/*")) {
      return errorReply(406, ErrorCode.InvalidRequest, "Not Acceptable: Accept must list text/event-stream");
    }
    const session = this.sessionOf(sessionId, auth);
    if (!session) return errorReply(404, -32001, "Session not found");
    const lastEventId = request.header("last-event-id");
    if (session.events && lastEventId !== undefined) return this.resume(request, session, session.events, lastEventId);
    if (session.listening) return errorReply(409, ErrorCode.InvalidRequest, "Conflict: this session already has a stream open");
    session.lastActive = Date.now();
    const stream = this.connection(request);
    session.listen(stream);
    return { status: 200, headers: { ...sseHeaders }, stream };
  }

  /**
   * GET with Last-Event-ID: replays the events of that event's stream that came after it, then
   * goes on with the stream's live events if it is still open. An id this session did not
   * issue, or whose stream is forgotten, is 404: there is nothing to resume.
   */
  private async resume(request: HttpRequestLike, session: LegacySession, events: EventStore, lastEventId: string): Promise<HttpReply> {
    const replay = await events.replayAfter(session.id, lastEventId);
    if (!replay) return errorReply(404, ErrorCode.InvalidRequest, "Not Found: this session has no stream to resume from that Last-Event-ID");
    session.lastActive = Date.now();
    const stream = this.connection(request);
    const live = session.streams.get(replay.streamId);
    if (live) live.resume(stream, lastEventId);
    else {
      writeReplay(stream, replay.events);
      stream.end();
    }
    return { status: 200, headers: { ...sseHeaders }, stream };
  }

  /** The connection of a GET stream: kept alive with comments, cancelled when the client goes away. */
  private connection(request: HttpRequestLike): SseStream {
    const stream = new SseStream();
    if (this.keepAliveMs > 0) {
      const timer = setInterval(() => (stream.isOpen ? stream.write(":\n\n") : clearInterval(timer)), this.keepAliveMs);
      (timer as { unref?: () => void }).unref?.();
    }
    onDisconnect(request, () => stream.cancel());
    return stream;
  }

  private delete(request: HttpRequestLike, auth: Authenticated | undefined): HttpReply {
    const sessionId = request.header("mcp-session-id");
    if (!this.servesLegacy || sessionId === undefined) {
      return errorReply(405, ErrorCode.InvalidRequest, "Method not allowed: there is no session to end", { allow: "POST" });
    }
    const session = this.sessionOf(sessionId, auth);
    if (!session) return errorReply(404, -32001, "Session not found");
    this.sessions.delete(sessionId);
    session.close();
    return { status: 200, headers: {} };
  }

  private startSweeper(): void {
    if (this.sweeper) return;
    this.sweeper = setInterval(() => {
      this.sweep();
      if (this.sessions.size === 0 && this.sweeper) {
        clearInterval(this.sweeper);
        this.sweeper = undefined;
      }
    }, Math.min(this.sessionIdleMs, 60_000));
    (this.sweeper as { unref?: () => void }).unref?.();
  }

  /**
   * Closes the sessions idle for sessionIdleMs: no request from the client and nothing sent
   * to it for that long, and no GET stream read. Requests still waiting (hung or cancelled
   * handlers, clients gone) do not keep a session; their POSTs are answered with an error.
   */
  private sweep(): void {
    const now = Date.now();
    // Messages sent since the last sweep were sent after it: the session was active then at least.
    const since = this.lastSweepAt;
    this.lastSweepAt = now;
    for (const [id, session] of this.sessions) {
      if (session.sent !== session.sentAtSweep) {
        session.sentAtSweep = session.sent;
        if (session.lastActive < since) session.lastActive = since;
      }
      if (now - session.lastActive > this.sessionIdleMs && !session.listening) {
        this.sessions.delete(id);
        session.close();
      }
    }
  }
}
