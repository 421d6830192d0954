// The everything example over a real child process's stdio, driven by the official SDK v1
// client (@modelcontextprotocol/sdk, legacy 2025-11-25 session): the server's own requests
// (the typed elicitation form, URL-mode elicitation) reach the client, and switching tools
// off when the workspace empties sends notifications/tools/list_changed.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ElicitRequestSchema, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../support/paths.js";
import { tsxCommand } from "./helpers.js";

const main = join(repoRoot, "examples", "everything", "src", "main.ts");
let client: Client;
const asked: { mode?: string; message: string }[] = [];
let listChanges = 0;

beforeAll(async () => {
  client = new Client(
    { name: "e2e-sdk-v1", version: "1.0.0" },
    { capabilities: { elicitation: { form: {}, url: {} } } },
  );
  client.setRequestHandler(ElicitRequestSchema, (request) => {
    const params = request.params as { mode?: string; message: string };
    asked.push({ ...(params.mode === undefined ? {} : { mode: params.mode }), message: params.message });
    return params.mode === "url" ? { action: "accept" } : { action: "accept", content: { confirm: true } };
  });
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    listChanges++;
  });
  await client.connect(new StdioClientTransport({ ...tsxCommand(main), stderr: "pipe" }));
}, 90_000);
afterAll(async () => {
  await client?.close().catch(() => {});
});

const texts = (content: unknown) =>
  (content as { type: string; text?: string }[]).flatMap((c) =>
    c.type === "text" && c.text !== undefined ? [c.text] : [],
  );

describe("SDK v1 client → everything example over stdio (2025-11-25)", () => {
  it("sees tools.listChanged in the capabilities", () => {
    expect(client.getServerCapabilities()).toMatchObject({ tools: { listChanged: true } });
  });

  it("answers URL-mode and form elicitations sent over the session", async () => {
    const calendar = await client.callTool({ name: "connect_calendar", arguments: {} });
    expect(texts(calendar.content)).toEqual(["Calendar connection started: finish it in your browser"]);
    const deleted = await client.callTool({ name: "delete_note", arguments: { id: "groceries" } });
    expect(texts(deleted.content)).toEqual(['Deleted "Groceries"']);
    expect(asked).toEqual([
      { mode: "url", message: "Connect your calendar so that notes can link to events" },
      { message: 'Delete "Groceries"? This cannot be undone.' },
    ]);
  });

  it("hears tools/list_changed once when the workspace empties (four tools switched off in one go), and the list shrinks", async () => {
    await client.callTool({ name: "delete_note", arguments: { id: "launch-plan" } });
    await expect.poll(() => listChanges).toBe(1);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["add_note", "search_notes", "reindex", "list_roots", "connect_calendar"]);
    // stdio keeps order: whatever the server sent before the list's answer has arrived.
    expect(listChanges).toBe(1);
  });
});
