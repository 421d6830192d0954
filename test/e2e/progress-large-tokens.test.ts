// Progress tokens past 2^53 are echoed digit for digit (issue 28 §5): JSON.parse reads
// 9007199254740993 as ...992, so the server's notifications/progress named a token the
// client never sent. Over stdio with the everything example's reindex (progress per note): a
// hand-written client writing and reading raw lines (no JSON.parse on this side to round
// what the server wrote), then the runtime client sending such a token itself and matching
// the notifications by it.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { join } from "node:path";
import { connectSession, type Params } from "@mcp-gen/runtime";
import { stdioChannel } from "@mcp-gen/runtime/node";
import { afterAll, describe, expect, it } from "vitest";
import { repoRoot } from "../support/paths.js";
import { stopAllChildren, stopChild, tsxCommand } from "./helpers.js";

const TOKEN = "9007199254740993";
const server = join(repoRoot, "examples", "everything", "src", "main.ts");
const initialize =
  '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"big-tokens","version":"1.0.0"}}}';
const initialized = '{"jsonrpc":"2.0","method":"notifications/initialized"}';
const call = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"reindex","arguments":{"delayMs":1},"_meta":{"progressToken":${TOKEN}}}}`;

afterAll(stopAllChildren);

describe("a progress token past 2^53", () => {
  it("comes back in notifications/progress digit for digit (raw stdio lines)", { timeout: 60_000 }, async () => {
    const { command, args, cwd } = tsxCommand(server);
    const child = spawn(command, args, { cwd, stdio: ["pipe", "pipe", "ignore"] });
    const lines: string[] = [];
    let answered!: () => void;
    const done = new Promise<void>((resolve) => (answered = resolve));
    createInterface({ input: child.stdout }).on("line", (line) => {
      lines.push(line);
      if (/"id":2[,}]/.test(line)) answered();
    });
    try {
      child.stdin.write(`${initialize}\n${initialized}\n${call}\n`);
      await done;
      const progress = lines.filter((line) => line.includes('"notifications/progress"'));
      expect(progress.length).toBeGreaterThan(0);
      for (const line of progress) expect(line).toContain(`"progressToken":${TOKEN},`);
      expect(lines.find((line) => /"id":2[,}]/.test(line))).toContain('"result"');
    } finally {
      child.stdin.end();
      await stopChild(child);
    }
  });

  it("is sent and matched by the runtime client", { timeout: 60_000 }, async () => {
    const session = await connectSession(stdioChannel({ ...tsxCommand(server), stderr: "ignore" }), {
      revisions: ["2025-11-25"],
    });
    const tokens: unknown[] = [];
    session.watchNotifications((method, params) => {
      if (method === "notifications/progress") tokens.push((params as Params).progressToken);
    });
    try {
      await session.rawRequest("tools/call", {
        name: "reindex",
        arguments: { delayMs: 1 },
        _meta: { progressToken: BigInt(TOKEN) },
      });
      expect(tokens.length).toBeGreaterThan(0);
      expect(tokens.filter((token) => token !== BigInt(TOKEN))).toEqual([]);
    } finally {
      await session.close();
    }
  });
});
