// One SSE stream of a legacy session that outlives its connections: every event is stored
// (and so gets an id) before it is written to the connection reading the stream, if any.
// A client that lost the connection resumes with GET and Last-Event-ID: the binding
// replays what it missed and the stream goes on on the new connection.
// The server may also end a connection itself without ending the stream (SEP-1699
// polling): it sends a `retry:` hint and the client comes back after that delay.
import type { EventStore, StoredEvent } from "./event-store.js";
import type { SseStream } from "./sse.js";

/** Writes replayed events to `connection` (priming events carry nothing to replay). */
export function writeReplay(connection: SseStream, events: readonly StoredEvent[]): void {
  for (const event of events) if (event.data !== "") connection.send(event.data, event.id);
}

function report(error: unknown): void {
  console.error("mcp http: event store failed; events go out without ids:", error);
}

export class ResumableStream {
  private connection: SseStream | undefined;
  /** Steps waiting behind an asynchronous store call, in order; undefined when nothing waits. */
  private queue: Promise<void> | undefined;
  /** No more events: the request was answered or the session closed. */
  private ending = false;
  /** The last step ran: the stream is over, only a replay can still show its events. */
  private finished = false;
  /** With `autoPoll`: ends the connection read now once it has been open `autoPoll.afterMs`. */
  private pollTimer: ReturnType<typeof setTimeout> | undefined;

  /**
   * `prime` sends an event with an id and no data first (2025-11-25, SEP-1699), so that the
   * client can resume even before the first message. `onFinished` runs once the last event
   * has been stored and written. With `autoPoll`, every connection reading the stream is ended
   * (see poll()) once it has been open `autoPoll.afterMs`.
   */
  constructor(
    private readonly store: EventStore,
    readonly sessionId: string,
    readonly id: string,
    connection: SseStream,
    prime: boolean,
    private readonly onFinished: (stream: ResumableStream) => void,
    private readonly autoPoll?: { readonly afterMs: number; readonly retryMs: number } | undefined,
  ) {
    this.attach(connection);
    if (prime) this.send("");
  }

  /** Whether the stream still takes events (whether or not a client is reading it now). */
  get isOpen(): boolean {
    return !this.ending;
  }

  /** Whether a client is reading the stream now. */
  get connected(): boolean {
    return this.connection?.isOpen === true;
  }

  /** Sends one event: `data` is one serialized JSON-RPC message. */
  send(data: string): void {
    if (!this.ending) this.run(() => this.storeAndWrite(data));
  }

  /** Ends the stream: the connection closes once the events before have gone out. */
  end(): void {
    if (this.ending) return;
    this.ending = true;
    this.run(() => {
      this.finished = true;
      this.stopPollTimer();
      this.connection?.end();
      this.connection = undefined;
      this.onFinished(this);
    });
  }

  /**
   * Ends the connection reading the stream now, but not the stream (SEP-1699 polling): once
   * the events before have gone out, an event with a new id and a `retry: retryMs` hint is
   * sent and the connection closes. The client resumes after that delay with GET and the new
   * id as Last-Event-ID; what the stream sent meanwhile is replayed. Nothing happens when no
   * client reads the stream.
   */
  poll(retryMs: number): void {
    if (this.ending) return;
    this.run(() => {
      const connection = this.connection;
      if (!connection?.isOpen) return;
      return this.storeThen("", (id) => this.disconnect(connection, id, retryMs));
    });
  }

  /** Resolves once every event sent so far is stored (immediately with a synchronous store). */
  drained(): Promise<void> {
    return this.queue ?? Promise.resolve();
  }

  /**
   * Continues the stream on `connection` after event `lastEventId`: the events stored after it
   * are written first, then the live ones. A connection still attached is closed (a stream is
   * read by one connection at a time).
   */
  resume(connection: SseStream, lastEventId: string): void {
    this.run(async () => {
      let replay;
      try {
        replay = await this.store.replayAfter(this.sessionId, lastEventId);
      } catch (error) {
        report(error);
      }
      if (replay?.streamId !== this.id) {
        // The events went away since the binding looked them up: nothing to continue from.
        connection.end();
        return;
      }
      writeReplay(connection, replay.events);
      if (this.finished) connection.end();
      else {
        this.stopPollTimer();
        this.connection?.end();
        this.attach(connection);
      }
    });
  }

  private attach(connection: SseStream): void {
    this.connection = connection;
    // A client going away does not end the stream: its events are stored until it resumes.
    connection.onCancel = () => {
      if (this.connection !== connection) return;
      this.connection = undefined;
      this.stopPollTimer();
    };
    const autoPoll = this.autoPoll;
    if (autoPoll) {
      this.pollTimer = setTimeout(() => {
        this.pollTimer = undefined;
        if (this.connection === connection) this.poll(autoPoll.retryMs);
      }, autoPoll.afterMs);
      (this.pollTimer as { unref?: () => void }).unref?.();
    }
  }

  private stopPollTimer(): void {
    if (this.pollTimer === undefined) return;
    clearTimeout(this.pollTimer);
    this.pollTimer = undefined;
  }

  /** Ends `connection` after an event with id `id` (if the store gave one) and the retry hint. */
  private disconnect(connection: SseStream, id: string | undefined, retryMs: number): void {
    if (this.connection !== connection || !connection.isOpen) return;
    this.stopPollTimer();
    this.connection = undefined;
    connection.write(id === undefined ? `retry: ${retryMs}\n\n` : `id: ${id}\nretry: ${retryMs}\ndata: \n\n`);
    connection.end();
  }

  /** Runs `step` now when nothing waits, otherwise after what waits; a step returning a promise makes later ones wait. */
  private run(step: () => void | Promise<void>): void {
    const pending = this.queue === undefined ? step() : this.queue.then(step);
    if (pending === undefined) return;
    const queued: Promise<void> = pending.catch(report).then(() => {
      if (this.queue === queued) this.queue = undefined;
    });
    this.queue = queued;
  }

  private storeAndWrite(data: string): void | Promise<void> {
    let id;
    try {
      id = this.store.storeEvent(this.sessionId, this.id, data);
    } catch (error) {
      report(error);
      return this.write(undefined, data);
    }
    // The in-memory store answers at once: no promise per event.
    if (typeof id === "string") return this.write(id, data);
    return Promise.resolve(id).then(
      (stored) => this.write(stored, data),
      (error: unknown) => {
        report(error);
        this.write(undefined, data);
      },
    );
  }

  /** Stores event `data`, then calls `next` with its id (undefined when the store failed). */
  private storeThen(data: string, next: (id: string | undefined) => void): void | Promise<void> {
    let id;
    try {
      id = this.store.storeEvent(this.sessionId, this.id, data);
    } catch (error) {
      report(error);
      return next(undefined);
    }
    // The in-memory store answers at once: no promise per event.
    if (typeof id === "string") return next(id);
    return Promise.resolve(id).then(next, (error: unknown) => {
      report(error);
      next(undefined);
    });
  }

  private write(id: string | undefined, data: string): void {
    const connection = this.connection;
    if (!connection?.isOpen) return;
    if (data !== "") connection.send(data, id);
    else if (id !== undefined) connection.write(`id: ${id}\ndata: \n\n`);
  }
}
