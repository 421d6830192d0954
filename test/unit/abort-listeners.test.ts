// A guard for issue 28 §3: a signal that outlives many requests (an application-wide
// AbortSignal passed to every call) must be left with no abort listener of the runtime's once
// they are answered, over memoryChannel and real HTTP, in both eras, for pings, lists and tool
// calls (with progress). (The warning the issue saw came from the everything example's
// own sleep, test/e2e/listener-leaks.test.ts; the runtime's listeners are checked here.)
import { getEventListeners } from "node:events";
import { connectSession, httpChannel, memoryChannel, type ClientChannel } from "@mcp-gen/runtime";
import { listenHttp } from "@mcp-gen/runtime/node";
import { describe, expect, it } from "vitest";
import { createHandlers } from "../../examples/everything/src/handlers.js";
import { createNotesServer } from "../../examples/everything/src/mcp/index.js";

const ROUNDS = 15;

async function exercise(channel: ClientChannel, revision: string): Promise<number> {
  const session = await connectSession(channel, { revisions: [revision] });
  const signal = new AbortController().signal;
  for (let i = 0; i < ROUNDS; i++) {
    if (revision !== "2026-07-28") await session.rawRequest("ping", undefined, { signal });
    await session.rawRequest("tools/call", { name: "add_note", arguments: { title: `n${i}`, body: "b" } }, { signal });
    await session.rawRequest(
      "tools/call",
      { name: "reindex", arguments: { delayMs: 0 } },
      { signal, onProgress: () => {} },
    );
    await session.rawRequest("tools/list", undefined, { signal });
  }
  const left = getEventListeners(signal, "abort").length;
  await session.close();
  return left;
}

describe("a long-lived signal passed to every call keeps no abort listener", () => {
  for (const revision of ["2025-11-25", "2026-07-28"]) {
    it(`over memoryChannel (${revision})`, async () => {
      expect(await exercise(memoryChannel(createNotesServer(createHandlers({ changed: () => {} }))), revision)).toBe(0);
    });

    it(`over HTTP (${revision})`, async () => {
      const listener = await listenHttp(createNotesServer(createHandlers({ changed: () => {} })), { port: 0 });
      try {
        expect(await exercise(httpChannel(listener.url), revision)).toBe(0);
      } finally {
        await listener.close();
      }
    });
  }
});
