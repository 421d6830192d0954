// notifications/cancelled names the request it cancels by id; an id past 2^53 must cancel
// exactly that request (issue 28 §5). JSON.parse reads 9007199254740993 as ...992: the cancel
// then missed its request (which was answered anyway), or could have hit ...992's. Two
// slow_compute calls of the conformance server with neighbouring ids are in flight, ...993 is
// cancelled: it gets no answer, ...992 its result. Messages are written and read as raw text,
// so that no JSON.parse on this side rounds what the server sent.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { repoRoot } from "../support/paths.js";
import { startHttpServer, stopAllChildren, stopChild, tsxCommand } from "./helpers.js";

const KEPT = "9007199254740992";
const CANCELLED = "9007199254740993";
const revision = "2025-11-25";
const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"${revision}","capabilities":{},"clientInfo":{"name":"big-ids","version":"1.0.0"}}}`;
const initialized = '{"jsonrpc":"2.0","method":"notifications/initialized"}';
// Not cancelled, ...993 would be answered after 1 s, before ...992 (2 s).
const call = (id: string, seconds: number) =>
  `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"slow_compute","arguments":{"seconds":${seconds}}}}`;
const cancel = `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":${CANCELLED},"reason":"test"}}`;
const answers = (text: string, id: string) => new RegExp(`"id":${id}[,}]`).test(text);

afterAll(stopAllChildren);

describe("notifications/cancelled with a request id past 2^53", () => {
  it("over stdio cancels that request and no other", async () => {
    const { command, args, cwd } = tsxCommand(join(repoRoot, "fuzz", "server.ts"), "--stdio");
    const child = spawn(command, args, { cwd, stdio: ["pipe", "pipe", "pipe"] });
    const lines: string[] = [];
    let kept!: () => void;
    const keptAnswered = new Promise<void>((resolve) => (kept = resolve));
    createInterface({ input: child.stdout }).on("line", (line) => {
      lines.push(line);
      if (answers(line, KEPT)) kept();
    });
    try {
      child.stdin.write(`${initialize}\n${initialized}\n${call(KEPT, 2)}\n${call(CANCELLED, 1)}\n${cancel}\n`);
      await keptAnswered;
      // A ping after it: everything the server wrote before is in.
      child.stdin.write('{"jsonrpc":"2.0","id":2,"method":"ping"}\n');
      await expect.poll(() => lines.some((line) => answers(line, "2")), { timeout: 5_000 }).toBe(true);
      expect(lines.find((line) => answers(line, KEPT))).toContain('"result"');
      expect(lines.filter((line) => answers(line, CANCELLED))).toEqual([]);
    } finally {
      child.stdin.end();
      await stopChild(child);
    }
  });

  it("over Streamable HTTP (a legacy session) cancels that request and no other", async () => {
    const server = await startHttpServer(join(repoRoot, "test", "conformance", "server", "main.ts"), "--port", "0");
    let session: string | undefined;
    const post = async (body: string) => {
      const headers: Record<string, string> = {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      };
      if (session !== undefined)
        Object.assign(headers, { "mcp-session-id": session, "mcp-protocol-version": revision });
      const response = await fetch(server.url, { method: "POST", headers, body });
      session ??= response.headers.get("mcp-session-id") ?? undefined;
      return { status: response.status, text: await response.text() };
    };
    expect((await post(initialize)).status).toBe(200);
    expect((await post(initialized)).status).toBe(202);
    const keptCall = post(call(KEPT, 2));
    const cancelledCall = post(call(CANCELLED, 1));
    // Both are in flight before the cancel goes.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await post(cancel)).status).toBe(202);
    const cancelledReply = await cancelledCall;
    expect(answers(cancelledReply.text, CANCELLED)).toBe(false);
    const keptReply = await keptCall;
    expect(answers(keptReply.text, KEPT)).toBe(true);
    expect(keptReply.text).toContain('"result"');
    await server.stop();
  });
});
