// MCP over stdio: newline-delimited JSON on stdin/stdout. Only protocol messages go to
// stdout; diagnostics belong on stderr. Node-only (imported through @mcp-gen/runtime/node).
//
// Reliability rules: output goes out in bounded writes; while more than a high-water mark of
// output waits for the client, no new request is started (input is not read); a line
// longer than maxMessageBytes is answered with an error and skipped unbuffered; when the
// input ends, requests still running finish and their responses are written before the
// connection closes; an output error (EPIPE when the host exits) closes it quietly.
// shutdown() closes gracefully: new requests are refused, requests running finish within a
// deadline; `closeOnSignals(serveStdio(server))` does it on SIGTERM/SIGINT (signals.ts, a
// module of its own so that a server that leaves signals alone does not carry it).
import type { Readable, Writable } from "node:stream";
import type { BatchCollector } from "../jsonrpc/batches.js";
import {
  ErrorCode,
  errorResponse,
  isObject,
  validId,
  type JsonRpcMessage,
  type RequestId,
} from "../jsonrpc/messages.js";
import { parseMessage } from "../jsonrpc/parse.js";
import type { Peer } from "../jsonrpc/peer.js";
import { serializeMessage } from "../jsonrpc/serialize.js";
import { allowsBatches } from "../mcp/revisions.js";
import type { McpEndpoint } from "../mcp/server.js";
import { LineDecoder } from "./lines.js";

export interface StdioOptions {
  readonly input?: Readable | undefined;
  readonly output?: Writable | undefined;
  /**
   * Longest message accepted on the input, in bytes (one line of UTF-8). A longer line is
   * answered with a JSON-RPC error (`-32600`, id null, "message too large") and skipped
   * without being buffered. Default 4 MiB (4,194,304 bytes), like the HTTP body limit.
   */
  readonly maxMessageBytes?: number | undefined;
  /**
   * When the input ends, how long requests still running may take to finish (their
   * responses are written) before the connection closes and cancels them, in
   * milliseconds. Default 30,000.
   */
  readonly drainTimeoutMs?: number | undefined;
  /**
   * Output waiting for the client (in characters) above which no new request is started
   * and the input is not read, until it drains. Default 1 MiB (at least the output
   * stream's own writableHighWaterMark).
   */
  readonly outputHighWaterMark?: number | undefined;
  /**
   * How long shutdown() (and so a SIGTERM or SIGINT under closeOnSignals) lets requests
   * still running finish before they are cancelled, in milliseconds. Default 10,000.
   */
  readonly shutdownTimeoutMs?: number | undefined;
}

export interface StdioConnection {
  /**
   * Resolves when the connection is over: the input ended and requests still running
   * finished (within drainTimeoutMs) and their responses were flushed, close() was
   * called, or the output failed.
   */
  readonly closed: Promise<void>;
  /** Closes now: requests still running are cancelled. */
  close(): void;
  /**
   * Graceful close: new requests are refused (`-32000` "Server is shutting down"), while
   * responses and notifications from the client are still read (a running request may be
   * waiting for the client's answer); requests still running finish and their responses
   * are written, within `timeoutMs` (default: the shutdownTimeoutMs option), then the
   * connection closes (cancelling what still runs). Resolves like `closed`.
   */
  shutdown(options?: { readonly timeoutMs?: number | undefined }): Promise<void>;
  /** shutdown()'s default deadline: the shutdownTimeoutMs option. */
  readonly shutdownTimeoutMs: number;
}

const DEFAULT_MAX_MESSAGE_BYTES = 4 * 1024 * 1024;
const DEFAULT_DRAIN_TIMEOUT_MS = 30_000;
const DEFAULT_SHUTDOWN_TIMEOUT_MS = 10_000;
/** JSON-RPC code (implementation-defined server error) of requests refused during a shutdown. */
const SHUTTING_DOWN = -32000;
const DEFAULT_HIGH_WATER = 1024 * 1024;
/** Responses are joined into writes of about this many characters (never one giant string). */
const WRITE_CHUNK = 1024 * 1024;
/**
 * Most lines handled per turn of the event loop. Handlers answer asynchronously, so the
 * output they fill is only seen on the next turn: this bounds how many start unseen.
 */
const MAX_LINES_PER_TURN = 64;
/** Lines of the first turn (and the first after output was blocked): the share doubles from there. */
const FIRST_LINES_PER_TURN = 8;

const OPEN = 0;
const DRAINING = 1;
const CLOSED = 2;

/** Serves `server` on stdin/stdout (or the given streams) until the input ends. */
export function serveStdio(server: McpEndpoint, options: StdioOptions = {}): StdioConnection {
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  const drainTimeoutMs = options.drainTimeoutMs ?? DEFAULT_DRAIN_TIMEOUT_MS;
  const shutdownTimeoutMs = options.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS;
  const highWater = Math.max(options.outputHighWaterMark ?? DEFAULT_HIGH_WATER, output.writableHighWaterMark ?? 0);
  let state = OPEN;
  /** shutdown() was called: requests are refused, the connection closes once none runs. */
  let stopping = false;
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));

  const out = outputQueue(output, () => {
    reader.unblock();
    if (state === DRAINING) checkDrained();
  });
  output.on("error", () => {
    out.fail();
    shutdown("Output closed");
  });

  // 2025-03-26 batches, when the server has them (see jsonrpc/batches.ts).
  let batches: BatchCollector | undefined;
  const peer = server.connect({
    send(message: JsonRpcMessage, relatedTo?: RequestId) {
      if (!batches?.take(message, relatedTo)) out.enqueue(`${serializeMessage(message)}\n`);
    },
  });
  batches = server.batches?.(peer, (json) => out.enqueue(`${json}\n`), allowsBatches);
  const handleLine = messageHandler(peer, batches, out, () => stopping);
  const reader = inputReader(
    input,
    out,
    highWater,
    maxMessageBytes,
    handleLine,
    () => state,
    () => state === DRAINING && checkDrained(),
  );

  // --- end of input, and closing ----------------------------------------------------
  /** The deadlines and polls of draining and of shutdown(), cleared on close. */
  const timers: ReturnType<typeof setTimeout>[] = [];

  const onInputEnd = () => {
    if (state !== OPEN) return;
    state = DRAINING;
    // The client can no longer answer requests we sent it.
    peer.endInput("stdin closed");
    // Requests still running finish (and their responses are written), within the deadline.
    timers.push(setTimeout(() => shutdown("stdin closed"), drainTimeoutMs));
    // A request cancelled earlier ends without a response: look now and then.
    timers.push(setInterval(checkDrained, 20));
    reader.endOfInput();
  };

  function checkDrained() {
    if (reader.pending() || peer.inboundCount !== 0) return;
    if (state === DRAINING) shutdown("stdin closed");
    else if (stopping && state === OPEN) shutdown("Server shut down");
  }

  const stop = (timeoutMs = shutdownTimeoutMs): Promise<void> => {
    if (state === CLOSED || stopping) return closed;
    stopping = true;
    timers.push(setTimeout(() => shutdown("Server shut down"), Math.max(0, timeoutMs)));
    // A request that ends without a response (cancelled) is seen by looking now and then.
    timers.push(setInterval(checkDrained, 20));
    checkDrained();
    return closed;
  };

  function shutdown(reason: string) {
    if (state === CLOSED) return;
    state = CLOSED;
    // clearTimeout clears intervals too (one list of timers in Node, as in browsers).
    for (const timer of timers) clearTimeout(timer);
    reader.close();
    peer.close(reason);
    out.flush();
    if (out.failed() || output.writableLength === 0) resolveClosed();
    else closeOnceWritten(output, drainTimeoutMs, resolveClosed);
  }

  input.once("end", onInputEnd);
  input.once("close", onInputEnd);
  input.on("error", onInputEnd);
  return {
    closed,
    shutdownTimeoutMs,
    close() {
      shutdown("Server closed");
    },
    shutdown(shutdownOptions) {
      return stop(shutdownOptions?.timeoutMs);
    },
  };
}

/**
 * The connection's output. Messages produced while input is processed go out together: on a
 * pipe every write is a system call, and under load a chunk carries many requests.
 */
interface OutputQueue {
  enqueue(text: string): void;
  /** Writes what is queued now. */
  flush(): void;
  /** The client went away (EPIPE) or the stream broke: nothing more can be said. */
  fail(): void;
  failed(): boolean;
  /** Characters waiting for the client: queued here and buffered by the stream. */
  waiting(): number;
  /** The largest message size seen lately (0: none yet), which paces reading. */
  recentMessageSize(): number;
  /**
   * When nothing is queued (a flush would call `flushed` anyway), calls `listener` once the
   * stream has written what it buffered, and returns true.
   */
  onceDrained(listener: () => void): boolean;
}

/** `flushed` is called after each flush that wrote something. */
function outputQueue(output: Writable, flushed: () => void): OutputQueue {
  let queued: string[] = [];
  let queuedChars = 0;
  let flushScheduled = false;
  /** The longest message of this flush, and a decaying memory of earlier ones. */
  let largest = 0;
  let recentLargest = 0;
  let failed = false;

  const flush = () => {
    flushScheduled = false;
    if (queued.length === 0) return;
    const items = queued;
    queued = [];
    queuedChars = 0;
    recentLargest = Math.max(largest, Math.floor(recentLargest / 2));
    largest = 0;
    if (failed) return;
    // Bounded writes: a burst of large responses never becomes one string.
    let chunk = "";
    for (const item of items) {
      chunk += item;
      if (chunk.length >= WRITE_CHUNK) {
        output.write(chunk);
        chunk = "";
      }
    }
    if (chunk !== "") output.write(chunk);
    flushed();
  };

  return {
    enqueue(text) {
      if (failed) return;
      queued.push(text);
      queuedChars += text.length;
      if (text.length > largest) largest = text.length;
      if (!flushScheduled) {
        flushScheduled = true;
        setImmediate(flush);
      }
    },
    flush,
    fail() {
      failed = true;
      queued = [];
      queuedChars = 0;
    },
    failed: () => failed,
    waiting: () => queuedChars + output.writableLength,
    recentMessageSize: () => Math.max(largest, recentLargest),
    onceDrained(listener) {
      if (queued.length !== 0) return false;
      output.once("drain", listener);
      return true;
    },
  };
}

/** Answers a message the connection cannot take with an error (id null). */
function refuse(out: OutputQueue, message: string): void {
  out.enqueue(`${serializeMessage(errorResponse(null, ErrorCode.InvalidRequest, message))}\n`);
}

/** Parses each line and hands it to the peer (or, for a batch, the batch collector). */
function messageHandler(
  peer: Peer,
  batches: BatchCollector | undefined,
  out: OutputQueue,
  stopping: () => boolean,
): (line: string) => void {
  const shuttingDown = (id: RequestId) => errorResponse(id, SHUTTING_DOWN, "Server is shutting down");
  /**
   * During a shutdown: requests are answered with an error at once; what is left (responses
   * and notifications of the client) is handled as usual.
   */
  const refuseWhileStopping = (value: unknown): unknown => {
    if (Array.isArray(value)) return batches ? batches.refuseRequests(value, shuttingDown) : value;
    if (!isObject(value) || typeof value.method !== "string" || !validId(value.id)) return value;
    out.enqueue(`${serializeMessage(shuttingDown(value.id))}\n`);
    return undefined;
  };

  return (line) => {
    let value: unknown;
    try {
      value = parseMessage(line);
    } catch (error) {
      peer.receiveParseError((error as Error).message);
      return;
    }
    if (stopping()) value = refuseWhileStopping(value);
    if (value === undefined) return;
    // Without batch support (a server without 2025-03-26), every batch is refused.
    if (Array.isArray(value)) {
      if (batches) batches.receive(value);
      else refuse(out, "Invalid request: JSON-RPC batches are only part of protocol 2025-03-26");
    } else {
      batches?.noteCancel(value);
      peer.receive(value);
    }
  };
}

interface InputReader {
  /** Whether lines read are not handled yet. */
  pending(): boolean;
  /** Resumes handling lines once the output is back under the high-water mark. */
  unblock(): void;
  /** The input ended: its last line too is handled. */
  endOfInput(): void;
  /** Reads and handles nothing more. */
  close(): void;
}

/**
 * Reads lines from `input` and hands them on, paced by the output: while more than the
 * high-water mark waits for the client no new request is started (input is not read), and
 * each turn of the event loop handles a bounded share of lines. `state` is the connection's
 * (OPEN, DRAINING or CLOSED); `idle` is called when every line read so far is handled.
 */
function inputReader(
  input: Readable,
  out: OutputQueue,
  highWater: number,
  maxMessageBytes: number,
  handleLine: (line: string) => void,
  state: () => number,
  idle: () => void,
): InputReader {
  const decoder = new LineDecoder({
    maxLineBytes: maxMessageBytes,
    onTooLarge: () => refuse(out, `Invalid request: message too large (the limit is ${maxMessageBytes} bytes)`),
  });
  /** Lines read but not handled yet (while output waits, or past this turn's share). */
  let lines: string[] = [];
  let next = 0;
  let pumpScheduled = false;
  let waitingForOutput = false;
  let listeningForDrain = false;
  /** Lines a turn may handle while nothing blocks: starts small, doubles up to MAX_LINES_PER_TURN. */
  let share = FIRST_LINES_PER_TURN;
  const setPaused = inputSwitch(input, () => state() === OPEN);
  /** How many lines this turn may handle: fewer when responses are large. */
  const linesPerTurn = () => {
    const size = out.recentMessageSize();
    return size === 0 ? share : Math.max(1, Math.min(share, Math.floor(highWater / size)));
  };

  const pump = () => {
    pumpScheduled = false;
    if (state() === CLOSED) return;
    let budget = linesPerTurn();
    while (next < lines.length) {
      // Backpressure: start nothing more while the client is not reading responses.
      if (out.waiting() > highWater) {
        waitingForOutput = true;
        share = FIRST_LINES_PER_TURN;
        setPaused(true);
        unblock();
        return;
      }
      if (budget-- === 0) {
        if (share < MAX_LINES_PER_TURN) share *= 2;
        pumpScheduled = true;
        setImmediate(pump);
        setPaused(true);
        return;
      }
      handleLine(lines[next++]!);
      if (state() === CLOSED) return;
    }
    setPaused(false);
    idle();
  };

  const onDrain = () => {
    listeningForDrain = false;
    unblock();
  };
  function unblock() {
    if (!waitingForOutput || state() === CLOSED) return;
    if (out.waiting() > highWater) {
      // Queued messages are flushed soon (and unblock again); written ones end with 'drain'.
      if (!listeningForDrain) listeningForDrain = out.onceDrained(onDrain);
      return;
    }
    waitingForOutput = false;
    if (!pumpScheduled) pump();
  }

  const resume = () => {
    if (!pumpScheduled && !waitingForOutput) pump();
  };
  const onData = (chunk: Buffer | string) => {
    const got = decoder.push(chunk);
    if (got.length === 0) return;
    if (next >= lines.length) {
      lines = got;
      next = 0;
    } else for (const line of got) lines.push(line);
    resume();
  };
  input.on("data", onData);

  return {
    pending: () => next < lines.length,
    unblock,
    endOfInput() {
      input.off("data", onData);
      for (const line of decoder.flush()) lines.push(line);
      resume();
    },
    close() {
      input.off("data", onData);
      input.pause();
      lines = [];
      next = 0;
    },
  };
}

/** Pauses or resumes `input`, while the connection is open, once per change. */
function inputSwitch(input: Readable, open: () => boolean): (paused: boolean) => void {
  let inputPaused = false;
  return (paused) => {
    if (paused === inputPaused || !open()) return;
    inputPaused = paused;
    if (paused) input.pause();
    else input.resume();
  };
}

/**
 * Resolves the connection closed once what was written has reached the client (or cannot).
 * 'drain' only comes after a write that went over the stream's mark, so look now and then.
 */
function closeOnceWritten(output: Writable, timeoutMs: number, closed: () => void): void {
  const done = () => {
    clearTimeout(timer);
    clearInterval(poll);
    output.off("close", done);
    output.off("error", done);
    closed();
  };
  const timer = setTimeout(done, timeoutMs);
  const poll = setInterval(() => {
    if (output.writableLength === 0 || output.destroyed) done();
  }, 10);
  output.once("close", done);
  output.once("error", done);
}
