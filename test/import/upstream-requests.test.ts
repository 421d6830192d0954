// How an imported project's requests travel, end to end: import → generate → strict tsc →
// src/main.ts over stdio (SDK v1 client) → a node:http API written from
// fixtures/upstream-requests.yaml that checks each request exactly and counts attempts.
// Retries of idempotent requests on 429/503 (Retry-After in seconds or as a date, bounded,
// cancellable; never for POST), multipart bodies with file parts, parameters described by
// `content`, and XML bodies.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { call, importProject, serve, text, waitFor } from "./support/imported-project.js";
import { refuse, startUpstream, type Answer, type Exchange, type UpstreamServer } from "./support/upstream-server.js";

/** Bytes that are not UTF-8 text, so a part sent as text would arrive changed. */
const pdf = Buffer.from([0x25, 0x50, 0x44, 0x46, 0x2d, 0xff, 0x00, 0xfe, 0x80, 0x0a]);
const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff]);
const note = "<note><text>Hi &amp; bye ✓</text></note>";

/** The Files API: attempts counted by path, so each test reads its own. */
function filesApi() {
  const attempts = new Map<string, number>();
  const busy = (retryAfter: string): Answer => ({
    status: 503,
    body: { message: "busy" },
    headers: { "retry-after": retryAfter },
  });
  const handler = async ({ method, path, rawQuery, headers, bytes }: Exchange): Promise<Answer> => {
    const flaky = /^\/v1\/flaky\/([a-z-]+)$/.exec(path);
    if (flaky) {
      const key = `${method} ${flaky[1]}`;
      const n = (attempts.get(key) ?? 0) + 1;
      attempts.set(key, n);
      const done: Answer = method === "GET" ? { status: 200, body: { attempts: n } } : { status: 204 };
      switch (flaky[1]) {
        case "seconds":
          return n === 1 ? busy("1") : done;
        case "date":
          return n === 1
            ? {
                status: 429,
                body: { message: "slow down" },
                headers: { "retry-after": new Date(Date.now() + 1000).toUTCString() },
              }
            : done;
        case "always":
          return busy("0");
        case "far":
          return busy("3600");
        case "cancel":
          return busy("2");
        default:
          return refuse("no such flaky resource");
      }
    }
    if (method === "POST" && path === "/v1/uploads") {
      const type = headers["content-type"] ?? refuse("no content type");
      if (!type.startsWith("multipart/form-data; boundary=")) refuse(`content type ${type}`);
      const form = await new Response(bytes, { headers: { "content-type": type } }).formData();
      const parts = await Promise.all(
        [...form.entries()].map(async ([name, value]) =>
          typeof value === "string"
            ? { name, text: value }
            : {
                name,
                filename: value.name,
                type: value.type,
                base64: Buffer.from(await value.arrayBuffer()).toString("base64"),
              },
        ),
      );
      return { status: 200, body: { parts } };
    }
    if (method === "GET" && path === "/v1/search") {
      const expected = `filter=${encodeURIComponent('{"tag":"a b&c (1)","min":2}').replace(/[()]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}&page=2`;
      if (rawQuery !== expected) refuse(`query ${rawQuery}, not ${expected}`);
      if (headers["x-context"] !== '{"user":"ada"}') refuse(`X-Context ${headers["x-context"]}`);
      return { status: 200, body: { found: 1 } };
    }
    if (method === "POST" && path === "/v1/notes") {
      if (headers["content-type"] !== "application/xml") refuse(`content type ${headers["content-type"]}`);
      if (bytes.toString("utf8") !== note) refuse(`body ${bytes.toString("utf8")}`);
      return { status: 201, body: "stored", type: "text/plain" };
    }
    return refuse("no such operation");
  };
  return { attempts, handler };
}

describe("import openapi: how requests travel", () => {
  let api: ReturnType<typeof filesApi>;
  let upstream: UpstreamServer;
  let client: Client;
  let project: string;

  beforeAll(async () => {
    ({ project } = importProject("upstream-requests", "upstream-requests.yaml", "--name", "files"));
    api = filesApi();
    upstream = await startUpstream(api.handler);
    client = await serve(project, { MCP_UPSTREAM_URL: `${upstream.url}/v1`, MCP_UPSTREAM_TIMEOUT_MS: "5000" });
  }, 300_000);
  afterAll(async () => {
    await client?.close();
    await upstream?.close();
  });
  beforeEach(() => void upstream.unexpected.splice(0));

  describe("retries", () => {
    it("sends a GET again after the Retry-After seconds of a 503, and after the Retry-After date of a 429", async () => {
      expect((await call(client, "readFlaky", { key: "seconds" })).structuredContent).toEqual({ attempts: 2 });
      expect((await call(client, "readFlaky", { key: "date" })).structuredContent).toEqual({ attempts: 2 });
      expect(upstream.unexpected).toEqual([]);
    });

    it("sends a PUT again; never a POST", async () => {
      expect((await call(client, "replaceFlaky", { key: "seconds", body: { value: "x" } })).isError).toBeFalsy();
      expect(api.attempts.get("PUT seconds")).toBe(2);
      const appended = await call(client, "appendFlaky", { key: "always", body: { value: "x" } });
      expect(text(appended)).toBe('POST /v1/flaky/always answered HTTP 503 Service Unavailable: {"message":"busy"}');
      expect(api.attempts.get("POST always")).toBe(1);
    });

    it("gives up after two retries, with the last answer", async () => {
      const result = await call(client, "readFlaky", { key: "always" });
      expect(result.isError).toBe(true);
      expect(text(result)).toBe(
        'GET /v1/flaky/always answered HTTP 503 Service Unavailable (after 3 attempts): {"message":"busy"}',
      );
      expect(api.attempts.get("GET always")).toBe(3);
    });

    it("a Retry-After beyond the timeout is the error at once", async () => {
      const result = await call(client, "readFlaky", { key: "far" });
      expect(text(result)).toBe(
        'GET /v1/flaky/far answered HTTP 503 Service Unavailable (not retried: its Retry-After of 3600 s is beyond what is left of the 5000 ms timeout): {"message":"busy"}',
      );
      expect(api.attempts.get("GET far")).toBe(1);
    });

    it("cancelling the call ends the wait: nothing is sent again", async () => {
      const cancel = new AbortController();
      const pending = call(client, "readFlaky", { key: "cancel" }, { signal: cancel.signal });
      await waitFor(() => api.attempts.get("GET cancel") === 1, 10_000, "the request never reached the API");
      cancel.abort();
      await expect(pending).rejects.toThrow();
      // The API asked for 2 s: a retry would have come by now.
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      expect(api.attempts.get("GET cancel")).toBe(1);
    });
  });

  it("sends multipart files as file parts (name, content type, bytes) and text fields as text; arrays repeat the part", async () => {
    const { tools } = await client.listTools();
    const input = tools.find((t) => t.name === "upload")!.inputSchema as unknown as {
      properties: { body: { properties: Record<string, unknown> } };
    };
    expect(input.properties.body.properties.file).toEqual({
      type: "string",
      contentEncoding: "base64",
      contentMediaType: "application/pdf",
      description: "The report itself",
    });
    const result = await call(client, "upload", {
      body: {
        title: "Q3 report",
        tags: ["a", "b"],
        meta: { pages: 3 },
        file: pdf.toString("base64"),
        attachments: [png.toString("base64"), pdf.toString("base64")],
        thumbnail: png.toString("base64"),
        scan: pdf.toString("base64"),
      },
    });
    expect(upstream.unexpected).toEqual([]);
    const file = (name: string, type: string, bytes: Buffer) => ({
      name,
      filename: name,
      type,
      base64: bytes.toString("base64"),
    });
    expect(result.structuredContent).toEqual({
      parts: [
        { name: "title", text: "Q3 report" },
        { name: "tags", text: "a" },
        { name: "tags", text: "b" },
        { name: "meta", text: '{"pages":3}' },
        file("file", "application/pdf", pdf),
        file("attachments", "application/octet-stream", png),
        file("attachments", "application/octet-stream", pdf),
        file("thumbnail", "image/png", png),
        file("scan", "application/octet-stream", pdf),
      ],
    });
  });

  it("writes parameters described by content as their media type (JSON), percent-encoded in the query", async () => {
    const result = await call(client, "search", {
      filter: { tag: "a b&c (1)", min: 2 },
      "X-Context": { user: "ada" },
      page: 2,
    });
    expect(upstream.unexpected).toEqual([]);
    expect(result.structuredContent).toEqual({ found: 1 });
  });

  it("sends an XML body as it is, with its content type", async () => {
    const result = await call(client, "addNote", { body: note });
    expect(upstream.unexpected).toEqual([]);
    expect(text(result)).toBe("stored");
  });
});
