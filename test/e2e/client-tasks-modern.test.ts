// The runtime's task handle on 2026-07-28 (the io.modelcontextprotocol/tasks extension,
// SEP-2663). No third-party server speaks it yet, so this file serves one written here on
// the runtime's own JSON-RPC layer (Peer + Dispatcher over the in-memory transport) that
// follows the SEP to the letter and records every request; the client side is the real
// session and callToolAsTask, over the in-memory transport and over real HTTP.
import {
  callToolAsTask,
  connectSession,
  ErrorCode,
  httpChannel,
  memoryChannel,
  MetaKey,
  Peer,
  RpcError,
  TaskCancelledError,
  TaskFailedError,
  ToolOutputError,
  type ClientSession,
  type Exchange,
  type JsonRpcNotification,
  type McpEndpoint,
  type MessageSink,
  type Params,
  type TaskInfo,
} from "@mcp-gen/runtime";
import { listenHttp, type HttpListener } from "@mcp-gen/runtime/node";
import { afterEach, describe, expect, it } from "vitest";

const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";
type Status = "working" | "input_required" | "completed" | "failed" | "cancelled";
interface TaskRecord {
  taskId: string;
  status: Status;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttlMs: number | null;
  pollIntervalMs: number;
  result?: Params;
  error?: Params;
  inputRequests?: Params;
}

/**
 * A tasks server with three tools: `research` (required task: two steps, an elicitation in
 * between when `ambiguous`), `quick` (optional: answered inline), `broken` (the task fails
 * with a JSON-RPC error). `pollIntervalMs` is small so tests run fast.
 */
function tasksServer(options: { pollIntervalMs?: number; repeatAnsweredInput?: boolean; stepMs?: number } = {}) {
  const tasks = new Map<string, TaskRecord>();
  const received: { method: string; params: Params }[] = [];
  const peers: Peer[] = [];
  const answers = new Map<string, (value: Params) => void>();
  /** Open subscriptions/listen streams and the task ids each asked for. */
  const listeners = new Map<Exchange, readonly unknown[]>();
  let next = 0;
  const now = () => new Date().toISOString();
  const update = (task: TaskRecord, change: Partial<TaskRecord>) => {
    if (task.status === "completed" || task.status === "failed" || task.status === "cancelled") return;
    Object.assign(task, change, { lastUpdatedAt: now() });
    if (change.status !== undefined && change.status !== "input_required") delete task.inputRequests;
    for (const [exchange, taskIds] of listeners) {
      if (taskIds.includes(task.taskId))
        exchange.notify("notifications/tasks", { ...task, _meta: { [MetaKey.subscriptionId]: exchange.id } });
    }
  };
  // Each step lasts a few polls of the client's minimum interval (100 ms), so that every status is seen.
  const stepMs = options.stepMs ?? 300;
  const step = (ms = stepMs) => new Promise((resolve) => setTimeout(resolve, ms));
  const view = (task: TaskRecord): Params => ({ ...task, resultType: "complete" });

  async function research(task: TaskRecord, args: Params): Promise<void> {
    await step();
    update(task, { statusMessage: "Gathering sources..." });
    await step();
    let reading = "plain";
    if (args.ambiguous === true) {
      const key = `clarify-${task.taskId}`;
      const answered = new Promise<Params>((resolve) => answers.set(key, resolve));
      update(task, {
        status: "input_required",
        statusMessage: "Which meaning?",
        inputRequests: {
          [key]: {
            method: "elicitation/create",
            params: {
              mode: "form",
              message: `What do you mean by ${String(args.topic)}?`,
              requestedSchema: { type: "object", properties: { meaning: { type: "string" } }, required: ["meaning"] },
            },
          },
        },
      });
      const answer = await answered;
      reading = String((answer.content as Params | undefined)?.meaning ?? answer.action);
      if (!options.repeatAnsweredInput) update(task, { status: "working", statusMessage: `Reading it as ${reading}` });
      else {
        // Eventually consistent: the answered request stays listed for a while.
        await step(3 * task.pollIntervalMs);
        update(task, { status: "working", statusMessage: `Reading it as ${reading}` });
      }
    }
    await step();
    update(task, {
      status: "completed",
      statusMessage: "Done",
      result: {
        content: [{ type: "text", text: `Report on ${String(args.topic)} (${reading})` }],
        structuredContent: { topic: args.topic, reading },
      },
    });
  }

  const endpoint: McpEndpoint = {
    revisions: ["2026-07-28"],
    connect(sink: MessageSink) {
      const peer = new Peer(sink, endpoint);
      peers.push(peer);
      return peer;
    },
    onNotification(_notification: JsonRpcNotification) {},
    onRequest(exchange: Exchange) {
      const { method } = exchange.request;
      const params = exchange.request.params ?? {};
      received.push({ method, params });
      const meta = (params._meta ?? {}) as Params;
      const capabilities = (meta[MetaKey.clientCapabilities] ?? {}) as Params;
      const declared = Object.hasOwn((capabilities.extensions ?? {}) as object, TASKS_EXTENSION);
      switch (method) {
        case "server/discover":
          return {
            resultType: "complete",
            supportedVersions: ["2026-07-28"],
            capabilities: { tools: {}, extensions: { [TASKS_EXTENSION]: {} } },
            _meta: { [MetaKey.serverInfo]: { name: "tasks-test", version: "1.0.0" } },
          };
        case "subscriptions/listen": {
          const taskIds = ((params.notifications as Params | undefined)?.taskIds ?? []) as unknown[];
          listeners.set(exchange, taskIds);
          exchange.notify("notifications/subscriptions/acknowledged", {
            _meta: { [MetaKey.subscriptionId]: exchange.id },
            notifications: { taskIds },
          });
          return new Promise<Params>((resolve) =>
            exchange.signal.addEventListener("abort", () => {
              listeners.delete(exchange);
              resolve({});
            }),
          );
        }
        case "tools/call": {
          const name = String(params.name);
          const args = (params.arguments ?? {}) as Params;
          if (name === "quick")
            return {
              resultType: "complete",
              content: [{ type: "text", text: "at once" }],
              structuredContent: { topic: "quick", reading: "inline" },
            };
          if (!declared) {
            throw new RpcError(ErrorCode.MissingRequiredClientCapability, "Missing required client capability", {
              requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } },
            });
          }
          const created = now();
          const task: TaskRecord = {
            taskId: `task-${++next}`,
            status: "working",
            createdAt: created,
            lastUpdatedAt: created,
            ttlMs: 60_000,
            pollIntervalMs: options.pollIntervalMs ?? 100,
          };
          tasks.set(task.taskId, task);
          if (name === "broken")
            setTimeout(
              () =>
                update(task, {
                  status: "failed",
                  statusMessage: "boom",
                  error: { code: -32603, message: "The archive is offline", data: { retryAfter: 5 } },
                }),
              stepMs,
            );
          else void research(task, args);
          // A task whose TTL elapses early: the server forgets it.
          if (typeof args.forgetAfterMs === "number") setTimeout(() => tasks.delete(task.taskId), args.forgetAfterMs);
          return { resultType: "task", ...task };
        }
        case "tasks/get":
        case "tasks/update":
        case "tasks/cancel": {
          const task = tasks.get(String(params.taskId));
          if (!task) throw new RpcError(ErrorCode.InvalidParams, `Unknown task ${String(params.taskId)}`);
          if (method === "tasks/get") return view(task);
          if (method === "tasks/cancel") {
            update(task, { status: "cancelled", statusMessage: "Cancelled by the client" });
            return { resultType: "complete" };
          }
          for (const [key, response] of Object.entries((params.inputResponses ?? {}) as Params)) {
            const resolve = answers.get(key);
            answers.delete(key);
            resolve?.(response as Params);
          }
          return { resultType: "complete" };
        }
        default:
          throw new RpcError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
      }
    },
  };
  return { endpoint, tasks, received, peers, update, listeners };
}

const sessions: ClientSession[] = [];
const listeners: HttpListener[] = [];
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.close()));
  await Promise.all(listeners.splice(0).map((l) => l.close({ timeoutMs: 1_000 })));
});

async function connect(
  server: ReturnType<typeof tasksServer>,
  elicit?: (params: Params | undefined, signal: AbortSignal) => Params | Promise<Params>,
) {
  const session = await connectSession(memoryChannel(server.endpoint), {
    revisions: ["2026-07-28"],
    capabilities: { elicitation: { form: {} } },
    requests: elicit ? { "elicitation/create": elicit } : {},
  });
  sessions.push(session);
  return session;
}

const textOf = (result: Params) => (result.content as { text?: string }[])[0]?.text;

describe("callToolAsTask on 2026-07-28 (tasks extension)", () => {
  it("declares the extension in the call's client capabilities and follows the task to its inline result", async () => {
    const server = tasksServer();
    const session = await connect(server);
    const task = await callToolAsTask(session, "research", { topic: "tides" });
    expect(task.id).toBe("task-1");
    expect(task.info).toMatchObject({ status: "working", ttlMs: 60_000, pollIntervalMs: 100 });
    const seen: TaskInfo[] = [];
    const result = await task.wait({ onStatus: (info) => seen.push(info) });
    expect(textOf(result)).toBe("Report on tides (plain)");
    expect(task.status).toBe("completed");
    expect(seen.map((s) => s.statusMessage)).toEqual(expect.arrayContaining(["Gathering sources...", "Done"]));
    expect(seen.at(-1)?.status).toBe("completed");
    const call = server.received.find((r) => r.method === "tools/call")!;
    expect(call.params).toMatchObject({ name: "research", arguments: { topic: "tides" } });
    expect(call.params).not.toHaveProperty("task");
    const capabilities = (call.params._meta as Params)[MetaKey.clientCapabilities];
    expect(capabilities).toEqual({ elicitation: { form: {} }, extensions: { [TASKS_EXTENSION]: {} } });
    const gets = server.received.filter((r) => r.method === "tasks/get");
    expect(gets.length).toBeGreaterThan(0);
    expect(
      gets.every(
        (g) =>
          g.params.taskId === "task-1" &&
          ((g.params._meta as Params)[MetaKey.clientCapabilities] as Params).extensions !== undefined,
      ),
    ).toBe(true);
    // tasks/result is gone in 2026-07-28.
    expect(server.received.some((r) => r.method === "tasks/result")).toBe(false);
  });

  it("answers input_required through the requests handler and tasks/update, once per inputRequests key", async () => {
    const server = tasksServer({ repeatAnsweredInput: true });
    const asked: Params[] = [];
    const session = await connect(server, (params) => {
      asked.push(params ?? {});
      return { action: "accept", content: { meaning: "ocean" } };
    });
    const task = await callToolAsTask(session, "research", { topic: "tides", ambiguous: true });
    const statuses: string[] = [];
    const result = await task.wait({ onStatus: (info) => statuses.push(info.status) });
    expect(textOf(result)).toBe("Report on tides (ocean)");
    expect(asked).toEqual([
      {
        mode: "form",
        message: "What do you mean by tides?",
        requestedSchema: { type: "object", properties: { meaning: { type: "string" } }, required: ["meaning"] },
      },
    ]);
    const updates = server.received.filter((r) => r.method === "tasks/update");
    expect(updates).toHaveLength(1);
    expect(updates[0]?.params).toMatchObject({
      taskId: task.id,
      inputResponses: { [`clarify-${task.id}`]: { action: "accept", content: { meaning: "ocean" } } },
    });
    // onStatus also fires for new status messages: collapse repeats to see the transitions.
    expect(statuses.filter((s, i) => s !== statuses[i - 1])).toEqual([
      "working",
      "input_required",
      "working",
      "completed",
    ]);
  });

  it("a task that fails rejects wait() with TaskFailedError carrying the JSON-RPC error", async () => {
    const session = await connect(tasksServer());
    const task = await callToolAsTask(session, "broken", {});
    const failure = await task.wait().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TaskFailedError);
    expect(failure).toMatchObject({
      taskId: task.id,
      message: `Task ${task.id} failed: The archive is offline`,
      error: { code: -32603, message: "The archive is offline", data: { retryAfter: 5 } },
    });
    expect(task.status).toBe("failed");
    await task.cancel(); // Ended: nothing sent.
  });

  it("cancel() sends tasks/cancel; waiters see TaskCancelledError", async () => {
    const server = tasksServer();
    let handlerSignal: AbortSignal | undefined;
    // Never answers (a user who walked away): the task stays input_required until cancelled.
    const session = await connect(server, (_params, signal) => {
      handlerSignal = signal;
      return new Promise(() => {});
    });
    const task = await callToolAsTask(session, "research", { topic: "fog", ambiguous: true });
    const waiting = task.wait();
    await expect.poll(() => task.status).toBe("input_required");
    await expect.poll(() => handlerSignal).toBeDefined();
    await task.cancel();
    await expect(waiting).rejects.toBeInstanceOf(TaskCancelledError);
    expect(task.status).toBe("cancelled");
    // The handler still waiting on its user is told the question is moot.
    expect(handlerSignal?.aborted).toBe(true);
    expect(server.received.filter((r) => r.method === "tasks/cancel").map((r) => r.params.taskId)).toEqual([task.id]);
  });

  it("a task the server forgets (its TTL elapsed) rejects wait() with TaskFailedError", async () => {
    const session = await connect(tasksServer());
    const task = await callToolAsTask(session, "research", { topic: "frost", forgetAfterMs: 150 });
    const failure = await task.wait().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TaskFailedError);
    expect(failure).toMatchObject({
      message: expect.stringContaining(`Task ${task.id} is no longer known to the server`),
      error: { code: -32602 },
    });
    // Final: a later wait() does not poll again.
    await expect(task.wait()).rejects.toBe(failure);
  });

  it("the task's result is checked against the tool's output schema, as a plain call's is", async () => {
    const session = await connect(tasksServer());
    const readingIsText = (value: unknown) =>
      typeof (value as Params).reading === "string" ? undefined : { path: "/reading", message: "must be string" };
    const readingIsNumber = (value: unknown) =>
      typeof (value as Params).reading === "number" ? undefined : { path: "/reading", message: "must be number" };
    const good = await callToolAsTask(session, "research", { topic: "rime" }, {}, readingIsText);
    expect((await good.wait()).structuredContent).toEqual({ topic: "rime", reading: "plain" });
    const bad = await callToolAsTask(session, "research", { topic: "rime" }, {}, readingIsNumber);
    const failure = await bad.wait().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ToolOutputError);
    expect((failure as Error).message).toContain("does not match its output schema");
  });

  it("a server that answers inline gives a handle that has already ended", async () => {
    const session = await connect(tasksServer());
    const task = await callToolAsTask(session, "quick", {});
    expect(task.id).toBeUndefined();
    expect(task.status).toBe("completed");
    expect(textOf(await task.wait())).toBe("at once");
    await task.cancel();
  });

  it("notifications/tasks for the task are taken without waiting for the next poll", async () => {
    const server = tasksServer({ pollIntervalMs: 60_000 });
    const session = await connect(server);
    const task = await callToolAsTask(session, "research", { topic: "dew" });
    const started = Date.now();
    const waiting = task.wait();
    const record = server.tasks.get(task.id!)!;
    await expect.poll(() => record.status, { timeout: 5_000 }).toBe("completed");
    for (const peer of server.peers) peer.notify("notifications/tasks", { ...record });
    expect(textOf(await waiting)).toBe("Report on dew (plain)");
    expect(Date.now() - started).toBeLessThan(5_000);
    // Only the creation call: the notification, not a poll, ended the task.
    expect(server.received.filter((r) => r.method === "tasks/get")).toHaveLength(0);
  });

  it("listen: a subscriptions/listen stream names the task; its notifications end the wait before any poll; the stream closes after", async () => {
    const server = tasksServer({ pollIntervalMs: 60_000 });
    const session = await connect(server);
    const task = await callToolAsTask(session, "research", { topic: "mist" }, { listen: true });
    const seen: (string | undefined)[] = [];
    const result = await task.wait({ onStatus: (info) => seen.push(info.statusMessage) });
    expect(textOf(result)).toBe("Report on mist (plain)");
    expect(seen).toEqual([undefined, "Gathering sources...", "Done"]);
    const listen = server.received.find((r) => r.method === "subscriptions/listen");
    expect(listen?.params.notifications).toEqual({ taskIds: [task.id] });
    expect(server.received.filter((r) => r.method === "tasks/get")).toHaveLength(0);
    // The client cancelled its listen request once the task ended.
    await expect.poll(() => server.listeners.size).toBe(0);
  });

  it("a poll interval below the minimum is clamped", async () => {
    const server = tasksServer({ pollIntervalMs: 0 });
    const session = await connect(server);
    const task = await callToolAsTask(session, "research", { topic: "hail" }, { minPollIntervalMs: 50 });
    const started = Date.now();
    await task.wait();
    const polls = server.received.filter((r) => r.method === "tasks/get").length;
    // Work of a few hundred ms polled at most every 50 ms: a handful of polls, not hundreds.
    expect(polls).toBeLessThanOrEqual(Math.ceil((Date.now() - started) / 50) + 1);
  });
});

describe("callToolAsTask on 2026-07-28 over Streamable HTTP", () => {
  it("runs a task with an input round through a real HTTP server, one POST per request", async () => {
    const server = tasksServer();
    const listener = await listenHttp(server.endpoint);
    listeners.push(listener);
    const posted: { method: string | null; name: string | null }[] = [];
    const recordingFetch: typeof fetch = (input, init) => {
      const headers = new Headers(init?.headers);
      posted.push({ method: headers.get("mcp-method"), name: headers.get("mcp-name") });
      return fetch(input, init);
    };
    const session = await connectSession(httpChannel(listener.url, { fetch: recordingFetch }), {
      revisions: ["2026-07-28"],
      capabilities: { elicitation: { form: {} } },
      requests: { "elicitation/create": () => ({ action: "accept", content: { meaning: "weather" } }) },
    });
    sessions.push(session);
    const task = await callToolAsTask(session, "research", { topic: "fronts", ambiguous: true });
    const result = await task.wait();
    expect(textOf(result)).toBe("Report on fronts (weather)");
    expect(posted.find((p) => p.method === "tools/call")).toEqual({ method: "tools/call", name: "research" });
    expect(posted.filter((p) => p.method === "tasks/update")).toHaveLength(1);
    expect(posted.filter((p) => p.method === "tasks/get").length).toBeGreaterThan(2);
  });
});
