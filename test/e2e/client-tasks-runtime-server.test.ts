// The client's task handle against the runtime's own tasks server (runtime/mcp/tasks.ts,
// served by test/e2e/fixtures/tasks-server.ts) over real stdio and real HTTP, in both eras:
// 2026-07-28 (the tasks extension: tasks/get, tasks/update, tasks/cancel) and 2025-11-25
// (experimental tasks: tasks/get, tasks/result carrying the server's requests, tasks/cancel).
// The handle is the same code for both; the server decides per call whether to make a task.
// Needs the server side of tasks (branch wt-tasks) merged beside this one.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  callToolAsTask,
  connectSession,
  httpChannel,
  TaskCancelledError,
  TaskFailedError,
  type ClientChannel,
  type ClientSession,
  type Params,
  type TaskInfo,
} from "../../runtime/index.js";
import { stdioChannel } from "../../runtime/node.js";
import { repoRoot } from "../support/paths.js";
import { startHttpServer, stopAllChildren, tsxCommand, type HttpServerProcess } from "./helpers.js";

const fixture = join(repoRoot, "test", "e2e", "fixtures", "tasks-server.ts");
let http: HttpServerProcess | undefined;
const sessions: ClientSession[] = [];

beforeAll(async () => {
  http = await startHttpServer(fixture, "--port", "0");
});

afterAll(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.close().catch(() => {})));
  await stopAllChildren();
});

const transports: { name: string; channel(): ClientChannel }[] = [
  { name: "stdio", channel: () => stdioChannel({ ...tsxCommand(fixture), stderr: "ignore" }) },
  { name: "HTTP", channel: () => httpChannel(http!.url) },
];
const eras = [
  { revision: "2026-07-28", era: "modern" },
  { revision: "2025-11-25", era: "legacy" },
] as const;

const textOf = (result: Params) => (result.content as { type: string; text?: string }[])[0]?.text;

describe.each(transports)("callToolAsTask → the runtime's tasks server over $name", (transport) => {
  describe.each(eras)("$revision", ({ revision, era }) => {
    let session: ClientSession;
    const asked: string[] = [];

    beforeAll(async () => {
      session = await connectSession(transport.channel(), {
        revisions: [revision],
        capabilities: { elicitation: { form: {} } },
        requests: {
          "elicitation/create": (params) => {
            asked.push(String(params?.message));
            return { action: "accept", content: { name: "Ada" } };
          },
        },
      });
      sessions.push(session);
      expect(session.era).toBe(era);
    });

    it("a slow call becomes a task: the handle follows it to the tool's result", async () => {
      const task = await callToolAsTask(session, "compute", { ms: 400, label: `slow-${transport.name}-${revision}` });
      expect(task.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(task.info).toMatchObject({ status: "working", pollIntervalMs: 100 });
      const seen: TaskInfo[] = [];
      const result = await task.wait({ onStatus: (info) => seen.push(info) });
      expect(textOf(result)).toBe(`computed slow-${transport.name}-${revision}`);
      expect(task.status).toBe("completed");
      expect(seen.at(-1)?.status).toBe("completed");
    });

    it("a fast call is answered inline: the handle has already ended", async () => {
      const task = await callToolAsTask(session, "compute", { ms: 0, label: "fast" });
      // 2026-07-28 servers decide per call; a 2025-11-25 client asked for a task, so it gets one.
      if (era === "modern") expect(task.id).toBeUndefined();
      expect(textOf(await task.wait())).toBe("computed fast");
    });

    it("input the task requires is answered by the requests handler (tasks/update, or over tasks/result)", async () => {
      const before = asked.length;
      const task = await callToolAsTask(session, "ask", {});
      const statuses: string[] = [];
      const result = await task.wait({ onStatus: (info) => statuses.push(info.status) });
      expect(textOf(result)).toBe("Hello, Ada!");
      expect(asked.slice(before)).toEqual(["Your name?"]);
      expect(statuses.at(-1)).toBe("completed");
    });

    it("a task that fails rejects with TaskFailedError and the JSON-RPC error", async () => {
      const task = await callToolAsTask(session, "broken", {});
      const failure = await task.wait().catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(TaskFailedError);
      expect(failure).toMatchObject({ error: { code: -32603 } });
      expect((failure as Error).message).toContain("the worker crashed");
      expect(task.status).toBe("failed");
    });

    it("cancel() ends a running task: waiters get TaskCancelledError and the handler's ctx.signal aborts", async () => {
      const label = `cancel-${transport.name}-${revision}-${Date.now()}`;
      const task = await callToolAsTask(session, "compute", { ms: 30_000, label });
      const waiting = task.wait();
      await task.cancel();
      await expect(waiting).rejects.toBeInstanceOf(TaskCancelledError);
      expect(task.status).toBe("cancelled");
      await task.cancel(); // Ended: nothing to do.
      const aborts = async () =>
        JSON.parse(
          textOf(await session.rawRequest("tools/call", { name: "aborts", arguments: {} })) ?? "[]",
        ) as string[];
      await expect.poll(aborts, { timeout: 5_000 }).toContain(label);
    });

    it("a tool that requires a task runs as one", async () => {
      const task = await callToolAsTask(session, "must", {});
      expect(textOf(await task.wait())).toBe("done");
    });
  });
});
