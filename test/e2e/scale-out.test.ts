// Scale-out: the 2026-07-28 revision keeps no session, so any request may land on any
// instance. Three processes of the conformance server run behind nginx (round-robin,
// loopback only) and share nothing but configuration — the requestState secret and the
// page size. A multi-round input_required tool call, a paginated list and a tampered
// requestState go through the proxy; nginx stamps each response with the upstream that
// served it (X-Upstream), so the test can see the rounds and pages were spread.
// nginx is required (CI installs the Debian package nginx-light): without it this FAILS.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  connectSession,
  httpChannel,
  MetaKey,
  type ClientSession,
  type JsonObject,
  type Params,
} from "../../runtime/index.js";
import { repoRoot } from "../support/paths.js";
import { startHttpServerWithEnv, type HttpServerProcess } from "./helpers.js";
import { startNginxProxy, type NginxProxy } from "./proxy.js";

const conformanceMain = join(repoRoot, "test", "conformance", "server", "main.ts");
const modern = "2026-07-28";
const instances = 3;

/** One HTTP exchange through the proxy: which upstream answered it, and what was asked. */
interface Hop {
  readonly upstream: string;
  readonly method: string | undefined;
  readonly params: JsonObject | undefined;
}

const allCapabilities = { sampling: {}, elicitation: {}, roots: { listChanged: true } };

describe("scale-out: three instances behind nginx, no shared state (2026-07-28)", () => {
  const servers: HttpServerProcess[] = [];
  let proxy: NginxProxy | undefined;
  let url = "";
  const hops: Hop[] = [];
  const sessions: ClientSession[] = [];

  /** fetch that records, per request, the upstream nginx chose (X-Upstream). */
  const recordingFetch: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    const body =
      typeof init?.body === "string" ? (JSON.parse(init.body) as { method?: string; params?: JsonObject }) : undefined;
    hops.push({ upstream: response.headers.get("x-upstream") ?? "?", method: body?.method, params: body?.params });
    return response;
  };

  beforeAll(async () => {
    const env = { MCP_REQUEST_STATE_SECRET: `scale-out-${process.pid}-${Date.now()}`, MCP_PAGE_SIZE: "2" };
    servers.push(
      ...(await Promise.all(
        Array.from({ length: instances }, () => startHttpServerWithEnv(env, conformanceMain, "--port", "0")),
      )),
    );
    const upstreams = servers.map((s) => new URL(s.url).host);

    proxy = await startNginxProxy(upstreams);
    url = proxy.url;
  });

  afterAll(async () => {
    await Promise.all(sessions.splice(0).map((s) => s.close()));
    await proxy?.stop();
    await Promise.all(servers.map((s) => s.stop()));
  });

  async function connect(asked: string[] = []): Promise<ClientSession> {
    const session = await connectSession(httpChannel(url, { fetch: recordingFetch }), {
      revisions: [modern],
      capabilities: allCapabilities,
      requests: {
        "elicitation/create": (params: Params | undefined) => {
          const message = String(params?.message);
          asked.push(message);
          return { action: "accept", content: message.includes("color") ? { color: "blue" } : { name: "Alice" } };
        },
      },
    });
    sessions.push(session);
    expect(session.revision).toBe(modern);
    return session;
  }

  it("a multi-round input_required tool call completes with its rounds on different instances", async () => {
    const asked: string[] = [];
    const session = await connect(asked);
    const from = hops.length;
    const result = await session.rawRequest("tools/call", {
      name: "test_input_required_result_multi_round",
      arguments: {},
    });
    expect((result.content as { text: string }[])[0]!.text).toBe("Alice likes blue");
    expect(asked).toEqual(["Step 1: What is your name?", "Step 2: What is your favorite color?"]);

    const rounds = hops.slice(from).filter((h) => h.method === "tools/call");
    expect(rounds).toHaveLength(3);
    // Round 1 asks, round 2 carries step1 and round 1's requestState, round 3 step2 and round 2's.
    expect(rounds[0]!.params?.requestState).toBeUndefined();
    expect(Object.keys(rounds[1]!.params?.inputResponses as JsonObject)).toEqual(["step1"]);
    expect(Object.keys(rounds[2]!.params?.inputResponses as JsonObject)).toEqual(["step2"]);
    expect(typeof rounds[2]!.params?.requestState).toBe("string");
    const served = rounds.map((r) => r.upstream);
    expect(
      served.every((u) => servers.some((s) => new URL(s.url).host === u)),
      served.join(", "),
    ).toBe(true);
    expect(new Set(served).size, served.join(", ")).toBe(instances);
  });

  it("a paginated tools/list arrives whole and in order, its pages served by different instances", async () => {
    const session = await connect();
    const from = hops.length;
    const tools = await session.listAll("tools/list", "tools");
    const pages = hops.slice(from).filter((h) => h.method === "tools/list");

    // The same list, unpaginated, from one in-process server built from the same definition.
    const { createServerUnderTest } = await import("../conformance/server/create.js");
    const { memoryChannel } = await import("../../runtime/index.js");
    const reference = await connectSession(memoryChannel(createServerUnderTest({ pageSize: 1000 })), {
      revisions: [modern],
      capabilities: allCapabilities,
    });
    sessions.push(reference);
    const expected = await reference.listAll("tools/list", "tools");

    expect(tools.map((t) => t.name)).toEqual(expected.map((t) => t.name));
    expect(tools.length).toBeGreaterThan(2 * instances);
    expect(pages).toHaveLength(Math.ceil(expected.length / 2));
    expect(pages[0]!.params?.cursor).toBeUndefined();
    expect(pages.slice(1).every((p) => typeof p.params?.cursor === "string")).toBe(true);
    const served = pages.map((p) => p.upstream);
    expect(new Set(served).size, served.join(", ")).toBe(instances);
    for (let i = 1; i < served.length; i++) expect(served[i], served.join(", ")).not.toBe(served[i - 1]);
  });

  it("a requestState sealed by one instance opens on another, and tampered it is rejected everywhere", async () => {
    let id = 100;
    const call = async (params: JsonObject) => {
      const response = await recordingFetch(url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": modern,
          "mcp-method": "tools/call",
          "mcp-name": String(params.name),
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: ++id,
          method: "tools/call",
          params: {
            ...params,
            _meta: { [MetaKey.protocolVersion]: modern, [MetaKey.clientCapabilities]: allCapabilities },
          },
        }),
      });
      const text = await response.text();
      // A JSON body, or an SSE stream whose last data line is the answer.
      const data = (response.headers.get("content-type") ?? "").includes("text/event-stream")
        ? text
            .split("\n")
            .filter((l) => l.startsWith("data:"))
            .map((l) => l.slice(5).trim())
            .at(-1)!
        : text;
      const message = JSON.parse(data) as { result?: JsonObject; error?: { code: number } };
      return { message, upstream: response.headers.get("x-upstream") };
    };

    const name = "test_input_required_result_request_state";
    const answers = { inputResponses: { confirm: { action: "accept", content: { ok: true } } } };
    const first = await call({ name, arguments: {} });
    expect(first.message.result?.resultType).toBe("input_required");
    const requestState = first.message.result!.requestState as string;
    const [body, signature] = requestState.split(".") as [string, string];
    const flipped = `${body.slice(0, -2)}${body.endsWith("A") ? "B" : "A"}${body.slice(-1)}.${signature}`;

    const seen = new Set<string | null>([first.upstream]);
    // Tampered states, sent round-robin, so every instance gets to reject at least one.
    for (const bad of [
      flipped,
      `${requestState}x`,
      `${body}.${signature.slice(0, -1)}${signature.endsWith("A") ? "B" : "A"}`,
    ]) {
      const rejected = await call({ name, arguments: {}, ...answers, requestState: bad });
      expect(rejected.message.error?.code, bad).toBe(-32602);
      seen.add(rejected.upstream);
    }
    expect(seen.size).toBe(instances);
    // The genuine state, on whichever instance comes next, completes.
    const done = await call({ name, arguments: {}, ...answers, requestState });
    expect((done.message.result?.content as { text: string }[])[0]!.text).toBe("state-ok: confirmed=true");
    expect(done.upstream).not.toBe(first.upstream);
  });
});
