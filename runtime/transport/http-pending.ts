// What a POST waits on until its requests are answered: a ReplyChannel per request (JSON, or
// an SSE stream once something comes before the response; resumable and pollable in a legacy
// session with an event store) and a BatchReply per 2025-03-26 batch.
import { type JsonRpcMessage, type RequestId } from "../jsonrpc/messages.js";
import type { Exchange, MessageSink, Peer } from "../jsonrpc/peer.js";
import { serializeMessage } from "../jsonrpc/serialize.js";
import { emptyStream, isResponse, jsonHeaders, jsonReply, sseHeaders, type HttpReply } from "./http-reply.js";
import { type ResumableStream } from "./resumable-stream.js";
import { SseStream } from "./sse.js";

/** SSE polling (SEP-1699): when request streams' connections end early, and the retry hint then. */
export interface PollingPolicy {
  /** 0: only when a handler asks (ctx.pollLater). */
  readonly afterMs: number;
  readonly retryMs: number;
}

/** A `retry:` value (whole milliseconds, not negative) from `ms`, else `fallback`. */
export function retryHint(ms: number | undefined, fallback: number): number {
  return ms !== undefined && Number.isFinite(ms) && ms >= 0 ? Math.floor(ms) : fallback;
}

/** Where a reply's events go once it is a stream: the connection itself, or a stream that outlives it. */
interface EventSink {
  send(data: string): void;
  end(): void;
}

/** A POST waiting for the responses of its requests in a legacy session (LegacySession.replies). */
export interface PendingReply {
  /** A message of request `id`; its response is the last. */
  push(message: JsonRpcMessage, id: RequestId): void;
  /**
   * Request `id` ends without a response of its own: cancelled (no `message`: nothing more is
   * sent for it, its stream closes) or its session closed (`message`: the error that answers it).
   */
  end(id: RequestId, message?: JsonRpcMessage): void;
}

/** What a pending reply needs of the legacy session its request belongs to (LegacySession). */
export interface ReplySession {
  readonly peer: Peer;
  /** The POSTs waiting for responses, by request id. */
  readonly replies: Map<RequestId, PendingReply>;
  /** With an event store: makes the connection of a reply that became a stream resumable. */
  readonly openStream: ((connection: SseStream) => ResumableStream) | undefined;
  /** Whether the session's streams start with a priming event (2025-11-25), so that the client can always resume them. */
  readonly primes: boolean;
}

/**
 * Collects what the server sends for one POSTed request until its response. The reply is
 * a settled promise when the response comes at once, else one made when first asked for.
 */
export class ReplyChannel implements MessageSink, PendingReply {
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
    private readonly session: ReplySession | undefined,
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
    } else if (message)
      this.settle({ status: 200, headers: { ...jsonHeaders, ...this.headers }, body: serializeMessage(message) });
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
export class BatchReply implements PendingReply {
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
    private readonly session: ReplySession,
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
