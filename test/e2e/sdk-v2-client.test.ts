// The weather example (mcp-gen runtime) driven by the official SDK v2 client
// (@modelcontextprotocol/client), over a real child process's stdio and a real HTTP
// socket. With versionNegotiation "auto" the client probes server/discover and speaks the
// modern era (2026-07-28: no handshake, version and capabilities in each request's _meta);
// without it, the SDK's default, it opens with initialize like a 2025 client.
import {
  Client,
  ResourceNotFoundError,
  StreamableHTTPClientTransport,
  type Transport,
} from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NegotiationRecorder } from "./negotiation.js";
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

type Kind = "stdio" | "http";
type Mode = "auto" | "legacy";

interface Connected {
  readonly client: Client;
  /** Legacy mode only: what came over the wire. */
  readonly wire: NegotiationRecorder | undefined;
  readonly server: HttpServerProcess | undefined;
}

async function connect(kind: Kind, mode: Mode): Promise<Connected> {
  let inner: StdioClientTransport | StreamableHTTPClientTransport;
  let server: HttpServerProcess | undefined;
  if (kind === "http") {
    server = await startHttpServer(weatherMain, "--http", "--port", "0");
    inner = new StreamableHTTPClientTransport(new URL(server.url));
  } else {
    inner = new StdioClientTransport({ ...tsxCommand(weatherMain), stderr: "pipe" });
  }
  // In "auto" mode the SDK's own transports go unwrapped: its stdio transport then probes
  // on a short-lived sibling process, which only happens for the real StdioClientTransport.
  const wire = mode === "legacy" ? new NegotiationRecorder(inner) : undefined;
  const client = new Client({ name: "e2e-sdk-v2", version: "2.0.0" }, { versionNegotiation: { mode } });
  try {
    await client.connect(wire ? (wire as unknown as Transport) : inner);
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

const cases: [Kind, Mode][] = [
  ["stdio", "auto"],
  ["http", "auto"],
  ["stdio", "legacy"],
  ["http", "legacy"],
];

describe.each(cases)("SDK v2 client → weather server over %s, versionNegotiation %s", (kind, mode) => {
  const modern = mode === "auto";
  const revision = modern ? "2026-07-28" : "2025-11-25";
  let connected: Connected;
  let client: Client;

  beforeAll(async () => {
    connected = await connect(kind, mode);
    client = connected.client;
  });
  afterAll(() => disconnect(connected));

  it(`speaks the ${modern ? "modern" : "legacy"} era at ${revision}`, () => {
    expect(client.getProtocolEra()).toBe(modern ? "modern" : "legacy");
    expect(client.getNegotiatedProtocolVersion()).toBe(revision);
    if (!modern) expect(connected.wire?.negotiated).toBe(revision);
    expect(client.getServerVersion()).toMatchObject({ name: "weather", version: "1.0.0" });
    expect(client.getInstructions()).toBe(
      "Use get_forecast for multi-day forecasts; read weather://{city}/current for current conditions.",
    );
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, resources: {}, prompts: {} });
    if (modern)
      expect(client.getDiscoverResult()?.supportedVersions).toEqual([
        "2026-07-28",
        "2025-11-25",
        "2025-06-18",
        "2025-03-26",
        "2024-11-05",
      ]);
  });

  it("lists the tools with their schemas", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["get_forecast", "list_cities"]);
    expect(tools[0]).toMatchObject({
      title: "Get forecast",
      description: "Forecast for a city",
      inputSchema: {
        type: "object",
        required: ["city"],
        properties: { days: { default: 3 }, units: { default: "metric" } },
      },
      outputSchema: { type: "object", required: ["city", "units", "days"] },
      annotations: { readOnlyHint: true, openWorldHint: false },
    });
    expect(tools[1]).toMatchObject({ name: "list_cities", title: "List cities" });
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
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(["summarize", "plan_trip"]);
    expect(prompts[0]!.arguments).toEqual([
      { name: "text", description: "The text to summarize", required: true },
      { name: "style", description: "tone", required: false },
    ]);
    expect(prompts[1]).toMatchObject({ title: "Plan a trip", arguments: [{ name: "city", required: true }] });
  });

  it("calls get_forecast: defaults applied, structuredContent validated by the SDK against outputSchema", async () => {
    const result = await client.callTool({ name: "get_forecast", arguments: { city: "Paris" } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual(parisForecast);
    expect(JSON.parse(firstText(result.content))).toEqual(parisForecast);
  });

  it("calls list_cities", async () => {
    const result = await client.callTool({ name: "list_cities", arguments: {} });
    expect(firstText(result.content)).toBe("paris\noslo\nlisbon");
  });

  it("reports invalid tool arguments as a tool error (isError), as 2025-11-25 and later require", async () => {
    for (const args of [{ city: "" }, {}, { city: "Paris", units: "kelvin" }]) {
      const result = await client.callTool({ name: "get_forecast", arguments: args });
      expect(result.isError, JSON.stringify(args)).toBe(true);
      expect(firstText(result.content)).toMatch(/Invalid arguments for tool get_forecast/);
    }
  });

  it("answers an unknown tool with JSON-RPC error -32602", async () => {
    expect(await errorCodeOf(client.callTool({ name: "get_weather", arguments: {} }))).toBe(-32602);
  });

  it("reads config://app and the template weather://oslo/current", async () => {
    const config = await client.readResource({ uri: "config://app" });
    expect(config.contents[0]).toMatchObject({ uri: "config://app", mimeType: "application/json" });
    expect(JSON.parse((config.contents[0] as { text: string }).text)).toEqual(appConfig);
    const current = await client.readResource({ uri: "weather://oslo/current" });
    expect(JSON.parse((current.contents[0] as { text: string }).text)).toEqual(oslo);
  });

  it(`answers an unknown resource URI with ${modern ? "-32602 (2026-07-28)" : "-32002 (legacy era)"}`, async () => {
    const failed = client.readResource({ uri: "config://nope" });
    if (modern) {
      expect(await errorCodeOf(failed)).toBe(-32602);
      return;
    }
    // SDK v2 rebuilds a resource-not-found error (-32002 or -32602 with data.uri) as its
    // ResourceNotFoundError, whose code is -32602 on every revision; check the wire instead.
    await expect(failed).rejects.toBeInstanceOf(ResourceNotFoundError);
    expect(connected.wire!.errorCodes.at(-1)).toBe(-32002);
  });

  it("gets the prompts summarize (with and without style) and plan_trip", async () => {
    const neutral = await client.getPrompt({ name: "summarize", arguments: { text: "hello" } });
    expect(neutral.messages).toEqual([
      { role: "user", content: { type: "text", text: "Summarize in a neutral tone:\nhello" } },
    ]);
    const formal = await client.getPrompt({ name: "summarize", arguments: { text: "hello", style: "formal" } });
    expect(formal.messages).toEqual([
      { role: "user", content: { type: "text", text: "Summarize in a formal tone:\nhello" } },
    ]);
    const trip = await client.getPrompt({ name: "plan_trip", arguments: { city: "Paris" } });
    expect(firstText([trip.messages[0]!.content])).toBe(
      "I am travelling to Paris. Check the forecast with get_forecast, then suggest a packing list.",
    );
  });
});
