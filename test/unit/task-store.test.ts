// The in-memory TaskStore's contract (copies in and out, compare-and-set, lazy expiry,
// per-owner pages, bounds), the server's limits (a full store and too many running tasks
// fail the call with a clear error instead of growing without bound), and isolation: on a
// protected server a task belongs to the token's subject.
import { afterAll, describe, expect, it } from "vitest";
import { MemoryTaskStore, TaskLimitError, type TaskRecord } from "../../runtime/index.js";
import { listenHttp, type HttpListener } from "../../runtime/node.js";
import { createTasksTestServer } from "../e2e/fixtures/tasks-server.js";
import { httpClient, modernMeta } from "../e2e/raw-mcp.js";

function record(taskId: string, overrides: Partial<TaskRecord> = {}): TaskRecord {
  const now = new Date().toISOString();
  return {
    taskId,
    owner: "",
    tool: "t",
    revision: "2026-07-28",
    status: "working",
    createdAt: now,
    lastUpdatedAt: now,
    ttlMs: 60_000,
    pollIntervalMs: 100,
    expiresAt: Date.now() + 60_000,
    version: 1,
    ...overrides,
  };
}

describe("MemoryTaskStore", () => {
  it("hands out copies, and writes only over the version a writer read (compare-and-set)", async () => {
    const store = new MemoryTaskStore();
    await store.create(record("a"));
    const read = (await store.get("a"))!;
    (read as { status: string }).status = "failed";
    expect((await store.get("a"))!.status).toBe("working");
    expect(await store.update({ ...read, status: "completed", version: 2 })).toBe(true);
    // A second writer that read version 1 loses.
    expect(await store.update({ ...read, status: "cancelled", version: 2 })).toBe(false);
    expect(await store.update({ ...read, status: "cancelled", version: 5 })).toBe(false);
    expect((await store.get("a"))!).toMatchObject({ status: "completed", version: 2 });
    expect(await store.update(record("missing", { version: 2 }))).toBe(false);
  });

  it("forgets a record once it expires, without a timer", async () => {
    const store = new MemoryTaskStore();
    await store.create(record("soon", { expiresAt: Date.now() + 30 }));
    await store.create(record("never", { expiresAt: null, ttlMs: null }));
    expect(await store.get("soon")).toBeDefined();
    await new Promise((r) => setTimeout(r, 50));
    expect(await store.get("soon")).toBeUndefined();
    expect(await store.get("never")).toBeDefined();
  });

  it("lists an owner's records a page at a time, oldest first", async () => {
    const store = new MemoryTaskStore();
    for (const id of ["1", "2", "3"]) await store.create(record(id, { owner: "session:x" }));
    await store.create(record("other", { owner: "session:y" }));
    const first = await store.list("session:x", undefined, 2);
    expect(first.tasks.map((t) => t.taskId)).toEqual(["1", "2"]);
    const second = await store.list("session:x", first.nextCursor, 2);
    expect(second.tasks.map((t) => t.taskId)).toEqual(["3"]);
    expect(second.nextCursor).toBeUndefined();
    await expect(store.list("session:x", "nope", 2)).rejects.toBeInstanceOf(RangeError);
  });

  it("makes room by dropping the oldest finished task, and refuses when every task is still running", async () => {
    const store = new MemoryTaskStore({ maxTasks: 2 });
    await store.create(record("done", { status: "completed" }));
    await store.create(record("running"));
    await store.create(record("new"));
    expect(await store.get("done")).toBeUndefined();
    await expect(store.create(record("one-too-many"))).rejects.toBeInstanceOf(TaskLimitError);
  });
});

describe("task limits of a server", () => {
  const listeners: HttpListener[] = [];
  afterAll(async () => {
    await Promise.all(listeners.map((l) => l.close()));
  });

  async function serve(...args: Parameters<typeof createTasksTestServer>) {
    const listener = await listenHttp(createTasksTestServer(...args), { port: 0 });
    listeners.push(listener);
    return httpClient(listener.url, "modern", () => ({}));
  }
  const call = (label: string) => ({ name: "compute", arguments: { ms: 2_000, label }, _meta: modernMeta(true) });

  it("answers a call beyond maxRunningTasks with a clear error", async () => {
    const client = await serve(undefined, { maxRunningTasks: 1 });
    const first = await client.request("tools/call", call("first"));
    expect(first.result?.resultType).toBe("task");
    const second = await client.request("tools/call", call("second"));
    expect(second.error?.code).toBe(-32603);
    expect(second.error?.message).toMatch(/Too many tasks running on this server \(at most 1\)/);
    await client.request("tasks/cancel", { taskId: first.result!.taskId as string, _meta: modernMeta(true) });
  });

  it("answers a call the store has no room for with a clear error", async () => {
    const client = await serve(new MemoryTaskStore({ maxTasks: 1 }));
    const first = await client.request("tools/call", call("first"));
    expect(first.result?.resultType).toBe("task");
    const second = await client.request("tools/call", call("second"));
    expect(second.error?.code).toBe(-32603);
    expect(second.error?.message).toMatch(/Too many tasks: this server keeps at most 1/);
    await client.request("tasks/cancel", { taskId: first.result!.taskId as string, _meta: modernMeta(true) });
  });
});

describe("tasks of a protected server", () => {
  let listener: HttpListener | undefined;
  afterAll(async () => {
    await listener?.close();
  });

  it("belong to the token's subject: another subject cannot read, answer or cancel them (update and cancel are acknowledged, as for any unknown id, and change nothing)", async () => {
    const resource = "https://tasks.example.com/mcp";
    listener = await listenHttp(createTasksTestServer(), {
      port: 0,
      auth: {
        resource,
        authorizationServers: ["https://auth.example.com"],
        // The token is the subject's name (a test stand-in for a verified JWT).
        verifyToken: (token) => ({
          subject: token,
          scopes: [],
          expiresAt: undefined,
          audience: [resource],
          claims: { sub: token },
        }),
      },
    });
    const as = (subject: string) =>
      httpClient(listener!.url, "modern", () => ({}), fetch, { authorization: `Bearer ${subject}` });
    const alice = as("alice");
    const bob = as("bob");
    const meta = modernMeta(true);
    const created = await alice.request("tools/call", { name: "compute", arguments: { ms: 2_000 }, _meta: meta });
    const taskId = created.result!.taskId as string;
    expect(created.result?.resultType).toBe("task");
    expect((await bob.request("tasks/get", { taskId, _meta: meta })).error?.code).toBe(-32602);
    expect((await bob.request("tasks/update", { taskId, inputResponses: {}, _meta: meta })).result?.resultType).toBe(
      "complete",
    );
    expect((await bob.request("tasks/cancel", { taskId, _meta: meta })).result?.resultType).toBe("complete");
    expect((await alice.request("tasks/get", { taskId, _meta: meta })).result?.status).toBe("working");
    expect((await alice.request("tasks/cancel", { taskId, _meta: meta })).result?.resultType).toBe("complete");
  });
});
