// The runtime's task handle (callToolAsTask) against a real peer: the third-party reference
// server @modelcontextprotocol/server-everything (official SDK v1, experimental tasks of
// 2025-11-25) over a child process's stdio. Its simulate-research-query tool is
// `taskSupport: required`: four stages of a second each, and for an ambiguous query an
// elicitation/create mid-task that the SDK only delivers while tasks/result is open.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  callToolAsTask,
  connectSession,
  RpcError,
  TaskCancelledError,
  toolMethods,
  type CallOptions,
  type ClientSession,
  type Params,
  type TaskCallOptions,
  type TaskInfo,
  type ToolTask,
} from "@mcp-gen/runtime";
import { stdioChannel } from "@mcp-gen/runtime/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../support/paths.js";

const pkgDir = join(repoRoot, "node_modules", "@modelcontextprotocol", "server-everything");
const pkg = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8")) as { bin: Record<string, string> };
const entry = join(pkgDir, pkg.bin["mcp-server-everything"] ?? "dist/index.js");

const elicitations: Params[] = [];
let session: ClientSession;

beforeAll(async () => {
  session = await connectSession(
    stdioChannel({ command: process.execPath, args: [entry, "stdio"], stderr: "ignore" }),
    {
      revisions: ["2025-11-25"],
      // The server registers its task tools once it knows the client can answer elicitations.
      capabilities: { elicitation: { form: {} } },
      timeoutMs: 60_000,
      requests: {
        "elicitation/create": (params) => {
          elicitations.push(params ?? {});
          return { action: "accept", content: { interpretation: "snake" } };
        },
      },
    },
  );
});

afterAll(async () => {
  await session?.close().catch(() => {});
});

const textOf = (result: Params) => ((result.content as { type: string; text?: string }[])[0]?.text ?? "") as string;

describe("callToolAsTask → server-everything over stdio (2025-11-25 experimental tasks)", () => {
  it("the server declares task-augmented tools/call and the tool requires a task", async () => {
    expect(session.server.capabilities).toMatchObject({ tasks: { requests: { tools: { call: {} } }, cancel: {} } });
    const tools = await session.listAll("tools/list", "tools");
    expect(tools.find((t) => t.name === "simulate-research-query")).toMatchObject({
      execution: { taskSupport: "required" },
    });
  });

  it("follows a task from working to completed, reporting each status, and returns the tool's result", async () => {
    const task = await callToolAsTask(session, "simulate-research-query", { topic: "tide pools" }, { ttlMs: 120_000 });
    expect(task.id).toMatch(/\S/);
    expect(task.status).toBe("working");
    expect(task.info).toMatchObject({ ttlMs: expect.any(Number), pollIntervalMs: 1000 });
    const seen: TaskInfo[] = [];
    const result = await task.wait({ onStatus: (info) => seen.push(info) });
    expect(textOf(result)).toContain("# Research Report: tide pools");
    expect(task.status).toBe("completed");
    // Status messages follow the stages; the last one seen is the completed task.
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(
      seen.some(
        (s) =>
          s.status === "working" &&
          /Analyzing content|Synthesizing findings|Generating report/.test(s.statusMessage ?? ""),
      ),
    ).toBe(true);
    expect(seen.at(-1)?.status).toBe("completed");
    expect(seen.every((s) => s.taskId === task.id)).toBe(true);
  });

  it("answers the elicitation of an ambiguous query through the requests handler, via tasks/result", async () => {
    const before = elicitations.length;
    const task = await callToolAsTask(session, "simulate-research-query", { topic: "python", ambiguous: true });
    const statuses: string[] = [];
    const result = await task.wait({ onStatus: (info) => statuses.push(info.status) });
    expect(elicitations.length).toBe(before + 1);
    expect(String(elicitations[before]?.message)).toContain('"python" could have multiple interpretations');
    expect(elicitations[before]?.requestedSchema).toMatchObject({
      properties: {
        interpretation: { oneOf: expect.arrayContaining([{ const: "snake", title: "Python snake species" }]) },
      },
    });
    expect(textOf(result)).toContain("# Research Report: python (snake)");
    expect(textOf(result)).toContain('After receiving clarification ("snake")');
    expect(statuses.at(-1)).toBe("completed");
  });

  it("cancels a task mid-way: wait() rejects with TaskCancelledError; cancelling again is a no-op", async () => {
    const task = await callToolAsTask(session, "simulate-research-query", { topic: "glaciers" });
    const waiting = task.wait();
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    await task.cancel();
    await expect(waiting).rejects.toBeInstanceOf(TaskCancelledError);
    expect(task.status).toBe("cancelled");
    await task.cancel();
    // The server refuses a second tasks/cancel of an ended task (-32602): the handle knew not to ask.
    await expect(session.rawRequest("tasks/cancel", { taskId: task.id! })).rejects.toBeInstanceOf(RpcError);
    // A later wait() settles at once with the same ending.
    await expect(task.wait()).rejects.toBeInstanceOf(TaskCancelledError);
  });

  it("an aborted wait stops waiting without cancelling; a new wait() resumes and gets the result", async () => {
    const task = await callToolAsTask(session, "simulate-research-query", { topic: "moss" });
    const controller = new AbortController();
    const first = task.wait({ signal: controller.signal });
    setTimeout(() => controller.abort(), 300);
    await expect(first).rejects.toThrow();
    expect(task.status).toBe("working");
    await expect(task.wait({ timeoutMs: 200 })).rejects.toThrow(/did not end within 200 ms/);
    const result = await task.wait();
    expect(textOf(result)).toContain("# Research Report: moss");
  });

  it("toolMethods: a required-task tool's plain call runs it as a task and waits; .task() gives the handle", async () => {
    interface Tools {
      research: {
        (args: { topic: string }, options?: CallOptions): Promise<Params>;
        task(args: { topic: string }, options?: TaskCallOptions): Promise<ToolTask<Params>>;
      };
      echo(args: { message: string }, options?: CallOptions): Promise<Params>;
    }
    const tools = toolMethods<Tools>(
      session,
      { research: ["simulate-research-query"], echo: ["echo"] },
      { tools: { research: "required" }, callAsTask: callToolAsTask },
    );
    expect("task" in tools.echo).toBe(false);
    const [direct, task] = await Promise.all([
      tools.research({ topic: "lichen" }),
      tools.research.task({ topic: "ferns" }),
    ]);
    expect(textOf(direct)).toContain("# Research Report: lichen");
    expect(task.status).toBe("working");
    expect(textOf(await task.wait())).toContain("# Research Report: ferns");
    expect(textOf(await tools.echo({ message: "hi" }))).toBe("Echo: hi");
  });

  it("an unknown tool is a JSON-RPC or tool error at the call, not a handle", async () => {
    const outcome = await callToolAsTask(session, "no-such-tool", {}).then(
      async (task) => ({ task, result: await task.wait() }),
      (error: unknown) => ({ error }),
    );
    if ("error" in outcome) expect(outcome.error).toBeInstanceOf(RpcError);
    else expect(outcome.result.isError).toBe(true);
  });
});
