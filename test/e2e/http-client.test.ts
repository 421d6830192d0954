// httpChannel against a scripted HTTP peer (a fake fetch): what the conformance suite's
// client leg checks, pinned here so that `npm test` catches a regression without Node 22.
import { describe, expect, it } from "vitest";
import { connectSession, httpChannel, type ClientSession } from "../../runtime/index.js";

interface Seen {
  readonly method: string;
  readonly headers: Record<string, string>;
  readonly body: { id?: number; method?: string; params?: Record<string, unknown> } | undefined;
}

const json = (body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json", ...headers } });
const sse = (text: string) => new Response(text, { status: 200, headers: { "content-type": "text/event-stream" } });

/** A fetch that records every request and answers with `reply`. */
function scripted(reply: (seen: Seen, all: Seen[]) => Response | Promise<Response>): {
  fetch: typeof fetch;
  seen: Seen[];
} {
  const seen: Seen[] = [];
  const fake = async (_url: string | URL | Request, init?: RequestInit) => {
    const request: Seen = {
      method: init?.method ?? "GET",
      headers: Object.fromEntries(
        Object.entries((init?.headers ?? {}) as Record<string, string>).map(([k, v]) => [k.toLowerCase(), v]),
      ),
      body: typeof init?.body === "string" ? JSON.parse(init.body) : undefined,
    };
    seen.push(request);
    return reply(request, seen);
  };
  return { fetch: fake as typeof fetch, seen };
}

const modernResult = (result: Record<string, unknown>) => ({ resultType: "complete", ...result });

describe("httpChannel, 2026-07-28: x-mcp-header (SEP-2243)", () => {
  const tools = [
    {
      name: "valid",
      inputSchema: {
        type: "object",
        properties: {
          region: { type: "string", "x-mcp-header": "Region" },
          count: { type: "integer", "x-mcp-header": "Count" },
          flag: { type: "boolean", "x-mcp-header": "Flag" },
          note: { type: "string" },
        },
      },
    },
    {
      name: "number_header",
      inputSchema: { type: "object", properties: { n: { type: "number", "x-mcp-header": "N" } } },
    },
    {
      name: "duplicate",
      inputSchema: {
        type: "object",
        properties: { a: { type: "string", "x-mcp-header": "X" }, b: { type: "string", "x-mcp-header": "x" } },
      },
    },
    {
      name: "bad_name",
      inputSchema: { type: "object", properties: { a: { type: "string", "x-mcp-header": "My Region" } } },
    },
  ];
  const server = () =>
    scripted(({ body }) => {
      if (body?.method === "server/discover")
        return json({
          jsonrpc: "2.0",
          id: body.id,
          result: modernResult({ supportedVersions: ["2026-07-28"], capabilities: { tools: {} } }),
        });
      if (body?.method === "tools/list") return json({ jsonrpc: "2.0", id: body.id, result: modernResult({ tools }) });
      return json({ jsonrpc: "2.0", id: body?.id, result: modernResult({ content: [] }) });
    });

  it("leaves out tools with invalid declarations and mirrors the others' arguments as Mcp-Param-* headers", async () => {
    const { fetch, seen } = server();
    const session: ClientSession = await connectSession(httpChannel("http://mcp.test/mcp", { fetch }), {
      revisions: ["2026-07-28"],
    });
    expect((await session.listAll("tools/list", "tools")).map((t) => t.name)).toEqual(["valid"]);
    await session.rawRequest("tools/call", {
      name: "valid",
      arguments: { region: " padded ", count: 42, flag: false, note: "x" },
    });
    await session.rawRequest("tools/call", { name: "valid", arguments: { region: "eu", flag: null } });
    const calls = seen
      .filter((s) => s.body?.method === "tools/call")
      .map((s) => Object.fromEntries(Object.entries(s.headers).filter(([k]) => k.startsWith("mcp-param-"))));
    expect(calls).toEqual([
      { "mcp-param-region": `=?base64?${btoa(" padded ")}?=`, "mcp-param-count": "42", "mcp-param-flag": "false" },
      { "mcp-param-region": "eu" },
    ]);
    await session.close();
  });
});

describe("httpChannel, legacy sessions: SSE streams", () => {
  it("opens the GET stream after initialization and resumes an unanswered stream with Last-Event-ID after retry:", async () => {
    let callId: number | undefined;
    const { fetch, seen } = scripted(({ method, headers, body }) => {
      if (method === "GET") {
        if (headers["last-event-id"] !== "e1") return new Response("", { status: 405 });
        return sse(
          `id: e2\ndata: ${JSON.stringify({ jsonrpc: "2.0", id: callId, result: { content: [{ type: "text", text: "resumed" }] } })}\n\n`,
        );
      }
      if (body?.method === "initialize") {
        return json(
          {
            jsonrpc: "2.0",
            id: body.id,
            result: {
              protocolVersion: "2025-11-25",
              capabilities: { tools: {} },
              serverInfo: { name: "s", version: "1" },
            },
          },
          { "mcp-session-id": "abc" },
        );
      }
      if (body?.method === "tools/call") {
        callId = body.id;
        return sse("id: e1\nretry: 20\ndata: \n\n"); // a priming event, then the server ends the stream
      }
      return new Response(null, { status: 202 });
    });
    const session = await connectSession(httpChannel("http://mcp.test/mcp", { fetch }), { revisions: ["2025-11-25"] });
    const result = await session.rawRequest("tools/call", { name: "t", arguments: {} });
    expect(result.content).toEqual([{ type: "text", text: "resumed" }]);
    const gets = seen.filter((s) => s.method === "GET");
    expect(gets[0]!.headers["last-event-id"]).toBeUndefined(); // the standalone stream (405 here)
    expect(gets.at(-1)!.headers).toMatchObject({ "last-event-id": "e1", "mcp-session-id": "abc" });
    await session.close();
  });

  it("fails a request at once when its stream ends unanswered and cannot be resumed", async () => {
    const { fetch } = scripted(({ method, body }) => {
      if (method === "GET") return new Response("", { status: 405 });
      if (body?.method === "initialize")
        return json({
          jsonrpc: "2.0",
          id: body.id,
          result: { protocolVersion: "2025-11-25", capabilities: {}, serverInfo: { name: "s", version: "1" } },
        });
      if (body?.method === "tools/call") return sse(": nothing\n\n");
      return new Response(null, { status: 202 });
    });
    const session = await connectSession(httpChannel("http://mcp.test/mcp", { fetch }), {
      revisions: ["2025-11-25"],
      timeoutMs: 10_000,
    });
    await expect(session.rawRequest("tools/call", { name: "t" })).rejects.toThrow(
      /ended the event stream without answering/,
    );
    await session.close();
  });
});
