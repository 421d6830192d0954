// MCP Apps (SEP-1865) as an official client sees them: the weather example's get_forecast
// names its forecast panel in `_meta.ui.resourceUri`, the panel is a ui:// resource served
// as text/html;profile=mcp-app with its `_meta.ui`, and server/discover advertises the
// io.modelcontextprotocol/ui extension (2026-07-28 only: no earlier revision negotiates
// extensions). The server is the weather example generated fresh from its manifest.
import { readFileSync, rmSync } from "node:fs";
import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { RESOURCE_MIME_TYPE, registerAppResource, registerAppTool } from "@modelcontextprotocol/ext-apps/server";
import { McpServer } from "@modelcontextprotocol/server";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildForecastPanel } from "../../examples/weather/ui/build.js";
import { forecastPanelHtml, generatedWeatherWithApps } from "../support/apps.js";
import { startHttpServer, stopAllChildren, tsxCommand, type HttpServerProcess } from "./helpers.js";

const panelUri = "ui://weather/forecast_panel";
const mimeType = "text/html;profile=mcp-app";
let main: string;
let project: string | undefined;

beforeAll(async () => {
  ({ main, dir: project } = await generatedWeatherWithApps());
});
afterAll(async () => {
  await stopAllChildren();
  if (project) rmSync(project, { recursive: true, force: true });
});

describe.each(["auto", "legacy"] as const)("SDK v2 client (versionNegotiation %s) over stdio", (mode) => {
  let client: Client;
  beforeAll(async () => {
    client = new Client({ name: "apps-e2e", version: "1.0.0" }, { versionNegotiation: { mode } });
    await client.connect(new StdioClientTransport({ ...tsxCommand(main), stderr: "pipe" }));
  });
  afterAll(() => client?.close());

  it(`sees the extension in the server's capabilities ${mode === "auto" ? "(server/discover, 2026-07-28)" : "nowhere (initialize, 2025-11-25)"}`, () => {
    expect(client.getServerCapabilities()?.extensions).toEqual(
      mode === "auto" ? { "io.modelcontextprotocol/ui": {} } : undefined,
    );
  });

  it("sees the panel's URI on get_forecast and nowhere else", async () => {
    const { tools } = await client.listTools();
    const forecast = tools.find((t) => t.name === "get_forecast");
    expect(forecast?._meta).toEqual({ ui: { resourceUri: panelUri }, "ui/resourceUri": panelUri });
    expect(tools.find((t) => t.name === "list_cities")?._meta).toBeUndefined();
  });

  it("lists the panel as a resource with its _meta.ui", async () => {
    const { resources } = await client.listResources();
    expect(resources.find((r) => r.uri === panelUri)).toEqual({
      uri: panelUri,
      name: "forecast_panel",
      title: "Forecast panel",
      description: "The forecast day by day, with buttons for more or fewer days and other units",
      mimeType,
      _meta: { ui: { prefersBorder: true } },
    });
  });

  it("reads the panel: the checked-in HTML, byte for byte, with its _meta.ui", async () => {
    const { contents } = await client.readResource({ uri: panelUri });
    expect(contents).toHaveLength(1);
    const [content] = contents as [{ uri: string; mimeType?: string; text?: string; _meta?: unknown }];
    expect(content.uri).toBe(panelUri);
    expect(content.mimeType).toBe(mimeType);
    expect(content._meta).toEqual({ ui: { prefersBorder: true } });
    expect(content.text).toBe(readFileSync(forecastPanelHtml, "utf8"));
  });
});

describe("parity with the official ext-apps server helpers", () => {
  it("an SDK v2 server built with registerAppTool / registerAppResource lists and reads the same UI fields", async () => {
    const html = readFileSync(forecastPanelHtml, "utf8");
    const ui = { prefersBorder: true };
    const official = new McpServer({ name: "weather-official", version: "1.0.0" });
    registerAppTool(
      official,
      "get_forecast",
      { description: "Forecast for a city", _meta: { ui: { resourceUri: panelUri } } },
      () => ({ content: [] }),
    );
    registerAppResource(
      official,
      "forecast_panel",
      panelUri,
      {
        title: "Forecast panel",
        description: "The forecast day by day, with buttons for more or fewer days and other units",
        _meta: { ui },
      },
      () => ({ contents: [{ uri: panelUri, mimeType: RESOURCE_MIME_TYPE, text: html, _meta: { ui } }] }),
    );
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await official.connect(serverSide);
    const theirs = new Client({ name: "apps-e2e", version: "1.0.0" });
    await theirs.connect(clientSide);
    const ours = new Client({ name: "apps-e2e", version: "1.0.0" });
    await ours.connect(new StdioClientTransport({ ...tsxCommand(main), stderr: "pipe" }));
    try {
      const uiFields = async (client: Client) => ({
        toolMeta: (await client.listTools()).tools.find((t) => t.name === "get_forecast")?._meta,
        listed: (await client.listResources()).resources.find((r) => r.uri === panelUri),
        read: (await client.readResource({ uri: panelUri })).contents,
      });
      const expected = await uiFields(theirs);
      expect(expected.toolMeta).toEqual({ ui: { resourceUri: panelUri }, "ui/resourceUri": panelUri });
      expect(await uiFields(ours)).toEqual(expected);
    } finally {
      await Promise.all([theirs.close(), ours.close()]);
    }
  });
});

describe("extension advertisement over HTTP", () => {
  let server: HttpServerProcess;
  beforeAll(async () => {
    server = await startHttpServer(main, "--http", "--port", "0");
  });
  afterAll(() => server?.stop());

  const post = async (body: object, headers: Record<string, string> = {}) => {
    const response = await fetch(server.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    // A JSON body, or one SSE event carrying it.
    const json = text.startsWith("{") ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? text);
    return JSON.parse(json) as { result?: { capabilities?: Record<string, unknown> } };
  };

  it("server/discover (2026-07-28) advertises io.modelcontextprotocol/ui", async () => {
    const meta = {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": {},
    };
    const answer = await post(
      { jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: meta } },
      { "mcp-method": "server/discover", "mcp-protocol-version": "2026-07-28" },
    );
    expect(answer.result?.capabilities?.extensions).toEqual({ "io.modelcontextprotocol/ui": {} });
  });

  it("initialize (2025-11-25) has no extensions: that revision does not negotiate them", async () => {
    const answer = await post({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "apps-e2e", version: "1.0.0" } },
    });
    expect(answer.result?.capabilities).toBeDefined();
    expect(answer.result?.capabilities).not.toHaveProperty("extensions");
  });
});

describe("the checked-in forecast panel", () => {
  it("is what examples/weather/ui/build.ts builds from its sources today", async () => {
    expect(await buildForecastPanel()).toBe(readFileSync(forecastPanelHtml, "utf8"));
  });

  it("is self-contained: no external script, stylesheet or fetch target", () => {
    const html = readFileSync(forecastPanelHtml, "utf8");
    expect(html).not.toMatch(/<script[^>]+src=/i);
    expect(html).not.toMatch(/<link[^>]+href=/i);
  });
});
