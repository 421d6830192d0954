// Where a legacy Streamable HTTP session's SSE events are kept so that a client can resume
// a stream after losing its connection (GET with Last-Event-ID). The store names events;
// the binding names streams. The in-memory default keeps a bounded tail of each stream.

import type { Awaitable } from "../mcp/handler-types.js";

/** One stored SSE event. */
export interface StoredEvent {
  /** The id the store gave it (the SSE `id:` field). */
  readonly id: string;
  /** One serialized JSON-RPC message, or "" for the event that primes a stream. */
  readonly data: string;
}

/** The events a resuming client missed, and the stream they belong to. */
export interface Replay {
  readonly streamId: string;
  /** The events of that stream stored after the given one, oldest first. */
  readonly events: readonly StoredEvent[];
}

/**
 * Keeps the SSE events of legacy sessions for resumption. Every method is scoped by session:
 * an event id is only ever looked up within the session that asks, so one session cannot
 * resume another's stream. Methods may answer synchronously (no promise per event) or with
 * a promise. The binding never overlaps two calls about the same stream: it waits for one
 * `storeEvent` to settle before the next one of that stream.
 */
export interface EventStore {
  /**
   * Stores the next event of stream `streamId` of session `sessionId` and returns its id:
   * unique within the session and identifying the stream (the cursor a client resumes from).
   */
  storeEvent(sessionId: string, streamId: string, data: string): Awaitable<string>;
  /**
   * The stream of event `lastEventId` and its events after that one; undefined when the session
   * has no such event (unknown, forgotten, evicted, or another session's id).
   */
  replayAfter(sessionId: string, lastEventId: string): Awaitable<Replay | undefined>;
  /** Forgets one stream's events, or all of a session's when `streamId` is omitted. */
  forget(sessionId: string, streamId?: string): Awaitable<void>;
}

export interface MemoryEventStoreOptions {
  /** Events kept per stream; older ones are dropped, and a client behind them cannot resume. Default 256. */
  readonly maxEventsPerStream?: number | undefined;
  /** Streams kept across all sessions; the least recently written is dropped first. Default 1024. */
  readonly maxStreams?: number | undefined;
}

interface StreamLog {
  readonly sessionId: string;
  readonly streamId: string;
  /** Sequence number of events[0]. */
  first: number;
  readonly events: string[];
}

/**
 * The default store: in memory, bounded by a number of events per stream and a number of
 * streams (at most maxStreams x maxEventsPerStream events, each one serialized message).
 * Event ids are `<streamId>/<sequence>`; they carry no secret, since lookups are per session.
 */
export class MemoryEventStore implements EventStore {
  readonly maxEventsPerStream: number;
  readonly maxStreams: number;
  /** Logs by session, then by stream. */
  private readonly sessions = new Map<string, Map<string, StreamLog>>();
  /** Every log, least recently written first: the eviction order. */
  private readonly recency = new Set<StreamLog>();
  /** The log written last (consecutive events mostly go to the same stream). */
  private newest: StreamLog | undefined;

  constructor(options: MemoryEventStoreOptions = {}) {
    this.maxEventsPerStream = Math.max(1, options.maxEventsPerStream ?? 256);
    this.maxStreams = Math.max(1, options.maxStreams ?? 1024);
  }

  /** Number of streams held (for tests and metrics). */
  get streamCount(): number {
    return this.recency.size;
  }

  storeEvent(sessionId: string, streamId: string, data: string): string {
    let log = this.newest;
    if (log === undefined || log.streamId !== streamId || log.sessionId !== sessionId) {
      let streams = this.sessions.get(sessionId);
      log = streams?.get(streamId);
      if (log) this.recency.delete(log);
      else {
        log = { sessionId, streamId, first: 0, events: [] };
        if (!streams) this.sessions.set(sessionId, (streams = new Map()));
        streams.set(streamId, log);
        if (this.recency.size >= this.maxStreams) {
          const oldest = this.recency.values().next().value!;
          this.forget(oldest.sessionId, oldest.streamId);
        }
      }
      this.recency.add(log);
      this.newest = log;
    }
    log.events.push(data);
    if (log.events.length > this.maxEventsPerStream) {
      log.events.shift();
      log.first++;
    }
    return `${streamId}/${log.first + log.events.length - 1}`;
  }

  replayAfter(sessionId: string, lastEventId: string): Replay | undefined {
    const slash = lastEventId.lastIndexOf("/");
    if (slash < 0) return undefined;
    const streamId = lastEventId.slice(0, slash);
    const text = lastEventId.slice(slash + 1);
    if (!/^\d{1,15}$/.test(text)) return undefined;
    const sequence = Number(text);
    const log = this.sessions.get(sessionId)?.get(streamId);
    // Resuming needs every event after the given one: it must be known, and its successor still kept.
    if (!log || sequence < log.first - 1 || sequence >= log.first + log.events.length) return undefined;
    const events: StoredEvent[] = [];
    for (let n = sequence + 1; n < log.first + log.events.length; n++)
      events.push({ id: `${streamId}/${n}`, data: log.events[n - log.first]! });
    return { streamId, events };
  }

  forget(sessionId: string, streamId?: string): void {
    const streams = this.sessions.get(sessionId);
    if (!streams) return;
    const logs = streamId === undefined ? [...streams.values()] : [streams.get(streamId)];
    for (const log of logs) {
      if (!log) continue;
      streams.delete(log.streamId);
      this.recency.delete(log);
      if (this.newest === log) this.newest = undefined;
    }
    if (streams.size === 0) this.sessions.delete(sessionId);
  }
}
