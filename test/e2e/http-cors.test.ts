// CORS on the Streamable HTTP endpoint, so that a browser page on an allowed origin (a catalog
// page's "try it" panel, say) can call the server: preflights are answered, replies name the
// exact origin, and origins that are not allowed get a 403 without any CORS header. Driven
// through the web-standard handler and through listenHttp (node:http), which share the logic.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWebHandler } from "@mcp-gen/runtime";
import { listenHttp, type HttpListener } from "@mcp-gen/runtime/node";
import { createHandlers } from "../../examples/everything/src/handlers.js";
import { createNotesServer } from "../../examples/everything/src/mcp/index.js";

const page = "https://catalog.example.org";
const options = { allowedOrigins: [page] };
const _meta = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "t", version: "1" },
  "io.modelcontextprotocol/clientCapabilities": {},
};
const listTools = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta } });
const postHeaders = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": "2026-07-28",
  "mcp-method": "tools/list",
};
const preflightHeaders = (origin: string) => ({
  origin,
  "access-control-request-method": "POST",
  "access-control-request-headers": "content-type, mcp-protocol-version, mcp-method, mcp-name, mcp-param-tag, x-other",
});

let listener: HttpListener;
beforeAll(async () => {
  listener = await listenHttp(createNotesServer(createHandlers({ changed: () => {}, emptied: () => {} })), {
    port: 0,
    ...options,
  });
});
afterAll(() => listener?.close());

const web = createWebHandler(createNotesServer(createHandlers({ changed: () => {}, emptied: () => {} })), options);
const bindings: [string, (init: RequestInit & { headers: Record<string, string> }) => Promise<Response>][] = [
  [
    "web handler",
    (init) => web(new Request("http://localhost/mcp", { ...init, headers: { host: "localhost", ...init.headers } })),
  ],
  ["listenHttp", (init) => fetch(listener.url, init)],
];

describe.each(bindings)("CORS through the %s", (_, send) => {
  it("answers a preflight from an allowed origin with the methods and MCP headers it may use", async () => {
    const response = await send({ method: "OPTIONS", headers: preflightHeaders(page) });
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe(page);
    expect(response.headers.get("vary")).toMatch(/origin/i);
    expect(response.headers.get("access-control-allow-methods")).toBe("POST, GET, DELETE");
    const allowed = response.headers.get("access-control-allow-headers")!.split(", ");
    for (const name of [
      "content-type",
      "accept",
      "mcp-protocol-version",
      "mcp-session-id",
      "mcp-method",
      "mcp-name",
      "last-event-id",
      "authorization",
      "mcp-param-tag",
    ]) {
      expect(allowed).toContain(name);
    }
    expect(allowed).not.toContain("x-other");
  });

  it("names the exact origin on the replies to it, and exposes the session, version and challenge headers", async () => {
    const response = await send({ method: "POST", headers: { ...postHeaders, origin: page }, body: listTools });
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBe(page);
    expect(response.headers.get("vary")).toMatch(/origin/i);
    expect(response.headers.get("access-control-expose-headers")).toBe(
      "mcp-session-id, mcp-protocol-version, www-authenticate",
    );
    expect(((await response.json()) as { result: { tools: unknown[] } }).result.tools.length).toBeGreaterThan(0);
  });

  it("refuses other origins (preflight and request) with 403 and no CORS header", async () => {
    for (const init of [
      { method: "OPTIONS", headers: preflightHeaders("https://evil.example.com") },
      { method: "POST", headers: { ...postHeaders, origin: "https://evil.example.com" }, body: listTools },
    ]) {
      const response = await send(init);
      expect(response.status).toBe(403);
      expect(response.headers.get("access-control-allow-origin")).toBeNull();
      expect(response.headers.get("access-control-allow-methods")).toBeNull();
    }
  });

  it("gives no CORS headers to an origin accepted only by default (a loopback page): sharing replies is opt-in", async () => {
    const loopback = "http://localhost:8080";
    const preflight = await send({ method: "OPTIONS", headers: preflightHeaders(loopback) });
    expect(preflight.headers.get("access-control-allow-origin")).toBeNull();
    const response = await send({ method: "POST", headers: { ...postHeaders, origin: loopback }, body: listTools });
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("adds no CORS headers for requests without an Origin (non-browser clients)", async () => {
    const response = await send({ method: "POST", headers: postHeaders, body: listTools });
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
  });
});

it("answers a preflight that asks for a flood of headers with a bounded list", async () => {
  const flood = [
    ...Array<string>(100_000).fill("mcp-param-tag"),
    ...Array.from({ length: 1000 }, (_, i) => `mcp-param-p${i}`),
    `mcp-param-${"a".repeat(1_000_000)}`,
  ].join(", ");
  const response = await web(
    new Request("http://localhost/mcp", {
      method: "OPTIONS",
      headers: {
        host: "localhost",
        origin: page,
        "access-control-request-method": "POST",
        "access-control-request-headers": flood,
      },
    }),
  );
  expect(response.status).toBe(204);
  const allowed = response.headers.get("access-control-allow-headers")!;
  expect(allowed.length).toBeLessThan(4_000);
  expect(allowed.split(", ").filter((name) => name === "mcp-param-tag")).toHaveLength(1);
  expect(allowed.split(", ")).toContain("mcp-param-p98");
});
