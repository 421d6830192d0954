// Streamable HTTP reliability (issue 15): every POST ends with a response, whatever its body;
// duplicate ids, cancellation and DELETE end the right POSTs; idle sessions holding hung
// requests are swept; 2025-03-26 batches carry each request's real response; and the limits a
// public server needs (sessions, bodies in flight, body read time, chunked bodies too large).
// Real HTTP against listenHttp, and createWebHandler with fetch Requests.
import { request as httpRequest } from "node:http";
import { connect } from "node:net";
import { createWebHandler, type HttpOptions } from "@mcp-gen/runtime";
import { listenHttp, type HttpListener } from "@mcp-gen/runtime/node";
import { afterEach, describe, expect, it } from "vitest";
import { createHandlers } from "../../examples/everything/src/handlers.js";
import { createNotesServer, type NotesHandlers } from "../../examples/everything/src/mcp/index.js";

type Json = Record<string, unknown>;

const listeners: HttpListener[] = [];
const closers: (() => void)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) close();
  await Promise.all(listeners.splice(0).map((l) => l.close()));
});

/** Resolves pending reindex calls that wait on a gate. */
let gates: (() => void)[] = [];

/**
 * The notes server, its reindex tool replaced by one the tests steer with `delayMs`:
 * 1 reports progress then answers; 999 waits until cancelled; 998 never answers; any other
 * value waits until openGates().
 */
function notesServer() {
  const handlers = createHandlers({ changed: () => {} });
  const tools: NotesHandlers["tools"] = {
    ...handlers.tools,
    async reindex({ delayMs }, ctx) {
      if (delayMs === 1) {
        ctx.progress(1, 2, "half way");
        return "progressed";
      }
      if (delayMs === 999) {
        await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve, { once: true }));
        return "cancelled";
      }
      if (delayMs === 998) await new Promise(() => {});
      await new Promise<void>((resolve) => gates.push(resolve));
      return `released ${delayMs}`;
    },
  };
  return createNotesServer({ ...handlers, tools });
}

function openGates(): void {
  for (const open of gates.splice(0)) open();
}

async function serve(options: HttpOptions = {}): Promise<HttpListener> {
  gates = [];
  const listener = await listenHttp(notesServer(), options);
  listeners.push(listener);
  return listener;
}

const baseHeaders = { "content-type": "application/json", accept: "application/json, text/event-stream" };

function post(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
  signal?: AbortSignal,
): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { ...baseHeaders, ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
    signal: signal ?? AbortSignal.timeout(5_000),
  });
}

/** Opens a legacy session; returns its id. */
async function initialize(url: string, revision = "2025-03-26"): Promise<string> {
  const response = await post(url, {
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: revision, capabilities: {}, clientInfo: { name: "t", version: "1" } },
  });
  expect(response.status).toBe(200);
  const session = response.headers.get("mcp-session-id")!;
  await response.text();
  const initialized = await post(
    url,
    { jsonrpc: "2.0", method: "notifications/initialized" },
    { "mcp-session-id": session },
  );
  expect(initialized.status).toBe(202);
  return session;
}

/** The JSON-RPC messages of a reply: its JSON body, or its SSE events' data. */
async function messagesOf(response: Response): Promise<Json[]> {
  const text = await response.text();
  if ((response.headers.get("content-type") ?? "").includes("text/event-stream")) {
    return text
      .split("\n\n")
      .map((block) =>
        block
          .split("\n")
          .filter((line) => line.startsWith("data:"))
          .map((line) => line.slice(5).trim())
          .join("\n"),
      )
      .filter((data) => data !== "")
      .map((data) => JSON.parse(data) as Json);
  }
  if (text === "") return [];
  const value = JSON.parse(text) as Json | Json[];
  return Array.isArray(value) ? value : [value];
}

function call(id: unknown, delayMs: number, meta?: Json): Json {
  return {
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name: "reindex", arguments: { delayMs }, ...(meta ? { _meta: meta } : {}) },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Bodies that have a method and an id but fail the JSON-RPC envelope, and the id each error carries. */
const malformed: [string, unknown, unknown][] = [
  ["object id", { jsonrpc: "2.0", id: { a: 1 }, method: "tools/list" }, null],
  ["array id", { jsonrpc: "2.0", id: [1], method: "tools/list" }, null],
  ["boolean id", { jsonrpc: "2.0", id: true, method: "tools/list" }, null],
  ["fractional id", { jsonrpc: "2.0", id: 1.5, method: "tools/list" }, null],
  ["missing jsonrpc", { id: 41, method: "tools/list" }, 41],
  ["wrong jsonrpc", { jsonrpc: "1.0", id: 42, method: "tools/list" }, 42],
  ["array params", { jsonrpc: "2.0", id: 43, method: "tools/list", params: [1] }, 43],
  ["string params", { jsonrpc: "2.0", id: 44, method: "tools/list", params: "x" }, 44],
  ["numeric method", { jsonrpc: "2.0", id: 45, method: 5 }, 45],
];

const modernMeta = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};
const modernHeaders = { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/list" };

async function expectInvalid(response: Response, id: unknown): Promise<void> {
  expect(response.status).toBe(400);
  const [message, ...rest] = await messagesOf(response);
  expect(rest).toEqual([]);
  expect(message).toMatchObject({ jsonrpc: "2.0", id, error: { code: -32600 } });
}

describe("every POST ends with a response (issue 15, item 4)", () => {
  it("answers envelope failures 400 in a legacy session, in the modern era and without a session", async () => {
    const { url } = await serve();
    const session = await initialize(url);
    for (const [, body, id] of malformed) {
      await expectInvalid(await post(url, body, { "mcp-session-id": session }), id);
      const modern = { ...(body as Json), params: (body as Json).params ?? { _meta: modernMeta } };
      await expectInvalid(await post(url, modern, modernHeaders), id);
      await expectInvalid(await post(url, body), id);
    }
    // The session still works.
    const list = await post(url, { jsonrpc: "2.0", id: 1, method: "tools/list" }, { "mcp-session-id": session });
    expect((await messagesOf(list))[0]).toMatchObject({ id: 1, result: { tools: expect.any(Array) } });
  });

  it("answers envelope failures 400 through createWebHandler", async () => {
    const handler = createWebHandler(notesServer());
    closers.push(() => handler.close());
    const url = "http://localhost/mcp";
    const send = (body: unknown, headers: Record<string, string> = {}) =>
      handler(
        new Request(url, {
          method: "POST",
          headers: { ...baseHeaders, host: "localhost", ...headers },
          body: JSON.stringify(body),
        }),
      );
    const init = await send({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    });
    const session = init.headers.get("mcp-session-id")!;
    await init.text();
    for (const [, body, id] of malformed) {
      await expectInvalid(await send(body, { "mcp-session-id": session, "mcp-protocol-version": "2025-06-18" }), id);
      await expectInvalid(
        await send({ ...(body as Json), params: (body as Json).params ?? { _meta: modernMeta } }, modernHeaders),
        id,
      );
    }
  });

  it("a legacy POST whose client left no longer holds its id: the id can be used again", async () => {
    const { url } = await serve({ eventStore: false });
    const session = await initialize(url);
    const controller = new AbortController();
    const first = post(url, call(5, 999), { "mcp-session-id": session }, controller.signal);
    await sleep(100);
    controller.abort();
    await expect(first).rejects.toThrow();
    await sleep(100);
    // Cancelled by the disconnect: the handler ended, so id 5 is free again.
    const again = post(url, call(5, 1000), { "mcp-session-id": session });
    await sleep(100);
    openGates();
    expect((await messagesOf(await again))[0]).toMatchObject({
      id: 5,
      result: { content: [{ text: "released 1000" }] },
    });
  });
});

describe("duplicate in-flight ids over legacy HTTP (item 5)", () => {
  for (const eventStore of [undefined, false] as const) {
    it(`the duplicate gets its own -32600 and the first its own result (eventStore ${String(eventStore ?? "default")})`, async () => {
      const { url } = await serve(eventStore === false ? { eventStore } : {});
      const session = await initialize(url);
      const first = post(url, call(7, 100), { "mcp-session-id": session });
      await sleep(100);
      const duplicate = await post(url, call(7, 200), { "mcp-session-id": session });
      expect(await messagesOf(duplicate)).toEqual([
        { jsonrpc: "2.0", id: 7, error: { code: -32600, message: expect.stringContaining("already in use") } },
      ]);
      openGates();
      const messages = await messagesOf(await first);
      expect(messages.at(-1)).toMatchObject({ id: 7, result: { content: [{ text: "released 100" }] } });
    });
  }
});

describe("cancellation, DELETE and the idle sweep end POSTs (item 6)", () => {
  for (const eventStore of [undefined, false] as const) {
    it(`notifications/cancelled ends the cancelled request's POST without a result (eventStore ${String(eventStore ?? "default")})`, async () => {
      const { url } = await serve(eventStore === false ? { eventStore } : {});
      const session = await initialize(url, "2025-06-18");
      const headers = { "mcp-session-id": session, "mcp-protocol-version": "2025-06-18" };
      const pending = post(url, call(8, 999), headers);
      await sleep(100);
      const cancel = await post(
        url,
        { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 8, reason: "no longer needed" } },
        headers,
      );
      expect(cancel.status).toBe(202);
      const response = await pending;
      expect(response.status).toBe(200);
      const messages = await messagesOf(response);
      expect(messages.filter((m) => m.id === 8)).toEqual([]);
    });
  }

  it("DELETE answers the session's waiting POSTs with an error", async () => {
    const { url } = await serve();
    const session = await initialize(url);
    const pending = post(url, call(9, 998), { "mcp-session-id": session });
    await sleep(100);
    const deleted = await fetch(url, { method: "DELETE", headers: { "mcp-session-id": session } });
    expect(deleted.status).toBe(200);
    const messages = await messagesOf(await pending);
    expect(messages.at(-1)).toMatchObject({
      id: 9,
      error: { code: -32603, message: expect.stringContaining("Session closed") },
    });
  });

  it("the idle sweep closes a session holding a hung request, and answers its POST", async () => {
    const { url } = await serve({ sessionIdleMs: 200 });
    const session = await initialize(url);
    const pending = post(url, call(10, 998), { "mcp-session-id": session });
    const messages = await messagesOf(await pending);
    expect(messages.at(-1)).toMatchObject({ id: 10, error: { message: expect.stringContaining("Session closed") } });
    const after = await post(url, { jsonrpc: "2.0", id: 11, method: "tools/list" }, { "mcp-session-id": session });
    expect(after.status).toBe(404);
  });

  it("the idle sweep closes a session whose hung request's client left", async () => {
    const { url } = await serve({ sessionIdleMs: 200, eventStore: false });
    const session = await initialize(url);
    const controller = new AbortController();
    const pending = post(url, call(12, 998), { "mcp-session-id": session }, controller.signal);
    await sleep(50);
    controller.abort();
    await expect(pending).rejects.toThrow();
    await sleep(700);
    const after = await post(url, { jsonrpc: "2.0", id: 13, method: "tools/list" }, { "mcp-session-id": session });
    expect(after.status).toBe(404);
  });
});

describe("2025-03-26 batches over HTTP (item 7)", () => {
  for (const eventStore of [undefined, false] as const) {
    it(`a batch whose request reports progress first streams every real response, and invalid elements' errors (eventStore ${String(eventStore ?? "default")})`, async () => {
      const { url } = await serve(eventStore === false ? { eventStore } : {});
      const session = await initialize(url);
      const response = await post(
        url,
        [
          call(1, 1, { progressToken: "p1" }),
          { jsonrpc: "2.0", id: 2, method: "tools/list" },
          { jsonrpc: "2.0", id: { bad: true }, method: "tools/list" },
          { jsonrpc: "2.0", method: "notifications/roots/list_changed" },
          call(3, 1, { progressToken: "p3" }),
        ],
        { "mcp-session-id": session },
      );
      expect(response.status).toBe(200);
      const messages = await messagesOf(response);
      const responses = messages.filter((m) => "result" in m || "error" in m);
      expect(responses).toHaveLength(4);
      expect(responses).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            id: 1,
            result: expect.objectContaining({ content: [{ type: "text", text: "progressed" }] }),
          }),
          expect.objectContaining({ id: 2, result: expect.objectContaining({ tools: expect.any(Array) }) }),
          expect.objectContaining({ id: null, error: expect.objectContaining({ code: -32600 }) }),
          expect.objectContaining({
            id: 3,
            result: expect.objectContaining({ content: [{ type: "text", text: "progressed" }] }),
          }),
        ]),
      );
      expect(messages.filter((m) => m.method === "notifications/progress")).toHaveLength(2);
    });
  }

  it("a batch answered at once is a JSON array of the responses and the invalid elements' errors, in order", async () => {
    const { url } = await serve();
    const session = await initialize(url);
    const response = await post(
      url,
      [
        { jsonrpc: "2.0", id: 1, method: "tools/list" },
        { foo: 1 },
        { jsonrpc: "2.0", id: 1, method: "ping" },
        { jsonrpc: "2.0", id: 2, method: "ping" },
      ],
      {
        "mcp-session-id": session,
      },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/json");
    const messages = (await response.json()) as Json[];
    expect(messages).toEqual([
      expect.objectContaining({ id: 1, result: expect.objectContaining({ tools: expect.any(Array) }) }),
      { jsonrpc: "2.0", id: null, error: expect.objectContaining({ code: -32600 }) },
      {
        jsonrpc: "2.0",
        id: 1,
        error: expect.objectContaining({ code: -32600, message: expect.stringContaining("already in use") }),
      },
      { jsonrpc: "2.0", id: 2, result: {} },
    ]);
  });

  it("a batch of only invalid elements is answered with their errors; a batch of notifications with 202", async () => {
    const { url } = await serve();
    const session = await initialize(url);
    const invalid = await post(url, [1, { jsonrpc: "2.0", id: [], method: "ping" }], { "mcp-session-id": session });
    expect(invalid.status).toBe(200);
    expect(await invalid.json()).toEqual([
      { jsonrpc: "2.0", id: null, error: expect.objectContaining({ code: -32600 }) },
      { jsonrpc: "2.0", id: null, error: expect.objectContaining({ code: -32600 }) },
    ]);
    const notifications = await post(url, [{ jsonrpc: "2.0", method: "notifications/roots/list_changed" }], {
      "mcp-session-id": session,
    });
    expect(notifications.status).toBe(202);
  });

  it("a batch's cancelled request leaves the others' responses and the reply ends", async () => {
    const { url } = await serve();
    const session = await initialize(url);
    const pending = post(url, [call(20, 999), { jsonrpc: "2.0", id: 21, method: "ping" }], {
      "mcp-session-id": session,
    });
    await sleep(100);
    await post(
      url,
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 20 } },
      { "mcp-session-id": session },
    );
    const messages = await messagesOf(await pending);
    expect(messages).toEqual([{ jsonrpc: "2.0", id: 21, result: {} }]);
  });
});

describe("values whose String() throws (item 10)", () => {
  it("an Mcp-Name mismatch against an object name is a 400 header mismatch, not a 500", async () => {
    const { url } = await serve();
    const body = {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: { toString: 1 }, arguments: {}, _meta: modernMeta },
    };
    const response = await post(url, body, {
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": "reindex",
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      id: 1,
      error: { code: -32020, message: expect.stringContaining('{"toString":1}') },
    });
  });

  it("a legacy tools/call naming an object is a JSON-RPC error, not a 500", async () => {
    const { url } = await serve();
    const session = await initialize(url);
    const response = await post(
      url,
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: { toString: 1 }, arguments: {} } },
      { "mcp-session-id": session },
    );
    expect(response.status).toBeLessThan(500);
    expect((await messagesOf(response))[0]).toMatchObject({ id: 2, error: { code: expect.any(Number) } });
  });
});

/** A POST written by hand: headers now, then `write` decides when (and whether) the body comes. */
function rawPost(
  listener: HttpListener,
  headers: Record<string, string>,
  write: (req: ReturnType<typeof httpRequest>) => void,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: "127.0.0.1",
        port: listener.port,
        path: "/mcp",
        method: "POST",
        headers: { ...baseHeaders, host: "localhost", ...headers },
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    write(req);
  });
}

describe("limits (issue 15, Limits and defaults)", () => {
  it("maxSessions: an initialize beyond the cap is 503 with a JSON-RPC error", async () => {
    const { url } = await serve({ maxSessions: 2 });
    await initialize(url);
    await initialize(url);
    const refused = await post(url, {
      jsonrpc: "2.0",
      id: 3,
      method: "initialize",
      params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    });
    expect(refused.status).toBe(503);
    expect(refused.headers.get("mcp-session-id")).toBeNull();
    expect(await refused.json()).toMatchObject({ jsonrpc: "2.0", id: 3, error: { code: -32000 } });
  });

  it("bodyTimeoutMs: a body that does not arrive in time is 408", async () => {
    const listener = await serve({ bodyTimeoutMs: 200 });
    const started = Date.now();
    const reply = await rawPost(listener, { "content-length": "100" }, (req) => req.write('{"jsonrpc":'));
    expect(reply.status).toBe(408);
    expect(JSON.parse(reply.body)).toMatchObject({ error: { code: -32600 } });
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it("maxConcurrentBodies: a POST beyond the bodies being read is 503", async () => {
    const listener = await serve({ maxConcurrentBodies: 1, bodyTimeoutMs: 500 });
    const slow = rawPost(listener, { "content-length": "100" }, (req) => req.write("{"));
    await sleep(100);
    const refused = await post(listener.url, { jsonrpc: "2.0", id: 1, method: "ping" });
    expect(refused.status).toBe(503);
    expect(await refused.json()).toMatchObject({ id: null, error: { code: -32000 } });
    expect((await slow).status).toBe(408);
    // Once the slow body is gone, bodies are read again.
    const accepted = await post(listener.url, { jsonrpc: "2.0", id: 1, method: "ping" });
    expect(accepted.status).toBe(400); // no session: but the body was read
  });

  it("a chunked body over maxBodyBytes is answered 413, not reset", async () => {
    const listener = await serve({ maxBodyBytes: 1000 });
    const reply = await rawPost(listener, { "transfer-encoding": "chunked" }, (req) => {
      const chunk = "x".repeat(800);
      req.write(chunk);
      setTimeout(() => req.write(chunk), 20);
      setTimeout(() => req.write(chunk), 40);
      setTimeout(() => req.end(chunk), 60);
    });
    expect(reply.status).toBe(413);
    expect(JSON.parse(reply.body)).toMatchObject({ error: { code: -32600 } });
  });

  /**
   * A client that writes its whole body before it reads (as many do) over a raw socket: `pieces`
   * of `piece` bytes, 50 ms apart, after headers declaring `declared` bytes; then it reads.
   * Resolves with the status line, whether the server closed the connection, and socket errors.
   */
  async function writeThenRead(listener: HttpListener, declared: number, piece: number, pieces: number) {
    const socket = connect(listener.port, "127.0.0.1");
    socket.pause();
    let received = "";
    const errors: string[] = [];
    let ended = false;
    socket.on("data", (chunk: Buffer) => (received += chunk.toString("latin1")));
    socket.on("error", (error: NodeJS.ErrnoException) => errors.push(error.code ?? error.message));
    socket.on("end", () => (ended = true));
    await new Promise((resolve) => socket.once("connect", resolve));
    const head = Object.entries({ ...baseHeaders, host: "localhost", "content-length": String(declared) }).map(
      ([name, value]) => `${name}: ${value}\r\n`,
    );
    socket.write(`POST /mcp HTTP/1.1\r\n${head.join("")}\r\n`);
    for (let i = 0; i < pieces; i++) {
      socket.write(Buffer.alloc(piece, 0x20));
      await sleep(50);
    }
    await sleep(200);
    socket.resume();
    return {
      socket,
      errors,
      ended: () => ended,
      statusLine: () => received.split("\r\n")[0],
      received: () => received,
    };
  }

  it("a body declared over maxBodyBytes gets a 413 its client can read after writing the rest (the connection is not reset under it)", async () => {
    const listener = await serve({ maxBodyBytes: 64 * 1024 });
    // Three times the limit: within what the server reads of a refused body (four times it).
    const client = await writeThenRead(listener, 192 * 1024, 16 * 1024, 12);
    await expect.poll(client.ended, { timeout: 10_000 }).toBe(true);
    expect(client.errors).toEqual([]);
    expect(client.statusLine()).toBe("HTTP/1.1 413 Payload Too Large");
    expect(client.received().toLowerCase()).toContain("connection: close");
    expect(client.received()).toContain('"code":-32600');
    client.socket.destroy();
  });

  it("a refused body is read for a bounded time only: a client that never sends the rest is disconnected", async () => {
    const listener = await serve({ maxBodyBytes: 64 * 1024 });
    const client = await writeThenRead(listener, 100 * 1024 * 1024, 1024, 1);
    await expect.poll(client.statusLine, { timeout: 5_000 }).toBe("HTTP/1.1 413 Payload Too Large");
    await expect.poll(() => client.ended() || client.socket.destroyed, { timeout: 10_000 }).toBe(true);
    client.socket.destroy();
  });

  it("createWebHandler: bodyTimeoutMs answers a body that never completes with 408", async () => {
    const handler = createWebHandler(notesServer(), { bodyTimeoutMs: 100 });
    closers.push(() => handler.close());
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode("{"));
      },
    });
    const response = await handler(
      new Request("http://localhost/mcp", {
        method: "POST",
        headers: { ...baseHeaders, host: "localhost" },
        body,
        duplex: "half",
      } as RequestInit),
    );
    expect(response.status).toBe(408);
  });
});

describe("header values quoted in refusals are cut short (issue 28 §5)", () => {
  it("a 15 KB Origin, Host or Mcp-Method comes back as 200 characters and an ellipsis, not as a 15 KB reply", async () => {
    const handler = createWebHandler(notesServer());
    closers.push(() => handler.close());
    const long = "x".repeat(15_000);
    const ask = async (headers: Record<string, string>) => {
      const response = await handler(
        new Request("http://localhost/mcp", {
          method: "POST",
          headers: { ...baseHeaders, host: "localhost", ...headers },
          body: JSON.stringify({
            jsonrpc: "2.0",
            id: 1,
            method: "tools/list",
            params: { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } },
          }),
        }),
      );
      return { status: response.status, body: await response.text() };
    };
    const origin = await ask({ origin: `http://${long}.example` });
    expect(origin.status).toBe(403);
    expect(origin.body).toContain(`Origin 'http://${"x".repeat(193)}…'`);
    const host = await ask({ host: `${long}.example` });
    expect(host.status).toBe(403);
    expect(host.body).toContain(`Host '${"x".repeat(200)}…'`);
    const method = await ask({ "mcp-protocol-version": "2026-07-28", "mcp-method": long });
    expect(method.status).toBe(400);
    expect(method.body).toContain(`Mcp-Method header value '${"x".repeat(200)}…'`);
    for (const reply of [origin, host, method]) expect(reply.body.length).toBeLessThan(1_000);
  });
});

describe("requests arriving during a graceful shutdown (issue 28 §5)", () => {
  it("a request on a keep-alive connection opened before close() is answered 503 with connection: close, not reset", async () => {
    const listener = await serve();
    const session = await initialize(listener.url);
    // A keep-alive connection that has carried one request and is idle when close() starts.
    const socket = connect(listener.port, "127.0.0.1");
    let received = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => (received += chunk));
    const ended = new Promise<string | undefined>((resolve) => {
      socket.once("error", (error: NodeJS.ErrnoException) => resolve(error.code));
      socket.once("close", () => resolve(undefined));
    });
    const body = JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" });
    const raw = `POST /mcp HTTP/1.1\r\nhost: localhost\r\ncontent-type: application/json\r\naccept: application/json, text/event-stream\r\nmcp-session-id: ${session}\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    socket.write(raw);
    await waitFor(() => received.includes("\r\n\r\n"));
    expect(received).toMatch(/^HTTP\/1\.1 202/);
    received = "";
    // A request in flight keeps the server draining.
    const inFlight = post(listener.url, call(5, 300), { "mcp-session-id": session });
    await waitFor(() => gates.length > 0);
    const closed = listener.close({ timeoutMs: 10_000 });
    // The shutdown has begun once new connections are refused.
    await waitFor(async () => (await connectionRefused(listener.port)) === true);
    socket.write(raw);
    expect(await ended).toBeUndefined();
    expect(received).toMatch(/^HTTP\/1\.1 503/);
    expect(received.toLowerCase()).toContain("connection: close");
    expect(received).toContain("Server is shutting down");
    openGates();
    expect((await messagesOf(await inFlight)).at(-1)).toMatchObject({
      id: 5,
      result: { content: [{ text: "released 300" }] },
    });
    await closed;
  });
});

async function waitFor(condition: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error("timed out");
    await sleep(10);
  }
}

function connectionRefused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = connect(port, "127.0.0.1");
    probe.once("connect", () => {
      probe.destroy();
      resolve(false);
    });
    probe.once("error", (error: NodeJS.ErrnoException) => resolve(error.code === "ECONNREFUSED"));
  });
}

describe("maxBufferedBodyBytes (issue 28 §2)", () => {
  it("listenHttp: a body that does not fit beside one being read is 503 with retry-after; chunked bodies too; then bodies fit again", async () => {
    const listener = await serve({ maxBufferedBodyBytes: 1000, bodyTimeoutMs: 2_000 });
    // Holds 800 of the 1000 bytes while it waits for its last bytes.
    const holding = rawPost(listener, { "content-length": "800" }, (req) => req.write("{"));
    await sleep(100);
    const declared = await post(listener.url, { jsonrpc: "2.0", id: 1, method: "ping", pad: "x".repeat(300) });
    expect(declared.status).toBe(503);
    expect(declared.headers.get("retry-after")).toBe("1");
    expect(await declared.json()).toMatchObject({
      id: null,
      error: { code: -32000, message: expect.stringContaining("1000 bytes") },
    });
    const chunked = await rawPost(listener, { "transfer-encoding": "chunked" }, (req) => {
      req.write("x".repeat(150));
      setTimeout(() => req.end("x".repeat(150)), 50);
    });
    expect(chunked.status).toBe(503);
    expect(JSON.parse(chunked.body)).toMatchObject({ error: { code: -32000 } });
    expect((await holding).status).toBe(408);
    // Its bytes were given back: a body of the same size is read.
    const read = await post(listener.url, { jsonrpc: "2.0", id: 1, method: "ping", pad: "x".repeat(300) });
    expect(read.status).toBe(400); // no session: but the body was read
  });

  it("createWebHandler: a body over what is left is 503", async () => {
    const handler = createWebHandler(notesServer(), { maxBufferedBodyBytes: 100 });
    closers.push(() => handler.close());
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping", pad: "x".repeat(200) });
    const declared = await handler(
      new Request("http://localhost/mcp", {
        method: "POST",
        headers: { ...baseHeaders, host: "localhost", "content-length": String(body.length) },
        body,
      }),
    );
    expect(declared.status).toBe(503);
    expect(declared.headers.get("retry-after")).toBe("1");
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(body));
        controller.close();
      },
    });
    const chunked = await handler(
      new Request("http://localhost/mcp", {
        method: "POST",
        headers: { ...baseHeaders, host: "localhost" },
        body: stream,
        duplex: "half",
      } as RequestInit),
    );
    expect(chunked.status).toBe(503);
    expect(await chunked.json()).toMatchObject({ error: { code: -32000 } });
  });
});
