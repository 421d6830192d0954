// The generated typed client of the weather example (connectWeatherClient) driving real
// servers over a real child process's stdio and a real HTTP socket: the official SDK v2
// server (modern era), the official SDK v1 server (legacy era), and the weather example
// itself in both eras (the client restricted to one legacy revision).
import { httpChannel, RpcError, type ClientChannel } from "@mcp-gen/runtime";
import { stdioChannel } from "@mcp-gen/runtime/node";
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import {
  connectWeatherClient,
  type GetForecastOutput,
  type Revision,
  type WeatherClient,
} from "../../examples/weather/src/mcp/index.js";
import {
  appConfig,
  firstText,
  oslo,
  parisForecast,
  sdkV1Server,
  sdkV2Server,
  startHttpServer,
  stopAllChildren,
  tsxCommand,
  weatherMain,
  type HttpServerProcess,
} from "./helpers.js";

type Kind = "stdio" | "http";

interface Peer {
  readonly label: string;
  readonly script: string;
  /** Arguments that make the server listen on a free port. */
  readonly httpArgs: readonly string[];
  /** Restricts the revisions the generated client offers. */
  readonly revisions?: readonly Revision[];
  readonly serverName: string;
  readonly era: "modern" | "legacy";
  readonly revision: string;
  /** Whether a tools/call naming no tool is a JSON-RPC error -32602 (the spec) or, as SDK v1 does, an isError result. */
  readonly unknownToolIsRpcError: boolean;
  /** The code of a resources/read error for an unknown URI. */
  readonly resourceNotFound: number;
}

const peers: Peer[] = [
  {
    label: "official SDK v2 server",
    script: sdkV2Server,
    httpArgs: ["--http"],
    serverName: "weather-sdk-v2",
    era: "modern",
    revision: "2026-07-28",
    unknownToolIsRpcError: true,
    resourceNotFound: -32602,
  },
  {
    label: "official SDK v2 server, client restricted to 2025-11-25",
    script: sdkV2Server,
    httpArgs: ["--http"],
    revisions: ["2025-11-25"],
    serverName: "weather-sdk-v2",
    era: "legacy",
    revision: "2025-11-25",
    unknownToolIsRpcError: true,
    // SDK v2 answers -32602 on every revision (its ResourceNotFoundError); 2025-11-25 says
    // -32002. An SDK deviation, recorded here rather than worked around.
    resourceNotFound: -32602,
  },
  {
    label: "official SDK v1 server",
    script: sdkV1Server,
    httpArgs: ["--http"],
    serverName: "weather-sdk-v1",
    era: "legacy",
    revision: "2025-11-25",
    // SDK v1's McpServer wraps every tools/call failure, "Tool … not found" included, in
    // an isError result, where the spec makes an unknown tool a protocol error (-32602).
    unknownToolIsRpcError: false,
    // SDK v1 answers an unknown resource with -32602; 2025-11-25 says -32002. Also an SDK deviation.
    resourceNotFound: -32602,
  },
  {
    label: "weather server (mcp-gen runtime)",
    script: weatherMain,
    httpArgs: ["--http", "--port", "0"],
    serverName: "weather",
    era: "modern",
    revision: "2026-07-28",
    unknownToolIsRpcError: true,
    resourceNotFound: -32602,
  },
  {
    label: "weather server (mcp-gen runtime), client restricted to 2025-11-25",
    script: weatherMain,
    httpArgs: ["--http", "--port", "0"],
    revisions: ["2025-11-25"],
    serverName: "weather",
    era: "legacy",
    revision: "2025-11-25",
    unknownToolIsRpcError: true,
    resourceNotFound: -32002,
  },
  {
    label: "weather server (mcp-gen runtime), client restricted to 2025-06-18",
    script: weatherMain,
    httpArgs: ["--http", "--port", "0"],
    revisions: ["2025-06-18"],
    serverName: "weather",
    era: "legacy",
    revision: "2025-06-18",
    unknownToolIsRpcError: true,
    resourceNotFound: -32002,
  },
];

const cases = peers.flatMap((peer) =>
  (["stdio", "http"] as const).map((kind): [string, Kind, Peer] => [peer.label, kind, peer]),
);

/** The JSON-RPC error a call of the generated client rejected with. */
async function rpcErrorOf(promise: Promise<unknown>): Promise<RpcError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof RpcError) return error;
    throw error;
  }
  throw new Error("expected the call to fail with a JSON-RPC error, but it succeeded");
}

afterAll(stopAllChildren);

describe.each(cases)("generated client → %s over %s", (_label, kind, peer) => {
  let client: WeatherClient;
  let server: HttpServerProcess | undefined;
  let channel: ClientChannel;
  const invalidArgsAreToolErrors = peer.revision >= "2025-11-25";

  beforeAll(async () => {
    if (kind === "http") {
      server = await startHttpServer(peer.script, ...peer.httpArgs);
      channel = httpChannel(server.url);
    } else {
      channel = stdioChannel({ ...tsxCommand(peer.script), stderr: "pipe" });
    }
    // A spawned stdio peer answers the era probe only once tsx has compiled it, which on a
    // loaded 2-core machine can take longer than the default probe timeout.
    client = await connectWeatherClient(channel, {
      probeTimeoutMs: 30_000,
      ...(peer.revisions ? { revisions: peer.revisions } : {}),
    });
  });

  afterAll(async () => {
    // Over stdio, close() ends the server process (stdin closed, then signals).
    await client?.close().catch(() => {});
    await server?.stop();
  });

  it(`negotiates the ${peer.era} era at ${peer.revision} and knows the server`, () => {
    expect(client.session.era).toBe(peer.era);
    expect(client.session.revision).toBe(peer.revision);
    expect(client.session.server.info?.name).toBe(peer.serverName);
    expect(client.session.server.capabilities).toMatchObject({ tools: {}, resources: {}, prompts: {} });
  });

  it("lists what the server offers under the names the manifest declares", async () => {
    expect((await client.session.listAll("tools/list", "tools")).map((t) => t.name)).toEqual([
      "get_forecast",
      "list_cities",
    ]);
    // The mcp-gen weather example also serves its forecast panel, an MCP App; the SDK fixtures do not.
    const apps = peer.serverName === "weather" ? ["ui://weather/forecast_panel"] : [];
    expect((await client.session.listAll("resources/list", "resources")).map((r) => r.uri)).toEqual([
      "config://app",
      ...apps,
    ]);
    expect(
      (await client.session.listAll("resources/templates/list", "resourceTemplates")).map((t) => t.uriTemplate),
    ).toEqual(["weather://{city}/current"]);
    expect((await client.session.listAll("prompts/list", "prompts")).map((p) => p.name)).toEqual([
      "summarize",
      "plan_trip",
    ]);
  });

  it("tools.getForecast resolves with structuredContent checked against the output schema (defaults applied by the server)", async () => {
    const result = await client.tools.getForecast({ city: "Paris" });
    if (result.isError) throw new Error(`tool error: ${JSON.stringify(result.content)}`);
    // The type a caller sees: the manifest's output schema, not unknown.
    expectTypeOf(result.structuredContent).toEqualTypeOf<GetForecastOutput>();
    expect(result.structuredContent).toEqual(parisForecast);
    expect(result.structuredContent.days).toHaveLength(3);
  });

  it("tools.getForecast passes explicit arguments", async () => {
    const result = await client.tools.getForecast({ city: "Oslo", days: 2, units: "imperial" });
    if (result.isError) throw new Error(`tool error: ${JSON.stringify(result.content)}`);
    expect(result.structuredContent).toEqual({
      city: "Oslo",
      units: "imperial",
      days: [
        { date: "2026-01-01", high: 43, low: 28, conditions: "snow" },
        { date: "2026-01-02", high: 41, low: 30, conditions: "cloudy" },
      ],
    });
  });

  it("tools.listCities resolves with the text result", async () => {
    const result = await client.tools.listCities();
    expect(result.isError).toBeFalsy();
    expect(firstText(result.content)).toBe("paris\noslo\nlisbon");
  });

  it(`invalid tool arguments: ${invalidArgsAreToolErrors ? "an isError result" : "JSON-RPC error -32602"} at ${peer.revision}`, async () => {
    const call = client.tools.getForecast({ city: "" });
    if (invalidArgsAreToolErrors) {
      const result = await call;
      expect(result.isError).toBe(true);
      expect(result.content.length).toBeGreaterThan(0);
    } else {
      expect((await rpcErrorOf(call)).code).toBe(-32602);
    }
  });

  it("a tool's own failure is an isError result, not a thrown error", async () => {
    const result = await client.tools.getForecast({ city: "Atlantis" });
    expect(result.isError).toBe(true);
    expect(firstText(result.content)).toBe("Unknown city Atlantis; try one of: paris, oslo, lisbon");
  });

  it(`an unknown tool is ${peer.unknownToolIsRpcError ? "JSON-RPC error -32602" : "an isError result (SDK v1)"}`, async () => {
    const call = client.session.request("tools/call", { name: "get_weather", arguments: {} });
    if (peer.unknownToolIsRpcError) expect((await rpcErrorOf(call)).code).toBe(-32602);
    else expect(await call).toMatchObject({ isError: true });
  });

  it("resources.appConfig and resourceTemplates.cityWeather read their URIs", async () => {
    const config = await client.resources.appConfig();
    expect(config.contents[0]).toMatchObject({ uri: "config://app", mimeType: "application/json" });
    expect(JSON.parse((config.contents[0] as { text: string }).text)).toEqual(appConfig);
    const current = await client.resourceTemplates.cityWeather({ city: "oslo" });
    expect(current.contents[0]).toMatchObject({ uri: "weather://oslo/current" });
    expect(JSON.parse((current.contents[0] as { text: string }).text)).toEqual(oslo);
  });

  it(`an unknown resource URI is JSON-RPC error ${peer.resourceNotFound}`, async () => {
    expect((await rpcErrorOf(client.session.request("resources/read", { uri: "config://nope" }))).code).toBe(
      peer.resourceNotFound,
    );
  });

  it("prompts.summarize (with and without style) and prompts.planTrip", async () => {
    expect((await client.prompts.summarize({ text: "hello" })).messages).toEqual([
      { role: "user", content: { type: "text", text: "Summarize in a neutral tone:\nhello" } },
    ]);
    expect((await client.prompts.summarize({ text: "hello", style: "formal" })).messages).toEqual([
      { role: "user", content: { type: "text", text: "Summarize in a formal tone:\nhello" } },
    ]);
    expect((await client.prompts.planTrip({ city: "Lisbon" })).messages).toEqual([
      {
        role: "user",
        content: {
          type: "text",
          text: "I am travelling to Lisbon. Check the forecast with get_forecast, then suggest a packing list.",
        },
      },
    ]);
  });
});
