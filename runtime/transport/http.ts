// The Streamable HTTP binding of MCP, for both eras on one endpoint:
//  - modern (2026-07-28): every POST is self-contained; headers mirror the body
//    (MCP-Protocol-Version, Mcp-Method, Mcp-Name) and are checked against it (http-modern.ts);
//  - legacy (2025-03-26 ... 2025-11-25): `initialize` opens a session named by the
//    Mcp-Session-Id header (http-session.ts); GET opens the session's stream for
//    server-initiated messages; DELETE ends the session.
// A POSTed request is answered with JSON, or with an SSE stream when notifications or
// server requests come before the response (http-pending.ts). The logic works on a minimal
// request/reply shape (http-reply.ts) so that the web-standard handler and the node:http
// adapter both stay thin. Requests pass the guards (http-guards.ts) and authorization first.
import { classify, ErrorCode, isObject, errorResponse, validId, type RequestId } from "../jsonrpc/messages.js";
import { serveRequest } from "../jsonrpc/peer.js";
import type { McpEndpoint } from "../mcp/server.js";
import { allowsBatches, hasProtocolVersionHeader, isModern, MetaKey } from "../mcp/revisions.js";
import { MemoryEventStore, type EventStore } from "./event-store.js";
import { BodyLimits, SERVER_BUSY } from "./body.js";
import { HostCheck } from "./host-check.js";
import { ResourceGuard, type HttpAuthOptions } from "../auth/http-guard.js";
import { entryScopes } from "../auth/scopes.js";
import type { AuthInfo } from "../auth/resource-server.js";
import { checkHost, checkHostAndOrigin, checkPostHeaders, corsHeaders } from "./http-guards.js";
import { headerMismatch, modernStatus } from "./http-modern.js";
import { BatchReply, ReplyChannel, retryHint, type PollingPolicy } from "./http-pending.js";
import {
  duplicateId,
  errorReply,
  jsonReply,
  onDisconnect,
  sseHeaders,
  type HttpReply,
  type HttpRequestLike,
} from "./http-reply.js";
import { LegacySession, LegacySessions } from "./http-session.js";
import { writeReplay } from "./resumable-stream.js";
import { SseStream } from "./sse.js";

export type { HttpAuthOptions } from "../auth/http-guard.js";
export { BodyBudgetError, BodyTimeoutError, BodyTooLargeError } from "./body.js";
export type { BodyBudget } from "./body.js";
export { errorReply, jsonReply, onDisconnect } from "./http-reply.js";
export type { HttpReply, HttpRequestLike } from "./http-reply.js";

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

const ok = () => 200;

/** A request that passed the guard: who sent it and for which resource. */
export interface Authenticated {
  readonly info: AuthInfo;
  readonly resource: string;
  readonly guard: ResourceGuard;
}

export class StreamableHttpBinding {
  private readonly sessions: LegacySessions;
  private readonly hostCheck: HostCheck;
  /** Request bodies being read now. */
  private readonly bodies: BodyLimits;
  private readonly keepAliveMs: number;
  private readonly events: EventStore | undefined;
  private readonly polling: PollingPolicy;
  private readonly servesLegacy: boolean;
  private readonly servesModern: boolean;
  /** OAuth protection, when the server declares it or the options ask for it. */
  private readonly guard: ResourceGuard | undefined;

  constructor(
    private readonly server: McpEndpoint,
    options: HttpOptions = {},
  ) {
    this.hostCheck = new HostCheck(options);
    this.sessions = new LegacySessions(options.maxSessions ?? 10_000, options.sessionIdleMs ?? 30 * 60_000);
    this.bodies = new BodyLimits(options);
    this.keepAliveMs = (options.keepAliveSeconds ?? 5) * 1000;
    this.events = options.eventStore === false ? undefined : (options.eventStore ?? new MemoryEventStore());
    this.polling = { afterMs: options.pollAfterMs ?? 0, retryMs: retryHint(options.pollRetryMs, 1000) };
    this.servesLegacy = server.revisions.some((r) => !isModern(r));
    this.servesModern = server.revisions.some(isModern);
    const policy = server.definition?.auth;
    if (policy !== undefined && options.auth === undefined) {
      throw new Error(
        "This server declares `auth:` in its manifest: pass `auth: { verifyToken }` to the HTTP binding (e.g. jwtVerifier from @mcp-gen/runtime/jwt)",
      );
    }
    if (
      options.auth &&
      this.hostCheck.hosts === "any" &&
      options.auth.resource === undefined &&
      policy?.resource === undefined
    ) {
      // The resource would come from the Host header, which anyone may then choose: a token for
      // another server could be made to look like one for this server.
      throw new Error('auth: set `resource` (this server\'s canonical URI) when allowedHosts is "any"');
    }
    this.guard = options.auth && new ResourceGuard(policy, options.auth, options.path);
  }

  /** Number of open legacy sessions. */
  get sessionCount(): number {
    return this.sessions.size;
  }

  async handle(request: HttpRequestLike): Promise<HttpReply> {
    this.sessions.sweepIfDue();
    const guard = this.guard;
    // Public metadata: read by clients of any origin before they have a token.
    if (guard?.isMetadataRequest(request)) return checkHost(this.hostCheck, request) ?? guard.metadata(request);
    const refused = checkHostAndOrigin(this.hostCheck, request);
    if (refused) return refused;
    // A browser page on an origin listed in allowedOrigins (a catalog's "try it" panel) may read
    // the replies: preflights are answered here, replies carry that exact origin. Refused origins
    // got a 403 above; others accepted by default are served without CORS headers.
    const origin = request.header("origin");
    if (origin === undefined || !this.hostCheck.sharesWith(origin)) return this.route(request);
    if (request.method === "OPTIONS")
      return { status: 204, headers: corsHeaders(origin, request.header("access-control-request-headers")) };
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
        return errorReply(405, ErrorCode.InvalidRequest, "Method not allowed", {
          allow: this.servesLegacy ? "GET, POST, DELETE" : "POST",
        });
    }
  }

  /** Ends every legacy session and stream. */
  close(): void {
    this.sessions.closeAll();
  }

  // --- POST: one message or a batch, legacy or modern ---------------------------------
  private async post(request: HttpRequestLike, auth: Authenticated | undefined): Promise<HttpReply> {
    const refused = checkPostHeaders(request);
    if (refused) return refused;
    const read = await this.bodies.read((limit, timeoutMs, budget) => request.text(limit, timeoutMs, budget));
    if ("refused" in read) return read.refused;
    const body = read.value;
    if (auth) {
      const forbidden = this.checkScopes(auth, Array.isArray(body) ? body : [body]);
      if (forbidden) return forbidden;
    }
    if (Array.isArray(body)) return this.batch(request, body, auth);
    if (!isObject(body))
      return errorReply(400, ErrorCode.InvalidRequest, "Invalid request: the body must be one JSON-RPC message");
    // Whatever fails the envelope is answered here: it has no request id to route an answer by.
    const kind = classify(body);
    if (kind.kind === "invalid")
      return jsonReply(400, errorResponse(kind.id, ErrorCode.InvalidRequest, `Invalid request: ${kind.reason}`));

    const sessionId = request.header("mcp-session-id");
    const method = kind.kind === "response" ? undefined : kind.message.method;
    const isRequest = kind.kind === "request";
    const params = kind.kind === "response" ? undefined : kind.message.params;

    if (method === "initialize" && isRequest) return this.initialize(request, body, auth);
    if (sessionId !== undefined && this.servesLegacy) {
      const session = this.sessions.owned(sessionId, auth);
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
      return jsonReply(
        400,
        errorResponse(
          isRequest ? (body.id as RequestId) : null,
          mismatch ? ErrorCode.HeaderMismatch : ErrorCode.InvalidParams,
          mismatch ? `Header mismatch: ${mismatch}` : `Invalid params: _meta must carry ${MetaKey.protocolVersion}`,
        ),
      );
    }
    return errorReply(
      400,
      ErrorCode.InvalidRequest,
      "Bad Request: Mcp-Session-Id header is required; send initialize first",
    );
  }

  /** The 403 for the first request in `messages` that needs scopes the token lacks. */
  private checkScopes(auth: Authenticated, messages: readonly unknown[]): HttpReply | undefined {
    for (const message of messages) {
      if (!isObject(message) || typeof message.method !== "string" || message.id === undefined) continue;
      const params = isObject(message.params) ? message.params : undefined;
      const definition = this.server.definition;
      const entry = definition ? entryScopes(definition, message.method, params) : [];
      const needed = [...new Set([...auth.guard.requiredScopes, ...entry])];
      const forbidden = auth.guard.insufficientScope(
        auth.info,
        auth.resource,
        needed,
        validId(message.id) ? message.id : null,
      );
      if (forbidden) return forbidden;
    }
    return undefined;
  }

  private batch(
    request: HttpRequestLike,
    messages: unknown[],
    auth: Authenticated | undefined,
  ): Promise<HttpReply> | HttpReply {
    const sessionId = request.header("mcp-session-id");
    const session = sessionId === undefined ? undefined : this.sessions.owned(sessionId, auth);
    if (!session || !allowsBatches(session.revision)) {
      return errorReply(
        400,
        ErrorCode.InvalidRequest,
        "Invalid request: JSON-RPC batches are only part of protocol 2025-03-26",
      );
    }
    if (messages.length === 0) return errorReply(400, ErrorCode.InvalidRequest, "Invalid request: empty batch");
    return this.legacyBatch(request, session, messages, auth?.info);
  }

  private legacyBatch(
    request: HttpRequestLike,
    session: LegacySession,
    messages: unknown[],
    auth: AuthInfo | undefined,
  ): Promise<HttpReply> | HttpReply {
    session.lastActive = Date.now();
    const batch = new BatchReply(session, session.openStream !== undefined);
    const accepted: unknown[] = [];
    for (const message of messages) {
      const kind = classify(message);
      if (kind.kind === "invalid")
        batch.answer(errorResponse(kind.id, ErrorCode.InvalidRequest, `Invalid request: ${kind.reason}`));
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
  private legacyNotification(
    session: LegacySession,
    message: Record<string, unknown>,
    auth: AuthInfo | undefined,
  ): void {
    session.peer.receive(message, auth);
    if (message.method === "notifications/cancelled") session.cancelled(message.params);
  }

  private initialize(
    request: HttpRequestLike,
    body: Record<string, unknown>,
    auth: Authenticated | undefined,
  ): Promise<HttpReply> | HttpReply {
    const params = isObject(body.params) ? body.params : undefined;
    const modern = isObject(params?._meta) && params._meta[MetaKey.protocolVersion] !== undefined;
    if (!this.servesLegacy || (modern && this.servesModern)) {
      // Let the server explain which versions it speaks; a modern error body tells dual-era clients to retry.
      // An initialize carrying a modern _meta is a modern request (the server answers -32601, HTTP 404).
      return this.modernMessage(
        request,
        body,
        "initialize",
        true,
        isObject(body.params) ? body.params : undefined,
        auth,
      );
    }
    const id = body.id as RequestId;
    if (this.sessions.isFull()) {
      return jsonReply(
        503,
        errorResponse(
          id,
          SERVER_BUSY,
          `Service Unavailable: ${this.sessions.maxSessions} sessions are open; retry later`,
        ),
        { "retry-after": "60" },
      );
    }
    const session = new LegacySession(crypto.randomUUID(), this.server, this.events, this.polling);
    session.owner = auth?.info.subject;
    const channel = new ReplyChannel(id, { "mcp-session-id": session.id }, ok, session, false);
    session.replies.set(id, channel);
    session.peer.receive(body, auth?.info);
    return channel.reply.then((reply) => {
      if (session.revision !== undefined) {
        this.sessions.add(session);
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
      return errorReply(
        400,
        ErrorCode.InvalidRequest,
        `Bad Request: MCP-Protocol-Version '${version}' does not match the session's version ${revision}`,
      );
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
      return jsonReply(
        400,
        errorResponse(
          isRequest ? (body.id as RequestId) : null,
          ErrorCode.HeaderMismatch,
          `Header mismatch: ${mismatch}`,
        ),
      );
    }
    if (!isRequest) return { status: 202, headers: {} };
    // A modern request is its own connection: served without one, nothing outlives its reply.
    const channel = new ReplyChannel(body.id as RequestId, {}, modernStatus, undefined, false);
    channel.exchange = serveRequest(this.server, body, channel, auth?.info);
    if (!channel.done) onDisconnect(request, () => channel.abandon());
    return channel.reply;
  }

  // --- GET: the legacy session's stream, or the resumption of one ---------------------
  private get(request: HttpRequestLike, auth: Authenticated | undefined): HttpReply | Promise<HttpReply> {
    const accept = (request.header("accept") ?? "").toLowerCase();
    const sessionId = request.header("mcp-session-id");
    if (!this.servesLegacy || sessionId === undefined) {
      return errorReply(
        405,
        ErrorCode.InvalidRequest,
        "Method not allowed: this endpoint has no stream without a legacy session",
        { allow: "POST" },
      );
    }
    if (!accept.includes("text/event-stream") && !accept.includes("*/*")) {
      return errorReply(406, ErrorCode.InvalidRequest, "Not Acceptable: Accept must list text/event-stream");
    }
    const session = this.sessions.owned(sessionId, auth);
    if (!session) return errorReply(404, -32001, "Session not found");
    const lastEventId = request.header("last-event-id");
    if (session.events && lastEventId !== undefined) return this.resume(request, session, session.events, lastEventId);
    if (session.listening)
      return errorReply(409, ErrorCode.InvalidRequest, "Conflict: this session already has a stream open");
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
  private async resume(
    request: HttpRequestLike,
    session: LegacySession,
    events: EventStore,
    lastEventId: string,
  ): Promise<HttpReply> {
    const replay = await events.replayAfter(session.id, lastEventId);
    if (!replay)
      return errorReply(
        404,
        ErrorCode.InvalidRequest,
        "Not Found: this session has no stream to resume from that Last-Event-ID",
      );
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
      return errorReply(405, ErrorCode.InvalidRequest, "Method not allowed: there is no session to end", {
        allow: "POST",
      });
    }
    const session = this.sessions.owned(sessionId, auth);
    if (!session) return errorReply(404, -32001, "Session not found");
    this.sessions.remove(session);
    return { status: 200, headers: {} };
  }
}
