// Cancellation races and progress ordering, on the wire, in both eras: the everything
// example's `reindex` tool reports progress per note and honours ctx.signal. Messages go
// through memoryChannel (copied through JSON, delivered asynchronously like a real
// transport) so every test sees exactly what a client would receive.
import { memoryChannel, MetaKey, type McpServer } from "@mcp-gen/runtime";
import { describe, expect, it } from "vitest";
import { createHandlers } from "../../examples/everything/src/handlers.js";
import { connectNotesClient, createNotesServer } from "../../examples/everything/src/mcp/index.js";

type Message = {
  id?: string | number;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code: number };
};

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A raw client of a fresh notes server (3 notes) speaking `revision`: send messages, read what came back. */
async function rawClient(revision: "2026-07-28" | "2025-11-25") {
  let server: McpServer<unknown> | undefined;
  const handlers = createHandlers({ changed: (uri) => server?.notifyResourceUpdated(uri) });
  server = createNotesServer(handlers) as unknown as McpServer<unknown>;
  const channel = memoryChannel(server);
  const inbox: Message[] = [];
  await channel.start({ receive: (value) => inbox.push(value as Message), fail: () => {}, closed: () => {} });
  const modern = revision === "2026-07-28";
  const meta = modern ? { [MetaKey.protocolVersion]: revision, [MetaKey.clientCapabilities]: {} } : {};
  const send = (message: object) => channel.send({ jsonrpc: "2.0", ...message } as never);
  const request = (id: number, method: string, params: Record<string, unknown> = {}) => {
    const extraMeta = (params._meta as Record<string, unknown> | undefined) ?? {};
    send({ id, method, params: { ...params, _meta: { ...meta, ...extraMeta } } });
  };
  const cancel = (requestId: number) =>
    send({ method: "notifications/cancelled", params: { requestId, reason: "user pressed stop" } });
  const responseTo = async (id: number, timeoutMs = 5_000): Promise<Message> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = inbox.find((m) => m.id === id && m.method === undefined);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no response to ${id}`);
      await settle(2);
    }
  };
  if (!modern) {
    request(0, "initialize", {
      protocolVersion: revision,
      capabilities: {},
      clientInfo: { name: "raw", version: "1" },
    });
    await responseTo(0);
    send({ method: "notifications/initialized" });
  }
  // A third note, so that reindex reports three steps.
  request(1, "tools/call", { name: "add_note", arguments: { title: "Third", body: "one more" } });
  await responseTo(1);
  inbox.length = 0;
  return { inbox, send, request, cancel, responseTo, close: () => channel.close() };
}

const progressOf = (inbox: readonly Message[], token: string) =>
  inbox.filter((m) => m.method === "notifications/progress" && m.params?.progressToken === token).map((m) => m.params!);

describe.each(["2026-07-28", "2025-11-25"] as const)("cancellation and progress (%s)", (revision) => {
  it("progress notifications arrive in order, strictly increasing, all before the response and none after it", async () => {
    const c = await rawClient(revision);
    c.request(10, "tools/call", { name: "reindex", arguments: { delayMs: 5 }, _meta: { progressToken: "p10" } });
    const response = await c.responseTo(10);
    expect(response.result?.isError).toBeUndefined();
    await settle(50);
    const progress = progressOf(c.inbox, "p10");
    expect(progress.map((p) => [p.progress, p.total])).toEqual([
      [1, 3],
      [2, 3],
      [3, 3],
    ]);
    const lastProgressAt = c.inbox.findLastIndex((m) => m.method === "notifications/progress");
    expect(lastProgressAt).toBeLessThan(c.inbox.indexOf(response));
    await c.close();
  });

  it("a request without a progress token gets no progress notifications", async () => {
    const c = await rawClient(revision);
    c.request(11, "tools/call", { name: "reindex", arguments: { delayMs: 1 } });
    await c.responseTo(11);
    await settle(30);
    expect(c.inbox.filter((m) => m.method === "notifications/progress")).toEqual([]);
    await c.close();
  });

  it("cancelled mid-flight: the handler stops, no response and no further progress follow the cancel", async () => {
    const c = await rawClient(revision);
    c.request(20, "tools/call", { name: "reindex", arguments: { delayMs: 60 }, _meta: { progressToken: "p20" } });
    // Wait for the first step, then cancel while the second is in progress.
    for (let i = 0; i < 500 && progressOf(c.inbox, "p20").length === 0; i++) await settle(2);
    expect(progressOf(c.inbox, "p20")).toHaveLength(1);
    c.cancel(20);
    const seenAtCancel = c.inbox.length;
    await settle(300); // longer than the two remaining steps would take
    expect(c.inbox.slice(seenAtCancel)).toEqual([]);
    expect(c.inbox.some((m) => m.id === 20)).toBe(false);
    // The connection is unharmed, and the id is free again.
    c.request(20, "tools/list");
    expect((await c.responseTo(20)).result?.tools).toHaveLength(9);
    await c.close();
  });

  it("cancelled in the same breath as the request: never answered", async () => {
    const c = await rawClient(revision);
    c.request(30, "tools/call", { name: "reindex", arguments: { delayMs: 1 }, _meta: { progressToken: "p30" } });
    c.cancel(30);
    await settle(100);
    expect(c.inbox.filter((m) => m.id === 30)).toEqual([]);
    c.request(31, "tools/list");
    expect((await c.responseTo(31)).result?.tools).toHaveLength(9);
    await c.close();
  });

  it("a cancel that loses the race to the response changes nothing; unknown ids are ignored", async () => {
    const c = await rawClient(revision);
    c.request(40, "tools/call", { name: "search_notes", arguments: { query: "third" } });
    const response = await c.responseTo(40);
    expect(response.result?.content).toMatchObject([{ type: "resource_link", name: "third" }]);
    c.cancel(40);
    c.cancel(999);
    c.request(41, "tools/call", { name: "search_notes", arguments: { query: "third" } });
    expect((await c.responseTo(41)).result).toEqual(response.result);
    await settle(30);
    expect(c.inbox.filter((m) => m.id === 40)).toHaveLength(1);
    expect(c.inbox.some((m) => m.error !== undefined)).toBe(false);
    await c.close();
  });

  it("the generated client: aborting rejects at once, progress seen before it is ordered, and the session goes on", async () => {
    const server = createNotesServer(createHandlers({ changed: () => {} }));
    const client = await connectNotesClient(memoryChannel(server), { revisions: [revision] });
    const seen: number[] = [];
    const controller = new AbortController();
    const call = client.tools.reindex(
      { delayMs: 80 },
      {
        signal: controller.signal,
        onProgress: ({ progress }) => {
          seen.push(progress);
          if (progress === 1) controller.abort();
        },
      },
    );
    await expect(call).rejects.toThrow();
    expect(seen).toEqual([1]);
    await settle(250);
    expect(seen).toEqual([1]);
    const after = await client.tools.searchNotes({ query: "milk" });
    expect(after.content).toMatchObject([{ type: "resource_link", name: "groceries" }]);
    await client.close();
  });
});
