// The Streamable HTTP binding of MCP, for both eras on one endpoint:
//  - modern (2026-07-28): every POST is self-contained; headers mirror the body
//    (MCP-Protocol-Version, Mcp-Method, Mcp-Name) and are checked against it;
//  - legacy (2025-03-26 ... 2025-11-25): `initialize` opens a session named by the
//    Mcp-Session-Id header; GET opens the session's stream for server-initiated
//    messages; DELETE ends the session.
// A POSTed request is answered with JSON, or with an SSE stream when notifications or
// server requests come before the response. The logic works on a minimal request/reply
// shape so that the web-standard handler and the node:http adapter both stay thin.
import { ErrorCode, isObject, errorResponse, type JsonRpcMessage, type RequestId } from "../jsonrpc/messages.js";
import type { Exchange, MessageSink, Peer } from "../jsonrpc/peer.js";
import { serializeMessage } from "../jsonrpc/serialize.js";
import type { McpEndpoint } from "../mcp/server.js";
import { hasProtocolVersionHeader, isModern, MetaKey, primesEventStreams } from "../mcp/revisions.js";
import { decodeHeaderValue, namedMethods, paramHeaderMismatch } from "../mcp/mirrored-headers.js";
import { MemoryEventStore, type EventStore } from "./event-store.js";
import { ResourceGuard, type HttpAuthOptions } from "../auth/http-guard.js";
import { entryScopes } from "../auth/scopes.js";
import type { AuthInfo } from "../auth/resource-server.js";

export type { HttpAuthOptions } from "../auth/http-guard.js";
import { ResumableStream, writeReplay } from "./resumable-stream.js";
import { SseStream } from "./sse.js";

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
  /** Seconds between SSE keep-alive comments on long-lived streams. Default 25; 0 disables. */
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
}


/** The little an HTTP binding needs from a request. Header names are lower case. */
export interface HttpRequestLike {
  readonly method: string;
  /** The request's absolute URL (needed to serve and name the protected resource metadata). */
  readonly url?: string | undefined;
  header(name: string): string | undefined;
  /** The body as text; rejects with BodyTooLargeError past the limit. */
  text(limit: number): Promise<string>;
  /** Aborted when the client disconnects. */
  readonly signal?: AbortSignal | undefined;
  /**
   * Calls `callback` if the client disconnects before the reply is complete. Preferred
   * over `signal` when present: adapters can implement it without an AbortController
   * per request.
   */
  onDisconnect?(callback: () => void): void;
}

const noop = () => {};

function onDisconnect(request: HttpRequestLike, callback: () => void): void {
  if (request.onDisconnect) request.onDisconnect(callback);
  else request.signal?.addEventListener("abort", callback, { once: true });
}

export type HttpReply =
  | { readonly status: number; readonly headers: Record<string, string>; readonly body?: string | undefined }
  | { readonly status: number; readonly headers: Record<string, string>; readonly stream: SseStream };

export class BodyTooLargeError extends Error {}

const jsonHeaders = { "content-type": "application/json" };
const sseHeaders = { "content-type": "text/event-stream", "cache-control": "no-cache", "x-accel-buffering": "no" };
const defaultHosts = ["localhost", "127.0.0.1", "[::1]"];

function jsonReply(status: number, body: unknown, headers: Record<string, string> = {}): HttpReply {
  return { status, headers: { ...jsonHeaders, ...headers }, body: typeof body === "string" ? body : JSON.stringify(body) };
}

function errorReply(status: number, code: number, message: string, headers: Record<string, string> = {}, data?: unknown): HttpReply {
  return jsonReply(status, errorResponse(null, code, message, data), headers);
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

/**
 * Collects what the server sends for one POSTed request until its response. The reply is
 * a settled promise when the response comes at once, else one made when first asked for.
 */
class ReplyChannel implements MessageSink {
  private settled: HttpReply | undefined;
  private pending: Promise<HttpReply> | undefined;
  private resolve: ((reply: HttpReply) => void) | undefined;
  private stream: EventSink | undefined;
  /** The lone request being answered (modern), cancelled when the client goes away. */
  exchange: Exchange | undefined;
  done = false;

  constructor(
    private readonly id: RequestId,
    private readonly headers: Record<string, string>,
    private readonly statusOf: (message: JsonRpcMessage) => number,
    /** Cancels the request in its session (legacy). */
    private readonly onCancel: (() => void) | undefined,
    /** Wraps the connection when the reply becomes a stream (legacy sessions with an event store). */
    private readonly openStream?: (connection: SseStream) => EventSink,
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

  private cancel(): void {
    if (this.onCancel) this.onCancel();
    else this.exchange?.cancel("Client disconnected");
  }

  push(message: JsonRpcMessage): void {
    if (this.done) return;
    const final = ("result" in message || "error" in message) && message.id === this.id;
    if (!this.stream) {
      if (final) {
        this.done = true;
        const headers = Object.keys(this.headers).length === 0 ? jsonHeaders : { ...jsonHeaders, ...this.headers };
        this.settle({ status: this.statusOf(message), headers, body: serializeMessage(message) });
        return;
      }
      // Something comes before the response: switch to a stream for this request.
      const connection = new SseStream();
      connection.onCancel = () => this.cancel();
      this.stream = this.openStream?.(connection) ?? connection;
      this.settle({ status: 200, headers: { ...sseHeaders, ...this.headers }, stream: connection });
    }
    this.stream.send(serializeMessage(message));
    if (final) {
      this.done = true;
      this.stream.end();
    }
  }

  /** The client went away before the reply was sent. */
  abandon(): void {
    if (this.done) return;
    this.done = true;
    this.cancel();
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
  readonly replies = new Map<RequestId, ReplyChannel>();
  /** The GET stream: its connection, or with an event store a stream that outlives connections. */
  standalone: SseStream | ResumableStream | undefined;
  /** With an event store: the streams that still take events, by stream id. */
  readonly streams = new Map<string, ResumableStream>();
  private streamsOpened = 0;
  lastActive = Date.now();
  /** With an event store: makes the connection of a reply that became a stream resumable. */
  readonly openStream: ((connection: SseStream) => ResumableStream) | undefined;

  constructor(
    readonly id: string,
    server: McpEndpoint,
    readonly events: EventStore | undefined,
  ) {
    this.peer = server.connect(this);
    this.openStream = events && ((connection) => this.resumable(connection, events));
  }

  get revision(): string | undefined {
    return (this.peer.state as { revision?: string } | undefined)?.revision;
  }

  /** Whether the client reads the GET stream now. */
  get listening(): boolean {
    const standalone = this.standalone;
    return standalone instanceof ResumableStream ? standalone.connected : standalone?.isOpen === true;
  }

  /** A new resumable stream read by `connection`. */
  private resumable(connection: SseStream, events: EventStore): ResumableStream {
    const revision = this.revision;
    const prime = revision !== undefined && primesEventStreams(revision);
    const stream = new ResumableStream(events, this.id, String(++this.streamsOpened), connection, prime, (s) => this.streams.delete(s.id));
    this.streams.set(stream.id, stream);
    return stream;
  }

  send(message: JsonRpcMessage, relatedTo?: RequestId): void {
    const channel = relatedTo === undefined ? undefined : this.replies.get(relatedTo);
    if (channel && !channel.done) {
      channel.push(message);
      if (channel.done) this.replies.delete(relatedTo!);
      return;
    }
    // Not tied to a pending POST: the session's GET stream, when the client opened one.
    if (this.standalone?.isOpen) this.standalone.send(serializeMessage(message));
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
    this.standalone = this.resumable(connection, this.events);
    if (previous) this.retire([previous], previous.id);
  }

  close(): void {
    this.peer.close("Session closed");
    this.standalone?.end();
    for (const channel of this.replies.values()) channel.abandon();
    this.replies.clear();
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
    return `MCP-Protocol-Version header value '${version}' does not match body value '${bodyVersion}'`;
  }
  const headerMethod = request.header("mcp-method");
  if (headerMethod === undefined) return "required header Mcp-Method is missing";
  if (headerMethod !== method) return `Mcp-Method header value '${headerMethod}' does not match body value '${method}'`;
  const field = namedMethods[method];
  if (field !== undefined) {
    const raw = request.header("mcp-name");
    if (raw === undefined) return "required header Mcp-Name is missing";
    const name = decodeHeaderValue(raw);
    if (name === undefined) return "Mcp-Name header has an invalid base64 value";
    const bodyValue = params?.[field];
    if (name !== bodyValue) return `Mcp-Name header value '${name}' does not match body value '${String(bodyValue)}'`;
    const declared = method === "tools/call" && typeof bodyValue === "string" ? server.paramHeaders?.(bodyValue) : undefined;
    if (declared) return paramHeaderMismatch(declared, params?.arguments, (header) => request.header(header));
  }
  return undefined;
}

export class StreamableHttpBinding {
  private readonly sessions = new Map<string, LegacySession>();
  private readonly hosts: readonly string[] | "any";
  private readonly origins: readonly string[] | "any";
  private readonly maxBodyBytes: number;
  private readonly sessionIdleMs: number;
  private readonly keepAliveMs: number;
  private readonly events: EventStore | undefined;
  private sweeper: ReturnType<typeof setInterval> | undefined;
  private readonly servesLegacy: boolean;
  private readonly servesModern: boolean;
  /** OAuth protection, when the server declares it or the options ask for it. */
  private readonly guard: ResourceGuard | undefined;

  constructor(
    private readonly server: McpEndpoint,
    options: HttpOptions = {},
  ) {
    this.hosts = options.allowedHosts ?? defaultHosts;
    this.origins = options.allowedOrigins ?? (this.hosts === "any" ? "any" : []);
    this.maxBodyBytes = options.maxBodyBytes ?? 4 * 1024 * 1024;
    this.sessionIdleMs = options.sessionIdleMs ?? 30 * 60_000;
    this.keepAliveMs = (options.keepAliveSeconds ?? 25) * 1000;
    this.events = options.eventStore === false ? undefined : (options.eventStore ?? new MemoryEventStore());
    this.servesLegacy = server.revisions.some((r) => !isModern(r));
    this.servesModern = server.revisions.some(isModern);
    const policy = server.definition?.auth;
    if (policy !== undefined && options.auth === undefined) {
      throw new Error("This server declares `auth:` in its manifest: pass `auth: { verifyToken }` to the HTTP binding (e.g. jwtVerifier from mcp-gen/runtime/jwt)");
    }
    if (options.auth && this.hosts === "any" && options.auth.resource === undefined && policy?.resource === undefined) {
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
    const guard = this.guard;
    // Public metadata: read by clients of any origin before they have a token.
    if (guard?.isMetadataRequest(request)) return this.checkHost(request) ?? guard.metadata(request);
    const refused = this.checkHostAndOrigin(request);
    if (refused) return refused;
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
    if (this.hosts === "any") return undefined;
    const host = request.header("host");
    const hostname = host?.replace(/:\d+$/, "").toLowerCase();
    if (hostname === undefined || !this.hosts.includes(hostname)) {
      return errorReply(403, ErrorCode.InvalidRequest, `Forbidden: Host ${host === undefined ? "(missing)" : `'${host}'`} is not allowed`);
    }
    return undefined;
  }

  private checkHostAndOrigin(request: HttpRequestLike): HttpReply | undefined {
    const refusedHost = this.checkHost(request);
    if (refusedHost) return refusedHost;
    const origin = request.header("origin");
    if (origin !== undefined && this.origins !== "any") {
      let allowed = this.origins.includes(origin);
      if (!allowed && this.hosts !== "any") {
        try {
          const url = new URL(origin);
          allowed = (url.protocol === "http:" || url.protocol === "https:") && this.hosts.includes(url.hostname.toLowerCase());
        } catch {
          allowed = false;
        }
      }
      if (!allowed) return errorReply(403, ErrorCode.InvalidRequest, `Forbidden: Origin '${origin}' is not allowed`);
    }
    return undefined;
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
    let text: string;
    try {
      text = await request.text(this.maxBodyBytes);
    } catch (error) {
      if (error instanceof BodyTooLargeError) return errorReply(413, ErrorCode.InvalidRequest, `Payload Too Large: limit is ${this.maxBodyBytes} bytes`);
      throw error;
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch (error) {
      return errorReply(400, ErrorCode.ParseError, `Parse error: ${(error as Error).message}`);
    }
    if (auth) {
      const forbidden = this.checkScopes(auth, Array.isArray(body) ? body : [body]);
      if (forbidden) return forbidden;
    }
    if (Array.isArray(body)) return this.batch(request, body, auth);
    if (!isObject(body)) return errorReply(400, ErrorCode.InvalidRequest, "Invalid request: the body must be one JSON-RPC message");

    const sessionId = request.header("mcp-session-id");
    const method = typeof body.method === "string" ? body.method : undefined;
    const isRequest = method !== undefined && body.id !== undefined;
    const params = isObject(body.params) ? body.params : undefined;

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
      const forbidden = auth.guard.insufficientScope(auth.info, auth.resource, needed, message.id);
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
    if (!session || session.revision !== "2025-03-26") {
      return errorReply(400, ErrorCode.InvalidRequest, "Invalid request: JSON-RPC batches are only part of protocol 2025-03-26");
    }
    if (messages.length === 0) return errorReply(400, ErrorCode.InvalidRequest, "Invalid request: empty batch");
    return this.legacyBatch(session, messages, auth?.info);
  }

  private async legacyBatch(session: LegacySession, messages: unknown[], auth: AuthInfo | undefined): Promise<HttpReply> {
    session.lastActive = Date.now();
    const replies: Promise<HttpReply>[] = [];
    for (const message of messages) {
      if (isObject(message) && typeof message.method === "string" && message.id !== undefined) {
        const id = message.id as RequestId;
        const channel = new ReplyChannel(id, {}, () => 200, () => session.peer.cancelInbound(id, "Client disconnected"));
        session.replies.set(id, channel);
        replies.push(channel.reply);
      }
      session.peer.receive(message, auth);
    }
    if (replies.length === 0) return { status: 202, headers: {} };
    // A batch of requests is answered with the array of their responses.
    const bodies = await Promise.all(replies.map(async (r) => ((await r) as { body?: string }).body ?? "null"));
    return jsonReply(200, `[${bodies.join(",")}]`);
  }

  private initialize(request: HttpRequestLike, body: Record<string, unknown>, auth: Authenticated | undefined): Promise<HttpReply> | HttpReply {
    const params = isObject(body.params) ? body.params : undefined;
    const modern = isObject(params?._meta) && params._meta[MetaKey.protocolVersion] !== undefined;
    if (!this.servesLegacy || (modern && this.servesModern)) {
      // Let the server explain which versions it speaks; a modern error body tells dual-era clients to retry.
      // An initialize carrying a modern _meta is a modern request (the server answers -32601, HTTP 404).
      return this.modernMessage(request, body, "initialize", true, isObject(body.params) ? body.params : undefined, auth);
    }
    const session = new LegacySession(crypto.randomUUID(), this.server, this.events);
    session.owner = auth?.info.subject;
    const id = body.id as RequestId;
    const channel = new ReplyChannel(id, { "mcp-session-id": session.id }, () => 200, () => session.peer.cancelInbound(id, "Client disconnected"));
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
      session.peer.receive(body, auth?.info);
      return { status: 202, headers: {} };
    }
    const id = body.id as RequestId;
    if (session.openStream) {
      // A resumable stream: disconnection is not cancellation (the client resumes the stream,
      // or sends notifications/cancelled); the request's events are stored meanwhile.
      const channel = new ReplyChannel(id, {}, () => 200, noop, session.openStream);
      session.replies.set(id, channel);
      session.peer.receive(body, auth?.info);
      return channel.reply;
    }
    const channel = new ReplyChannel(id, {}, () => 200, () => session.peer.cancelInbound(id, "Client disconnected"));
    session.replies.set(id, channel);
    onDisconnect(request, () => channel.abandon());
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
    const channel = new ReplyChannel(body.id as RequestId, {}, modernStatus, undefined);
    channel.exchange = this.server.serveRequest(body, channel, auth?.info);
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
      const now = Date.now();
      for (const [id, session] of this.sessions) {
        if (now - session.lastActive > this.sessionIdleMs && session.replies.size === 0 && !session.listening) {
          this.sessions.delete(id);
          session.close();
        }
      }
      if (this.sessions.size === 0 && this.sweeper) {
        clearInterval(this.sweeper);
        this.sweeper = undefined;
      }
    }, Math.min(this.sessionIdleMs, 60_000));
    (this.sweeper as { unref?: () => void }).unref?.();
  }
}
