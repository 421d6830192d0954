// The runtime's task handle on 2025-11-25's experimental tasks, for what the reference
// server (client-tasks-everything.test.ts) cannot show: a task that fails with a JSON-RPC
// error or with a tool error result, a task whose TTL elapses, a server that does not run
// tools as tasks, and status notifications. The server is written here on the runtime's own
// JSON-RPC layer (RequestingPeer over the in-memory transport) and follows the
// specification's text: tasks/result blocks until the task ends and carries the server's
// elicitation requests meanwhile; tasks/cancel of an ended task is -32602.
import {
  callToolAsTask,
  connectSession,
  ErrorCode,
  memoryChannel,
  RequestingPeer,
  RpcError,
  TaskCancelledError,
  TaskFailedError,
  type ClientSession,
  type Exchange,
  type JsonRpcNotification,
  type McpEndpoint,
  type MessageSink,
  type Params,
  type TaskInfo,
} from "@mcp-gen/runtime";
import { afterEach, describe, expect, it } from "vitest";

type Status = "working" | "input_required" | "completed" | "failed" | "cancelled";
interface LegacyTask {
  taskId: string;
  status: Status;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttl: number | null;
  pollInterval: number;
}
interface Entry {
  task: LegacyTask;
  outcome?: { result: Params } | { error: RpcError };
  /** An elicitation the task waits on, delivered while a tasks/result is open. */
  question?: { params: Params; answer: (value: Params) => void } | undefined;
  changed: Set<() => void>;
}

const terminal = (status: Status) => status === "completed" || status === "failed" || status === "cancelled";

function legacyTasksServer(options: { tasksCapability?: boolean; notify?: boolean } = {}) {
  const entries = new Map<string, Entry>();
  const received: { method: string; params: Params }[] = [];
  const peers: RequestingPeer[] = [];
  let next = 0;
  const now = () => new Date().toISOString();
  const step = (ms = 300) => new Promise((resolve) => setTimeout(resolve, ms));
  const update = (entry: Entry, change: Partial<LegacyTask>, outcome?: Entry["outcome"]) => {
    if (terminal(entry.task.status)) return;
    Object.assign(entry.task, change, { lastUpdatedAt: now() });
    if (outcome) entry.outcome = outcome;
    if (options.notify) for (const peer of peers) peer.notify("notifications/tasks/status", { ...entry.task });
    for (const wake of [...entry.changed]) wake();
  };
  const changed = (entry: Entry) =>
    new Promise<void>((resolve) =>
      entry.changed.add(function wake() {
        entry.changed.delete(wake);
        resolve();
      }),
    );

  async function run(entry: Entry, name: string, args: Params): Promise<void> {
    await step();
    if (name === "broken")
      return update(
        entry,
        { status: "failed", statusMessage: "The archive is offline" },
        { error: new RpcError(-32603, "The archive is offline") },
      );
    if (name === "refused")
      return update(
        entry,
        { status: "failed", statusMessage: "Tool error" },
        { result: { content: [{ type: "text", text: "No such topic" }], isError: true } },
      );
    update(entry, { statusMessage: "Gathering sources..." });
    await step();
    let reading = "plain";
    if (args.ambiguous === true) {
      const answer = new Promise<Params>((resolve) => {
        entry.question = {
          params: {
            message: `What do you mean by ${String(args.topic)}?`,
            requestedSchema: { type: "object", properties: { meaning: { type: "string" } } },
          },
          answer: resolve,
        };
      });
      update(entry, { status: "input_required", statusMessage: "Which meaning?" });
      const answered = await answer;
      reading = String((answered.content as Params | undefined)?.meaning ?? answered.action);
      update(entry, { status: "working", statusMessage: `Reading it as ${reading}` });
    }
    await step();
    update(
      entry,
      { status: "completed", statusMessage: "Done" },
      { result: { content: [{ type: "text", text: `Report on ${String(args.topic)} (${reading})` }] } },
    );
  }

  const endpoint: McpEndpoint = {
    revisions: ["2025-11-25"],
    connect(sink: MessageSink) {
      const peer = new RequestingPeer(sink, endpoint);
      peers.push(peer);
      return peer;
    },
    onNotification(_notification: JsonRpcNotification) {},
    async onRequest(exchange: Exchange) {
      const { method } = exchange.request;
      const params = exchange.request.params ?? {};
      received.push({ method, params });
      if (method === "initialize") {
        const tasks =
          options.tasksCapability === false ? {} : { tasks: { cancel: {}, requests: { tools: { call: {} } } } };
        return {
          protocolVersion: "2025-11-25",
          capabilities: { tools: {}, ...tasks },
          serverInfo: { name: "legacy-tasks", version: "1.0.0" },
        };
      }
      if (method === "tools/call") {
        const name = String(params.name);
        const args = (params.arguments ?? {}) as Params;
        if (!params.task) return { content: [{ type: "text", text: `Inline ${name}` }] };
        const requested = (params.task as Params).ttl;
        const created = now();
        const entry: Entry = {
          task: {
            taskId: `legacy-${++next}`,
            status: "working",
            createdAt: created,
            lastUpdatedAt: created,
            ttl: typeof requested === "number" ? requested : 60_000,
            pollInterval: 100,
          },
          changed: new Set(),
        };
        entries.set(entry.task.taskId, entry);
        // The TTL counts from creation: then the task and its result are gone.
        if (entry.task.ttl !== null) setTimeout(() => entries.delete(entry.task.taskId), entry.task.ttl);
        void run(entry, name, args);
        return { task: { ...entry.task } };
      }
      const entry = entries.get(String(params.taskId));
      if (!entry) throw new RpcError(ErrorCode.InvalidParams, `Task not found: ${String(params.taskId)}`);
      switch (method) {
        case "tasks/get":
          return { ...entry.task };
        case "tasks/cancel":
          if (terminal(entry.task.status))
            throw new RpcError(ErrorCode.InvalidParams, `Task ${entry.task.taskId} has already ended`);
          update(
            entry,
            { status: "cancelled", statusMessage: "Cancelled by the client" },
            { error: new RpcError(ErrorCode.InternalError, "Task cancelled") },
          );
          return { ...entry.task };
        case "tasks/result":
          for (;;) {
            const { question } = entry;
            if (question && entry.task.status === "input_required") {
              entry.question = undefined;
              const peer = exchange.peer as RequestingPeer;
              question.answer(
                await peer.request("elicitation/create", question.params, { relatedTo: exchange.id, timeoutMs: 0 }),
              );
            }
            if (terminal(entry.task.status) && entry.outcome) {
              if ("error" in entry.outcome) throw entry.outcome.error;
              return {
                ...entry.outcome.result,
                _meta: { "io.modelcontextprotocol/related-task": { taskId: entry.task.taskId } },
              };
            }
            await changed(entry);
          }
        default:
          throw new RpcError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
      }
    },
  };
  return { endpoint, received, entries };
}

const sessions: ClientSession[] = [];
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.close()));
});

async function connect(server: ReturnType<typeof legacyTasksServer>, elicit?: (params: Params | undefined) => Params) {
  const session = await connectSession(memoryChannel(server.endpoint), {
    revisions: ["2025-11-25"],
    capabilities: { elicitation: { form: {} } },
    requests: elicit ? { "elicitation/create": elicit } : {},
  });
  sessions.push(session);
  return session;
}

const textOf = (result: Params) => (result.content as { text?: string }[])[0]?.text;

describe("callToolAsTask on 2025-11-25 (experimental tasks), against a server on the runtime's JSON-RPC layer", () => {
  it("asks for a task with the ttl, answers the elicitation that tasks/result carries, and returns the result", async () => {
    const server = legacyTasksServer();
    const asked: Params[] = [];
    const session = await connect(server, (params) => {
      asked.push(params ?? {});
      return { action: "accept", content: { meaning: "ocean" } };
    });
    const task = await callToolAsTask(session, "research", { topic: "tides", ambiguous: true }, { ttlMs: 30_000 });
    expect(task.info).toMatchObject({ taskId: "legacy-1", status: "working", ttlMs: 30_000, pollIntervalMs: 100 });
    const statuses: string[] = [];
    const result = await task.wait({ onStatus: (info) => statuses.push(info.status) });
    expect(textOf(result)).toBe("Report on tides (ocean)");
    expect(asked).toEqual([
      {
        message: "What do you mean by tides?",
        requestedSchema: { type: "object", properties: { meaning: { type: "string" } } },
      },
    ]);
    expect(statuses.filter((s, i) => s !== statuses[i - 1])).toEqual([
      "working",
      "input_required",
      "working",
      "completed",
    ]);
    expect(server.received.find((r) => r.method === "tools/call")?.params).toMatchObject({
      name: "research",
      task: { ttl: 30_000 },
    });
    // One tasks/result, opened when input was required.
    expect(server.received.filter((r) => r.method === "tasks/result")).toHaveLength(1);
  });

  it("a task that fails with a JSON-RPC error rejects with TaskFailedError", async () => {
    const session = await connect(legacyTasksServer());
    const task = await callToolAsTask(session, "broken", {});
    const failure = await task.wait().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TaskFailedError);
    expect(failure).toMatchObject({
      taskId: task.id,
      message: `Task ${task.id} failed: The archive is offline`,
      error: { code: -32603 },
    });
    expect(task.status).toBe("failed");
  });

  it("a task that fails with a tool error result resolves with that result, as a plain call would", async () => {
    const session = await connect(legacyTasksServer());
    const task = await callToolAsTask(session, "refused", {});
    const result = await task.wait();
    expect(result).toMatchObject({ isError: true, content: [{ type: "text", text: "No such topic" }] });
    expect(task.status).toBe("failed");
  });

  it("a task whose TTL elapses before it ends rejects with TaskFailedError (the server no longer knows it)", async () => {
    const session = await connect(legacyTasksServer());
    const task = await callToolAsTask(session, "research", { topic: "frost" }, { ttlMs: 250 });
    const failure = await task.wait().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TaskFailedError);
    expect((failure as Error).message).toContain("is no longer known to the server");
  });

  it("cancel() mid-way: the server answers with the cancelled task, waiters see TaskCancelledError", async () => {
    const server = legacyTasksServer();
    const session = await connect(server);
    const task = await callToolAsTask(session, "research", { topic: "fog" });
    const waiting = task.wait();
    await expect.poll(() => task.info?.statusMessage).toBe("Gathering sources...");
    await task.cancel();
    expect(task.status).toBe("cancelled");
    await expect(waiting).rejects.toBeInstanceOf(TaskCancelledError);
    await task.cancel(); // Ended: nothing sent.
    expect(server.received.filter((r) => r.method === "tasks/cancel")).toHaveLength(1);
  });

  it("a server that does not declare task-augmented tools/call gets a plain call", async () => {
    const server = legacyTasksServer({ tasksCapability: false });
    const session = await connect(server);
    const task = await callToolAsTask(session, "research", { topic: "dew" });
    expect(task.id).toBeUndefined();
    expect(textOf(await task.wait())).toBe("Inline research");
    expect(server.received.find((r) => r.method === "tools/call")?.params).not.toHaveProperty("task");
  });

  it("notifications/tasks/status reach onStatus", async () => {
    const server = legacyTasksServer({ notify: true });
    const session = await connect(server);
    const task = await callToolAsTask(session, "research", { topic: "hail" }, { minPollIntervalMs: 60_000 });
    const seen: TaskInfo[] = [];
    const started = Date.now();
    await task.wait({ onStatus: (info) => seen.push(info) });
    // Polling once a minute would take minutes: the notifications carried the task to its end.
    expect(Date.now() - started).toBeLessThan(30_000);
    // The task as created (no message yet), then each change the notifications brought.
    expect(seen.map((s) => s.statusMessage)).toEqual([undefined, "Gathering sources...", "Done"]);
  });
});
