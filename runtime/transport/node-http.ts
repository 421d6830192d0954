// The Streamable HTTP binding on node:http, without going through web Request/Response
// objects (they cost more per request than the whole MCP dispatch).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { Server as NetServer, type AddressInfo } from "node:net";
import type { McpEndpoint } from "../mcp/server.js";
import { METADATA_PATH } from "../auth/resource-server.js";
import { LegacySseBinding, type LegacySseOptions } from "./legacy-sse.js";
import {
  BodyBudgetError,
  BodyTimeoutError,
  BodyTooLargeError,
  DEFAULT_MAX_BODY_BYTES,
  type BodyBudget,
} from "./body.js";
import { StreamableHttpBinding, type HttpOptions, type HttpReply, type HttpRequestLike } from "./http.js";
import { closeOnSignals } from "./signals.js";
import type { SseStream } from "./sse.js";

export interface ShutdownOptions {
  /**
   * How long requests in flight may take to finish before their responses are ended, in
   * milliseconds. Default: the listener's `shutdownTimeoutMs` (10,000).
   */
  readonly timeoutMs?: number | undefined;
}

export type NodeHandler = ((req: IncomingMessage, res: ServerResponse) => void) & {
  /** Ends every legacy session and stream now (requests still running are not waited for). */
  close(): void;
  /**
   * Graceful close: new requests are answered 503 (`connection: close`), requests in flight
   * may finish within `timeoutMs` (default 10,000), then every session ends, open SSE
   * streams are ended (a proper end of the response, not a reset) and requests still
   * unanswered get a 503. Resolves once every response it tracked has finished (or after a
   * further second).
   */
  shutdown(options?: ShutdownOptions): Promise<void>;
  /** Requests being answered now (POST and DELETE), not counting long-lived streams. */
  readonly inFlight: number;
};

/** A body being read: its deadline is checked by the reader's one timer, not a timer of its own. */
interface BodyRead {
  readonly req: IncomingMessage;
  readonly deadline: number;
  reject(error: Error): void;
}

/** The body reads of one handler, and the timer that ends those past their deadline. */
class BodyReads {
  private readonly reads = new Set<BodyRead>();
  private timer: ReturnType<typeof setInterval> | undefined;

  read(req: IncomingMessage, limit: number, timeoutMs: number, budget: BodyBudget | undefined): Promise<string> {
    return new Promise((resolve, reject) => {
      const length = req.headers["content-length"];
      const declared = length === undefined ? undefined : Number(length);
      if (declared !== undefined && declared > limit) {
        req.resume();
        reject(new BodyTooLargeError());
        return;
      }
      // A declared length is reserved at once and read into one buffer of that size (node:http
      // refuses a body longer than it says); a chunked body reserves its chunks as they come.
      const whole = declared !== undefined && Number.isSafeInteger(declared) && declared >= 0;
      if (whole && budget && !budget.reserve(declared)) {
        req.resume();
        reject(new BodyBudgetError());
        return;
      }
      let buffer: Buffer | undefined = whole ? Buffer.allocUnsafe(declared) : undefined;
      let chunks: Buffer[] = [];
      let size = 0;
      let read: BodyRead | undefined;
      const stop = (error: Error) => {
        if (read) this.reads.delete(read);
        buffer = undefined;
        chunks = [];
        // The rest is read and dropped (node:http does it once the reply is sent, then closes
        // the connection: the reply says `connection: close`), so that the client sees the reply.
        req.removeListener("data", onData);
        reject(error);
      };
      const onData = (chunk: Buffer) => {
        if (buffer) {
          size += chunk.copy(buffer, size);
          return;
        }
        size += chunk.length;
        if (size > limit) stop(new BodyTooLargeError());
        else if (budget && !budget.reserve(chunk.length)) stop(new BodyBudgetError(true));
        else chunks.push(chunk);
      };
      if (timeoutMs > 0) {
        read = { req, deadline: Date.now() + timeoutMs, reject: stop };
        this.reads.add(read);
        this.timer ??= this.start(timeoutMs);
      }
      req.on("data", onData);
      req.on("end", () => {
        if (read) this.reads.delete(read);
        // Decoded once; the bytes are dropped with this closure.
        const bytes = buffer ?? (chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
        buffer = undefined;
        chunks = [];
        resolve(bytes.toString("utf8", 0, size));
      });
      req.on("error", (error) => {
        if (read) this.reads.delete(read);
        buffer = undefined;
        chunks = [];
        reject(error);
      });
    });
  }

  private start(timeoutMs: number): ReturnType<typeof setInterval> {
    const timer = setInterval(
      () => {
        if (this.reads.size === 0) {
          clearInterval(timer);
          this.timer = undefined;
          return;
        }
        const now = Date.now();
        for (const read of this.reads) {
          if (read.deadline > now) continue;
          this.reads.delete(read);
          // The connection closes after the 408 (`connection: close`).
          read.reject(new BodyTimeoutError());
        }
      },
      Math.max(10, Math.min(1000, timeoutMs / 4)),
    );
    (timer as { unref?: () => void }).unref?.();
    return timer;
  }
}

/** A node:http request as the binding sees it: one object per request, no closures. */
class NodeRequest implements HttpRequestLike {
  private controller: AbortController | undefined;
  private disconnected: (() => void)[] | undefined;
  /** Long-lived: a GET stream or a subscriptions/listen POST (a shutdown does not wait for it). */
  readonly listening: boolean;
  /** The reply's SSE stream, once the reply is one. */
  stream: SseStream | undefined;

  constructor(
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
    private readonly reads: BodyReads,
  ) {
    this.listening =
      req.method === "GET" || (req.method === "POST" && req.headers["mcp-method"] === "subscriptions/listen");
  }

  get method(): string {
    return this.req.method ?? "GET";
  }

  get url(): string {
    // Scheme and port are the connection's, not the client's word (a Host naming another local
    // port must not make this server the audience of that server's tokens); the host name was
    // checked against the allow-list before use.
    const socket = this.req.socket as { encrypted?: boolean; localPort?: number };
    const scheme = socket.encrypted ? "https" : "http";
    const host = (this.req.headers.host ?? "localhost").replace(/:\d*$/, "");
    const port =
      socket.localPort === undefined || socket.localPort === (scheme === "https" ? 443 : 80)
        ? ""
        : `:${socket.localPort}`;
    return `${scheme}://${host}${port}${this.req.url ?? "/"}`;
  }

  header(name: string): string | undefined {
    const value = this.req.headers[name];
    return Array.isArray(value) ? value.join(", ") : value;
  }

  text(limit: number, timeoutMs = 0, budget?: BodyBudget): Promise<string> {
    return this.reads.read(this.req, limit, timeoutMs, budget);
  }

  get signal(): AbortSignal {
    if (!this.controller) {
      const created = new AbortController();
      this.controller = created;
      this.onDisconnect(() => created.abort());
    }
    return this.controller.signal;
  }

  onDisconnect(callback: () => void): void {
    if (this.disconnected) {
      this.disconnected.push(callback);
      return;
    }
    this.disconnected = [callback];
    const res = this.res;
    res.once("close", () => {
      if (!res.writableFinished) this.abandon();
    });
  }

  /** The client is gone, or the server stops waiting for this request: what waits on it stops. */
  abandon(): void {
    const callbacks = this.disconnected;
    this.disconnected = [];
    if (callbacks) for (const callback of callbacks) callback();
  }
}

const DEFAULT_SHUTDOWN_TIMEOUT_MS = 10_000;

const shuttingDownBody = JSON.stringify({
  jsonrpc: "2.0",
  id: null,
  error: { code: -32000, message: "Server is shutting down" },
});

/**
 * How long, and how many bytes (in maxBodyBytes: 16 MiB by default), a refused request's
 * unread body may still be read and dropped before the connection closes.
 */
const LINGER_MS = 2_000;
const LINGER_BODIES = 4;

/**
 * Sends a reply that is all there is to say (not a stream). When the request's body was not
 * read to its end (refused from its length or budget, too slow, sent during a shutdown), the
 * reply goes out at once but the connection closes only once the rest of the body came, or
 * after LINGER_MS or `lingerBytes` more bytes: a socket closed with bytes still arriving is
 * reset, and a client still writing its body then sees EPIPE or ECONNRESET, often before it
 * has read the 413 or 503 waiting for it (node:http does no lingering close of its own).
 */
function sendReply(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  headers: Record<string, string>,
  body: string,
  lingerBytes: number,
): void {
  if (req.complete || req.readableEnded || req.destroyed) {
    res.writeHead(status, headers);
    res.end(body);
    return;
  }
  res.writeHead(status, { ...headers, "content-length": String(Buffer.byteLength(body)) });
  res.write(body);
  let drained = 0;
  const finish = () => {
    clearTimeout(timer);
    req.removeListener("data", count);
    req.removeListener("end", finish);
    res.removeListener("close", finish);
    if (!res.writableEnded) res.end();
  };
  const count = (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > lingerBytes) finish();
  };
  const timer = setTimeout(finish, LINGER_MS);
  req.on("data", count);
  req.once("end", finish);
  res.once("close", finish);
  req.resume();
}

/** Ends a response that the shutdown will not wait for any longer: a proper end, never a reset. */
function endExchange(exchange: NodeRequest): void {
  const { res } = exchange;
  if (res.writableEnded) return;
  if (exchange.stream) {
    // Ends the response through the stream's writer (the client sees the stream end).
    exchange.stream.end();
    if (!res.writableEnded) res.end();
    // The request behind it (if any) stops waiting: nobody reads its answer any more.
    exchange.abandon();
    return;
  }
  exchange.abandon();
  if (res.headersSent) res.end();
  else {
    res.writeHead(503, { "content-type": "application/json", connection: "close" });
    res.end(shuttingDownBody);
  }
}

/**
 * The responses of one handler not finished yet, and how many of them are requests (not
 * long-lived streams): what a shutdown waits for, and ends.
 */
class OpenResponses {
  private readonly open = new Map<ServerResponse, NodeRequest>();
  inFlight = 0;
  /** Called when a response finishes while a shutdown waits. */
  private onSettled: (() => void) | undefined;
  /** One listener function for every response (`this` is the response): no closure per request. */
  private readonly settled: (this: ServerResponse) => void;

  constructor() {
    const responses = this;
    this.settled = function (this: ServerResponse) {
      responses.finished(this);
    };
  }

  private finished(res: ServerResponse): void {
    const exchange = this.open.get(res);
    if (exchange === undefined) return;
    this.open.delete(res);
    if (!exchange.listening) this.inFlight--;
    this.onSettled?.();
  }

  get size(): number {
    return this.open.size;
  }

  add(res: ServerResponse, exchange: NodeRequest): void {
    this.open.set(res, exchange);
    if (!exchange.listening) this.inFlight++;
    res.once("close", this.settled);
  }

  /** Resolves once `done()` holds after a response finishes, or after `timeoutMs`. */
  until(done: () => boolean, timeoutMs: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(finish, Math.max(0, timeoutMs));
      const responses = this;
      function finish() {
        clearTimeout(timer);
        responses.onSettled = undefined;
        resolve();
      }
      this.onSettled = () => {
        if (done()) finish();
      };
    });
  }

  /** Ends every response still open (see endExchange). */
  endAll(): void {
    for (const exchange of [...this.open.values()]) endExchange(exchange);
  }
}

/** Writes `reply` on `res`: a whole body at once, or the headers and then the stream's events. */
function writeReply(exchange: NodeRequest, reply: HttpReply, closing: boolean, lingerBytes: number): void {
  const { req, res } = exchange;
  if (res.writableEnded || res.destroyed) {
    // Ended by a shutdown (or the client left) before the reply was ready.
    if ("stream" in reply) reply.stream.cancel();
    return;
  }
  const headers = closing ? { ...reply.headers, connection: "close" } : reply.headers;
  if (!("stream" in reply)) {
    // No content-length on purpose: with one, node:http writes headers and body as one
    // string whose write state outlives young-generation GCs under load (promoted ~40 KB
    // per scavenge, new space doubled to 32 MB, peak RSS +20 MB; bench/FINDINGS.md).
    sendReply(req, res, reply.status, headers, reply.body ?? "", lingerBytes);
    return;
  }
  res.writeHead(reply.status, headers);
  res.flushHeaders();
  const { stream } = reply;
  exchange.stream = stream;
  res.once("close", () => stream.cancel());
  stream.attach(
    (chunk) => res.write(chunk),
    () => res.end(),
  );
}

/** The binding failed (a bug, not the client's doing): a JSON-RPC internal error, if anything can still be sent. */
function writeInternalError(res: ServerResponse, error: unknown): void {
  console.error("mcp http:", error);
  if (res.writableEnded) return;
  if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
  res.end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32603, message: "Internal error" } }));
}

/** Sent on a connection that was open before the shutdown: no new work is started. */
function refuseWhileShuttingDown(req: IncomingMessage, res: ServerResponse, lingerBytes: number): void {
  sendReply(req, res, 503, { "content-type": "application/json", connection: "close" }, shuttingDownBody, lingerBytes);
}

/**
 * A node:http request listener serving `server` (mount it at your MCP endpoint; with `auth`,
 * also at `/.well-known/oauth-protected-resource` and the paths below it).
 */
export function createNodeHandler(
  server: McpEndpoint,
  options?: HttpOptions & { readonly shutdownTimeoutMs?: number | undefined },
): NodeHandler {
  const binding = new StreamableHttpBinding(server, options);
  const reads = new BodyReads();
  const defaultTimeoutMs = options?.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS;
  const lingerBytes = LINGER_BODIES * (options?.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES);
  const open = new OpenResponses();
  let shuttingDown: Promise<void> | undefined;
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    if (shuttingDown) return refuseWhileShuttingDown(req, res, lingerBytes);
    const exchange = new NodeRequest(req, res, reads);
    open.add(res, exchange);
    binding.handle(exchange).then(
      (reply) => writeReply(exchange, reply, shuttingDown !== undefined, lingerBytes),
      (error: unknown) => writeInternalError(res, error),
    );
  };
  const close = () => {
    binding.close();
    open.endAll();
  };
  const shutdown = (shutdownOptions?: ShutdownOptions): Promise<void> => {
    shuttingDown ??= (async () => {
      // Requests in flight finish (their responses are sent), within the deadline.
      if (open.inFlight > 0)
        await open.until(() => open.inFlight === 0, shutdownOptions?.timeoutMs ?? defaultTimeoutMs);
      // Then every session ends (their streams end, their waiting POSTs get an error), and
      // what is still open is ended properly.
      close();
      // Until the ends were written (or a second passed): the connections close after.
      if (open.size > 0) await open.until(() => open.size === 0, 1000);
    })();
    return shuttingDown;
  };
  return Object.defineProperty(Object.assign(handler, { close, shutdown }), "inFlight", {
    get: () => open.inFlight,
    enumerable: true,
  }) as NodeHandler;
}

export type LegacySseNodeHandler = ((req: IncomingMessage, res: ServerResponse) => void) & {
  /** Ends every session and its stream. */
  close(): void;
  readonly sessionCount: number;
};

/**
 * A node:http request listener serving `server` over the HTTP+SSE transport of 2024-11-05:
 * route GET `ssePath` (default /sse) and POST `postPath` (default /messages) to it (or use
 * listenHttp's `legacySse`). Only for hosts that speak nothing newer.
 */
export function createLegacySseNodeHandler(server: McpEndpoint, options?: LegacySseOptions): LegacySseNodeHandler {
  const binding = new LegacySseBinding(server, options);
  const reads = new BodyReads();
  const lingerBytes = LINGER_BODIES * (options?.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES);
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    binding.handle(new NodeRequest(req, res, reads)).then(
      (reply) => {
        if (!("stream" in reply)) {
          sendReply(req, res, reply.status, reply.headers, reply.body ?? "", lingerBytes);
          return;
        }
        res.writeHead(reply.status, reply.headers);
        res.flushHeaders();
        const { stream } = reply;
        res.once("close", () => stream.cancel());
        stream.attach(
          (chunk) => res.write(chunk),
          () => res.end(),
        );
      },
      (error: unknown) => {
        console.error("mcp legacy sse:", error);
        if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
        res.end('{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"Internal error"}}');
      },
    );
  };
  return Object.defineProperties(handler, {
    close: { value: () => binding.close() },
    sessionCount: { get: () => binding.sessionCount },
  }) as LegacySseNodeHandler;
}

export interface ListenOptions extends HttpOptions {
  /** Port to listen on; 0 picks a free one. Default 0. */
  readonly port?: number | undefined;
  /** Interface to bind. Default 127.0.0.1: local servers should not listen on every interface. */
  readonly host?: string | undefined;
  /** Endpoint path. Default /mcp. */
  readonly path?: string | undefined;
  /**
   * How long close() lets requests in flight finish before it ends them, in milliseconds.
   * Default 10,000 (below the 10 s to 30 s that process managers wait between SIGTERM and
   * SIGKILL).
   */
  readonly shutdownTimeoutMs?: number | undefined;
  /**
   * Close gracefully on SIGTERM and SIGINT, then exit the process with code 0 (a second
   * signal exits at once); see closeOnSignals. Default false: a library does not take over
   * the process's signals unless asked (a server's main module should ask).
   */
  readonly handleSignals?: boolean | undefined;
  /**
   * Also serve the HTTP+SSE transport of 2024-11-05 (GET `ssePath` opens a stream naming
   * `postPath` for POSTs), for hosts that speak only it. Off by default; `true` uses /sse and
   * /messages. Same Host/Origin checks and limits; not with `auth` (that transport has none).
   */
  readonly legacySse?:
    boolean | { readonly ssePath?: string | undefined; readonly postPath?: string | undefined } | undefined;
}

export interface HttpListener {
  readonly url: string;
  readonly port: number;
  readonly httpServer: Server;
  /**
   * Graceful close: stops accepting connections (new ones are refused; a new request on a
   * connection already open, idle keep-alive ones included, is answered 503 with
   * `connection: close`), lets requests in flight finish within
   * `timeoutMs` (default: the `shutdownTimeoutMs` option), then ends every session and SSE
   * stream properly (the response ends, no reset), answers requests still unanswered with
   * 503, and closes the remaining connections and the listening socket. Calling it again
   * returns the same promise.
   */
  close(options?: ShutdownOptions): Promise<void>;
}

/** The one-line error of a port that cannot be listened on (no stack trace needed to act on it). */
export class ListenError extends Error {
  override readonly name = "ListenError";
  constructor(
    message: string,
    readonly code: string | undefined,
    readonly port: number,
    readonly host: string,
  ) {
    super(message);
  }
}

function listenError(error: NodeJS.ErrnoException, port: number, host: string): Error {
  const code = error.code;
  const where = `${code ?? "error"} on ${host}`;
  const message =
    code === "EADDRINUSE"
      ? `port ${port} is in use (${where})`
      : code === "EACCES"
        ? `port ${port} needs more privileges than this process has (${where})`
        : code === "EADDRNOTAVAIL"
          ? `cannot listen on ${host}: it is not an address of this machine (${where})`
          : `cannot listen on ${host} port ${port} (${where}): ${String(error.message).split("\n")[0]}`;
  return new ListenError(message, code, port, host);
}

/** The legacy SSE paths listenHttp serves, checked against the endpoint's; undefined when off. */
function legacySseOf(options: ListenOptions, path: string): { ssePath: string; postPath: string } | undefined {
  const wanted = options.legacySse;
  if (!wanted) return undefined;
  const paths = {
    ssePath: (wanted === true ? undefined : wanted.ssePath) ?? "/sse",
    postPath: (wanted === true ? undefined : wanted.postPath) ?? "/messages",
  };
  if (options.auth !== undefined)
    throw new Error(
      "legacySse: the 2024-11-05 HTTP+SSE transport has no authorization; protected servers serve Streamable HTTP only",
    );
  if (paths.ssePath === paths.postPath || paths.ssePath === path || paths.postPath === path) {
    throw new Error(
      `legacySse: ssePath (${paths.ssePath}), postPath (${paths.postPath}) and the endpoint path (${path}) must differ`,
    );
  }
  return paths;
}

/**
 * Starts an HTTP server with the MCP endpoint at `path` (other paths answer 404). When the
 * port cannot be used, rejects with an Error whose message is one line, such as
 * "port 3000 is in use (EADDRINUSE on 127.0.0.1)", and whose `code` is Node's error code.
 */
export async function listenHttp(server: McpEndpoint, options: ListenOptions = {}): Promise<HttpListener> {
  const host = options.host ?? "127.0.0.1";
  const path = options.path ?? "/mcp";
  const shutdownTimeoutMs = options.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS;
  const handler = createNodeHandler(server, { ...options, path, shutdownTimeoutMs });
  const protectedResource = options.auth !== undefined;
  const sse = legacySseOf(options, path);
  const legacy = sse && createLegacySseNodeHandler(server, { ...options, ...sse });
  const httpServer = createServer((req, res) => {
    const url = req.url ?? "/";
    const pathname = url.includes("?") ? url.slice(0, url.indexOf("?")) : url;
    if (legacy && sse && (pathname === sse.ssePath || pathname === sse.postPath)) {
      legacy(req, res);
      return;
    }
    const metadata = protectedResource && (pathname === METADATA_PATH || pathname.startsWith(`${METADATA_PATH}/`));
    if (pathname !== path && !metadata) {
      res.writeHead(404, { "content-type": "text/plain" });
      res.end(`Not found: the MCP endpoint is ${path}\n`);
      return;
    }
    handler(req, res);
  });
  httpServer.keepAliveTimeout = 65_000;
  const wanted = options.port ?? 0;
  try {
    await new Promise<void>((resolve, reject) => {
      httpServer.once("error", reject);
      httpServer.listen(wanted, host, () => resolve());
    });
  } catch (error) {
    handler.close();
    throw listenError(error as NodeJS.ErrnoException, wanted, host);
  }
  const { port } = httpServer.address() as AddressInfo;
  const shownHost = host.includes(":") ? `[${host}]` : host;
  let closing: Promise<void> | undefined;
  const close = (closeOptions?: ShutdownOptions): Promise<void> =>
    (closing ??= (async () => {
      // No new connections (they are refused). Connections already open stay open while
      // requests in flight drain (net.Server's close: http.Server's would also destroy idle
      // keep-alive connections, and a request a client sends on one then meets a reset): a
      // request on them is answered 503 with `connection: close`, which closes them.
      const closed = new Promise<void>((resolve) => NetServer.prototype.close.call(httpServer, () => resolve()));
      // Legacy SSE streams have nothing to drain (every POST was answered 202): they end now.
      legacy?.close();
      try {
        await handler.shutdown({ timeoutMs: closeOptions?.timeoutMs ?? shutdownTimeoutMs });
      } finally {
        // http.Server's own close now (its connection checks stop; the listening socket is
        // already closed), then every connection left.
        httpServer.close();
        httpServer.closeAllConnections();
      }
      await closed;
    })());
  const listener: HttpListener = { url: `http://${shownHost}:${port}${path}`, port, httpServer, close };
  if (options.handleSignals) {
    const release = closeOnSignals(listener, { timeoutMs: shutdownTimeoutMs });
    httpServer.once("close", release);
  }
  return listener;
}
