// Exactly one answer per request: an error response without an integer `code` still answers
// its request, which fails at once (an RpcError -32603 keeping the peer's message) instead of
// waiting out its timeout, over stdio and HTTP. The server is hand-written
// (fixtures/malformed-error-server.mjs) so that it can send what no generated server would.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { connectSession, ErrorCode, httpChannel, RpcError, type ClientChannel } from "@mcp-gen/runtime";
import { stdioChannel } from "@mcp-gen/runtime/node";
import { afterAll, describe, expect, it } from "vitest";
import { repoRoot } from "../support/paths.js";
import { stopAllChildren, stopChild } from "./helpers.js";

const script = join(repoRoot, "test", "e2e", "fixtures", "malformed-error-server.mjs");
afterAll(stopAllChildren);

async function expectMalformedErrors(channel: ClientChannel): Promise<void> {
  // A timeout longer than the test's: only the answer can settle the requests in time.
  const session = await connectSession(channel, { revisions: ["2025-11-25"], timeoutMs: 600_000 });
  try {
    const ping = session.rawRequest("ping");
    await expect(ping).rejects.toBeInstanceOf(RpcError);
    await expect(ping).rejects.toMatchObject({ code: ErrorCode.InternalError, message: "Malformed error response" });
    await expect(session.rawRequest("tools/call", { name: "any", arguments: {} })).rejects.toMatchObject({
      code: ErrorCode.InternalError,
      message: "Malformed error response: the tool broke",
      data: { code: 1.5, message: "the tool broke" },
    });
  } finally {
    await session.close();
  }
}

describe("an error response without a valid code", () => {
  it("fails its request at once over stdio", { timeout: 30_000 }, async () => {
    await expectMalformedErrors(stdioChannel({ command: process.execPath, args: [script], stderr: "ignore" }));
  });

  it("fails its request at once over HTTP", { timeout: 30_000 }, async () => {
    const child = spawn(process.execPath, [script, "--http"], { stdio: ["ignore", "pipe", "ignore"] });
    try {
      const [url] = (await once(createInterface({ input: child.stdout }), "line")) as [string];
      await expectMalformedErrors(httpChannel(url));
    } finally {
      await stopChild(child);
    }
  });
});
