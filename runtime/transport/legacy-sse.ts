// The HTTP+SSE transport of protocol 2024-11-05, kept for hosts that speak nothing newer
// (SDK v1 still ships it). Off by default: nothing serves it unless an application mounts
// createLegacySseHandler (fetch platforms) or createLegacySseNodeHandler (node:http).
//
//  - GET <ssePath> opens a session: an SSE stream whose first event is `endpoint`, carrying
//    `<postPath>?sessionId=<uuid>`; everything the server sends (responses, its own requests
//    and notifications) follows on that stream as `message` events.
//  - POST <postPath>?sessionId=<uuid> carries one JSON-RPC message (a 2025-03-26 session may
//    also send a batch); it is answered 202 Accepted at once. A POST whose message is refused
//    (parse error, invalid envelope) is answered 400 with a JSON-RPC error in its body.
//  - The session lives as long as its stream: when the client goes away, it ends.
//
// Sessions are legacy sessions (initialize, 2024-11-05 ... 2025-11-25, whichever the server
// serves); modern requests (2026-07-28 `_meta`) are refused. Host and Origin are checked
// exactly as by the Streamable HTTP binding (the same defaults: localhost only), and bodies
// have the same limits (4 MiB, 512 read at once, 30 s to arrive).
import {
  classify,
  ErrorCode,
  errorResponse,
  isObject,
  type JsonRpcMessage,
  type RequestId,
} from "../jsonrpc/messages.js";
import type { MessageSink, Peer } from "../jsonrpc/peer.js";
import { serializeMessage } from "../jsonrpc/serialize.js";
import type { McpEndpoint } from "../mcp/server.js";
import { allowsBatches, isModern, MetaKey } from "../mcp/revisions.js";
import { HostCheck } from "./host-check.js";
import { BodyLimits, SERVER_BUSY } from "./body.js";
import { errorReply, jsonReply, onDisconnect, type HttpReply, type HttpRequestLike } from "./http.js";
import { SseStream } from "./sse.js";
import { requestLike, toResponse } from "./web.js";

export interface LegacySseOptions {
  /** Path of the GET stream. Default /sse (SDK v1's convention). */
  readonly ssePath?: string | undefined;
  /** Path the `endpoint` event names for POSTs (with ?sessionId=...). Default /messages. */
  readonly postPath?: string | undefined;
  /** Host header values accepted, as for the Streamable HTTP binding (default localhost, 127.0.0.1, [::1]; "any": no check). */
  readonly allowedHosts?: readonly string[] | "any" | undefined;
  /** Origins accepted when a browser sends one, as for the Streamable HTTP binding. */
  readonly allowedOrigins?: readonly string[] | "any" | undefined;
  /** Largest accepted request body in bytes. Default 4 MiB. */
  readonly maxBodyBytes?: number | undefined;
  /** Most request bodies being read at once. Default 512; beyond it a POST is answered 503. */
  readonly maxConcurrentBodies?: number | undefined;
  /** Most bytes the bodies being read may hold together. Default 64 MiB; a POST beyond it is answered 503. */
  readonly maxBufferedBodyBytes?: number | undefined;
  /** Milliseconds a client has to send a body. Default 30,000 (then 408); 0 disables. */
  readonly bodyTimeoutMs?: number | undefined;
  /** Most sessions (open streams) at once. Default 10,000; a GET beyond it is answered 503. */
  readonly maxSessions?: number | undefined;
  /** Seconds between keep-alive comments on the streams. Default 5 (below Bun's 10 s idle timeout). 0 disables. */
  readonly keepAliveSeconds?: number | undefined;
}

/** JSON-RPC code of unknown sessions, as in http.ts. */
const SESSION_NOT_FOUND = -32001;

const sseHeaders = {
  "content-type": "text/event-stream",
  "cache-control": "no-cache, no-transform",
  "x-accel-buffering": "no",
};

/** One client's session: its stream carries everything the server sends. */
class SseSession implements MessageSink {
  readonly peer: Peer;
  private keepAlive: ReturnType<typeof setInterval> | undefined;
  private closed = false;

  constructor(
    readonly id: string,
    server: McpEndpoint,
    readonly stream: SseStream,
    keepAliveMs: number,
    private readonly onClose: (session: SseSession) => void,
  ) {
    this.peer = server.connect(this);
    stream.onCancel = () => this.close();
    if (keepAliveMs > 0) {
      this.keepAlive = setInterval(() => stream.write(":\n\n"), keepAliveMs);
      (this.keepAlive as { unref?: () => void }).unref?.();
    }
  }

  get revision(): string | undefined {
    return (this.peer.state as { revision?: string } | undefined)?.revision;
  }

  send(message: JsonRpcMessage): void {
    this.stream.send(serializeMessage(message));
  }

  /** Ends the session: its requests are cancelled, its stream closes. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.keepAlive !== undefined) clearInterval(this.keepAlive);
    this.onClose(this);
    this.peer.close("Session closed");
    this.stream.end();
  }
}

/** Path and query of a request URL (absolute or origin-relative). */
function parseTarget(url: string | undefined): URL | undefined {
  try {
    return new URL(url ?? "/", "http://localhost");
  } catch {
    return undefined;
  }
}

/** The server side of the 2024-11-05 HTTP+SSE transport on the request/reply shapes of http.ts. */
export class LegacySseBinding {
  private readonly sessions = new Map<string, SseSession>();
  /** Checks Host and Origin as the Streamable HTTP binding does (the same code and defaults). */
  private readonly hostCheck: HostCheck;
  private readonly ssePath: string;
  private readonly postPath: string;
  private readonly bodies: BodyLimits;
  private readonly maxSessions: number;
  private readonly keepAliveMs: number;

  constructor(
    private readonly server: McpEndpoint,
    options: LegacySseOptions = {},
  ) {
    if (!server.revisions.some((r) => !isModern(r))) {
      throw new Error(
        "The legacy HTTP+SSE transport carries legacy sessions (initialize), and this server serves no legacy revision",
      );
    }
    if (server.definition?.auth !== undefined) {
      throw new Error(
        "This server declares `auth:`; the legacy HTTP+SSE transport does not carry authorization here: serve it over Streamable HTTP",
      );
    }
    this.ssePath = options.ssePath ?? "/sse";
    this.postPath = options.postPath ?? "/messages";
    this.bodies = new BodyLimits(options);
    this.maxSessions = options.maxSessions ?? 10_000;
    this.keepAliveMs = (options.keepAliveSeconds ?? 5) * 1000;
    this.hostCheck = new HostCheck(options);
  }

  /** Number of open sessions. */
  get sessionCount(): number {
    return this.sessions.size;
  }

  async handle(request: HttpRequestLike): Promise<HttpReply> {
    const refused =
      this.hostCheck.hostProblem(request.header("host")) ?? this.hostCheck.originProblem(request.header("origin"));
    if (refused !== undefined) return errorReply(403, ErrorCode.InvalidRequest, refused);
    const target = parseTarget(request.url);
    const path = target?.pathname;
    if (path === this.ssePath && request.method === "GET") return this.open(request);
    if (path === this.postPath && request.method === "POST") return this.post(request, target!);
    if (path === this.ssePath || path === this.postPath) {
      const allow = [path === this.ssePath ? "GET" : undefined, path === this.postPath ? "POST" : undefined]
        .filter((m) => m !== undefined)
        .join(", ");
      return errorReply(405, ErrorCode.InvalidRequest, "Method not allowed", { allow });
    }
    return {
      status: 404,
      headers: { "content-type": "text/plain" },
      body: `Not found: the MCP stream is ${this.ssePath}\n`,
    };
  }

  /** Ends every session and its stream. */
  close(): void {
    for (const session of [...this.sessions.values()]) session.close();
    this.sessions.clear();
  }

  private open(request: HttpRequestLike): HttpReply {
    const accept = (request.header("accept") ?? "text/event-stream").toLowerCase();
    if (!accept.includes("text/event-stream") && !accept.includes("*/*")) {
      return errorReply(406, ErrorCode.InvalidRequest, "Not Acceptable: Accept must list text/event-stream");
    }
    if (this.sessions.size >= this.maxSessions) {
      return errorReply(503, SERVER_BUSY, `Service Unavailable: ${this.maxSessions} sessions are open; retry later`, {
        "retry-after": "60",
      });
    }
    const stream = new SseStream();
    const session = new SseSession(crypto.randomUUID(), this.server, stream, this.keepAliveMs, (s) => {
      if (this.sessions.get(s.id) === s) this.sessions.delete(s.id);
    });
    this.sessions.set(session.id, session);
    onDisconnect(request, () => stream.cancel());
    stream.write(`event: endpoint\ndata: ${this.postPath}?sessionId=${session.id}\n\n`);
    return { status: 200, headers: { ...sseHeaders }, stream };
  }

  private async post(request: HttpRequestLike, target: URL): Promise<HttpReply> {
    const sessionId = target.searchParams.get("sessionId");
    if (sessionId === null || sessionId === "") {
      return errorReply(
        400,
        ErrorCode.InvalidRequest,
        "Bad Request: the sessionId query parameter is required (the endpoint event names it)",
      );
    }
    const session = this.sessions.get(sessionId);
    if (!session) return errorReply(404, SESSION_NOT_FOUND, "Session not found: open a new stream");
    const contentType = request.header("content-type") ?? "";
    if (!contentType.toLowerCase().includes("application/json")) {
      return errorReply(415, ErrorCode.InvalidRequest, "Unsupported Media Type: Content-Type must be application/json");
    }
    const read = await this.bodies.read((limit, timeoutMs, budget) => request.text(limit, timeoutMs, budget));
    if ("refused" in read) return read.refused;
    const body = read.value;
    // The session may have ended while the body was read.
    if (this.sessions.get(sessionId) !== session)
      return errorReply(404, SESSION_NOT_FOUND, "Session not found: open a new stream");
    if (Array.isArray(body)) return this.batch(session, body);
    const kind = classify(body);
    if (kind.kind === "invalid")
      return jsonReply(400, errorResponse(kind.id, ErrorCode.InvalidRequest, `Invalid request: ${kind.reason}`));
    const refused = refuseModern(kind.kind === "response" ? undefined : kind.message.params);
    if (refused)
      return jsonReply(
        400,
        errorResponse(kind.kind === "request" ? kind.message.id : null, ErrorCode.InvalidRequest, refused),
      );
    session.peer.receive(body);
    return accepted();
  }

  /** A batch (2025-03-26 only): valid elements go to the session, errors of the others down the stream. */
  private batch(session: SseSession, messages: unknown[]): HttpReply {
    if (!allowsBatches(session.revision)) {
      return errorReply(
        400,
        ErrorCode.InvalidRequest,
        "Invalid request: JSON-RPC batches are only part of protocol 2025-03-26",
      );
    }
    if (messages.length === 0) return errorReply(400, ErrorCode.InvalidRequest, "Invalid request: empty batch");
    for (const message of messages) {
      const kind = classify(message);
      const refused =
        kind.kind === "invalid"
          ? `Invalid request: ${kind.reason}`
          : refuseModern(kind.kind === "response" ? undefined : kind.message.params);
      if (refused === undefined) session.peer.receive(message);
      else if (kind.kind !== "notification" && kind.kind !== "response") {
        const id: RequestId | null = kind.kind === "request" ? kind.message.id : kind.id;
        session.send(errorResponse(id, ErrorCode.InvalidRequest, refused));
      }
    }
    return accepted();
  }
}

function accepted(): HttpReply {
  return { status: 202, headers: { "content-type": "text/plain" }, body: "Accepted" };
}

/** Why a message is refused on a legacy session: it is a modern request. */
function refuseModern(params: Record<string, unknown> | undefined): string | undefined {
  const meta = isObject(params?._meta) ? params._meta : undefined;
  if (meta?.[MetaKey.protocolVersion] === undefined) return undefined;
  return "Invalid request: the legacy HTTP+SSE transport carries legacy sessions only (initialize); send modern requests over Streamable HTTP";
}

export interface LegacySseHandler {
  (request: Request): Promise<Response>;
  /** Ends every session and its stream. */
  close(): void;
  /** Number of open sessions. */
  readonly sessionCount: number;
}

/**
 * Serves `server` over the legacy HTTP+SSE transport (2024-11-05) as a fetch-style handler.
 * Route both paths to it: GET `ssePath` (default /sse) and POST `postPath` (default /messages).
 * Other paths answer 404. Only for hosts that speak nothing newer: prefer createWebHandler.
 */
export function createLegacySseHandler(server: McpEndpoint, options?: LegacySseOptions): LegacySseHandler {
  const binding = new LegacySseBinding(server, options);
  const handler = async (request: Request): Promise<Response> => {
    return toResponse(await binding.handle(requestLike(request)));
  };
  return Object.defineProperties(handler, {
    close: { value: () => binding.close() },
    sessionCount: { get: () => binding.sessionCount },
  }) as LegacySseHandler;
}
