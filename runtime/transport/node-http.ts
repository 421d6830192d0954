// The Streamable HTTP binding on node:http, without going through web Request/Response
// objects (they cost more per request than the whole MCP dispatch).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { McpEndpoint } from "../mcp/server.js";
import { METADATA_PATH } from "../auth/resource-server.js";
import { BodyTimeoutError, BodyTooLargeError, StreamableHttpBinding, type HttpOptions, type HttpRequestLike } from "./http.js";

export type NodeHandler = ((req: IncomingMessage, res: ServerResponse) => void) & { close(): void };

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

  read(req: IncomingMessage, limit: number, timeoutMs: number): Promise<string> {
    return new Promise((resolve, reject) => {
      const declared = Number(req.headers["content-length"] ?? NaN);
      if (declared > limit) {
        req.resume();
        reject(new BodyTooLargeError());
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      let read: BodyRead | undefined;
      const stop = (error: Error) => {
        if (read) this.reads.delete(read);
        // The rest is read and dropped (node:http does it once the reply is sent, then closes
        // the connection: the reply says `connection: close`), so that the client sees the reply.
        req.removeListener("data", onData);
        reject(error);
      };
      const onData = (chunk: Buffer) => {
        size += chunk.length;
        if (size > limit) stop(new BodyTooLargeError());
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
        resolve(chunks.length === 1 ? chunks[0]!.toString("utf8") : Buffer.concat(chunks).toString("utf8"));
      });
      req.on("error", (error) => {
        if (read) this.reads.delete(read);
        reject(error);
      });
    });
  }

  private start(timeoutMs: number): ReturnType<typeof setInterval> {
    const timer = setInterval(() => {
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
    }, Math.max(10, Math.min(1000, timeoutMs / 4)));
    (timer as { unref?: () => void }).unref?.();
    return timer;
  }
}

/** A node:http request as the binding sees it: one object per request, no closures. */
class NodeRequest implements HttpRequestLike {
  private controller: AbortController | undefined;

  constructor(
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    private readonly reads: BodyReads,
  ) {}

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
    const port = socket.localPort === undefined || socket.localPort === (scheme === "https" ? 443 : 80) ? "" : `:${socket.localPort}`;
    return `${scheme}://${host}${port}${this.req.url ?? "/"}`;
  }

  header(name: string): string | undefined {
    const value = this.req.headers[name];
    return Array.isArray(value) ? value.join(", ") : value;
  }

  text(limit: number, timeoutMs = 0): Promise<string> {
    return this.reads.read(this.req, limit, timeoutMs);
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
    const res = this.res;
    res.once("close", () => {
      if (!res.writableFinished) callback();
    });
  }
}

/**
 * A node:http request listener serving `server` (mount it at your MCP endpoint; with `auth`,
 * also at `/.well-known/oauth-protected-resource` and the paths below it).
 */
export function createNodeHandler(server: McpEndpoint, options?: HttpOptions): NodeHandler {
  const binding = new StreamableHttpBinding(server, options);
  const reads = new BodyReads();
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const like = new NodeRequest(req, res, reads);
    binding.handle(like).then(
      (reply) => {
        if (!("stream" in reply)) {
          // No content-length on purpose: with one, node:http writes headers and body as one
          // string whose write state outlives young-generation GCs under load (promoted ~40 KB
          // per scavenge, new space doubled to 32 MB, peak RSS +20 MB; bench/FINDINGS.md).
          res.writeHead(reply.status, reply.headers);
          res.end(reply.body ?? "");
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
        console.error("mcp http:", error);
        if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
        res.end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32603, message: "Internal error" } }));
      },
    );
  };
  return Object.assign(handler, { close: () => binding.close() });
}

export interface ListenOptions extends HttpOptions {
  /** Port to listen on; 0 picks a free one. Default 0. */
  readonly port?: number | undefined;
  /** Interface to bind. Default 127.0.0.1: local servers should not listen on every interface. */
  readonly host?: string | undefined;
  /** Endpoint path. Default /mcp. */
  readonly path?: string | undefined;
}

export interface HttpListener {
  readonly url: string;
  readonly port: number;
  readonly httpServer: Server;
  close(): Promise<void>;
}

/** Starts an HTTP server with the MCP endpoint at `path` (other paths answer 404). */
export async function listenHttp(server: McpEndpoint, options: ListenOptions = {}): Promise<HttpListener> {
  const host = options.host ?? "127.0.0.1";
  const path = options.path ?? "/mcp";
  const handler = createNodeHandler(server, { ...options, path });
  const protectedResource = options.auth !== undefined;
  const httpServer = createServer((req, res) => {
    const url = req.url ?? "/";
    const pathname = url.includes("?") ? url.slice(0, url.indexOf("?")) : url;
    const metadata = protectedResource && (pathname === METADATA_PATH || pathname.startsWith(`${METADATA_PATH}/`));
    if (pathname !== path && !metadata) {
      res.writeHead(404, { "content-type": "text/plain" });
      res.end(`Not found: the MCP endpoint is ${path}\n`);
      return;
    }
    handler(req, res);
  });
  httpServer.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    httpServer.once("error", reject);
    httpServer.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = httpServer.address() as AddressInfo;
  const shownHost = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}${path}`,
    port,
    httpServer,
    close: () =>
      new Promise<void>((resolve) => {
        handler.close();
        httpServer.closeAllConnections();
        httpServer.close(() => resolve());
      }),
  };
}
