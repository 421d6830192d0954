// SSE resumability of legacy Streamable HTTP sessions (2025-11-25 here), over real HTTP
// against the everything example: its `reindex` tool reports progress per note with a
// pause, so a client can lose the stream in the middle of a request and resume it with
// GET and Last-Event-ID. Raw fetch pins the wire; httpChannel and the SDK v1 client show
// that clients resume on their own.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  createWebHandler,
  httpChannel,
  MemoryEventStore,
  type EventStore,
  type HttpOptions,
  type Replay,
} from "@mcp-gen/runtime";
import { listenHttp, type HttpListener } from "@mcp-gen/runtime/node";
import { afterEach, describe, expect, it } from "vitest";
import { createHandlers } from "../../examples/everything/src/handlers.js";
import { connectNotesClient, createNotesServer, type NotesHandlers } from "../../examples/everything/src/mcp/index.js";

type Message = {
  id?: number;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: unknown;
};
interface SseEvent {
  readonly id: string | undefined;
  readonly data: string;
}

/** How a reindex handler run ended: whether its request was cancelled, and what it returned. */
interface ReindexRun {
  readonly cancelled: boolean;
  readonly text: string;
}

const listeners: HttpListener[] = [];
afterEach(async () => {
  await Promise.all(listeners.splice(0).map((l) => l.close()));
});

/** The notes server (four notes) on a free port; `runs` resolves each time a reindex handler returns. */
async function serve(options: HttpOptions = {}) {
  let server: ReturnType<typeof createNotesServer> | undefined;
  const handlers = createHandlers({ changed: (uri) => server?.notifyResourceUpdated(uri) });
  const finished: ReindexRun[] = [];
  const waiting: ((run: ReindexRun) => void)[] = [];
  const reindex = handlers.tools.reindex;
  const tools: NotesHandlers["tools"] = {
    ...handlers.tools,
    async reindex(args, ctx) {
      const result = await reindex(args, ctx);
      const text = typeof result === "string" ? result : JSON.stringify(result);
      const run = { cancelled: ctx.signal.aborted, text };
      const waiter = waiting.shift();
      if (waiter) waiter(run);
      else finished.push(run);
      return result;
    },
  };
  server = createNotesServer({ ...handlers, tools });
  const listener = await listenHttp(server, options);
  listeners.push(listener);
  /** The next reindex run to end. */
  const nextRun = () =>
    finished.length ? Promise.resolve(finished.shift()!) : new Promise<ReindexRun>((resolve) => waiting.push(resolve));
  return { url: listener.url, nextRun };
}

/** Reads SSE events as they arrive. */
async function* readEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const lines = block.split("\n");
        if (lines.every((line) => line.startsWith(":"))) continue; // keep-alive comment
        const field = (name: string) =>
          lines.filter((l) => l.startsWith(`${name}:`)).map((l) => l.slice(name.length + 1).trimStart());
        yield { id: field("id")[0], data: field("data").join("\n") };
      }
    }
  } finally {
    reader.releaseLock();
  }
}

/**
 * A raw legacy (2025-11-25) session: POSTs and GETs with `fetch` (or a web handler). It adds
 * `notes` notes to the workspace (the server's, shared by sessions).
 */
async function rawSession(url: string, notes = ["Third", "Fourth"], fetch: typeof globalThis.fetch = globalThis.fetch) {
  const base = {
    accept: "application/json, text/event-stream",
    "content-type": "application/json",
    "mcp-protocol-version": "2025-11-25",
  };
  const init = await fetch(url, {
    method: "POST",
    headers: base,
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    }),
  });
  const sessionId = init.headers.get("mcp-session-id")!;
  await init.text();
  const headers = { ...base, "mcp-session-id": sessionId };
  const post = (message: object, signal?: AbortSignal) =>
    fetch(url, {
      method: "POST",
      headers,
      body: JSON.stringify({ jsonrpc: "2.0", ...message }),
      signal: signal ?? null,
    });
  await (await post({ method: "notifications/initialized" })).text();
  for (const title of notes) {
    await (
      await post({ id: title, method: "tools/call", params: { name: "add_note", arguments: { title, body: "more" } } })
    ).text();
  }
  const resume = (lastEventId: string, session = sessionId) =>
    fetch(url, {
      method: "GET",
      headers: {
        accept: "text/event-stream",
        "mcp-session-id": session,
        "mcp-protocol-version": "2025-11-25",
        "last-event-id": lastEventId,
      },
    });
  const reindex = (id: number, signal?: AbortSignal) =>
    post(
      {
        id,
        method: "tools/call",
        params: { name: "reindex", arguments: { delayMs: 20 }, _meta: { progressToken: `p${id}` } },
      },
      signal,
    );
  const end = () => fetch(url, { method: "DELETE", headers: { "mcp-session-id": sessionId } }).then((r) => r.text());
  return { sessionId, post, resume, reindex, end };
}

const parse = (events: readonly SseEvent[]) =>
  events.filter((e) => e.data !== "").map((e) => JSON.parse(e.data) as Message);
const progressValues = (messages: readonly Message[]) =>
  messages.filter((m) => m.method === "notifications/progress").map((m) => m.params!.progress);

/** Reads a reindex stream up to its first progress notification (after the priming event and a log message), then drops the connection. */
async function readToFirstProgressThenDrop(response: Response, abort: AbortController): Promise<SseEvent[]> {
  expect(response.headers.get("content-type")).toContain("text/event-stream");
  const seen: SseEvent[] = [];
  for await (const event of readEvents(response.body!)) {
    seen.push(event);
    if (progressValues(parse([event])).length > 0) break;
  }
  abort.abort();
  await response.body!.cancel().catch(() => {});
  return seen;
}

/** Reads a whole (resumed) stream to its end. */
async function readAll(response: Response): Promise<SseEvent[]> {
  expect(response.status).toBe(200);
  const events: SseEvent[] = [];
  for await (const event of readEvents(response.body!)) events.push(event);
  return events;
}

describe("SSE resumability, legacy session (2025-11-25), in-memory event store", () => {
  it("primes the stream, and a GET with Last-Event-ID delivers the missed progress and the response once each, in order", async () => {
    const { url } = await serve();
    const s = await rawSession(url);
    const abort = new AbortController();
    const first = await readToFirstProgressThenDrop(await s.reindex(10, abort.signal), abort);
    // The priming event: an id and empty data, before any message.
    expect(first[0]).toEqual({ id: expect.any(String), data: "" });
    expect(parse(first).at(-1)).toMatchObject({
      method: "notifications/progress",
      params: { progressToken: "p10", progress: 1, total: 4 },
    });

    const rest = await readAll(await s.resume(first.at(-1)!.id!));
    const messages = parse(rest);
    expect(progressValues(messages)).toEqual([2, 3, 4]);
    expect(messages.at(-1)).toMatchObject({
      id: 10,
      result: { content: [{ type: "text", text: "Reindexed 4 notes" }] },
    });
    expect(messages.filter((m) => m.id === 10)).toHaveLength(1);
    const ids = [...first, ...rest].map((e) => e.id);
    expect(ids.every((id) => id !== undefined)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    await s.end();
  });

  it("a dropped connection does not cancel the request: it runs to its end and its events wait for the client", async () => {
    const { url, nextRun } = await serve();
    const s = await rawSession(url);
    const abort = new AbortController();
    const first = await readToFirstProgressThenDrop(await s.reindex(11, abort.signal), abort);
    // Resume only once the handler has returned: everything comes from the store.
    expect(await nextRun()).toEqual({ cancelled: false, text: "Reindexed 4 notes" });
    const messages = parse(await readAll(await s.resume(first.at(-1)!.id!)));
    expect(progressValues(messages)).toEqual([2, 3, 4]);
    expect(messages.at(-1)).toMatchObject({ id: 11, result: { content: [{ text: "Reindexed 4 notes" }] } });
    await s.end();
  });

  it("an event id is only resumable by the session that received it", async () => {
    const { url, nextRun } = await serve();
    const a = await rawSession(url);
    const b = await rawSession(url, []);
    const abort = new AbortController();
    const first = await readToFirstProgressThenDrop(await a.reindex(12, abort.signal), abort);
    await nextRun();
    const foreign = await b.resume(first[0]!.id!);
    expect(foreign.status).toBe(404);
    expect(await foreign.text()).not.toContain("p12");
    expect((await b.resume("not-an-event-id")).status).toBe(404);
    // Session A still resumes it.
    expect(progressValues(parse(await readAll(await a.resume(first[0]!.id!))))).toEqual([1, 2, 3, 4]);
    await Promise.all([a.end(), b.end()]);
  });

  it("the standalone GET stream is primed and resumable too", async () => {
    const { url } = await serve();
    const s = await rawSession(url);
    const listen = new AbortController();
    const get = await fetch(url, {
      method: "GET",
      headers: { accept: "text/event-stream", "mcp-session-id": s.sessionId, "mcp-protocol-version": "2025-11-25" },
      signal: listen.signal,
    });
    const events = readEvents(get.body!);
    const priming = (await events.next()).value as SseEvent;
    expect(priming).toEqual({ id: expect.any(String), data: "" });
    listen.abort();
    // While nobody listens, a server notification unrelated to any request (a subscribed resource changed).
    await (await s.post({ id: 20, method: "resources/subscribe", params: { uri: "notes://index" } })).text();
    await (
      await s.post({
        id: 21,
        method: "tools/call",
        params: { name: "add_note", arguments: { title: "Fifth", body: "x" } },
      })
    ).text();
    const resumed = await s.resume(priming.id!);
    const replayed = readEvents(resumed.body!);
    const next = (await replayed.next()).value as SseEvent;
    expect(JSON.parse(next.data)).toMatchObject({
      method: "notifications/resources/updated",
      params: { uri: "notes://index" },
    });
    await replayed.return(undefined);
    await resumed.body!.cancel();
    await s.end();
  });

  it("DELETE forgets the session's events", async () => {
    const store = new MemoryEventStore();
    const { url, nextRun } = await serve({ eventStore: store });
    const s = await rawSession(url);
    const abort = new AbortController();
    const first = await readToFirstProgressThenDrop(await s.reindex(13, abort.signal), abort);
    await nextRun();
    expect(store.streamCount).toBeGreaterThan(0);
    await s.end();
    await Promise.resolve();
    expect(store.streamCount).toBe(0);
    expect(store.replayAfter(s.sessionId, first[0]!.id!)).toBeUndefined();
  });
});

describe("SSE resumability through the web-standard handler", () => {
  it("a stream left after its first progress notification is resumed with GET and Last-Event-ID", async () => {
    let server: ReturnType<typeof createNotesServer> | undefined;
    server = createNotesServer(createHandlers({ changed: (uri) => server?.notifyResourceUpdated(uri) }));
    const handler = createWebHandler(server, { allowedHosts: "any" });
    const viaHandler = (async (input: string | URL | Request, init?: RequestInit) =>
      handler(new Request(input, init))) as typeof fetch;
    const s = await rawSession("http://mcp.test/mcp", ["Third"], viaHandler);
    const abort = new AbortController();
    const first = await readToFirstProgressThenDrop(await s.reindex(40, abort.signal), abort);
    expect(first[0]).toEqual({ id: expect.any(String), data: "" });
    const messages = parse(await readAll(await s.resume(first.at(-1)!.id!)));
    expect(progressValues(messages)).toEqual([2, 3]);
    expect(messages.at(-1)).toMatchObject({ id: 40, result: { content: [{ text: "Reindexed 3 notes" }] } });
    handler.close();
  });
});

describe("clients resume on their own", () => {
  /** A fetch that ends the first SSE reply to a POST right after its first event, as a flaky network would. */
  function cuttingFetch() {
    const seen: { method: string; lastEventId: string | null }[] = [];
    let cut = false;
    const wrapped = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
      const method = init?.method ?? "GET";
      seen.push({ method, lastEventId: new Headers(init?.headers).get("last-event-id") });
      const response = await fetch(input, init);
      if (cut || method !== "POST" || !(response.headers.get("content-type") ?? "").includes("text/event-stream"))
        return response;
      cut = true;
      const reader = response.body!.getReader();
      let text = "";
      while (!text.includes("\n\n")) {
        const { done, value } = await reader.read();
        if (done) break;
        text += new TextDecoder().decode(value);
      }
      await reader.cancel();
      const firstEvent = text.slice(0, text.indexOf("\n\n") + 2);
      return new Response(firstEvent, { status: response.status, headers: response.headers });
    };
    return { fetch: wrapped as typeof fetch, seen, wasCut: () => cut };
  }

  it("httpChannel resumes a cut stream with Last-Event-ID and the call succeeds with every progress step", async () => {
    const { url } = await serve();
    const cutter = cuttingFetch();
    const client = await connectNotesClient(httpChannel(url, { fetch: cutter.fetch }), { revisions: ["2025-11-25"] });
    await client.tools.addNote({ title: "Third", body: "more" });
    const progress: number[] = [];
    const result = await client.tools.reindex({ delayMs: 20 }, { onProgress: (p) => progress.push(p.progress) });
    expect(cutter.wasCut()).toBe(true);
    expect(result.content).toEqual([{ type: "text", text: "Reindexed 3 notes" }]);
    expect(progress).toEqual([1, 2, 3]);
    expect(cutter.seen.some((r) => r.method === "GET" && r.lastEventId !== null)).toBe(true);
    await client.close();
  });

  it("the official SDK v1 client resumes a cut stream and the call succeeds", async () => {
    const { url } = await serve();
    const cutter = cuttingFetch();
    const transport = new StreamableHTTPClientTransport(new URL(url), {
      fetch: cutter.fetch,
      reconnectionOptions: {
        initialReconnectionDelay: 10,
        maxReconnectionDelay: 100,
        reconnectionDelayGrowFactor: 1.5,
        maxRetries: 3,
      },
    });
    const client = new Client({ name: "sse-resume", version: "1.0.0" });
    await client.connect(transport);
    const progress: number[] = [];
    const result = await client.callTool({ name: "reindex", arguments: { delayMs: 20 } }, undefined, {
      onprogress: (p) => progress.push(p.progress),
    });
    expect(cutter.wasCut()).toBe(true);
    expect(result.content).toEqual([{ type: "text", text: "Reindexed 2 notes" }]);
    expect(progress).toEqual([1, 2]);
    expect(cutter.seen.some((r) => r.method === "GET" && r.lastEventId !== null)).toBe(true);
    await client.close();
  });
});

describe("eventStore option", () => {
  it("false keeps the old behaviour: no ids, no priming, and a dropped connection cancels the request", async () => {
    const { url, nextRun } = await serve({ eventStore: false });
    const s = await rawSession(url);
    const abort = new AbortController();
    const first = await readToFirstProgressThenDrop(await s.reindex(30, abort.signal), abort);
    expect(first.map((e) => e.id)).toEqual([undefined, undefined]);
    expect(parse(first)).toMatchObject([
      { method: "notifications/message" },
      { method: "notifications/progress", params: { progress: 1 } },
    ]);
    expect(await nextRun()).toMatchObject({ cancelled: true });
    await s.end();
  });

  it("a custom asynchronous store names and replays the events", async () => {
    const inner = new MemoryEventStore();
    const calls: string[] = [];
    const tick = () => new Promise((resolve) => setTimeout(resolve, 1));
    const store: EventStore = {
      async storeEvent(sessionId, streamId, data) {
        calls.push("store");
        await tick();
        return `custom:${inner.storeEvent(sessionId, streamId, data)}`;
      },
      async replayAfter(sessionId, lastEventId): Promise<Replay | undefined> {
        calls.push("replay");
        await tick();
        const replay = lastEventId.startsWith("custom:")
          ? inner.replayAfter(sessionId, lastEventId.slice("custom:".length))
          : undefined;
        return (
          replay && {
            streamId: replay.streamId,
            events: replay.events.map((e) => ({ id: `custom:${e.id}`, data: e.data })),
          }
        );
      },
      async forget(sessionId, streamId) {
        calls.push(streamId === undefined ? "forget session" : "forget stream");
        inner.forget(sessionId, streamId);
      },
    };
    const { url } = await serve({ eventStore: store });
    const s = await rawSession(url);
    const abort = new AbortController();
    const first = await readToFirstProgressThenDrop(await s.reindex(31, abort.signal), abort);
    expect(first.every((e) => e.id?.startsWith("custom:"))).toBe(true);
    const rest = await readAll(await s.resume(first.at(-1)!.id!));
    const messages = parse(rest);
    expect(progressValues(messages)).toEqual([2, 3, 4]);
    expect(messages.at(-1)).toMatchObject({ id: 31, result: { content: [{ text: "Reindexed 4 notes" }] } });
    expect(rest.every((e) => e.id?.startsWith("custom:"))).toBe(true);
    await s.end();
    await tick();
    expect(calls).toContain("replay");
    expect(calls.at(-1)).toBe("forget session");
  });
});

describe("MemoryEventStore", () => {
  it("keeps the last maxEventsPerStream events of a stream; a client behind them cannot resume", () => {
    const store = new MemoryEventStore({ maxEventsPerStream: 2 });
    const ids = ["a", "b", "c", "d"].map((data) => store.storeEvent("s1", "1", data));
    expect(store.replayAfter("s1", ids[0]!)).toBeUndefined();
    expect(store.replayAfter("s1", ids[1]!)).toEqual({
      streamId: "1",
      events: [
        { id: ids[2], data: "c" },
        { id: ids[3], data: "d" },
      ],
    });
    expect(store.replayAfter("s1", ids[3]!)).toEqual({ streamId: "1", events: [] });
    expect(store.replayAfter("s2", ids[1]!)).toBeUndefined();
  });

  it("keeps maxStreams streams, dropping the least recently written", () => {
    const store = new MemoryEventStore({ maxStreams: 2 });
    const a = store.storeEvent("s1", "1", "a");
    const b = store.storeEvent("s1", "2", "b");
    store.storeEvent("s1", "1", "a2");
    store.storeEvent("s2", "1", "c");
    expect(store.streamCount).toBe(2);
    expect(store.replayAfter("s1", b)).toBeUndefined();
    expect(store.replayAfter("s1", a)?.events.map((e) => e.data)).toEqual(["a2"]);
    store.forget("s1");
    expect(store.streamCount).toBe(1);
  });
});
