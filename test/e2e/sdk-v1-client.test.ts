// The weather example (mcp-gen runtime) driven by the official SDK v1 client
// (@modelcontextprotocol/sdk), over a real child process's stdio and a real HTTP socket.
// SDK v1 speaks the legacy era only: it opens with initialize, asking for 2025-11-25.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  appConfig,
  errorCodeOf,
  firstText,
  oslo,
  parisForecast,
  startHttpServer,
  stopAllChildren,
  tsxCommand,
  weatherMain,
  type HttpServerProcess,
} from "./helpers.js";
import { NegotiationRecorder } from "./negotiation.js";

type Kind = "stdio" | "http";

interface Connected {
  readonly client: Client;
  readonly wire: NegotiationRecorder;
  readonly server: HttpServerProcess | undefined;
}

/** Starts the weather server (stdio: the SDK spawns it; HTTP: we do) and connects an SDK v1 client. */
async function connect(kind: Kind, askFor?: string): Promise<Connected> {
  let inner: StdioClientTransport | StreamableHTTPClientTransport;
  let server: HttpServerProcess | undefined;
  if (kind === "http") {
    server = await startHttpServer(weatherMain, "--http", "--port", "0");
    inner = new StreamableHTTPClientTransport(new URL(server.url));
  } else {
    inner = new StdioClientTransport({ ...tsxCommand(weatherMain), stderr: "pipe" });
  }
  const wire = new NegotiationRecorder(inner, askFor);
  const client = new Client({ name: "e2e-sdk-v1", version: "1.0.0" });
  try {
    await client.connect(wire as unknown as Transport);
  } catch (error) {
    await server?.stop();
    throw error;
  }
  return { client, wire, server };
}

async function disconnect(connected: Connected | undefined): Promise<void> {
  if (!connected) return;
  // Over stdio the SDK's transport ends the server it spawned: stdin closed, then SIGTERM, then SIGKILL.
  await connected.client.close().catch(() => {});
  await connected.server?.stop();
}

afterAll(stopAllChildren);

describe.each<Kind>(["stdio", "http"])("SDK v1 client → weather server over %s (latest revision)", (kind) => {
  let connected: Connected;
  let client: Client;

  beforeAll(async () => {
    connected = await connect(kind);
    client = connected.client;
  });
  afterAll(() => disconnect(connected));

  it("negotiates 2025-11-25 through initialize and learns who the server is", () => {
    expect(connected.wire.negotiated).toBe("2025-11-25");
    expect(client.getServerVersion()).toEqual({ name: "weather", version: "1.0.0", title: "Weather" });
    expect(client.getInstructions()).toBe(
      "Use get_forecast for multi-day forecasts; read weather://{city}/current for current conditions.",
    );
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, resources: {}, prompts: {} });
  });

  it("lists the tools with their schemas and annotations", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["get_forecast", "list_cities"]);
    const forecast = tools[0]!;
    expect(forecast).toMatchObject({
      title: "Get forecast",
      description: "Forecast for a city",
      annotations: { readOnlyHint: true, openWorldHint: false },
    });
    expect(forecast.inputSchema).toEqual({
      type: "object",
      properties: {
        city: { type: "string", minLength: 1, description: "City name, e.g. Paris" },
        days: { type: "integer", minimum: 1, maximum: 7, default: 3, description: "Number of days" },
        units: { type: "string", enum: ["metric", "imperial"], default: "metric" },
      },
      required: ["city"],
      additionalProperties: false,
    });
    expect(forecast.outputSchema).toMatchObject({ type: "object", required: ["city", "units", "days"] });
    expect(tools[1]).toMatchObject({ name: "list_cities", title: "List cities", inputSchema: { type: "object" } });
  });

  it("lists resources, resource templates and prompts", async () => {
    expect((await client.listResources()).resources).toEqual([
      {
        uri: "config://app",
        name: "App config",
        description: "Units and defaults the server uses",
        mimeType: "application/json",
      },
      // The forecast panel, an MCP App (apps: in the manifest), with its _meta.ui.
      {
        uri: "ui://weather/forecast_panel",
        name: "forecast_panel",
        title: "Forecast panel",
        description: "The forecast day by day, with buttons for more or fewer days and other units",
        mimeType: "text/html;profile=mcp-app",
        _meta: { ui: { prefersBorder: true } },
      },
    ]);
    expect((await client.listResourceTemplates()).resourceTemplates).toEqual([
      {
        uriTemplate: "weather://{city}/current",
        name: "Current weather",
        description: "Current conditions in a city",
        mimeType: "application/json",
      },
    ]);
    expect((await client.listPrompts()).prompts).toEqual([
      {
        name: "summarize",
        description: "Summarize a text",
        arguments: [
          { name: "text", description: "The text to summarize", required: true },
          { name: "style", description: "tone", required: false },
        ],
      },
      {
        name: "plan_trip",
        title: "Plan a trip",
        description: "Ask for a packing list based on the forecast",
        arguments: [{ name: "city", required: true }],
      },
    ]);
  });

  it("calls get_forecast: the schema defaults (3 days, metric) are applied and structuredContent matches the text", async () => {
    const result = await client.callTool({ name: "get_forecast", arguments: { city: "Paris" } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual(parisForecast);
    expect(JSON.parse(firstText(result.content))).toEqual(parisForecast);
  });

  it("calls get_forecast with explicit arguments", async () => {
    const result = await client.callTool({
      name: "get_forecast",
      arguments: { city: "Lisbon", days: 1, units: "imperial" },
    });
    expect(result.structuredContent).toEqual({
      city: "Lisbon",
      units: "imperial",
      days: [{ date: "2026-01-01", high: 75, low: 59, conditions: "sunny" }],
    });
  });

  it("calls list_cities", async () => {
    const result = await client.callTool({ name: "list_cities", arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(firstText(result.content)).toBe("paris\noslo\nlisbon");
  });

  it("reports invalid tool arguments as a tool error (isError), as 2025-11-25 requires", async () => {
    for (const args of [{ city: "" }, {}, { city: "Paris", days: 9 }, { city: "Paris", extra: true }]) {
      const result = await client.callTool({ name: "get_forecast", arguments: args });
      expect(result.isError, JSON.stringify(args)).toBe(true);
      expect(firstText(result.content)).toMatch(/Invalid arguments for tool get_forecast/);
      expect(result.structuredContent).toBeUndefined();
    }
  });

  it("reports a handler's own failure as a tool error", async () => {
    const result = await client.callTool({ name: "get_forecast", arguments: { city: "Atlantis" } });
    expect(result.isError).toBe(true);
    expect(firstText(result.content)).toBe("Unknown city Atlantis; try one of: paris, oslo, lisbon");
  });

  it("answers an unknown tool with JSON-RPC error -32602", async () => {
    expect(await errorCodeOf(client.callTool({ name: "get_weather", arguments: {} }))).toBe(-32602);
  });

  it("reads config://app and the template weather://oslo/current", async () => {
    const config = await client.readResource({ uri: "config://app" });
    expect(config.contents).toHaveLength(1);
    expect(config.contents[0]).toMatchObject({ uri: "config://app", mimeType: "application/json" });
    expect(JSON.parse((config.contents[0] as { text: string }).text)).toEqual(appConfig);
    const current = await client.readResource({ uri: "weather://oslo/current" });
    expect(current.contents[0]).toMatchObject({ uri: "weather://oslo/current", mimeType: "application/json" });
    expect(JSON.parse((current.contents[0] as { text: string }).text)).toEqual(oslo);
  });

  it("answers an unknown resource URI with -32002 (resource not found, legacy era)", async () => {
    expect(await errorCodeOf(client.readResource({ uri: "config://nope" }))).toBe(-32002);
  });

  it("gets the declarative prompt summarize, with and without its optional style", async () => {
    const neutral = await client.getPrompt({ name: "summarize", arguments: { text: "hello" } });
    expect(neutral.messages).toEqual([
      { role: "user", content: { type: "text", text: "Summarize in a neutral tone:\nhello" } },
    ]);
    const formal = await client.getPrompt({ name: "summarize", arguments: { text: "hello", style: "formal" } });
    expect(formal.messages).toEqual([
      { role: "user", content: { type: "text", text: "Summarize in a formal tone:\nhello" } },
    ]);
  });

  it("gets the handler-based prompt plan_trip, and rejects a missing required argument", async () => {
    const trip = await client.getPrompt({ name: "plan_trip", arguments: { city: "Oslo" } });
    expect(trip.messages).toEqual([
      {
        role: "user",
        content: {
          type: "text",
          text: "I am travelling to Oslo. Check the forecast with get_forecast, then suggest a packing list.",
        },
      },
    ]);
    expect(await errorCodeOf(client.getPrompt({ name: "plan_trip", arguments: {} }))).toBe(-32602);
  });
});

// SDK v1 always asks for its latest revision; the recorder rewrites the initialize
// request to ask for an older one, and the SDK then runs the whole session at it.
// 2024-11-05 predates Streamable HTTP, so it is only tried over stdio.
const older: [Kind, string][] = [
  ["stdio", "2025-06-18"],
  ["stdio", "2025-03-26"],
  ["stdio", "2024-11-05"],
  ["http", "2025-06-18"],
  ["http", "2025-03-26"],
];

describe.each(older)("SDK v1 client → weather server over %s, asking for %s", (kind, revision) => {
  let connected: Connected;
  let client: Client;
  const structured = revision >= "2025-06-18";

  beforeAll(async () => {
    connected = await connect(kind, revision);
    client = connected.client;
  });
  afterAll(() => disconnect(connected));

  it("negotiates the requested revision", () => {
    expect(connected.wire.negotiated).toBe(revision);
  });

  it(`lists tools ${structured ? "with" : "without"} outputSchema and titles as the revision has them`, async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["get_forecast", "list_cities"]);
    expect("outputSchema" in tools[0]!).toBe(structured);
    expect("title" in tools[0]!).toBe(structured);
  });

  it("answers invalid tool arguments with JSON-RPC error -32602, as revisions before 2025-11-25 require", async () => {
    expect(await errorCodeOf(client.callTool({ name: "get_forecast", arguments: { city: "" } }))).toBe(-32602);
    expect(await errorCodeOf(client.callTool({ name: "get_forecast", arguments: {} }))).toBe(-32602);
    expect(await errorCodeOf(client.callTool({ name: "get_weather", arguments: {} }))).toBe(-32602);
  });

  it(`calls get_forecast (${structured ? "structuredContent" : "JSON text only"})`, async () => {
    const result = await client.callTool({ name: "get_forecast", arguments: { city: "Paris" } });
    expect(result.isError).toBeFalsy();
    expect(JSON.parse(firstText(result.content))).toEqual(parisForecast);
    if (structured) expect(result.structuredContent).toEqual(parisForecast);
    else expect(result.structuredContent).toBeUndefined();
  });

  it("reads resources and answers an unknown URI with -32002", async () => {
    const current = await client.readResource({ uri: "weather://oslo/current" });
    expect(JSON.parse((current.contents[0] as { text: string }).text)).toEqual(oslo);
    expect(await errorCodeOf(client.readResource({ uri: "weather://oslo/tomorrow" }))).toBe(-32002);
  });

  it("gets prompts", async () => {
    const formal = await client.getPrompt({ name: "summarize", arguments: { text: "hello", style: "formal" } });
    expect(formal.messages).toEqual([
      { role: "user", content: { type: "text", text: "Summarize in a formal tone:\nhello" } },
    ]);
  });
});
