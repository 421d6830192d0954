// The everything example served over real HTTP to the official SDK v2 client
// (@modelcontextprotocol/client, 2026-07-28 via server/discover): the client mirrors the
// x-mcp-header argument of search_notes into Mcp-Param-Tag (which our server checks), and
// answers the typed elicitation form of delete_note through an input_required round trip.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../support/paths.js";
import { startHttpServer, stopAllChildren, type HttpServerProcess } from "./helpers.js";

const main = join(repoRoot, "examples", "everything", "src", "main.ts");
let server: HttpServerProcess;
let client: Client;
const asked: unknown[] = [];

beforeAll(async () => {
  server = await startHttpServer(main, "--http", "--port", "0");
  client = new Client(
    { name: "e2e-sdk-v2", version: "2.0.0" },
    { versionNegotiation: { mode: "auto" }, capabilities: { elicitation: { form: {} } } },
  );
  client.setRequestHandler("elicitation/create", (request) => {
    asked.push(request.params);
    return { action: "accept", content: { confirm: true, reason: "tidy up" } };
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
}, 90_000);
afterAll(async () => {
  await client?.close().catch(() => {});
  await stopAllChildren();
});

const texts = (content: unknown) =>
  (content as { type: string; text?: string }[]).flatMap((c) =>
    c.type === "text" && c.text !== undefined ? [c.text] : [],
  );

describe("SDK v2 client → everything example over HTTP (2026-07-28)", () => {
  it("negotiates 2026-07-28 and sees search_notes' x-mcp-header declaration", async () => {
    expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    const { tools } = await client.listTools();
    const search = tools.find((t) => t.name === "search_notes");
    expect(search?.inputSchema.properties).toMatchObject({ tag: { type: "string", "x-mcp-header": "Tag" } });
  });

  it("calls search_notes with a tag: the SDK mirrors it as Mcp-Param-Tag and the server accepts the call", async () => {
    const result = await client.callTool({ name: "search_notes", arguments: { query: "beta", tag: "launch" } });
    expect(result.isError).toBeFalsy();
    expect(result.content).toMatchObject([{ type: "resource_link", name: "launch-plan" }]);
  });

  it("answers delete_note's typed form (ctx.elicit.confirmDelete) through input_required", async () => {
    const result = await client.callTool({ name: "delete_note", arguments: { id: "groceries" } });
    expect(texts(result.content)).toEqual(['Deleted "Groceries"']);
    expect(asked).toMatchObject([
      {
        message: 'Delete "Groceries"? This cannot be undone.',
        requestedSchema: { type: "object", properties: { confirm: { type: "boolean" } }, required: ["confirm"] },
      },
    ]);
  });
});
