// The HTTP+SSE transport of 2024-11-05 (off by default; served only when an application
// mounts createLegacySseNodeHandler / createLegacySseHandler), both ways against the
// official SDK v1: its SSEClientTransport against the weather and everything examples on
// our server, and our legacySseChannel against its SSEServerTransport. Plus the transport's
// refusals: unknown or missing sessionId, a foreign Host, and a stream that closes.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ElicitRequestSchema, ListRootsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createHandlers } from "../../examples/everything/src/handlers.js";
import { createNotesServer } from "../../examples/everything/src/mcp/index.js";
import { handlers as weatherHandlers } from "../../examples/weather/src/handlers.js";
import { createWeatherServer } from "../../examples/weather/src/mcp/index.js";
// The examples are built on the compiled runtime (@mcp-gen/runtime), as users get it.
import {
  connectSession,
  createLegacySseHandler,
  legacySseChannel,
  type ClientSession,
  type McpEndpoint,
} from "@mcp-gen/runtime";
import { createLegacySseNodeHandler, type LegacySseNodeHandler } from "@mcp-gen/runtime/node";
import { startSdkV1SseServer, type SdkV1SseServer } from "./fixtures/sdk-v1-sse-server.js";
import { firstText, parisForecast } from "./helpers.js";
import { NegotiationRecorder } from "./negotiation.js";

interface Served {
  readonly url: string;
  readonly origin: string;
  readonly handler: LegacySseNodeHandler;
  close(): Promise<void>;
}

/** Serves `server` with the legacy SSE node handler on 127.0.0.1 and a free port. */
async function serve(server: McpEndpoint): Promise<Served> {
  const handler = createLegacySseNodeHandler(server);
  const httpServer: Server = createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => httpServer.listen(0, "127.0.0.1", resolve));
  const { port } = httpServer.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    url: `${origin}/sse`,
    origin,
    handler,
    close: () =>
      new Promise<void>((resolve) => {
        handler.close();
        httpServer.closeAllConnections();
        httpServer.close(() => resolve());
      }),
  };
}

/** Opens a stream by hand: returns its endpoint and a reader of the rest. */
async function openStream(url: string, headers: Record<string, string> = {}) {
  const controller = new AbortController();
  const response = await fetch(url, {
    headers: { accept: "text/event-stream", ...headers },
    signal: controller.signal,
  });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toContain("text/event-stream");
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  const until = async (predicate: (all: string) => boolean) => {
    while (!predicate(text)) {
      const { done, value } = await reader.read();
      if (done) throw new Error(`stream ended: ${text}`);
      text += decoder.decode(value, { stream: true });
    }
    return text;
  };
  const first = await until((all) => /event: endpoint\ndata: ([^\n]*)\n\n/.test(all));
  const endpoint = /event: endpoint\ndata: ([^\n]*)\n\n/.exec(first)![1]!;
  return { endpoint, until, abort: () => controller.abort(), reader };
}

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });

const initialize = (id: number, protocolVersion = "2024-11-05") => ({
  jsonrpc: "2.0",
  id,
  method: "initialize",
  params: { protocolVersion, capabilities: {}, clientInfo: { name: "raw", version: "1" } },
});

describe("SDK v1 SSEClientTransport -> weather example on createLegacySseNodeHandler", () => {
  let served: Served;
  const clients: Client[] = [];
  beforeAll(async () => {
    served = await serve(createWeatherServer(weatherHandlers));
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close().catch(() => {})));
  });
  afterAll(() => served.close());

  async function connect(askFor: string): Promise<{ client: Client; wire: NegotiationRecorder }> {
    const wire = new NegotiationRecorder(new SSEClientTransport(new URL(served.url)), askFor);
    const client = new Client({ name: "e2e-sdk-v1-sse", version: "1.0.0" });
    clients.push(client);
    await client.connect(wire as unknown as Transport);
    return { client, wire };
  }

  it.each(["2024-11-05", "2025-03-26"])(
    "initializes at %s, lists tools, calls get_forecast and pings",
    async (revision) => {
      const { client, wire } = await connect(revision);
      expect(wire.negotiated).toBe(revision);
      expect(client.getServerVersion()?.name).toBe("weather");
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain("get_forecast");
      const result = await client.callTool({ name: "get_forecast", arguments: { city: "Paris" } });
      expect(JSON.parse(firstText(result.content))).toEqual(parisForecast);
      await expect(client.ping()).resolves.toEqual({});
      expect(served.handler.sessionCount).toBeGreaterThanOrEqual(1);
    },
  );

  it("ends the session when the client closes its stream", async () => {
    // The sessions of the tests before end as their clients close.
    await expect.poll(() => served.handler.sessionCount).toBe(0);
    const { client } = await connect("2024-11-05");
    expect(served.handler.sessionCount).toBe(1);
    await client.close();
    await expect.poll(() => served.handler.sessionCount).toBe(0);
  });
});

describe("SDK v1 SSEClientTransport -> everything example: server -> client requests over the stream", () => {
  let served: Served;
  let client: Client;
  const asked: string[] = [];
  beforeAll(async () => {
    const server = createNotesServer(createHandlers({ changed: () => {}, emptied: () => {} }));
    served = await serve(server);
    client = new Client(
      { name: "e2e-sdk-v1-sse", version: "1.0.0" },
      { capabilities: { roots: {}, elicitation: { form: {} } } },
    );
    client.setRequestHandler(ListRootsRequestSchema, () => {
      asked.push("roots/list");
      return { roots: [{ uri: "file:///work/notes", name: "notes" }] };
    });
    client.setRequestHandler(ElicitRequestSchema, () => {
      asked.push("elicitation/create");
      return { action: "accept", content: { confirm: true } };
    });
    await client.connect(new SSEClientTransport(new URL(served.url)));
  });
  afterAll(async () => {
    await client?.close().catch(() => {});
    await served.close();
  });

  it("answers roots/list asked by list_roots", async () => {
    const result = await client.callTool({ name: "list_roots", arguments: {} });
    expect(firstText(result.content)).toBe("notes: file:///work/notes");
    expect(asked).toContain("roots/list");
  });

  it("answers the form elicitation asked by delete_note", async () => {
    const result = await client.callTool({ name: "delete_note", arguments: { id: "groceries" } });
    expect(firstText(result.content)).toBe('Deleted "Groceries"');
    expect(asked).toContain("elicitation/create");
  });
});

describe("legacySseChannel -> SDK v1 SSEServerTransport", () => {
  let sdk: SdkV1SseServer;
  let session: ClientSession | undefined;
  beforeAll(async () => {
    sdk = await startSdkV1SseServer();
  });
  afterEach(async () => {
    await session?.close().catch(() => {});
    session = undefined;
  });
  afterAll(() => sdk.close());

  it.each([["2025-11-25"], ["2024-11-05"]])(
    "initializes at %s, lists tools, calls get_forecast, pings",
    async (revision) => {
      session = await connectSession(legacySseChannel(sdk.url), { revisions: [revision] });
      expect(session.era).toBe("legacy");
      expect(session.revision).toBe(revision);
      expect(session.server.info?.name).toBe("weather-sdk-v1-sse");
      const { tools } = await session.rawRequest("tools/list");
      expect((tools as { name: string }[]).map((t) => t.name)).toEqual(["get_forecast", "list_roots"]);
      const result = await session.rawRequest("tools/call", { name: "get_forecast", arguments: { city: "Paris" } });
      expect(result.structuredContent).toEqual(parisForecast);
      await expect(session.rawRequest("ping")).resolves.toEqual({});
    },
  );

  it("answers the server's roots/list during a tool call", async () => {
    session = await connectSession(legacySseChannel(sdk.url), {
      revisions: ["2025-06-18"],
      capabilities: { roots: {} },
      requests: { "roots/list": () => ({ roots: [{ uri: "file:///tmp/a" }, { uri: "file:///tmp/b" }] }) },
    });
    const result = await session.rawRequest("tools/call", { name: "list_roots", arguments: {} });
    expect(firstText(result.content)).toBe("file:///tmp/a\nfile:///tmp/b");
  });

  it("closing the channel ends the SDK server's session", async () => {
    await expect.poll(() => sdk.sessionCount()).toBe(0);
    session = await connectSession(legacySseChannel(sdk.url), { revisions: ["2024-11-05"] });
    expect(sdk.sessionCount()).toBe(1);
    await session.close();
    session = undefined;
    await expect.poll(() => sdk.sessionCount()).toBe(0);
  });
});

/** A fetch that hands requests to a fetch-style handler, with the Host header a platform would add. */
function viaHandler(handler: (request: Request) => Promise<Response>): typeof fetch {
  return ((input: string | URL | Request, init?: RequestInit) => {
    const headers = new Headers(init?.headers);
    headers.set("host", new URL(String(input)).host);
    return handler(new Request(input, { ...init, headers }));
  }) as typeof fetch;
}

/** A raw node:http request, so that Host is what the test says (fetch sets its own). */
function rawRequest(url: string, method: string, headers: Record<string, string>, body?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method, headers }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on("error", reject);
    request.end(body);
  });
}

describe("legacySseChannel <-> our own server (the fetch-style handler)", () => {
  it("serves a session end to end through createLegacySseHandler", async () => {
    const handler = createLegacySseHandler(createWeatherServer(weatherHandlers));
    const session = await connectSession(legacySseChannel("http://localhost/sse", { fetch: viaHandler(handler) }), {
      revisions: ["2025-03-26"],
    });
    try {
      expect(session.revision).toBe("2025-03-26");
      const result = await session.rawRequest("tools/call", { name: "get_forecast", arguments: { city: "Paris" } });
      // 2025-03-26 has no structuredContent: the forecast is the text block.
      expect(JSON.parse(firstText(result.content))).toEqual(parisForecast);
      expect(handler.sessionCount).toBe(1);
    } finally {
      await session.close();
    }
    await expect.poll(() => handler.sessionCount).toBe(0);
  });

  it("a session whose stream the server closes fails its requests on the client", async () => {
    const handler = createLegacySseHandler(createWeatherServer(weatherHandlers));
    const session = await connectSession(legacySseChannel("http://localhost/sse", { fetch: viaHandler(handler) }), {
      revisions: ["2024-11-05"],
    });
    handler.close();
    await expect(session.rawRequest("ping")).rejects.toThrow();
    await session.close();
  });
});

describe("createLegacySseNodeHandler refusals", () => {
  let served: Served;
  beforeAll(async () => {
    served = await serve(createWeatherServer(weatherHandlers));
  });
  afterAll(() => served.close());

  it("answers a POST with an unknown sessionId 404", async () => {
    const response = await post(
      `${served.origin}/messages?sessionId=00000000-0000-4000-8000-000000000000`,
      initialize(1),
    );
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { code: number } }).error.code).toBe(-32001);
  });

  it("answers a POST without sessionId 400", async () => {
    const response = await post(`${served.origin}/messages`, initialize(1));
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: number } }).error.code).toBe(-32600);
  });

  it("refuses a foreign Host (DNS rebinding) with 403 on the stream and on POSTs", async () => {
    expect(await rawRequest(served.url, "GET", { accept: "text/event-stream", host: "evil.example" })).toBe(403);
    const origin = await fetch(served.url, { headers: { accept: "text/event-stream", origin: "http://evil.example" } });
    expect(origin.status).toBe(403);
    await origin.body?.cancel();
    const { endpoint, abort } = await openStream(served.url);
    try {
      const status = await rawRequest(
        new URL(endpoint, served.origin).href,
        "POST",
        { "content-type": "application/json", host: "evil.example:80" },
        JSON.stringify(initialize(1)),
      );
      expect(status).toBe(403);
    } finally {
      abort();
    }
  });

  it("names the endpoint, answers 202 and sends the response down the stream as a message event", async () => {
    const { endpoint, until, abort } = await openStream(served.url);
    try {
      expect(endpoint).toMatch(/^\/messages\?sessionId=[0-9a-f-]{36}$/);
      const response = await post(new URL(endpoint, served.origin).href, initialize(7));
      expect(response.status).toBe(202);
      const text = await until((all) => all.includes('"id":7'));
      expect(text).toMatch(/event: message\ndata: \{"jsonrpc":"2.0","id":7,"result":\{"protocolVersion":"2024-11-05"/);
    } finally {
      abort();
    }
  });

  it("answers malformed messages in the POST itself (400), modern requests too", async () => {
    const { endpoint, abort } = await openStream(served.url);
    const target = new URL(endpoint, served.origin).href;
    try {
      const parse = await post(target, "{not json");
      expect(parse.status).toBe(400);
      expect(((await parse.json()) as { error: { code: number } }).error.code).toBe(-32700);
      const envelope = await post(target, { jsonrpc: "1.0", id: 3, method: "ping" });
      expect(envelope.status).toBe(400);
      expect(await envelope.json()).toMatchObject({ id: 3, error: { code: -32600 } });
      const modern = await post(target, {
        jsonrpc: "2.0",
        id: 4,
        method: "server/discover",
        params: { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } },
      });
      expect(modern.status).toBe(400);
      expect(await modern.json()).toMatchObject({ id: 4, error: { code: -32600 } });
      const batch = await post(target, [{ jsonrpc: "2.0", id: 5, method: "ping" }]);
      expect(batch.status).toBe(400);
    } finally {
      abort();
    }
  });

  it("a stream that closes ends its session: its endpoint answers 404", async () => {
    await expect.poll(() => served.handler.sessionCount).toBe(0);
    const { endpoint, abort, until } = await openStream(served.url);
    const target = new URL(endpoint, served.origin).href;
    expect((await post(target, initialize(1))).status).toBe(202);
    await until((all) => all.includes('"id":1'));
    expect(served.handler.sessionCount).toBe(1);
    abort();
    await expect.poll(() => served.handler.sessionCount).toBe(0);
    const response = await post(target, { jsonrpc: "2.0", id: 2, method: "ping" });
    expect(response.status).toBe(404);
  });

  it("refuses a body over the limit with 413 and wrong methods and paths", async () => {
    const { endpoint, abort } = await openStream(served.url);
    try {
      const big = await post(
        new URL(endpoint, served.origin).href,
        JSON.stringify({ jsonrpc: "2.0", method: "x", params: { pad: "x".repeat(4 * 1024 * 1024) } }),
      );
      expect(big.status).toBe(413);
    } finally {
      abort();
    }
    expect((await fetch(served.url, { method: "POST" })).status).toBe(405);
    expect((await fetch(`${served.origin}/messages`)).status).toBe(405);
    expect((await fetch(`${served.origin}/mcp`)).status).toBe(404);
  });
});

describe("listenHttp({ legacySse: true })", () => {
  it("serves Streamable HTTP at /mcp and the 2024-11-05 HTTP+SSE transport at /sse beside it", async () => {
    const { listenHttp } = await import("@mcp-gen/runtime/node");
    const listener = await listenHttp(createWeatherServer(weatherHandlers), { port: 0, legacySse: true });
    try {
      const client = new Client({ name: "legacy-sse-listen", version: "1.0.0" });
      await client.connect(new SSEClientTransport(new URL(`http://127.0.0.1:${listener.port}/sse`)));
      expect((await client.listTools()).tools.map((t) => t.name)).toContain("get_forecast");
      await client.close();
      // The Streamable HTTP endpoint is still there.
      const streamable = await fetch(listener.url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: "{}",
      });
      expect(streamable.status).toBe(400);
    } finally {
      await listener.close();
    }
  });

  it("refuses an ssePath that collides with the endpoint path", async () => {
    const { listenHttp } = await import("@mcp-gen/runtime/node");
    await expect(listenHttp(createWeatherServer(weatherHandlers), { legacySse: { ssePath: "/mcp" } })).rejects.toThrow(
      /must differ/,
    );
  });
});
