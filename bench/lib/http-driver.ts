// Drives a server over Streamable HTTP, keep-alive, one connection per request in flight.
// Stateless: modern servers get 2026-07-28 requests (the `_meta` envelope and the
// MCP-Protocol-Version / Mcp-Method / Mcp-Name headers), legacy ones plain requests
// without a session.
//
// Two clients: `raw` (default) writes HTTP/1.1 on net sockets and parses just what servers
// send back (Content-Length or chunked bodies) — about a tenth of node:http's client cost,
// which on a 2-core machine would otherwise bound throughput before the server does;
// `node` is node:http with a keep-alive Agent, for comparison.
import { Agent, request as httpRequest } from "node:http";
import { connect, type Socket } from "node:net";
import { LEGACY_REVISION, MODERN_REVISION, modernParams, type Call, type Era } from "../workload/requests.js";
import type { Connection } from "./connection.js";

export type HttpClientKind = "raw" | "node";

interface Prepared {
  readonly id: number;
  readonly body: string;
  readonly headers: Record<string, string>;
}

abstract class HttpConnectionBase implements Connection {
  private nextId = 1;
  protected readonly url: URL;

  constructor(
    url: string,
    private readonly era: Era,
  ) {
    this.url = new URL(url);
  }

  request(call: Call): Promise<unknown> {
    const id = this.nextId++;
    const modern = this.era === "modern";
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id,
      method: call.method,
      params: modern ? modernParams(call.params) : call.params,
    });
    const headers: Record<string, string> = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": modern ? MODERN_REVISION : LEGACY_REVISION,
    };
    if (modern) {
      headers["mcp-method"] = call.method;
      if (call.name !== undefined) headers["mcp-name"] = call.name;
    }
    return this.post({ id, body, headers }).then(({ status, contentType, text }) => {
      try {
        return contentType.includes("text/event-stream") ? fromSse(text, id) : JSON.parse(text);
      } catch {
        throw new Error(`HTTP ${status}: ${text.slice(0, 200)}`);
      }
    });
  }

  protected abstract post(request: Prepared): Promise<{ status: number; contentType: string; text: string }>;
  abstract close(): Promise<void>;
}

/** node:http with a keep-alive Agent. */
class NodeHttpConnection extends HttpConnectionBase {
  private readonly agent: Agent;

  constructor(url: string, era: Era, maxSockets: number) {
    super(url, era);
    this.agent = new Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets });
  }

  protected post({ body, headers }: Prepared): Promise<{ status: number; contentType: string; text: string }> {
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        {
          agent: this.agent,
          host: this.url.hostname,
          port: this.url.port,
          path: this.url.pathname,
          method: "POST",
          headers: { ...headers, "content-length": Buffer.byteLength(body) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("end", () =>
            resolve({
              status: res.statusCode ?? 0,
              contentType: res.headers["content-type"] ?? "",
              text: Buffer.concat(chunks).toString("utf8"),
            }),
          );
          res.on("error", reject);
        },
      );
      req.on("error", reject);
      req.end(body);
    });
  }

  async close(): Promise<void> {
    this.agent.destroy();
  }
}

type Reply = { status: number; contentType: string; text: string };
type Waiter = { resolve: (reply: Reply) => void; reject: (error: Error) => void };

/** One keep-alive HTTP/1.1 connection carrying one exchange at a time. */
class RawSocket {
  private buffer: Buffer = Buffer.alloc(0);
  private waiter: Waiter | undefined;
  readonly socket: Socket;

  constructor(host: string, port: number, onClose: (self: RawSocket) => void) {
    this.socket = connect({ host, port, noDelay: true });
    this.socket.on("data", (chunk: Buffer) => this.onData(chunk));
    const fail = (error: Error) => {
      this.waiter?.reject(error);
      this.waiter = undefined;
      onClose(this);
    };
    this.socket.on("error", fail);
    this.socket.on("close", () => fail(new Error("connection closed by the server")));
  }

  send(head: string, body: string): Promise<Reply> {
    return new Promise((resolve, reject) => {
      this.waiter = { resolve, reject };
      this.socket.write(head + body);
    });
  }

  private onData(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    const parsed = parseResponse(this.buffer);
    if (!parsed) return;
    this.buffer = this.buffer.subarray(parsed.end);
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.resolve(parsed.reply);
  }
}

/** A complete response at the start of `data`, or undefined while more bytes are needed. */
function parseResponse(data: Buffer): { reply: Reply; end: number } | undefined {
  const headEnd = data.indexOf("\r\n\r\n");
  if (headEnd < 0) return undefined;
  const lines = data.toString("latin1", 0, headEnd).split("\r\n");
  const status = Number(lines[0]!.slice(9, 12));
  let length = -1;
  let chunked = false;
  let contentType = "";
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    const colon = line.indexOf(":");
    const name = line.slice(0, colon).toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === "content-length") length = Number(value);
    else if (name === "transfer-encoding") chunked = value.toLowerCase().includes("chunked");
    else if (name === "content-type") contentType = value;
  }
  let pos = headEnd + 4;
  if (!chunked) {
    const size = Math.max(length, 0);
    if (data.length < pos + size) return undefined;
    return { reply: { status, contentType, text: data.toString("utf8", pos, pos + size) }, end: pos + size };
  }
  const parts: Buffer[] = [];
  for (;;) {
    const lineEnd = data.indexOf("\r\n", pos);
    if (lineEnd < 0) return undefined;
    const size = parseInt(data.toString("latin1", pos, lineEnd), 16);
    if (size === 0) {
      // Last chunk, no trailers: "0\r\n\r\n".
      if (data.length < lineEnd + 4) return undefined;
      return { reply: { status, contentType, text: Buffer.concat(parts).toString("utf8") }, end: lineEnd + 4 };
    }
    if (data.length < lineEnd + 2 + size + 2) return undefined;
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    pos = lineEnd + 2 + size + 2;
  }
}

/** HTTP/1.1 on net sockets, a pool of up to `maxSockets` keep-alive connections. */
class RawHttpConnection extends HttpConnectionBase {
  private readonly idle: RawSocket[] = [];
  private readonly all = new Set<RawSocket>();
  private readonly queue: { request: Prepared; waiter: Waiter }[] = [];

  constructor(
    url: string,
    era: Era,
    private readonly maxSockets: number,
  ) {
    super(url, era);
  }

  protected post(request: Prepared): Promise<Reply> {
    return new Promise((resolve, reject) => {
      const socket = this.idle.pop() ?? (this.all.size < this.maxSockets ? this.open() : undefined);
      if (socket) this.exchange(socket, request, { resolve, reject });
      else this.queue.push({ request, waiter: { resolve, reject } });
    });
  }

  async close(): Promise<void> {
    for (const socket of this.all) socket.socket.destroy();
    this.all.clear();
    this.idle.length = 0;
  }

  private open(): RawSocket {
    const socket = new RawSocket(this.url.hostname, Number(this.url.port), (closed) => {
      this.all.delete(closed);
      const at = this.idle.indexOf(closed);
      if (at >= 0) this.idle.splice(at, 1);
    });
    this.all.add(socket);
    return socket;
  }

  private exchange(socket: RawSocket, { body, headers }: Prepared, waiter: Waiter): void {
    let head = `POST ${this.url.pathname} HTTP/1.1\r\nhost: ${this.url.host}\r\ncontent-length: ${Buffer.byteLength(body)}\r\n`;
    for (const name in headers) head += `${name}: ${headers[name]}\r\n`;
    socket.send(`${head}\r\n`, body).then(
      (reply) => {
        const next = this.queue.shift();
        if (next) this.exchange(socket, next.request, next.waiter);
        else this.idle.push(socket);
        waiter.resolve(reply);
      },
      (error: Error) => waiter.reject(error),
    );
  }
}

export function httpConnection(kind: HttpClientKind, url: string, era: Era, maxSockets: number): Connection {
  return kind === "raw" ? new RawHttpConnection(url, era, maxSockets) : new NodeHttpConnection(url, era, maxSockets);
}

/** The response with `id` among the messages of an SSE body. */
function fromSse(text: string, id: number): unknown {
  for (const event of text.split(/\r?\n\r?\n/)) {
    const data = event
      .split(/\r?\n/)
      .filter((line) => line.startsWith("data:"))
      .map((line) => line.slice(5).trimStart())
      .join("\n");
    if (data === "") continue;
    const message = JSON.parse(data) as { id?: unknown };
    if (message.id === id) return message;
  }
  throw new Error("no response in the event stream");
}
