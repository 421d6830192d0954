// A legacy (2025-03-26 ... 2025-11-25) session of the Streamable HTTP binding: its peer, the
// POSTs waiting for responses, its GET stream, and with an event store its resumable streams.
import {
  ErrorCode,
  errorResponse,
  isObject,
  validId,
  type JsonRpcMessage,
  type RequestId,
} from "../jsonrpc/messages.js";
import type { MessageSink, Peer } from "../jsonrpc/peer.js";
import { serializeMessage } from "../jsonrpc/serialize.js";
import type { McpEndpoint } from "../mcp/server.js";
import { primesEventStreams } from "../mcp/revisions.js";
import type { EventStore } from "./event-store.js";
import { ReplyChannel, retryHint, type PendingReply, type PollingPolicy, type ReplySession } from "./http-pending.js";
import { ResumableStream } from "./resumable-stream.js";
import type { SseStream } from "./sse.js";

export class LegacySession implements MessageSink, ReplySession {
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
    const stream = new ResumableStream(
      events,
      this.id,
      String(++this.streamsOpened),
      connection,
      prime,
      (s) => this.streams.delete(s.id),
      autoPoll,
    );
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
    if (validId(id)) this.replies.get(id)?.end(id);
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
    for (const [id, reply] of waiting)
      reply.end(id, errorResponse(id, ErrorCode.InternalError, "Session closed before the request completed"));
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

/**
 * The binding's legacy sessions by id: at most `maxSessions`, the idle ones swept after
 * `sessionIdleMs` (by a timer, and on requests where timers die with the request that set
 * them, as on workerd).
 */
export class LegacySessions {
  private readonly sessions = new Map<string, LegacySession>();
  private sweeper: ReturnType<typeof setInterval> | undefined;
  /** When a request may next sweep, and when the last sweep ran. */
  private nextSweepAt = 0;
  private lastSweepAt = 0;

  constructor(
    readonly maxSessions: number,
    private readonly sessionIdleMs: number,
  ) {}

  get size(): number {
    return this.sessions.size;
  }

  /**
   * A legacy session, if it exists and (with auth) belongs to the token's subject: nobody else
   * may use it (the spec's session hijacking advice). The same user's refreshed, stepped-up or
   * re-registered client's tokens keep it.
   */
  owned(
    sessionId: string,
    auth: { readonly info: { readonly subject?: string | undefined } } | undefined,
  ): LegacySession | undefined {
    const session = this.sessions.get(sessionId);
    if (session && auth && session.owner !== auth.info.subject) return undefined;
    return session;
  }

  /** Whether no more sessions may open, once the idle ones are swept. */
  isFull(): boolean {
    if (this.sessions.size < this.maxSessions) return false;
    this.sweep();
    return this.sessions.size >= this.maxSessions;
  }

  add(session: LegacySession): void {
    this.sessions.set(session.id, session);
    this.startSweeper();
  }

  remove(session: LegacySession): void {
    this.sessions.delete(session.id);
    session.close();
  }

  /** Ends every session and its streams. */
  closeAll(): void {
    for (const session of this.sessions.values()) session.close();
    this.sessions.clear();
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = undefined;
  }

  /** Sweeps on a request when the timer's period has passed since the last such sweep. */
  sweepIfDue(): void {
    if (this.sessions.size === 0) return;
    const now = Date.now();
    if (now < this.nextSweepAt) return;
    this.nextSweepAt = now + Math.min(this.sessionIdleMs, 60_000);
    this.sweep();
  }

  private startSweeper(): void {
    if (this.sweeper) return;
    this.sweeper = setInterval(
      () => {
        this.sweep();
        if (this.sessions.size === 0 && this.sweeper) {
          clearInterval(this.sweeper);
          this.sweeper = undefined;
        }
      },
      Math.min(this.sessionIdleMs, 60_000),
    );
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
