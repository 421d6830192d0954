// Requests a server sends its client depend on the negotiated revision, not only on the
// capabilities the client declares: elicitation/create exists from 2025-06-18, its URL
// mode from 2025-11-25. Clients of earlier revisions that declare `elicitation` anyway
// (the official Python SDK does) get -32021 MissingRequiredClientCapability for the call
// that needed it, and nothing is sent to them. Driven by the official SDK v1 client
// pinned to older revisions over a real child process's stdio, and by the runtime's own
// client in-process for every revision.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { CreateMessageRequestSchema, ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { memoryChannel as notesChannel } from "@mcp-gen/runtime";
import {
  connectSession,
  memoryChannel,
  RpcError,
  type ClientSession,
  type JsonObject,
  type Params,
} from "../../runtime/index.js";
import { createHandlers } from "../../examples/everything/src/handlers.js";
import {
  connectNotesClient,
  createNotesServer,
  type NotesClient,
  type Revision,
} from "../../examples/everything/src/mcp/index.js";
import { handlers } from "../conformance/server/handlers.js";
import { createConformanceServer } from "../conformance/server/mcp/index.js";
import { repoRoot } from "../support/paths.js";
import { stopAllChildren, tsxCommand } from "./helpers.js";
import { NegotiationRecorder } from "./negotiation.js";

const everythingMain = join(repoRoot, "examples", "everything", "src", "main.ts");
/** What the official Python SDK client declares whatever revision it negotiates. */
const everyCapability = { elicitation: { form: {}, url: {} }, sampling: {}, roots: { listChanged: true } };

const texts = (content: unknown) =>
  (content as { type: string; text?: string }[]).flatMap((c) =>
    c.type === "text" && c.text !== undefined ? [c.text] : [],
  );

async function rejection(promise: Promise<unknown>): Promise<{ code?: unknown; data?: unknown; message?: unknown }> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e as { code?: unknown; data?: unknown; message?: unknown },
  );
  expect(error, "the call should have failed").toBeDefined();
  return error!;
}

afterAll(stopAllChildren);

describe.each(["2025-03-26", "2024-11-05"])(
  "SDK v1 client pinned to %s, declaring elicitation (form and url) → everything example over stdio",
  (revision) => {
    let client: Client;
    let wire: NegotiationRecorder;
    const asked: unknown[] = [];

    beforeAll(async () => {
      client = new Client({ name: "e2e-sdk-v1-old", version: "1.0.0" }, { capabilities: everyCapability });
      client.setRequestHandler(ElicitRequestSchema, (request) => {
        asked.push(request.params);
        return { action: "accept", content: { confirm: true } };
      });
      client.setRequestHandler(CreateMessageRequestSchema, () => {
        asked.push("sampling");
        return { role: "assistant", content: { type: "text", text: "A short summary." }, model: "test-model" };
      });
      wire = new NegotiationRecorder(
        new StdioClientTransport({ ...tsxCommand(everythingMain), stderr: "pipe" }),
        revision,
      );
      await client.connect(wire as unknown as Transport);
    }, 90_000);
    afterAll(async () => {
      await client?.close().catch(() => {});
    });

    it("negotiates the older revision", () => {
      expect(wire.negotiated).toBe(revision);
    });

    it("URL-mode elicitation is -32021 naming elicitation, and nothing reaches the client", async () => {
      const error = await rejection(client.callTool({ name: "connect_calendar", arguments: {} }));
      expect(error.code).toBe(-32021);
      expect(error.data).toEqual({ requiredCapabilities: { elicitation: {} } });
      expect(String(error.message)).toContain(`protocol ${revision} has no elicitation/create`);
      expect(asked).toEqual([]);
    });

    it("form elicitation is -32021 too: the revision has no elicitation at all", async () => {
      const error = await rejection(client.callTool({ name: "delete_note", arguments: { id: "groceries" } }));
      expect(error.code).toBe(-32021);
      expect(asked).toEqual([]);
    });

    it("sampling, which the revision has, still reaches the client", async () => {
      const result = await client.callTool({ name: "summarize_note", arguments: { id: "launch-plan" } });
      expect(texts(result.content)).toEqual(["Launch plan: A short summary."]);
      expect(asked).toEqual(["sampling"]);
    });
  },
);

describe("the runtime's client, in-process", () => {
  const open: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((c) => c.close()));
  });

  async function notes(revision: Revision, capabilities: JsonObject = everyCapability) {
    const asked: Params[] = [];
    const client: NotesClient = await connectNotesClient(
      notesChannel(createNotesServer(createHandlers({ changed: () => {} }))),
      {
        revisions: [revision],
        capabilities,
        requests: {
          "elicitation/create": (params) => {
            asked.push(params as Params);
            return (params as { mode?: string } | undefined)?.mode === "url"
              ? { action: "accept" }
              : { action: "decline" };
          },
        },
      },
    );
    open.push(client);
    return { client, asked };
  }

  async function conformance(revision: string): Promise<{ session: ClientSession; asked: string[] }> {
    const asked: string[] = [];
    const session = await connectSession(memoryChannel(createConformanceServer(handlers)), {
      revisions: [revision],
      capabilities: everyCapability,
      requests: {
        "elicitation/create": () => (
          asked.push("elicitation"),
          { action: "accept", content: { username: "a", email: "b" } }
        ),
        "sampling/createMessage": () => (
          asked.push("sampling"),
          { role: "assistant", content: { type: "text", text: "Paris" }, model: "m" }
        ),
      },
    });
    open.push(session);
    return { session, asked };
  }

  it.each(["2025-03-26", "2024-11-05"])(
    "%s: ctx.input of a form elicitation is -32021 (elicitation), before anything is sent",
    async (revision) => {
      const { session, asked } = await conformance(revision);
      const error = await rejection(
        session.rawRequest("tools/call", { name: "test_elicitation", arguments: { message: "Who are you?" } }),
      );
      expect(error).toBeInstanceOf(RpcError);
      expect(error.code).toBe(-32021);
      expect(error.data).toEqual({ requiredCapabilities: { elicitation: {} } });
      expect(asked).toEqual([]);
      // Sampling exists in this revision: it is sent.
      expect(
        texts(
          (await session.rawRequest("tools/call", { name: "test_sampling", arguments: { prompt: "Capital?" } }))
            .content,
        ),
      ).toEqual(["LLM response: Paris"]);
      expect(asked).toEqual(["sampling"]);
    },
  );

  it("2025-06-18: form elicitation is sent, URL mode is -32021 naming the url mode even when the client declares it", async () => {
    const { client, asked } = await notes("2025-06-18");
    expect(texts((await client.tools.deleteNote({ id: "groceries" })).content)).toEqual(['Kept "Groceries" (decline)']);
    expect(asked).toHaveLength(1);
    expect(asked[0]!.mode).toBeUndefined();
    const error = await rejection(client.tools.connectCalendar());
    expect(error.code).toBe(-32021);
    expect(error.data).toEqual({ requiredCapabilities: { elicitation: { url: {} } } });
    expect(String(error.message)).toContain("protocol 2025-06-18 has no elicitation/create in url mode");
    expect(asked).toHaveLength(1);
  });

  it.each(["2025-11-25", "2026-07-28"] as const)("%s: URL mode reaches a client that declares it", async (revision) => {
    const { client, asked } = await notes(revision);
    expect(texts((await client.tools.connectCalendar()).content)).toEqual([
      "Calendar connection started: finish it in your browser",
    ]);
    expect(asked).toMatchObject([{ mode: "url", elicitationId: "connect-calendar" }]);
  });

  it("2025-11-25: URL mode without elicitation.url declared is still -32021 (the capability check is unchanged)", async () => {
    const { client, asked } = await notes("2025-11-25", { elicitation: {} });
    const error = await rejection(client.tools.connectCalendar());
    expect(error.code).toBe(-32021);
    expect(error.data).toEqual({ requiredCapabilities: { elicitation: { url: {} } } });
    expect(asked).toEqual([]);
  });
});
