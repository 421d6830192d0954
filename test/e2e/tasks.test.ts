// Tasks end to end, on a server built with the runtime API (fixtures/tasks-server.ts) over
// real stdio and real HTTP, in both eras: the 2026-07-28 tasks extension (server-directed
// tasks, tasks/get|update|cancel, -32021 without the extension, removed methods) and the
// experimental tasks of 2025-11-25 (params.task, tasks/result, tasks/list, input through the
// session), cancellation reaching the handler's ctx.signal, expiry, and isolation between
// two legacy sessions.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { JsonObject } from "../../runtime/index.js";
import { repoRoot } from "../support/paths.js";
import { startHttpServer, stopAllChildren, tsxCommand, type HttpServerProcess } from "./helpers.js";
import {
  httpClient,
  legacyRevision,
  modernMeta,
  stdioClient,
  type RawClient,
  type RawResponse,
  type ServerRequestHandler,
} from "./raw-mcp.js";

const fixture = join(repoRoot, "test", "e2e", "fixtures", "tasks-server.ts");
const RELATED_TASK = "io.modelcontextprotocol/related-task";

const answerName: ServerRequestHandler = (method) =>
  method === "elicitation/create" ? { action: "accept", content: { name: "Ada" } } : {};

interface Transport {
  readonly name: string;
  client(era: "modern" | "legacy", answer?: ServerRequestHandler): RawClient;
}

let http: HttpServerProcess | undefined;
const clients: RawClient[] = [];

const transports: Transport[] = [
  {
    name: "stdio",
    client(_era, answer = answerName) {
      const { command, args, cwd } = tsxCommand(fixture);
      const client = stdioClient(command, args, cwd, answer);
      clients.push(client);
      return client;
    },
  },
  {
    name: "HTTP",
    client(era, answer = answerName) {
      const client = httpClient(http!.url, era, answer);
      clients.push(client);
      return client;
    },
  },
];

beforeAll(async () => {
  http = await startHttpServer(fixture, "--port", "0");
});

afterAll(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await stopAllChildren();
});

function ok(response: RawResponse): JsonObject {
  if (response.error) throw new Error(`unexpected error ${JSON.stringify(response.error)}`);
  return response.result!;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(transports)("tasks over $name", (transport) => {
  describe("2026-07-28 (io.modelcontextprotocol/tasks)", () => {
    const call = (client: RawClient, name: string, args: JsonObject = {}, tasks = true) =>
      client.request("tools/call", { name, arguments: args, _meta: modernMeta(tasks) });
    const task = (client: RawClient, method: string, params: JsonObject, tasks = true) =>
      client.request(method, { ...params, _meta: modernMeta(tasks) });
    /** tasks/get until `done` says so (at most 5 s). */
    async function poll(client: RawClient, taskId: string, done: (t: JsonObject) => boolean): Promise<JsonObject> {
      const deadline = Date.now() + 5_000;
      for (;;) {
        const current = ok(await task(client, "tasks/get", { taskId }));
        if (done(current) || Date.now() > deadline) return current;
        await sleep(50);
      }
    }
    const terminal = (t: JsonObject) => ["completed", "failed", "cancelled"].includes(t.status as string);

    it("answers a fast call inline and turns a slow one into a task whose result tasks/get inlines", async () => {
      const client = transport.client("modern");
      const fast = ok(await call(client, "compute", { ms: 0 }));
      expect(fast.resultType).toBe("complete");
      expect(fast.content).toEqual([{ type: "text", text: "computed compute" }]);

      const created = ok(await call(client, "compute", { ms: 400, label: "slow" }));
      expect(created).toMatchObject({ resultType: "task", status: "working", pollIntervalMs: 100 });
      expect(created.taskId).toMatch(/^[0-9a-f-]{36}$/);
      expect(Number.isInteger(created.ttlMs)).toBe(true);
      expect(created).not.toHaveProperty("result");
      const working = ok(await task(client, "tasks/get", { taskId: created.taskId }));
      expect(working).toMatchObject({ resultType: "complete", taskId: created.taskId, status: "working" });
      const done = await poll(client, created.taskId as string, terminal);
      expect(done).toMatchObject({
        status: "completed",
        result: { content: [{ type: "text", text: "computed slow" }] },
      });
      expect((done.result as JsonObject)._meta).toBeUndefined();
    });

    it("asks for input through the task: input_required with inputRequests, then tasks/update resumes the handler", async () => {
      const client = transport.client("modern");
      const created = ok(await call(client, "ask"));
      expect(created.resultType).toBe("task");
      const waiting = await poll(client, created.taskId as string, (t) => t.status !== "working");
      expect(waiting.status).toBe("input_required");
      expect(waiting.inputRequests).toMatchObject({
        name: { method: "elicitation/create", params: { message: "Your name?" } },
      });
      // An answer to a key the task does not wait for changes nothing.
      expect(
        ok(
          await task(client, "tasks/update", {
            taskId: created.taskId,
            inputResponses: { other: { action: "accept", content: {} } },
          }),
        ),
      ).toEqual(expect.objectContaining({ resultType: "complete" }));
      expect(ok(await task(client, "tasks/get", { taskId: created.taskId })).status).toBe("input_required");
      const ack = ok(
        await task(client, "tasks/update", {
          taskId: created.taskId,
          inputResponses: { name: { action: "accept", content: { name: "Grace" } } },
        }),
      );
      expect(Object.keys(ack).sort()).toEqual(["_meta", "resultType"]);
      const done = await poll(client, created.taskId as string, terminal);
      expect(done).toMatchObject({
        status: "completed",
        result: { content: [{ type: "text", text: "Hello, Grace!" }] },
      });
      expect(done).not.toHaveProperty("inputRequests");
    });

    it("cancels a running task: an empty ack, status cancelled, the handler's ctx.signal aborted; cancelling again is acknowledged too", async () => {
      const client = transport.client("modern");
      const label = `cancel-${transport.name}-${Date.now()}`;
      const created = ok(await call(client, "compute", { ms: 30_000, label }));
      expect(created.resultType).toBe("task");
      const ack = ok(await task(client, "tasks/cancel", { taskId: created.taskId }));
      expect(ack).not.toHaveProperty("status");
      expect(ok(await task(client, "tasks/get", { taskId: created.taskId })).status).toBe("cancelled");
      const aborts = async () =>
        JSON.parse((ok(await call(client, "aborts")).content as { text: string }[])[0]!.text) as string[];
      let seen = await aborts();
      for (let i = 0; i < 40 && !seen.includes(label); i++) seen = (await sleep(50), await aborts());
      expect(seen).toContain(label);
      expect(ok(await task(client, "tasks/cancel", { taskId: created.taskId })).resultType).toBe("complete");
      expect(ok(await task(client, "tasks/get", { taskId: created.taskId })).status).toBe("cancelled");
    });

    it("reports a protocol error as failed with the error inline", async () => {
      const client = transport.client("modern");
      const created = ok(await call(client, "broken"));
      const done = await poll(client, created.taskId as string, terminal);
      expect(done).toMatchObject({ status: "failed", error: { code: -32603, message: "the worker crashed" } });
      expect(done).not.toHaveProperty("result");
    });

    it("keeps a task for its ttlMs and no longer", async () => {
      const client = transport.client("modern");
      const created = ok(await call(client, "short_lived"));
      expect(created).toMatchObject({ resultType: "task", ttlMs: 400 });
      const done = await poll(client, created.taskId as string, terminal);
      expect(done.status).toBe("completed");
      await sleep(450);
      const gone = await task(client, "tasks/get", { taskId: created.taskId });
      expect(gone.error?.code).toBe(-32602);
    });

    it("refuses what needs the extension without it (-32021), removed methods (-32601) and unknown tasks (-32602)", async () => {
      const client = transport.client("modern");
      const required = await call(client, "must", {}, false);
      expect(required.error?.code).toBe(-32021);
      expect(required.error?.data).toEqual({
        requiredCapabilities: { extensions: { "io.modelcontextprotocol/tasks": {} } },
      });
      expect((await task(client, "tasks/get", { taskId: "x" }, false)).error?.code).toBe(-32021);
      // Without the extension a task tool runs inline.
      expect(ok(await call(client, "compute", { ms: 200 }, false)).resultType).toBe("complete");
      expect((await task(client, "tasks/result", { taskId: "x" })).error?.code).toBe(-32601);
      expect((await task(client, "tasks/list", {})).error?.code).toBe(-32601);
      expect((await task(client, "tasks/get", { taskId: "no-such-task" })).error?.code).toBe(-32602);
      // SEP-2663: tasks/update and tasks/cancel acknowledge any task id.
      expect(ok(await task(client, "tasks/update", { taskId: "no-such-task", inputResponses: {} })).resultType).toBe(
        "complete",
      );
      expect(ok(await task(client, "tasks/cancel", { taskId: "no-such-task" })).resultType).toBe("complete");
    });
  });

  it.runIf(transport.name === "stdio")(
    "2026-07-28: tells a subscriptions/listen stream that names a task when the task changes (notifications/tasks)",
    async () => {
      const { command, args, cwd } = tsxCommand(fixture);
      const client = stdioClient(command, args, cwd, answerName);
      clients.push(client);
      const created = ok(
        await client.request("tools/call", {
          name: "compute",
          arguments: { ms: 400, label: "listened" },
          _meta: modernMeta(true),
        }),
      );
      const taskId = created.taskId as string;
      void client.request("subscriptions/listen", { notifications: { taskIds: [taskId] }, _meta: modernMeta(true) });
      const deadline = Date.now() + 5_000;
      const find = (method: string, status?: string) =>
        client.notifications.find((n) => n.method === method && (status === undefined || n.params?.status === status));
      while (!find("notifications/tasks", "completed") && Date.now() < deadline) await sleep(50);
      expect(find("notifications/subscriptions/acknowledged")?.params?.notifications).toEqual({ taskIds: [taskId] });
      const told = find("notifications/tasks", "completed")!;
      expect(told.params).toMatchObject({
        taskId,
        status: "completed",
        result: { content: [{ type: "text", text: "computed listened" }] },
      });
      expect((told.params!._meta as JsonObject)["io.modelcontextprotocol/subscriptionId"]).toBeDefined();
    },
  );

  describe("2025-11-25 (experimental tasks)", () => {
    async function open(answer?: ServerRequestHandler): Promise<{ client: RawClient; init: JsonObject }> {
      const client = transport.client("legacy", answer);
      const init = ok(
        await client.request("initialize", {
          protocolVersion: legacyRevision,
          capabilities: { elicitation: {} },
          clientInfo: { name: "raw", version: "1.0.0" },
        }),
      );
      return { client, init };
    }

    it("announces tasks, runs a task asked for with params.task, answers tasks/get, tasks/result and tasks/list", async () => {
      const { client, init } = await open();
      expect((init.capabilities as JsonObject).tasks).toEqual({
        list: {},
        cancel: {},
        requests: { tools: { call: {} } },
      });
      const tools = ok(await client.request("tools/list")).tools as JsonObject[];
      expect(tools.find((t) => t.name === "compute")?.execution).toEqual({ taskSupport: "optional" });
      expect(tools.find((t) => t.name === "aborts")?.execution).toBeUndefined();

      const created = ok(
        await client.request("tools/call", {
          name: "compute",
          arguments: { ms: 300, label: "legacy" },
          task: { ttl: 60_000 },
        }),
      );
      const handle = created.task as JsonObject;
      expect(handle).toMatchObject({ status: "working", ttl: 60_000, pollInterval: 100 });
      expect(ok(await client.request("tasks/get", { taskId: handle.taskId }))).toMatchObject({
        taskId: handle.taskId,
        status: "working",
      });
      const result = ok(await client.request("tasks/result", { taskId: handle.taskId }));
      expect(result.content).toEqual([{ type: "text", text: "computed legacy" }]);
      expect((result._meta as JsonObject)[RELATED_TASK]).toEqual({ taskId: handle.taskId });
      expect(ok(await client.request("tasks/get", { taskId: handle.taskId })).status).toBe("completed");
      const listed = ok(await client.request("tasks/list")).tasks as JsonObject[];
      expect(listed.map((t) => t.taskId)).toContain(handle.taskId);
      // Without params.task the same tool runs inline; a tool that requires a task refuses.
      expect(ok(await client.request("tools/call", { name: "compute", arguments: { ms: 10 } })).content).toEqual([
        { type: "text", text: "computed compute" },
      ]);
      expect((await client.request("tools/call", { name: "must", arguments: {} })).error?.code).toBe(-32601);
    });

    it("sends the task's elicitation to the client, tagged with the task, while tasks/result waits", async () => {
      const { client } = await open();
      const created = ok(await client.request("tools/call", { name: "ask", arguments: {}, task: {} }));
      const taskId = (created.task as JsonObject).taskId;
      const result = ok(await client.request("tasks/result", { taskId }));
      expect(result.content).toEqual([{ type: "text", text: "Hello, Ada!" }]);
      const asked = client.serverRequests.find((r) => r.method === "elicitation/create");
      expect(asked?.params?._meta).toEqual({ [RELATED_TASK]: { taskId } });
    });

    it("cancels: the task comes back cancelled, its handler aborts, and a second cancel is refused", async () => {
      const { client } = await open();
      const label = `legacy-cancel-${transport.name}-${Date.now()}`;
      const created = ok(
        await client.request("tools/call", { name: "compute", arguments: { ms: 30_000, label }, task: {} }),
      );
      const taskId = (created.task as JsonObject).taskId;
      expect(ok(await client.request("tasks/cancel", { taskId }))).toMatchObject({ taskId, status: "cancelled" });
      const aborts = async () =>
        JSON.parse(
          (ok(await client.request("tools/call", { name: "aborts", arguments: {} })).content as { text: string }[])[0]!
            .text,
        ) as string[];
      let seen = await aborts();
      for (let i = 0; i < 40 && !seen.includes(label); i++) seen = (await sleep(50), await aborts());
      expect(seen).toContain(label);
      expect((await client.request("tasks/cancel", { taskId })).error?.code).toBe(-32602);
    });

    it.runIf(transport.name === "HTTP")("cancels a session's running tasks when the session ends", async () => {
      const first = await open();
      const label = `session-end-${Date.now()}`;
      const created = ok(
        await first.client.request("tools/call", { name: "compute", arguments: { ms: 30_000, label }, task: {} }),
      );
      expect((created.task as JsonObject).status).toBe("working");
      await first.client.close();
      const second = await open();
      const aborts = async () =>
        JSON.parse(
          (
            ok(await second.client.request("tools/call", { name: "aborts", arguments: {} })).content as {
              text: string;
            }[]
          )[0]!.text,
        ) as string[];
      let seen = await aborts();
      for (let i = 0; i < 40 && !seen.includes(label); i++) seen = (await sleep(50), await aborts());
      expect(seen).toContain(label);
    });

    it("keeps a session's tasks from another session", async () => {
      const first = await open();
      const created = ok(
        await first.client.request("tools/call", { name: "compute", arguments: { ms: 2_000 }, task: {} }),
      );
      const taskId = (created.task as JsonObject).taskId;
      const second = await open();
      expect((await second.client.request("tasks/get", { taskId })).error?.code).toBe(-32602);
      expect((await second.client.request("tasks/cancel", { taskId })).error?.code).toBe(-32602);
      expect((await second.client.request("tasks/result", { taskId })).error?.code).toBe(-32602);
      expect(ok(await second.client.request("tasks/list")).tasks).toEqual([]);
      expect(ok(await first.client.request("tasks/get", { taskId })).status).toBe("working");
      ok(await first.client.request("tasks/cancel", { taskId }));
    });
  });
});
