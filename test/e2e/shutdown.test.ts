// Graceful shutdown (issue 15): the examples' servers, as child processes, on SIGTERM over
// HTTP and over stdio: a request in flight still gets its result, new connections (HTTP)
// or requests (stdio) are refused, the process exits 0 within the deadline; a second
// signal exits at once; a busy port is reported in one line with exit code 1. In process:
// listener.close({ timeoutMs }) ends what overruns its deadline properly.
import { spawn, type ChildProcess } from "node:child_process";
import { connect, createServer, type AddressInfo, type Server } from "node:net";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { listenHttp } from "@mcp-gen/runtime/node";
import { createHandlers } from "../../examples/everything/src/handlers.js";
import { createNotesServer } from "../../examples/everything/src/mcp/index.js";
import { repoRoot } from "../support/paths.js";
import { startHttpServer, stopAllChildren, stopChild, tsxCommand, weatherMain } from "./helpers.js";

/** The everything example: its reindex tool takes delayMs per note (two notes to start with). */
const everythingMain = join(repoRoot, "examples", "everything", "src", "main.ts");

const REVISION = "2025-11-25";
const initialize = (id: number) => ({
  jsonrpc: "2.0",
  id,
  method: "initialize",
  params: { protocolVersion: REVISION, capabilities: {}, clientInfo: { name: "shutdown-test", version: "1.0.0" } },
});
const initialized = { jsonrpc: "2.0", method: "notifications/initialized" };
const reindex = (id: number, delayMs: number) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "reindex", arguments: { delayMs } },
});
const ping = (id: number) => ({ jsonrpc: "2.0", id, method: "ping" });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** When it exited (Date.now()). */
  readonly at: number;
}

const exitOf = (child: ChildProcess): Promise<Exit> =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve({ code: child.exitCode, signal: child.signalCode, at: Date.now() })
    : new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal, at: Date.now() })));

/** A legacy (2025-11-25) session over HTTP, initialized; POSTs answer JSON or SSE text. */
async function httpSession(url: string) {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
  };
  const init = await fetch(url, { method: "POST", headers, body: JSON.stringify(initialize(1)) });
  expect(init.status).toBe(200);
  await init.text();
  const session = {
    ...headers,
    "mcp-session-id": init.headers.get("mcp-session-id")!,
    "mcp-protocol-version": REVISION,
  };
  const ack = await fetch(url, { method: "POST", headers: session, body: JSON.stringify(initialized) });
  expect(ack.status).toBe(202);
  return {
    post: async (message: unknown) => {
      const response = await fetch(url, { method: "POST", headers: session, body: JSON.stringify(message) });
      return { status: response.status, text: await response.text() };
    },
  };
}

/** Whether a new TCP connection to `port` is refused. */
const refused = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", (error: NodeJS.ErrnoException) => resolve(error.code === "ECONNREFUSED"));
  });

/** A server over stdio as a child process, with its stdout split into messages. */
function startStdio(script: string, ...args: string[]) {
  const { command, args: argv, cwd } = tsxCommand(script, ...args);
  const child = spawn(command, argv, { cwd, stdio: ["pipe", "pipe", "pipe"] });
  children.add(child);
  const messages: {
    id?: unknown;
    result?: { content?: { text?: string }[]; isError?: boolean };
    error?: { code: number; message: string };
  }[] = [];
  let pending = "";
  let stderr = "";
  child.stdout!.setEncoding("utf8");
  child.stdout!.on("data", (chunk: string) => {
    pending += chunk;
    let at: number;
    while ((at = pending.indexOf("\n")) >= 0) {
      const line = pending.slice(0, at);
      pending = pending.slice(at + 1);
      if (line.trim() !== "") messages.push(JSON.parse(line) as (typeof messages)[number]);
    }
  });
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const send = (message: unknown) => child.stdin!.write(`${JSON.stringify(message)}\n`);
  const answer = async (id: number, ms = 60_000) => {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = messages.find((m) => m.id === id);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no answer to ${id} within ${ms} ms; stderr:\n${stderr}`);
      await sleep(10);
    }
  };
  return { child, send, answer, stderr: () => stderr };
}

const children = new Set<ChildProcess>();
afterAll(async () => {
  await Promise.all([...children].map(stopChild));
  await stopAllChildren();
});

describe("graceful shutdown over HTTP (examples as child processes)", () => {
  it("on SIGTERM a tool call in flight still gets its result, new connections are refused, and the process exits 0 within the deadline", async () => {
    const server = await startHttpServer(everythingMain, "--http", "--port", "0");
    const port = Number(new URL(server.url).port);
    const session = await httpSession(server.url);
    // Two notes at 600 ms each: about 1.2 s.
    const slow = session.post(reindex(2, 600));
    await sleep(300);
    const signalled = Date.now();
    const exited = exitOf(server.child);
    server.child.kill("SIGTERM");
    await sleep(150);
    expect(await refused(port)).toBe(true);
    const reply = await slow;
    expect(reply.status).toBe(200);
    expect(reply.text).toContain('"id":2,"result"');
    expect(reply.text).toContain("Reindexed 2 notes");
    const exit = await exited;
    expect(exit, server.stderr()).toMatchObject({ code: 0, signal: null });
    expect(exit.at - signalled).toBeLessThan(10_000);
  });

  it("a second SIGTERM exits at once, without waiting for the request in flight", async () => {
    const server = await startHttpServer(everythingMain, "--http", "--port", "0");
    const session = await httpSession(server.url);
    // Two notes at 1000 ms each: about 2 s.
    const slow = session.post(reindex(2, 1000)).catch((error: unknown) => error);
    await sleep(200);
    const exited = exitOf(server.child);
    server.child.kill("SIGTERM");
    // Later than a duplicate delivery of the first (npm relays a Ctrl-C that the terminal also sends).
    await sleep(500);
    const again = Date.now();
    server.child.kill("SIGTERM");
    const exit = await exited;
    expect(exit.code).toBe(143);
    expect(exit.at - again).toBeLessThan(1_000);
    await slow;
  });

  it("the weather example, idle, exits 0 at once on SIGTERM", async () => {
    const server = await startHttpServer(weatherMain, "--http", "--port", "0");
    const session = await httpSession(server.url);
    // A keep-alive connection stays open in fetch's pool: it must not hold the shutdown up.
    expect((await session.post(ping(2))).text).toContain('"result"');
    const exited = exitOf(server.child);
    const signalled = Date.now();
    server.child.kill("SIGTERM");
    const exit = await exited;
    expect(exit, server.stderr()).toMatchObject({ code: 0, signal: null });
    expect(exit.at - signalled).toBeLessThan(2_000);
  });

  it("a busy port is reported in one line on stderr, with exit code 1", async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", () => resolve()));
    const { port } = blocker.address() as AddressInfo;
    try {
      const { command, args, cwd } = tsxCommand(weatherMain, "--http", "--port", String(port));
      const child = spawn(command, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
      children.add(child);
      let stderr = "";
      let stdout = "";
      child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
      child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
      const exit = await exitOf(child);
      expect(exit.code).toBe(1);
      expect(stderr).toBe(`weather: port ${port} is in use (EADDRINUSE on 127.0.0.1): choose another with --port\n`);
      expect(stdout).toBe("");
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });
});

describe("graceful shutdown over stdio (examples as child processes)", () => {
  it("on SIGTERM a tool call in flight still gets its result, new requests are refused, and the process exits 0", async () => {
    const server = startStdio(everythingMain);
    server.send(initialize(1));
    expect((await server.answer(1)).result).toBeDefined();
    server.send(initialized);
    server.send(reindex(2, 600));
    await sleep(300);
    const exited = exitOf(server.child);
    const signalled = Date.now();
    server.child.kill("SIGTERM");
    await sleep(100);
    server.send(ping(3));
    const refusedPing = await server.answer(3);
    expect(refusedPing.error).toMatchObject({ code: -32000, message: "Server is shutting down" });
    const result = await server.answer(2);
    expect(result.result?.isError).toBeFalsy();
    expect(result.result?.content?.[0]?.text).toBe("Reindexed 2 notes");
    const exit = await exited;
    expect(exit, server.stderr()).toMatchObject({ code: 0, signal: null });
    expect(exit.at - signalled).toBeLessThan(10_000);
  });

  it("a second SIGTERM exits at once", async () => {
    const server = startStdio(everythingMain);
    server.send(initialize(1));
    await server.answer(1);
    server.send(initialized);
    server.send(reindex(2, 1000));
    await sleep(200);
    const exited = exitOf(server.child);
    server.child.kill("SIGTERM");
    await sleep(500);
    const again = Date.now();
    server.child.kill("SIGTERM");
    const exit = await exited;
    expect(exit.code).toBe(143);
    expect(exit.at - again).toBeLessThan(1_000);
  });

  it("the weather example, idle, exits 0 at once on SIGTERM (stdin still open)", async () => {
    const server = startStdio(weatherMain);
    server.send(initialize(1));
    await server.answer(1);
    const exited = exitOf(server.child);
    const signalled = Date.now();
    server.child.kill("SIGTERM");
    const exit = await exited;
    expect(exit, server.stderr()).toMatchObject({ code: 0, signal: null });
    expect(exit.at - signalled).toBeLessThan(2_000);
  });
});

describe("listener.close({ timeoutMs }) in process", () => {
  it("ends a request that overruns the deadline and an open GET stream properly, then closes", async () => {
    const server = createNotesServer(createHandlers({ changed: () => {}, emptied: () => {} }));
    const listener = await listenHttp(server, { port: 0 });
    const session = await httpSession(listener.url);
    // The session's GET stream (legacy SSE).
    const sessionHeaders = await (async () => {
      const init = await fetch(listener.url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify(initialize(1)),
      });
      await init.text();
      return {
        accept: "text/event-stream",
        "mcp-session-id": init.headers.get("mcp-session-id")!,
        "mcp-protocol-version": REVISION,
      };
    })();
    const stream = await fetch(listener.url, { method: "GET", headers: sessionHeaders });
    expect(stream.status).toBe(200);
    const streamText = stream.text();
    // Two notes at 1000 ms: past a 300 ms deadline.
    const slow = session.post(reindex(2, 1000));
    await sleep(100);
    const started = Date.now();
    await listener.close({ timeoutMs: 300 });
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(250);
    expect(took).toBeLessThan(2_000);
    // Both responses ended normally (text() would reject on a reset).
    await expect(streamText).resolves.toBeTypeOf("string");
    const reply = await slow;
    expect(reply.status).toBe(200);
    expect(reply.text).toContain('"id":2');
    expect(reply.text).not.toContain("Reindexed 2 notes");
    expect(listener.httpServer.listening).toBe(false);
  });
});
