// SSE polling (SEP-1699, 2025-11-25): the server ends the connection of a request's SSE
// stream before the response, after a `retry:` hint, and the client comes back after that
// delay with GET and Last-Event-ID for the rest. A handler asks with ctx.pollLater; the
// `pollAfterMs` option does it for every long request. Over real HTTP against the everything
// example, whose `reindex` tool reports progress per note with a pause: raw fetch pins the
// wire; httpChannel and the official SDK v2 client (legacy era) show that clients follow.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { httpChannel, type HttpOptions } from "@mcp-gen/runtime";
import { listenHttp, type HttpListener } from "@mcp-gen/runtime/node";
import { afterEach, describe, expect, it } from "vitest";
import { createHandlers } from "../../examples/everything/src/handlers.js";
import { connectNotesClient, createNotesServer, type NotesHandlers } from "../../examples/everything/src/mcp/index.js";

type Message = { id?: number; method?: string; params?: Record<string, unknown>; result?: Record<string, unknown> };
interface SseEvent {
  readonly id: string | undefined;
  readonly retry: string | undefined;
  readonly data: string;
}

const listeners: HttpListener[] = [];
afterEach(async () => {
  await Promise.all(listeners.splice(0).map((l) => l.close()));
});

/**
 * The notes server (two notes) on a free port. With `pollRetryMs`, reindex asks for polling
 * first thing (ctx.pollLater); `polled` records what each call of it answered.
 */
async function serve(options: HttpOptions = {}, pollRetryMs?: number) {
  let server: ReturnType<typeof createNotesServer> | undefined;
  const handlers = createHandlers({ changed: (uri) => server?.notifyResourceUpdated(uri) });
  const polled: boolean[] = [];
  const reindex = handlers.tools.reindex;
  const tools: NotesHandlers["tools"] = {
    ...handlers.tools,
    reindex(args, ctx) {
      if (pollRetryMs !== undefined) polled.push(ctx.pollLater(pollRetryMs));
      return reindex(args, ctx);
    },
  };
  server = createNotesServer({ ...handlers, tools });
  const listener = await listenHttp(server, options);
  listeners.push(listener);
  return { url: listener.url, polled };
}

/** Reads SSE events (keep-alive comments skipped) to the end of the body. */
async function readAll(response: Response): Promise<SseEvent[]> {
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toContain("text/event-stream");
  const text = await response.text();
  const events: SseEvent[] = [];
  for (const block of text.split("\n\n")) {
    const lines = block.split("\n").filter((line) => line !== "" && !line.startsWith(":"));
    if (lines.length === 0) continue;
    const field = (name: string) =>
      lines.filter((l) => l.startsWith(`${name}:`)).map((l) => l.slice(name.length + 1).trimStart());
    events.push({ id: field("id")[0], retry: field("retry")[0], data: field("data").join("\n") });
  }
  return events;
}

const parse = (events: readonly SseEvent[]) =>
  events.filter((e) => e.data !== "").map((e) => JSON.parse(e.data) as Message);
const progressValues = (messages: readonly Message[]) =>
  messages.filter((m) => m.method === "notifications/progress").map((m) => m.params!.progress);

/** A raw legacy session of `revision`. */
async function rawSession(url: string, revision = "2025-11-25") {
  const base = {
    accept: "application/json, text/event-stream",
    "content-type": "application/json",
    "mcp-protocol-version": revision,
  };
  const init = await fetch(url, {
    method: "POST",
    headers: base,
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: revision, capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    }),
  });
  const sessionId = init.headers.get("mcp-session-id")!;
  await init.text();
  const headers = { ...base, "mcp-session-id": sessionId };
  const post = (message: object) =>
    fetch(url, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", ...message }) });
  await (await post({ method: "notifications/initialized" })).text();
  const resume = (lastEventId: string) =>
    fetch(url, {
      method: "GET",
      headers: {
        accept: "text/event-stream",
        "mcp-session-id": sessionId,
        "mcp-protocol-version": revision,
        "last-event-id": lastEventId,
      },
    });
  const reindex = (id: number, delayMs = 20) =>
    post({
      id,
      method: "tools/call",
      params: { name: "reindex", arguments: { delayMs }, _meta: { progressToken: `p${id}` } },
    });
  const end = () => fetch(url, { method: "DELETE", headers: { "mcp-session-id": sessionId } }).then((r) => r.text());
  return { post, resume, reindex, end };
}

/** A fetch that records every request: method, Last-Event-ID, when it was sent, and when a POST's SSE stream ended. */
function recordingFetch() {
  const requests: { method: string; lastEventId: string | null; at: number }[] = [];
  const streamEnds: number[] = [];
  const wrapped = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const method = init?.method ?? "GET";
    requests.push({ method, lastEventId: new Headers(init?.headers).get("last-event-id"), at: Date.now() });
    const response = await fetch(input, init);
    if (
      method !== "POST" ||
      !(response.headers.get("content-type") ?? "").includes("text/event-stream") ||
      !response.body
    )
      return response;
    const watched = response.body.pipeThrough(new TransformStream({ flush: () => void streamEnds.push(Date.now()) }));
    return new Response(watched, { status: response.status, headers: response.headers });
  };
  const resumes = () => requests.filter((r) => r.method === "GET" && r.lastEventId !== null);
  return { fetch: wrapped as typeof fetch, requests, streamEnds, resumes };
}

describe("SSE polling (SEP-1699): a handler asks with ctx.pollLater", () => {
  it("the POST's stream ends after its priming event and a retry hint; GET with Last-Event-ID gets the progress and the response", async () => {
    const { url, polled } = await serve({}, 300);
    const s = await rawSession(url);
    const first = await readAll(await s.reindex(1));
    expect(polled).toEqual([true]);
    // The priming event (an id, no data), then a new id with the retry hint, and the end: no message yet.
    expect(first).toEqual([
      { id: expect.any(String), retry: undefined, data: "" },
      { id: expect.any(String), retry: "300", data: "" },
    ]);
    expect(first[1]!.id).not.toBe(first[0]!.id);
    const rest = parse(await readAll(await s.resume(first[1]!.id!)));
    expect(progressValues(rest)).toEqual([1, 2]);
    expect(rest.at(-1)).toMatchObject({ id: 1, result: { content: [{ type: "text", text: "Reindexed 2 notes" }] } });
    expect(rest.filter((m) => m.id === 1)).toHaveLength(1);
    await s.end();
  });

  it("httpChannel waits the retry delay, resumes with GET and Last-Event-ID, and the call succeeds with every progress step", async () => {
    const { url, polled } = await serve({}, 300);
    const recorder = recordingFetch();
    const client = await connectNotesClient(httpChannel(url, { fetch: recorder.fetch }), { revisions: ["2025-11-25"] });
    const progress: number[] = [];
    const result = await client.tools.reindex({ delayMs: 20 }, { onProgress: (p) => progress.push(p.progress) });
    expect(result.content).toEqual([{ type: "text", text: "Reindexed 2 notes" }]);
    expect(progress).toEqual([1, 2]);
    expect(polled).toEqual([true]);
    const [resumed] = recorder.resumes();
    expect(resumed).toBeDefined();
    // The POST stream ended first; the client came back no sooner than the server asked.
    expect(resumed!.at - recorder.streamEnds[0]!).toBeGreaterThanOrEqual(280);
    await client.close();
  });

  it("the official SDK v2 client (legacy era) resumes after the retry delay and the call succeeds", async () => {
    const { url, polled } = await serve({}, 300);
    const recorder = recordingFetch();
    const transport = new StreamableHTTPClientTransport(new URL(url), { fetch: recorder.fetch });
    const client = new Client({ name: "sse-polling", version: "1.0.0" });
    await client.connect(transport);
    expect(transport.protocolVersion).toBe("2025-11-25");
    const progress: number[] = [];
    const result = await client.callTool(
      { name: "reindex", arguments: { delayMs: 20 } },
      { onprogress: (p) => progress.push(p.progress) },
    );
    expect(result.content).toEqual([{ type: "text", text: "Reindexed 2 notes" }]);
    expect(progress).toEqual([1, 2]);
    expect(polled).toEqual([true]);
    const resumes = recorder.resumes();
    expect(resumes.length).toBeGreaterThanOrEqual(1);
    expect(resumes[0]!.at - recorder.streamEnds[0]!).toBeGreaterThanOrEqual(280);
    await client.close();
  });

  it("returns false where the client need not resume, and the call is answered on its own connection", async () => {
    // A 2025-06-18 session: no priming events, so no polling.
    const older = await serve({}, 300);
    const s = await rawSession(older.url, "2025-06-18");
    const messages = parse(await readAll(await s.reindex(2)));
    expect(messages.at(-1)).toMatchObject({ id: 2, result: { content: [{ text: "Reindexed 2 notes" }] } });
    await s.end();
    // No event store: nothing to resume from.
    const storeless = await serve({ eventStore: false }, 300);
    const client = await connectNotesClient(httpChannel(storeless.url), { revisions: ["2025-11-25"] });
    expect((await client.tools.reindex({ delayMs: 1 })).content).toEqual([{ type: "text", text: "Reindexed 2 notes" }]);
    await client.close();
    // A modern (2026-07-28) request is its own connection.
    const modern = await serve({}, 300);
    const modernClient = await connectNotesClient(httpChannel(modern.url));
    expect((await modernClient.tools.reindex({ delayMs: 1 })).content).toEqual([
      { type: "text", text: "Reindexed 2 notes" },
    ]);
    await modernClient.close();
    expect([...older.polled, ...storeless.polled, ...modern.polled]).toEqual([false, false, false]);
  });
});

describe("SSE polling (SEP-1699): the pollAfterMs option", () => {
  it("ends each connection of a long request's stream after pollAfterMs with the pollRetryMs hint; the stream resumes where it left", async () => {
    const { url } = await serve({ pollAfterMs: 100, pollRetryMs: 50 });
    const s = await rawSession(url);
    const seen: SseEvent[] = [];
    let events = await readAll(await s.reindex(3, 60));
    let connections = 1;
    for (;;) {
      seen.push(...events);
      if (parse(events).some((m) => m.id === 3)) break;
      expect(events.at(-1)).toMatchObject({ id: expect.any(String), retry: "50", data: "" });
      events = await readAll(await s.resume(events.at(-1)!.id!));
      connections++;
    }
    expect(connections).toBeGreaterThanOrEqual(2);
    const messages = parse(seen);
    expect(progressValues(messages)).toEqual([1, 2]);
    expect(messages.filter((m) => m.id === 3)).toHaveLength(1);
    await s.end();
  });

  it("httpChannel and the SDK v2 client follow a long request through several connections", async () => {
    const { url } = await serve({ pollAfterMs: 80, pollRetryMs: 20 });
    const ours = recordingFetch();
    const client = await connectNotesClient(httpChannel(url, { fetch: ours.fetch }), { revisions: ["2025-11-25"] });
    await client.tools.addNote({ title: "Third", body: "more" });
    const progress: number[] = [];
    const result = await client.tools.reindex({ delayMs: 70 }, { onProgress: (p) => progress.push(p.progress) });
    expect(result.content).toEqual([{ type: "text", text: "Reindexed 3 notes" }]);
    expect(progress).toEqual([1, 2, 3]);
    expect(ours.resumes().length).toBeGreaterThanOrEqual(2);
    await client.close();

    const theirs = recordingFetch();
    const transport = new StreamableHTTPClientTransport(new URL(url), { fetch: theirs.fetch });
    const sdk = new Client({ name: "sse-polling", version: "1.0.0" });
    await sdk.connect(transport);
    const sdkProgress: number[] = [];
    const sdkResult = await sdk.callTool(
      { name: "reindex", arguments: { delayMs: 70 } },
      { onprogress: (p) => sdkProgress.push(p.progress) },
    );
    expect(sdkResult.content).toEqual([{ type: "text", text: "Reindexed 3 notes" }]);
    expect(sdkProgress).toEqual([1, 2, 3]);
    expect(theirs.resumes().length).toBeGreaterThanOrEqual(2);
    await sdk.close();
  });

  it("a request quiet for many connections in a row is still followed to its response (each poll names a new event id)", async () => {
    const { url } = await serve({ pollAfterMs: 40, pollRetryMs: 10 });
    const recorder = recordingFetch();
    const client = await connectNotesClient(httpChannel(url, { fetch: recorder.fetch }), { revisions: ["2025-11-25"] });
    const result = await client.tools.reindex({ delayMs: 300 });
    expect(result.content).toEqual([{ type: "text", text: "Reindexed 2 notes" }]);
    const resumes = recorder.resumes();
    expect(resumes.length).toBeGreaterThanOrEqual(6);
    expect(new Set(resumes.map((r) => r.lastEventId)).size).toBe(resumes.length);
    await client.close();
  });

  it("short requests are answered with JSON, and older sessions keep their connections", async () => {
    const { url } = await serve({ pollAfterMs: 50, pollRetryMs: 20 });
    const s = await rawSession(url);
    const quick = await s.post({ id: 4, method: "tools/list" });
    expect(quick.headers.get("content-type")).toContain("application/json");
    await quick.text();
    await s.end();
    const older = await rawSession(url, "2025-06-18");
    const messages = parse(await readAll(await older.reindex(5, 60)));
    expect(progressValues(messages)).toEqual([1, 2]);
    expect(messages.at(-1)).toMatchObject({ id: 5, result: { content: [{ text: "Reindexed 2 notes" }] } });
    await older.end();
  });
});
