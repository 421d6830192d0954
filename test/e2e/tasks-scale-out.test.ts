// Tasks across instances: three processes of the tasks test server (fixtures/tasks-server.ts)
// keep their tasks in one Redis (test/support/redis-task-store.ts) and serve behind nginx
// (round-robin). A task created on one instance is read, answered (tasks/update) and
// cancelled through the others: the instance running the handler learns of the answer and
// of the cancellation by polling the store. Needs redis-server (Debian's redis-server) and
// nginx: without either this FAILS.
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { JsonObject } from "../../runtime/index.js";
import { repoRoot } from "../support/paths.js";
import { RespClient } from "../support/redis-task-store.js";
import { startHttpServer, stopChild, type HttpServerProcess } from "./helpers.js";
import { findProgram, freePort, startNginxProxy, waitFor, type NginxProxy } from "./proxy.js";
import { httpClient, modernMeta, type RawClient, type RawResponse } from "./raw-mcp.js";

const fixture = join(repoRoot, "test", "e2e", "fixtures", "tasks-server.ts");
const instances = 3;

function ok(response: RawResponse): JsonObject {
  if (response.error) throw new Error(`unexpected error ${JSON.stringify(response.error)}`);
  return response.result!;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("tasks across three instances sharing a Redis task store, behind nginx (2026-07-28)", () => {
  const servers: HttpServerProcess[] = [];
  let redis: ChildProcess | undefined;
  let redisLog = "";
  let proxy: NginxProxy | undefined;
  let proxyUrl = "";
  const upstreams: string[] = [];

  /** fetch through the proxy that records which instance answered. */
  const recordingFetch: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    upstreams.push(response.headers.get("x-upstream") ?? "?");
    return response;
  };

  beforeAll(async () => {
    const redisPath = findProgram("redis-server", ["/usr/bin/redis-server"]);
    if (!redisPath) throw new Error("redis-server is not installed: install the Debian package redis-server");

    const redisPort = await freePort();
    redis = spawn(redisPath, ["--port", String(redisPort), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    redis.stdout!.on("data", (c: Buffer) => (redisLog += c.toString("utf8")));
    redis.stderr!.on("data", (c: Buffer) => (redisLog += c.toString("utf8")));
    const probe = () =>
      new Promise<boolean>((resolve) => {
        const client = new RespClient(redisPort);
        client.command("PING").then(
          (reply) => (client.close(), resolve(reply === "PONG")),
          () => (client.close(), resolve(false)),
        );
      });
    await waitFor("redis-server", probe, redis, () => redisLog);

    servers.push(
      ...(await Promise.all(
        Array.from({ length: instances }, () => startHttpServer(fixture, "--port", "0", "--redis", String(redisPort))),
      )),
    );

    proxy = await startNginxProxy(servers.map((s) => new URL(s.url).host));
    proxyUrl = proxy.url;
  });

  afterAll(async () => {
    await proxy?.stop();
    await Promise.all(servers.map((s) => s.stop()));
    if (redis) await stopChild(redis);
  });

  /** A client of instance `i` directly, or of the proxy. */
  const direct = (i: number): RawClient => httpClient(servers[i]!.url, "modern", () => ({}));
  const call = (client: RawClient, name: string, args: JsonObject = {}) =>
    client.request("tools/call", { name, arguments: args, _meta: modernMeta(true) });
  const task = (client: RawClient, method: string, params: JsonObject) =>
    client.request(method, { ...params, _meta: modernMeta(true) });

  async function poll(client: RawClient, taskId: string, done: (t: JsonObject) => boolean): Promise<JsonObject> {
    const deadline = Date.now() + 5_000;
    for (;;) {
      const current = ok(await task(client, "tasks/get", { taskId }));
      if (done(current) || Date.now() > deadline) return current;
      await sleep(50);
    }
  }

  it("a task created on one instance is read on another and answered through a third, where its handler resumes", async () => {
    const created = ok(await call(direct(0), "ask"));
    expect(created.resultType).toBe("task");
    const taskId = created.taskId as string;
    const waiting = await poll(direct(1), taskId, (t) => t.status !== "working");
    expect(waiting.status).toBe("input_required");
    expect(Object.keys(waiting.inputRequests as JsonObject)).toEqual(["name"]);
    ok(
      await task(direct(2), "tasks/update", {
        taskId,
        inputResponses: { name: { action: "accept", content: { name: "Grace" } } },
      }),
    );
    const done = await poll(direct(1), taskId, (t) => t.status === "completed");
    expect(done.result).toEqual({ content: [{ type: "text", text: "Hello, Grace!" }] });
  });

  it("a task cancelled through another instance stops its handler on the instance running it", async () => {
    const label = `redis-cancel-${Date.now()}`;
    const created = ok(await call(direct(0), "compute", { ms: 30_000, label }));
    const taskId = created.taskId as string;
    ok(await task(direct(1), "tasks/cancel", { taskId }));
    expect(ok(await task(direct(2), "tasks/get", { taskId })).status).toBe("cancelled");
    // Instance 0 polls the store every pollIntervalMs (100 ms here) and aborts the handler's ctx.signal.
    const aborts = async () =>
      JSON.parse((ok(await call(direct(0), "aborts")).content as { text: string }[])[0]!.text) as string[];
    let seen = await aborts();
    for (let i = 0; i < 40 && !seen.includes(label); i++) seen = (await sleep(50), await aborts());
    expect(seen).toContain(label);
    expect(ok(await task(direct(2), "tasks/get", { taskId })).status).toBe("cancelled");
  });

  it("through nginx, a task's requests spread over every instance and it still completes", async () => {
    const client = httpClient(proxyUrl, "modern", () => ({}), recordingFetch);
    const from = upstreams.length;
    const created = ok(await call(client, "ask"));
    const taskId = created.taskId as string;
    const waiting = await poll(client, taskId, (t) => t.status !== "working");
    expect(waiting.status).toBe("input_required");
    ok(
      await task(client, "tasks/update", {
        taskId,
        inputResponses: { name: { action: "accept", content: { name: "Ada" } } },
      }),
    );
    const done = await poll(client, taskId, (t) => t.status === "completed");
    expect(done.result).toEqual({ content: [{ type: "text", text: "Hello, Ada!" }] });
    const served = upstreams.slice(from);
    expect(new Set(served).size, served.join(", ")).toBe(instances);

    const other = ok(await call(client, "compute", { ms: 30_000, label: "via-proxy" }));
    ok(await task(client, "tasks/cancel", { taskId: other.taskId as string }));
    expect(ok(await task(client, "tasks/get", { taskId: other.taskId as string })).status).toBe("cancelled");
  });
});
