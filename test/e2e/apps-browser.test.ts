// MCP Apps in a real browser: headless Chromium (driven by playwright-core) loads a small
// host page (test/support/apps-host/host.ts) that uses the official AppBridge of
// @modelcontextprotocol/ext-apps. The page connects the official SDK v2 client to the
// generated weather server over HTTP, reads get_forecast's ui:// resource, renders it in a
// sandboxed iframe, and delivers the tool result; the forecast panel then calls get_forecast
// itself, through the bridge, and the call reaches our server (this test's same-origin proxy
// sees it on the wire). The browser is the system's Chromium or the bundled one
// (test/support/chromium.ts). MCP_GEN_UPDATE_SCREENSHOT=1 refreshes
// docs/apps-forecast-panel.png.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname, join } from "node:path";
import { build } from "esbuild";
import type { Browser, FrameLocator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generatedWeatherWithApps } from "../support/apps.js";
import { launchChromium } from "../support/chromium.js";
import { repoRoot } from "../support/paths.js";
import { typecheck } from "../support/typecheck.js";
import { startHttpServer, stopAllChildren, type HttpServerProcess } from "./helpers.js";

const hostSource = join(repoRoot, "test", "support", "apps-host", "host.ts");
const panelSource = join(repoRoot, "examples", "weather", "ui", "forecast.ts");
const screenshot = join(repoRoot, "docs", "apps-forecast-panel.png");

/** A JSON-RPC request the browser sent to /mcp, as the proxy forwarded it. */
interface Forwarded {
  readonly method: string;
  readonly params?: { readonly name?: string; readonly arguments?: Record<string, unknown> };
}

let weather: HttpServerProcess;
let host: Server;
let hostUrl: string;
let browser: Browser;
let project: string | undefined;
const forwarded: Forwarded[] = [];

/** The host page with its script (the bridge and the SDK client bundled in). */
async function hostPage(): Promise<string> {
  const bundled = await build({
    entryPoints: [hostSource],
    bundle: true,
    write: false,
    format: "esm",
    platform: "browser",
    target: "es2022",
    logLevel: "silent",
  });
  const script = bundled.outputFiles[0]!.text.replaceAll("</script", "<\\/script");
  return `<!doctype html>\n<html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>MCP Apps test host</title></head>\n<body style="margin: 16px; font-family: sans-serif">\n<div id="app"></div>\n<script type="module">${script}</script>\n</body></html>\n`;
}

const readBody = async (request: IncomingMessage): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

/**
 * Serves the host page at / and forwards /mcp to the weather server, so that the page and
 * the server share an origin (as a host's backend would relay them); records each request.
 */
async function startHost(page: string, target: string): Promise<Server> {
  const server = createServer((request, response) => {
    void (async () => {
      if (request.url === "/" || request.url?.startsWith("/?")) {
        response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(page);
        return;
      }
      if (!request.url?.startsWith("/mcp")) {
        response.writeHead(404).end();
        return;
      }
      const body = request.method === "POST" ? await readBody(request) : undefined;
      if (body) {
        const message = JSON.parse(body.toString("utf8")) as Forwarded | Forwarded[];
        forwarded.push(...(Array.isArray(message) ? message : [message]));
      }
      const headers = new Headers();
      for (const [name, value] of Object.entries(request.headers)) {
        if (typeof value === "string" && !["host", "connection", "content-length"].includes(name))
          headers.set(name, value);
      }
      const upstream = await fetch(target, { method: request.method!, headers, ...(body ? { body } : {}) });
      response.writeHead(upstream.status, Object.fromEntries(upstream.headers));
      if (!upstream.body) return void response.end();
      for await (const chunk of upstream.body) response.write(chunk);
      response.end();
    })().catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(502);
      response.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return server;
}

beforeAll(async () => {
  const generated = await generatedWeatherWithApps();
  project = generated.dir;
  const main = generated.main;
  weather = await startHttpServer(main, "--http", "--port", "0");
  host = await startHost(await hostPage(), weather.url);
  hostUrl = `http://127.0.0.1:${(host.address() as AddressInfo).port}/`;
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => (host ? host.close(resolve) : resolve(undefined)));
  await stopAllChildren();
  if (project) rmSync(project, { recursive: true, force: true });
});

/** Width and height of a PNG image (its IHDR chunk). */
const pngSize = (png: Buffer) => ({ width: png.readUInt32BE(16), height: png.readUInt32BE(20) });

/** The host page's record of what happened (see host.ts). */
const hostLog = (page: Page) =>
  page.evaluate(
    () => (globalThis as unknown as { hostLog: { events: string[]; error?: string; csp?: string } }).hostLog,
  );

describe("the weather forecast panel in Chromium, hosted by the official AppBridge", () => {
  let page: Page;
  let panel: FrameLocator;
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    page = await browser.newPage({ viewport: { width: 600, height: 320 } });
    page.on("console", (message) => {
      if (message.type() === "error") consoleErrors.push(message.text());
    });
    page.on("pageerror", (error) => consoleErrors.push(error.message));
    await page.goto(
      `${hostUrl}?tool=get_forecast&arguments=${encodeURIComponent(JSON.stringify({ city: "Paris", days: 3 }))}`,
    );
    panel = page.frameLocator("iframe");
  });

  it("renders the tool result the host delivers", async () => {
    await expect.poll(async () => (await hostLog(page)).events, { timeout: 30_000 }).toContain("tool result delivered");
    const log = await hostLog(page);
    expect(log.error).toBeUndefined();
    expect(log.events).toContain("ui resource ui://weather/forecast_panel");
    await panel.getByText("Forecast · Paris").waitFor();
    expect(await panel.locator("li").allInnerTexts()).toEqual([
      "2026-01-01\nCloudy\n18°C / 9°C",
      "2026-01-02\nRain\n17°C / 10°C",
      "2026-01-03\nSunny\n16°C / 9°C",
    ]);
  });

  it("runs sandboxed, off the network: the iframe has an opaque origin and a CSP with connect-src 'none'", async () => {
    expect(await page.locator("iframe").getAttribute("sandbox")).toBe("allow-scripts");
    const origin = await page.frames()[1]!.evaluate(() => (globalThis as unknown as { origin: string }).origin);
    expect(origin).toBe("null");
    expect((await hostLog(page)).csp).toContain("connect-src 'none'");
    const fetched = await page.frames()[1]!.evaluate(() =>
      fetch("https://example.com/").then(
        () => "fetched",
        (error: unknown) => String(error),
      ),
    );
    expect(fetched).not.toBe("fetched");
  });

  it("calls get_forecast itself through the bridge, and the call reaches the server over HTTP", async () => {
    const before = forwarded.length;
    await panel.getByTitle("One day more").click();
    await panel.getByText("Updated by get_forecast (4 days, metric)").waitFor();
    expect(await panel.locator("li").count()).toBe(4);
    const calls = forwarded.slice(before).filter((m) => m.method === "tools/call");
    expect(calls.map((c) => [c.params?.name, c.params?.arguments])).toEqual([
      ["get_forecast", { city: "Paris", days: 4, units: "metric" }],
    ]);

    await panel.getByTitle("Switch units").click();
    await panel.getByText("Updated by get_forecast (4 days, imperial)").waitFor();
    expect(await panel.locator("li").first().innerText()).toBe("2026-01-01\nCloudy\n64°F / 48°F");
  });

  it("logged no errors in the page or the panel", () => {
    // Chromium reports the CSP refusal of the test's own fetch above; nothing else may appear.
    expect(consoleErrors.filter((text) => !text.includes("https://example.com/"))).toEqual([]);
  });

  it("takes the screenshot docs/apps-forecast-panel.png shows (same size; MCP_GEN_UPDATE_SCREENSHOT=1 rewrites it)", async () => {
    const taken = await page.locator("iframe").screenshot();
    if (process.env.MCP_GEN_UPDATE_SCREENSHOT === "1") {
      mkdirSync(dirname(screenshot), { recursive: true });
      writeFileSync(screenshot, taken);
    }
    // Pixels depend on the fonts installed; the size of the panel does not.
    expect(pngSize(taken)).toEqual(pngSize(readFileSync(screenshot)));
  });
});

it("the browser code type-checks with the DOM library (the repository's tsconfig leaves it out)", () => {
  expect(
    typecheck([hostSource, panelSource], {
      lib: ["lib.es2023.d.ts", "lib.dom.d.ts", "lib.dom.iterable.d.ts"],
      types: [],
    }),
  ).toEqual([]);
});
