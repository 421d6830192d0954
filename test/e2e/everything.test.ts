// The "everything" example (a notes workspace using every feature of the generator and
// runtime) served in-process and driven through its generated typed client, on a modern
// (2026-07-28) and a legacy (2025-11-25) session: every content kind, structured output,
// progress, logging, elicitation, sampling and roots through ctx.input, resources (text,
// blob, subscription), a resource template, completion and both kinds of prompts.
import { memoryChannel, MetaKey, type Params } from "@mcp-gen/runtime";
import { afterEach, describe, expect, it } from "vitest";
import { createHandlers, INDEX_URI, pngBase64 } from "../../examples/everything/src/handlers.js";
import {
  connectNotesClient,
  createNotesServer,
  type NotesClient,
  type Revision,
} from "../../examples/everything/src/mcp/index.js";

const clients: NotesClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

async function connect(revision: Revision) {
  const asked: string[] = [];
  const notifications: { method: string; params: Params | undefined }[] = [];
  const logs: { level: string; data: unknown }[] = [];
  const server = createNotesServer(createHandlers({ changed: (uri) => server.notifyResourceUpdated(uri) }));
  const client = await connectNotesClient(memoryChannel(server), {
    revisions: [revision],
    capabilities: { elicitation: {}, sampling: {}, roots: { listChanged: true } },
    requests: {
      "elicitation/create": (params) => {
        asked.push(`elicitation: ${String(params?.message)}`);
        return { action: "accept", content: { confirm: true, reason: "done" } };
      },
      "sampling/createMessage": () => {
        asked.push("sampling");
        return {
          role: "assistant",
          content: { type: "text", text: "Buy breakfast things." },
          model: "test-model",
          stopReason: "endTurn",
        };
      },
      "roots/list": () => {
        asked.push("roots");
        return { roots: [{ uri: "file:///home/me/notes", name: "notes" }] };
      },
    },
    notifications: { "notifications/message": ({ level, data }) => logs.push({ level, data }) },
    onNotification: (method, params) => notifications.push({ method, params }),
  });
  clients.push(client);
  return { client, server, asked, notifications, logs };
}

const texts = (content: readonly { type: string }[]) =>
  content.flatMap((c) => ("text" in c && typeof c.text === "string" ? [c.text] : []));

/** A raw 2026-07-28 peer of `server` holding a subscriptions/listen stream ("listen-1") for `notifications`, and every message it got. */
function listenTo(server: ReturnType<typeof createNotesServer>, notifications: Params) {
  const messages: { method?: string; params?: Record<string, unknown> }[] = [];
  const peer = server.connect({
    send: (m) => messages.push(JSON.parse(JSON.stringify(m)) as (typeof messages)[number]),
  });
  const _meta = { [MetaKey.protocolVersion]: "2026-07-28", [MetaKey.clientCapabilities]: {} };
  peer.receive({ jsonrpc: "2.0", id: "listen-1", method: "subscriptions/listen", params: { _meta, notifications } });
  return {
    messages,
    close: () => peer.receive({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "listen-1" } }),
  };
}

describe.each(["2026-07-28", "2025-11-25"] as const)("everything example (%s)", (revision) => {
  const era = revision === "2026-07-28" ? "modern" : "legacy";

  it("negotiates the revision and describes itself", async () => {
    const { client } = await connect(revision);
    expect(client.session.server).toMatchObject({ era, revision, info: { name: "notes", title: "Notes workspace" } });
    const tools = await client.session.request("tools/list", {});
    expect(tools.tools.map((t) => t.name)).toEqual([
      "add_note",
      "get_note",
      "search_notes",
      "note_media",
      "reindex",
      "delete_note",
      "summarize_note",
      "list_roots",
      "connect_calendar",
    ]);
    expect(tools.tools.find((t) => t.name === "delete_note")).toMatchObject({
      title: "Delete note",
      annotations: { destructiveHint: true },
    });
    expect(tools.tools.find((t) => t.name === "reindex")).toMatchObject({ icons: [{ mimeType: "image/png" }] });
  });

  it("tools: structured output, every content kind, embedded resource annotations", async () => {
    const { client } = await connect(revision);
    const added = await client.tools.addNote({ title: "Book club", body: "Read chapter three" });
    expect(added.isError).toBeFalsy();
    if (added.isError) return;
    expect(added.structuredContent).toMatchObject({ id: "book-club", title: "Book club", tags: [], words: 3 });

    const note = await client.tools.getNote({ id: "book-club" });
    expect(note.content.map((c) => c.type)).toEqual(["text", "resource_link", "resource"]);
    expect(note.content[1]).toMatchObject({ uri: "notes://notes/book-club", name: "book-club" });
    expect(note.content[2]).toMatchObject({
      resource: { uri: "notes://notes/book-club", mimeType: "text/markdown" },
      annotations: { audience: ["assistant"], priority: 0.8 },
    });

    const media = await client.tools.noteMedia({ id: "groceries" });
    expect(media.content).toMatchObject([
      { type: "image", data: pngBase64, mimeType: "image/png" },
      { type: "audio", mimeType: "audio/wav" },
    ]);
    const missing = await client.tools.getNote({ id: "nope" });
    expect(missing.isError).toBe(true);
  });

  it("progress notifications reach onProgress; logs arrive as notifications", async () => {
    const { client, notifications, logs } = await connect(revision);
    const progress: number[] = [];
    const result = await client.tools.reindex(
      { delayMs: 1 },
      { onProgress: (p) => progress.push(p.progress), meta: { [MetaKey.logLevel]: "info" } },
    );
    expect(texts(result.content)).toEqual(["Reindexed 2 notes"]);
    expect(progress).toEqual([1, 2]);
    if (era === "legacy") await client.session.request("logging/setLevel", { level: "info" });
    await client.tools.addNote({ title: "Logged", body: "x" }, { meta: { [MetaKey.logLevel]: "info" } });
    expect(notifications.filter((n) => n.method === "notifications/message").map((n) => n.params?.data)).toContainEqual(
      { event: "note_added", id: "logged" },
    );
    // The typed listener saw the same messages, before the catch-all.
    expect(logs).toContainEqual({ level: "info", data: { event: "note_added", id: "logged" } });
    expect(logs).toHaveLength(notifications.filter((n) => n.method === "notifications/message").length);
  });

  it("tools ask the client through ctx.input: elicitation, sampling, roots", async () => {
    const { client, asked } = await connect(revision);
    expect(texts((await client.tools.deleteNote({ id: "groceries" })).content)).toEqual(['Deleted "Groceries"']);
    expect(texts((await client.tools.summarizeNote({ id: "launch-plan" })).content)).toEqual([
      "Launch plan: Buy breakfast things.",
    ]);
    expect(texts((await client.tools.listRoots()).content)).toEqual(["notes: file:///home/me/notes"]);
    expect(asked).toEqual(['elicitation: Delete "Groceries"? This cannot be undone.', "sampling", "roots"]);
    expect(texts((await client.tools.getNote({ id: "groceries" })).content)[0]).toMatch(/^No note groceries/);
  });

  it("typed elicitation form (ctx.elicit.confirmDelete): an answer that does not fit the form is refused, declining keeps the note", async () => {
    const server = createNotesServer(createHandlers({ changed: () => {} }));
    const answers = [
      { action: "accept" as const, content: { confirm: "yes" } },
      { action: "accept" as const, content: { confirm: true, colour: "red" } },
      { action: "decline" as const },
    ];
    const client = await connectNotesClient(memoryChannel(server), {
      revisions: [revision],
      capabilities: { elicitation: {} },
      requests: { "elicitation/create": () => answers.shift()! },
    });
    clients.push(client);
    const wrongType = await client.tools.deleteNote({ id: "groceries" });
    expect(wrongType).toMatchObject({ isError: true });
    expect(texts(wrongType.content)).toEqual([
      "The client's answer to form confirmDelete does not fit it: field 'confirm' must be boolean",
    ]);
    const extraField = await client.tools.deleteNote({ id: "groceries" });
    expect(texts(extraField.content)).toEqual([
      "The client's answer to form confirmDelete does not fit it: unknown field 'colour'",
    ]);
    expect(texts((await client.tools.deleteNote({ id: "groceries" })).content)).toEqual(['Kept "Groceries" (decline)']);
    expect(texts((await client.tools.getNote({ id: "groceries" })).content)[0]).toMatch(/^Groceries/);
  });

  it("URL-mode elicitation needs elicitation.url: without it -32021 names the mode, with it the client gets the link", async () => {
    const { client } = await connect(revision); // declares elicitation: {} (form mode only)
    await expect(client.tools.connectCalendar()).rejects.toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { elicitation: { url: {} } } },
    });
    const seen: unknown[] = [];
    const withUrl = await connectNotesClient(memoryChannel(createNotesServer(createHandlers({ changed: () => {} }))), {
      revisions: [revision],
      capabilities: { elicitation: { form: {}, url: {} } },
      requests: {
        "elicitation/create": (params) => {
          seen.push(params);
          return { action: "accept" };
        },
      },
    });
    clients.push(withUrl);
    expect(texts((await withUrl.tools.connectCalendar()).content)).toEqual([
      "Calendar connection started: finish it in your browser",
    ]);
    expect(seen).toMatchObject([
      {
        mode: "url",
        url: "https://calendar.example.com/oauth/authorize?client=notes",
        elicitationId: "connect-calendar",
      },
    ]);
  });

  it("cache hints: lists and discovery as `server.cache` says, the logo as its own `cache`, other reads stale and private", async () => {
    const { client } = await connect(revision);
    const hints = (result: object) => ({
      ttlMs: (result as { ttlMs?: unknown }).ttlMs,
      cacheScope: (result as { cacheScope?: unknown }).cacheScope,
    });
    const none = { ttlMs: undefined, cacheScope: undefined };
    const modern = era === "modern";
    expect(hints(await client.session.request("tools/list", {}))).toEqual(
      modern ? { ttlMs: 60000, cacheScope: "public" } : none,
    );
    expect(hints(await client.session.request("resources/templates/list", {}))).toEqual(
      modern ? { ttlMs: 60000, cacheScope: "public" } : none,
    );
    expect(hints(await client.resources.logo())).toEqual(modern ? { ttlMs: 86400000, cacheScope: "public" } : none);
    expect(hints(await client.resources.index())).toEqual(modern ? { ttlMs: 0, cacheScope: "private" } : none);
    expect(hints(await client.resourceTemplates.note({ id: "groceries" }))).toEqual(
      modern ? { ttlMs: 0, cacheScope: "private" } : none,
    );
    if (modern)
      expect(hints(await client.session.request("server/discover", {}))).toEqual({
        ttlMs: 60000,
        cacheScope: "public",
      });
  });

  it("resources: text, blob and template reads; completion of the template variable and the prompt argument", async () => {
    const { client } = await connect(revision);
    const index = await client.resources.index();
    expect(index.contents[0]).toMatchObject({ uri: INDEX_URI, mimeType: "text/markdown" });
    expect("text" in index.contents[0]! && index.contents[0].text).toContain("[Groceries](notes://notes/groceries)");
    const logo = await client.resources.logo();
    expect(logo.contents[0]).toMatchObject({ uri: "notes://logo.png", mimeType: "image/png", blob: pngBase64 });
    const note = await client.resourceTemplates.note({ id: "launch-plan" });
    expect("text" in note.contents[0]! && note.contents[0].text).toMatch(/^# Launch plan/);

    const byTemplate = await client.session.request("completion/complete", {
      ref: { type: "ref/resource", uri: "notes://notes/{id}" },
      argument: { name: "id", value: "l" },
    });
    expect(byTemplate.completion.values).toEqual(["launch-plan"]);
    const byPrompt = await client.session.request("completion/complete", {
      ref: { type: "ref/prompt", name: "review_note" },
      argument: { name: "id", value: "g" },
    });
    expect(byPrompt.completion.values).toEqual(["groceries"]);
  });

  it("prompts: declarative with conditionals, handler-based with an embedded resource and an image", async () => {
    const { client } = await connect(revision);
    const long = await client.prompts.draftNote({ topic: "gardening" });
    expect(long.messages).toEqual([
      {
        role: "user",
        content: {
          type: "text",
          text: "Draft a note about gardening for myself. Use headings and a short list of next steps.",
        },
      },
    ]);
    const short = await client.prompts.draftNote({ topic: "gardening", audience: "my team", brief: "yes" });
    expect(short.messages[0]!.content).toEqual({
      type: "text",
      text: "Draft a note about gardening for my team. Three sentences at most.",
    });
    const review = await client.prompts.reviewNote({ id: "groceries", focus: "clarity" });
    expect(review.messages.map((m) => m.content.type)).toEqual(["resource", "image", "text"]);
    expect(review.messages[0]!.content).toMatchObject({ resource: { uri: "notes://notes/groceries" } });
  });
});

describe("resource subscriptions (legacy session)", () => {
  it("a tool that changes the index notifies the subscribed client", async () => {
    const { client, notifications } = await connect("2025-11-25");
    expect(client.session.server.capabilities).toMatchObject({ resources: { subscribe: true } });
    await client.session.request("resources/subscribe", { uri: INDEX_URI });
    await client.tools.addNote({ title: "Watched", body: "a change" });
    await expect
      .poll(() => notifications.filter((n) => n.method === "notifications/resources/updated").map((n) => n.params?.uri))
      .toEqual([INDEX_URI]);
  });

  it("every URI the handlers announce can be subscribed to: deleting a note tells the index's and the note's subscribers", async () => {
    const { client, notifications } = await connect("2025-11-25");
    await client.session.request("resources/subscribe", { uri: INDEX_URI });
    await client.session.request("resources/subscribe", { uri: "notes://notes/groceries" });
    await client.tools.deleteNote({ id: "groceries" });
    await expect
      .poll(() => notifications.filter((n) => n.method === "notifications/resources/updated").map((n) => n.params?.uri))
      .toEqual([INDEX_URI, "notes://notes/groceries"]);
    // Announcing a resource nobody subscribed to sends nothing.
    const before = notifications.length;
    await client.tools.deleteNote({ id: "launch-plan" });
    await expect
      .poll(() => notifications.filter((n) => n.method === "notifications/resources/updated").map((n) => n.params?.uri))
      .toEqual([INDEX_URI, "notes://notes/groceries", INDEX_URI]);
    expect(notifications.slice(before).some((n) => n.params?.uri === "notes://notes/launch-plan")).toBe(false);
  });

  it("modern: a subscriptions/listen stream may watch a note", async () => {
    const server = createNotesServer(createHandlers({ changed: (uri) => server.notifyResourceUpdated(uri) }));
    const { messages, close } = listenTo(server, {
      resourceSubscriptions: ["notes://notes/groceries", "notes://logo.png"],
    });
    expect(messages[0]?.params?.notifications).toEqual({ resourceSubscriptions: ["notes://notes/groceries"] });
    expect(server.notifyResourceUpdated("notes://notes/groceries")).toBe(1);
    expect(server.notifyResourceUpdated("notes://logo.png")).toBe(0);
    close();
  });
});

describe("list changes (server.listChanged: [tools])", () => {
  /** The server wired as main.ts wires it: tools that need a note are off while the workspace is empty. */
  function workspaceServer() {
    const server = createNotesServer(
      createHandlers({
        changed: (uri) => server.notifyResourceUpdated(uri),
        emptied: (empty) => {
          for (const tool of ["get_note", "note_media", "delete_note", "summarize_note"] as const)
            server.setEnabled("tools", tool, !empty);
        },
      }),
    );
    return server;
  }
  const toolNames = async (client: NotesClient) =>
    (await client.session.request("tools/list", {})).tools.map((t) => t.name);

  it("legacy: emptying the workspace switches tools off, the session hears list_changed, and they come back", async () => {
    const server = workspaceServer();
    const changes: string[] = [];
    const client = await connectNotesClient(memoryChannel(server), {
      revisions: ["2025-11-25"],
      capabilities: { elicitation: {} },
      requests: { "elicitation/create": () => ({ action: "accept", content: { confirm: true } }) },
      notifications: { "notifications/tools/list_changed": () => changes.push("tools") },
    });
    clients.push(client);
    expect(client.session.server.capabilities).toMatchObject({ tools: { listChanged: true } });
    expect(client.session.server.capabilities.prompts).toEqual({});
    await client.tools.deleteNote({ id: "groceries" });
    expect(changes).toEqual([]);
    await client.tools.deleteNote({ id: "launch-plan" });
    // Four tools switched off in one go: one notification.
    await expect.poll(() => changes.length).toBe(1);
    expect(await toolNames(client)).toEqual(["add_note", "search_notes", "reindex", "list_roots", "connect_calendar"]);
    expect(server.isEnabled("tools", "get_note")).toBe(false);
    // A disabled tool answers as an unknown one.
    await expect(
      client.session.request("tools/call", { name: "get_note", arguments: { id: "x" } }),
    ).rejects.toMatchObject({ code: -32602, message: "Unknown tool: get_note" });
    await client.tools.addNote({ title: "Fresh", body: "start again" });
    await expect.poll(() => changes.length).toBe(2);
    expect(await toolNames(client)).toContain("get_note");
    // Nothing more arrives later.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(changes).toEqual(["tools", "tools"]);
  });

  it("modern: subscriptions/listen with toolsListChanged hears the change on its stream; undeclared lists are not acknowledged", async () => {
    const server = workspaceServer();
    const { messages, close } = listenTo(server, { toolsListChanged: true, promptsListChanged: true });
    expect(messages[0]).toMatchObject({
      method: "notifications/subscriptions/acknowledged",
      params: { _meta: { [MetaKey.subscriptionId]: "listen-1" }, notifications: { toolsListChanged: true } },
    });
    expect(messages[0]!.params!.notifications).not.toHaveProperty("promptsListChanged");
    // Several switches in one go, one of them no change: one notification, after them.
    server.setEnabled("tools", "reindex", false);
    server.setEnabled("tools", "reindex", false);
    server.setEnabled("tools", "list_roots", false);
    server.setEnabled("tools", "search_notes", false);
    expect(messages.length).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 10));
    const changed = {
      jsonrpc: "2.0",
      method: "notifications/tools/list_changed",
      params: { _meta: { [MetaKey.subscriptionId]: "listen-1" } },
    };
    expect(messages.slice(1)).toEqual([changed]);
    // A later switch is announced again; notifyListChanged in the same go covers it (sent at once, not twice).
    server.setEnabled("tools", "reindex", true);
    expect(server.notifyListChanged("tools")).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(messages.slice(1)).toEqual([changed, changed]);
    expect(server.notifyListChanged("prompts")).toBe(0); // not declared listChanged
    close();
    expect(server.notifyListChanged("tools")).toBe(0);
  });

  it("setEnabled refuses names the server does not have, and lists the manifest does not declare listChanged", () => {
    const server = workspaceServer();
    // @ts-expect-error not a tool of this server (typed by NotesNames)
    expect(() => server.setEnabled("tools", "no_such_tool", false)).toThrow(
      'setEnabled: no tools entry "no_such_tool"',
    );
    expect(() => server.setEnabled("resources", "notes://index", false)).toThrow(
      "setEnabled: declare `listChanged: [resources]` in the manifest",
    );
    expect(server.isEnabled("resources", "notes://index")).toBe(true);
  });
});
