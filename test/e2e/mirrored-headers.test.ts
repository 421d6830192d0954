// SEP-2243 over real HTTP: the everything example's search_notes declares
// `tag: { x-mcp-header: Tag }`, so a 2026-07-28 tools/call mirrors the argument into an
// Mcp-Param-Tag header and the server rejects a request whose header disagrees with the
// body (400, -32020 HeaderMismatch). The generated client mirrors it by itself.
import { httpChannel } from "@mcp-gen/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectNotesClient } from "../../examples/everything/src/mcp/index.js";
import { startHttpServer, stopAllChildren, type HttpServerProcess } from "./helpers.js";
import { join } from "node:path";
import { repoRoot } from "../support/paths.js";

const main = join(repoRoot, "examples", "everything", "src", "main.ts");
let server: HttpServerProcess;

beforeAll(async () => {
  server = await startHttpServer(main, "--http", "--port", "0");
}, 90_000);
afterAll(stopAllChildren);

const call = (args: Record<string, unknown>) => ({
  jsonrpc: "2.0",
  id: 7,
  method: "tools/call",
  params: {
    name: "search_notes",
    arguments: args,
    _meta: {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": {},
    },
  },
});

/** POSTs a modern tools/call of search_notes with the standard headers and `extra`. */
async function post(args: Record<string, unknown>, extra: Record<string, string>) {
  const response = await fetch(server.url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": "search_notes",
      ...extra,
    },
    body: JSON.stringify(call(args)),
  });
  const body = (await response.json()) as {
    result?: { content: { type: string; name?: string }[] };
    error?: { code: number; message: string };
  };
  return { status: response.status, body };
}

describe("Mcp-Param-* headers (2026-07-28, x-mcp-header)", () => {
  it("the generated client mirrors the argument and the server accepts it", async () => {
    const client = await connectNotesClient(httpChannel(server.url), { revisions: ["2026-07-28"] });
    try {
      expect(client.session.revision).toBe("2026-07-28");
      const result = await client.tools.searchNotes({ query: "beta", tag: "launch" });
      expect(result.content).toMatchObject([{ type: "resource_link", name: "launch-plan" }]);
      const none = await client.tools.searchNotes({ query: "beta", tag: "home" });
      expect(none.content).toMatchObject([{ type: "text", text: 'No note matches "beta" with tag #home' }]);
      const untagged = await client.tools.searchNotes({ query: "milk" });
      expect(untagged.content).toMatchObject([{ type: "resource_link", name: "groceries" }]);
    } finally {
      await client.close();
    }
  });

  it.each([
    ["a literal value equal to the argument", { tag: "launch" }, { "mcp-param-tag": "launch" }],
    [
      "a canonical base64 sentinel of the argument",
      { tag: "launch" },
      { "mcp-param-tag": `=?base64?${btoa("launch")}?=` },
    ],
    [
      "a value that only looks like a sentinel, taken literally",
      { tag: "=?base64?bGF1bmNo" },
      { "mcp-param-tag": "=?base64?bGF1bmNo" },
    ],
    ["no header when the argument is absent", {}, {}],
  ])("accepts %s", async (_, args, headers) => {
    const { status, body } = await post({ query: "beta", ...args }, headers);
    expect({ status, error: body.error }).toEqual({ status: 200, error: undefined });
    expect(body.error).toBeUndefined();
    expect(body.result?.content.length).toBeGreaterThan(0);
  });

  it.each([
    ["a missing header for a present argument", { tag: "launch" }, {}, "required header Mcp-Param-Tag is missing"],
    [
      "a different value",
      { tag: "launch" },
      { "mcp-param-tag": "home" },
      "Mcp-Param-Tag header value 'home' does not match argument 'tag'",
    ],
    [
      "base64 without its padding",
      { tag: "Hello" },
      { "mcp-param-tag": "=?base64?SGVsbG8?=" },
      "Mcp-Param-Tag header has an invalid base64 value",
    ],
    [
      "base64 with characters outside the alphabet",
      { tag: "Hello" },
      { "mcp-param-tag": "=?base64?SGVs!!!bG8=?=" },
      "Mcp-Param-Tag header has an invalid base64 value",
    ],
    [
      "a header for an absent argument",
      {},
      { "mcp-param-tag": "launch" },
      "Mcp-Param-Tag header is present but argument 'tag' is not",
    ],
  ])("rejects %s with 400 and HeaderMismatch", async (_, args, headers, reason) => {
    const { status, body } = await post({ query: "beta", ...args }, headers);
    expect(status).toBe(400);
    expect(body.error).toEqual({ code: -32020, message: `Header mismatch: ${reason}` });
  });
});
