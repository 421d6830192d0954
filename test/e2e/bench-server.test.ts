// The benchmark's workload server (bench/servers/mcp-gen.ts, what `npm run -s bench:server`
// runs) driven by the official clients, so other harnesses can rely on it: SDK v1 speaks the
// legacy era (initialize, 2025-11-25), SDK v2 with versionNegotiation "auto" the modern one
// (server/discover, 2026-07-28), each over a real child process's stdio and over HTTP.
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as StdioV1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport as HttpV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as StdioV2 } from "@modelcontextprotocol/client/stdio";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { repoRoot } from "../support/paths.js";
import { startHttpServer, stopAllChildren, tsxCommand } from "./helpers.js";

const benchServer = join(repoRoot, "bench", "servers", "mcp-gen.ts");

type Sdk = "v1" | "v2";
type Kind = "stdio" | "http";

/** What both SDK clients offer, as far as these tests use it. */
interface AnyClient {
  listTools(): Promise<{ tools: { name: string; inputSchema: unknown; outputSchema?: unknown }[] }>;
  callTool(request: { name: string; arguments: Record<string, unknown> }): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

interface Connected {
  readonly client: AnyClient;
  /** What the handshake told: the server's name (SDK v1) or the negotiated revision (SDK v2). */
  readonly handshake: string | undefined;
  readonly stop: () => Promise<void>;
}

async function connect(sdk: Sdk, kind: Kind): Promise<Connected> {
  const server = kind === "http" ? await startHttpServer(benchServer, "--transport", "http", "--port", "0") : undefined;
  const stdio = { ...tsxCommand(benchServer, "--transport", "stdio"), stderr: "pipe" as const };
  if (sdk === "v1") {
    const client = new ClientV1({ name: "bench-e2e-v1", version: "1.0.0" });
    await client.connect(server ? new HttpV1(new URL(server.url)) : new StdioV1(stdio));
    return {
      client: client as unknown as AnyClient,
      handshake: client.getServerVersion()?.name,
      stop: async () => server?.stop(),
    };
  }
  const client = new ClientV2({ name: "bench-e2e-v2", version: "2.0.0" }, { versionNegotiation: { mode: "auto" } });
  await client.connect(server ? new HttpV2(new URL(server.url)) : new StdioV2(stdio));
  return {
    client: client as unknown as AnyClient,
    handshake: client.getNegotiatedProtocolVersion(),
    stop: async () => server?.stop(),
  };
}

afterAll(stopAllChildren);

const cases: [Sdk, Kind, string][] = [
  ["v1", "stdio", "legacy"],
  ["v1", "http", "legacy"],
  ["v2", "stdio", "2026-07-28"],
  ["v2", "http", "2026-07-28"],
];

describe.each(cases)("SDK %s client → bench server over %s (%s)", (sdk, kind, era) => {
  let connected: Connected;
  afterAll(async () => {
    await connected?.client.close().catch(() => {});
    await connected?.stop();
  });

  it("connects and lists echo and add, add with its output schema", async () => {
    connected = await connect(sdk, kind);
    expect(connected.handshake).toBe(sdk === "v1" ? "bench" : era);
    const { tools } = await connected.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(["add", "echo"]);
    const add = tools.find((t) => t.name === "add");
    expect(add?.outputSchema).toMatchObject({
      type: "object",
      properties: { sum: { type: "number" } },
      required: ["sum"],
    });
  }, 90_000);

  it("echo answers the text, add a structured sum", async () => {
    expect(await connected.client.callTool({ name: "echo", arguments: { text: "héllo ${x} */" } })).toMatchObject({
      content: [{ type: "text", text: "héllo ${x} */" }],
    });
    const sum = await connected.client.callTool({ name: "add", arguments: { a: 2.5, b: -7 } });
    expect(sum.structuredContent).toEqual({ sum: -4.5 });
    expect(sum.isError).toBeFalsy();
  });

  it("validates arguments: a string where add wants a number is refused", async () => {
    const outcome = await connected.client.callTool({ name: "add", arguments: { a: "2", b: 3 } }).then(
      (result) => ({ result }),
      (error: unknown) => ({ error: error as { code?: number; message?: string } }),
    );
    if ("result" in outcome) {
      expect(outcome.result.isError).toBe(true);
      expect(JSON.stringify(outcome.result.content)).toMatch(/\/a.*must be number|must be number.*\/a/);
    } else {
      expect(outcome.error.code).toBe(-32602);
      expect(outcome.error.message).toMatch(/must be number/);
    }
  });
});
