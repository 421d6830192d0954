// The stdio transport under pressure (issue 15): bounded writes, backpressure on a slow
// reader, long and oversized lines, 2025-03-26 batches, a host that goes away (EPIPE), and
// input that ends while requests are still running. Through serveStdio over a real child
// process's stdio (test/e2e/fixtures/stdio-server.ts: the weather example's generated
// server), or over real streams in this process where a write's size must be observed.
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { PassThrough, Writable } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import { serveStdio } from "@mcp-gen/runtime/node";
import { handlers } from "../../examples/weather/src/handlers.js";
import { createWeatherServer } from "../../examples/weather/src/mcp/index.js";
import { repoRoot } from "../support/paths.js";
import { stopChild, tsxCommand } from "./helpers.js";

const fixture = join(repoRoot, "test", "e2e", "fixtures", "stdio-server.ts");

type Message = {
  id?: unknown;
  method?: string;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
  params?: Record<string, unknown>;
};

const initialize = (id: number, protocolVersion: string) => ({
  jsonrpc: "2.0",
  id,
  method: "initialize",
  params: { protocolVersion, capabilities: {}, clientInfo: { name: "stdio-reliability", version: "1.0.0" } },
});
const initialized = { jsonrpc: "2.0", method: "notifications/initialized" };
const listCities = (id: number) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "list_cities", arguments: {} },
});
const ping = (id: number) => ({ jsonrpc: "2.0", id, method: "ping" });
const line = (value: unknown) => `${JSON.stringify(value)}\n`;

/** Polls `condition` until it holds; fails with `what` (and the server's stderr) after `ms`. */
async function until(condition: () => boolean, what: () => string, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what()}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

interface Server {
  readonly child: ChildProcess;
  /** Every message the server wrote on stdout, parsed, in order (a batch answer is an array). */
  readonly messages: unknown[];
  /** Lines of stdout that were not JSON. */
  readonly garbage: string[];
  stderr(): string;
  write(text: string): void;
  readonly exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** The first message with this id (waits for it). */
  response(id: unknown, ms?: number): Promise<Message>;
}

const children = new Set<ChildProcess>();
afterAll(async () => {
  await Promise.all([...children].map(stopChild));
});

function startServer(env: Record<string, string> = {}): Server {
  const { command, args, cwd } = tsxCommand(fixture);
  const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ["pipe", "pipe", "pipe"] });
  children.add(child);
  const messages: unknown[] = [];
  const garbage: string[] = [];
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  // Linear line splitting (responses here can be megabytes long).
  let pieces: string[] = [];
  child.stdout!.setEncoding("utf8");
  child.stdout!.on("data", (chunk: string) => {
    let start = 0;
    for (let end = chunk.indexOf("\n"); end >= 0; end = chunk.indexOf("\n", start)) {
      pieces.push(chunk.slice(start, end));
      const text = pieces.join("");
      pieces = [];
      start = end + 1;
      try {
        messages.push(JSON.parse(text));
      } catch {
        garbage.push(text.slice(0, 200));
      }
    }
    if (start < chunk.length) pieces.push(chunk.slice(start));
  });
  child.stdin!.on("error", () => {});
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => {
      children.delete(child);
      resolve({ code, signal });
    }),
  );
  const find = (id: unknown) =>
    messages.find((m) => !Array.isArray(m) && (m as Message).id === id) as Message | undefined;
  return {
    child,
    messages,
    garbage,
    stderr: () => stderr,
    write: (text) => child.stdin!.write(text),
    exit,
    async response(id, ms) {
      await until(
        () => find(id) !== undefined,
        () => `the response to ${String(id)}; stderr:\n${stderr}`,
        ms,
      );
      return find(id)!;
    },
  };
}

/** Highest `started N` the fixture reported on stderr. */
const startedCount = (server: Server) =>
  Math.max(0, ...[...server.stderr().matchAll(/started (\d+)/g)].map((m) => Number(m[1])));
const maxRss = (server: Server) => Math.max(0, ...[...server.stderr().matchAll(/rss (\d+)/g)].map((m) => Number(m[1])));

/** An in-process server on real streams, with every write to its output recorded. */
function inProcess(listCitiesText: () => string, options: { maxMessageBytes?: number } = {}) {
  const server = createWeatherServer({ ...handlers, tools: { ...handlers.tools, listCities: () => listCitiesText() } });
  const input = new PassThrough();
  const writes: number[] = [];
  let text = "";
  const output = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      writes.push(chunk.length);
      text += chunk.toString("utf8");
      callback();
    },
  });
  const connection = serveStdio(server, { input, output, ...options });
  const messages = () =>
    text
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => JSON.parse(l) as Message);
  return { input, writes, messages, connection };
}

describe("stdio: output", () => {
  it("writes a burst of large responses in bounded writes, never one string", async () => {
    const size = 300_000;
    const { input, writes, messages, connection } = inProcess(() => "x".repeat(size));
    input.write(
      line(initialize(1, "2025-11-25")) +
        line(initialized) +
        Array.from({ length: 40 }, (_, i) => line(listCities(i + 2))).join(""),
    );
    await until(
      () => messages().length === 41,
      () => `41 responses, got ${messages().length}`,
    );
    const answered = messages().filter((m) => typeof m.id === "number" && m.id >= 2);
    expect(answered).toHaveLength(40);
    for (const m of answered) expect((m.result?.content as { text: string }[])[0]!.text.length).toBe(size);
    // About 1 MiB a write at most (plus the one message that crosses it).
    expect(Math.max(...writes)).toBeLessThanOrEqual(1024 * 1024 + size + 1000);
    expect(writes.length).toBeGreaterThan(5);
    input.end();
    await connection.closed;
  });

  it("survives 100 calls that answer 6 MB each in one burst (600 MB of output)", async () => {
    const server = startServer({ STDIO_RESPONSE_BYTES: String(6_000_000) });
    server.write(
      line(initialize(1, "2025-11-25")) +
        line(initialized) +
        Array.from({ length: 100 }, (_, i) => line(listCities(i + 2))).join(""),
    );
    await until(
      () => server.messages.length === 101,
      () => `101 responses, got ${server.messages.length}; stderr:\n${server.stderr()}`,
      90_000,
    );
    const answered = server.messages.filter(
      (m) => typeof (m as Message).id === "number" && ((m as Message).id as number) >= 2,
    ) as Message[];
    expect(answered.map((m) => m.id).sort((a, b) => (a as number) - (b as number))).toEqual(
      Array.from({ length: 100 }, (_, i) => i + 2),
    );
    for (const m of answered) expect((m.result?.content as { text: string }[])[0]!.text.length).toBe(6_000_000);
    expect(server.stderr()).not.toMatch(/RangeError|Invalid string length/);
    server.child.stdin!.end();
    expect(await server.exit).toEqual({ code: 0, signal: null });
  }, 120_000);
});

describe("stdio: backpressure", () => {
  it("starts no more handlers while the client does not read, and resumes when it does", async () => {
    const server = startServer({ STDIO_RESPONSE_BYTES: String(1_000_000) });
    server.child.stdout!.pause();
    server.write(
      line(initialize(1, "2025-11-25")) +
        line(initialized) +
        Array.from({ length: 200 }, (_, i) => line(listCities(i + 2))).join(""),
    );
    // Let the server run until it stops starting handlers (its output is blocked).
    await until(
      () => startedCount(server) > 0,
      () => `a handler to start; stderr:\n${server.stderr()}`,
    );
    let seen = -1;
    while (seen !== startedCount(server)) {
      seen = startedCount(server);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const startedWhileBlocked = startedCount(server);
    // 1 MB responses against a 1 MiB high-water mark: a handful of handlers, not 200.
    expect(startedWhileBlocked).toBeLessThanOrEqual(16);
    expect(maxRss(server)).toBeLessThan(300 * 1024 * 1024);
    server.child.stdout!.resume();
    await until(
      () => server.messages.length === 201,
      () => `201 responses, got ${server.messages.length}; stderr:\n${server.stderr()}`,
      60_000,
    );
    expect(startedCount(server)).toBe(200);
    // Memory stayed bounded all along (200 MB of responses went through).
    expect(maxRss(server)).toBeLessThan(300 * 1024 * 1024);
    server.child.stdin!.end();
    expect(await server.exit).toEqual({ code: 0, signal: null });
  }, 120_000);
});

describe("stdio: long lines", () => {
  it("reads a 40 MB line in linear time", async () => {
    const { input, messages, connection } = inProcess(() => "ok", { maxMessageBytes: 64 * 1024 * 1024 });
    input.write(line(initialize(1, "2025-11-25")) + line(initialized));
    await until(
      () => messages().length === 1,
      () => "the initialize response",
    );
    const big = line({
      jsonrpc: "2.0",
      id: 2,
      method: "ping",
      params: { _meta: { padding: "y".repeat(40 * 1024 * 1024) } },
    });
    const started = performance.now();
    for (let at = 0; at < big.length; at += 65_536) input.write(big.slice(at, at + 65_536));
    await until(
      () => messages().length === 2,
      () => "the ping response",
    );
    const seconds = (performance.now() - started) / 1000;
    expect(messages()[1]).toMatchObject({ id: 2, result: {} });
    // Quadratic reading took 10.9 s for 40 MB; linear reading takes well under a second.
    expect(seconds).toBeLessThan(5);
    input.end();
    await connection.closed;
  });

  it("answers a line over maxMessageBytes with an error as soon as it is too long, and skips the rest unread", async () => {
    const server = startServer(); // default limit: 4 MiB
    server.write(line(initialize(1, "2025-11-25")) + line(initialized));
    await server.response(1);
    // 5 MB of a line, no newline yet: the error must come now, not when the line ends.
    const start = `{"jsonrpc":"2.0","id":2,"method":"ping","params":{"_meta":{"padding":"`;
    server.write(start + "z".repeat(5 * 1024 * 1024));
    await until(
      () => server.messages.length === 2,
      () => `the too-large error; stderr:\n${server.stderr()}`,
    );
    expect(server.messages[1]).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32600 } });
    expect((server.messages[1] as Message).error!.message).toMatch(/too large/);
    // The rest of the line is discarded (no parse error for its tail); the next line is served.
    server.write("z".repeat(5 * 1024 * 1024) + `"}}}\n` + line(ping(3)));
    expect(await server.response(3)).toMatchObject({ id: 3, result: {} });
    expect(server.messages).toHaveLength(3);
    // A line just under the limit is served.
    server.write(
      line({
        jsonrpc: "2.0",
        id: 4,
        method: "ping",
        params: { _meta: { padding: "w".repeat(4 * 1024 * 1024 - 200) } },
      }),
    );
    expect(await server.response(4)).toMatchObject({ id: 4, result: {} });
    expect(server.garbage).toEqual([]);
    server.child.stdin!.end();
    expect(await server.exit).toEqual({ code: 0, signal: null });
  });

  it("counts the limit in UTF-8 bytes, and accepts CRLF line ends", async () => {
    const { input, messages, connection } = inProcess(() => "ok", { maxMessageBytes: 300 });
    // Fewer than 300 characters, more than 300 bytes.
    const accented = line({ jsonrpc: "2.0", id: 2, method: "ping", params: { _meta: { note: "\u00e9".repeat(200) } } });
    expect(accented.length).toBeLessThan(300);
    input.write(accented + `{"jsonrpc":"2.0","id":3,"method":"ping"}\r\n`);
    await until(
      () => messages().length === 2,
      () => `two answers, got ${JSON.stringify(messages())}`,
    );
    expect(messages()).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: null, error: expect.objectContaining({ code: -32600 }) }),
        expect.objectContaining({ id: 3 }),
      ]),
    );
    expect(messages().find((m) => m.id === 3)).toMatchObject({ result: {} });
    input.end();
    await connection.closed;
  });
});

describe("stdio: batches", () => {
  it("answers an empty array, and any batch outside 2025-03-26, with one -32600 error", async () => {
    const server = startServer();
    server.write("[]\n");
    await until(
      () => server.messages.length === 1,
      () => "an answer to []",
    );
    expect(server.messages[0]).toMatchObject({ id: null, error: { code: -32600 } });
    // Before initialize: no revision, no batches.
    server.write(line([ping(1)]));
    await until(
      () => server.messages.length === 2,
      () => "an answer to a batch before initialize",
    );
    expect(server.messages[1]).toMatchObject({ id: null, error: { code: -32600 } });
    expect((server.messages[1] as Message).error!.message).toMatch(/2025-03-26/);
    server.write(line(initialize(2, "2025-06-18")) + line(initialized));
    expect(await server.response(2)).toMatchObject({ result: { protocolVersion: "2025-06-18" } });
    server.write(line([ping(3), ping(4)]));
    await until(
      () => server.messages.length === 4,
      () => "an answer to a 2025-06-18 batch",
    );
    expect(server.messages[3]).toMatchObject({ id: null, error: { code: -32600 } });
    // Neither request of the refused batch ran.
    server.write(line(ping(5)));
    await server.response(5);
    expect(server.messages).toHaveLength(5);
    server.child.stdin!.end();
    expect(await server.exit).toEqual({ code: 0, signal: null });
  });

  it("answers a 2025-03-26 batch with one array of its requests' responses", async () => {
    const server = startServer();
    server.write(line([initialize(1, "2025-03-26")]));
    await until(
      () => server.messages.length === 1,
      () => "an answer to an initialize batch",
    );
    // initialize is not part of a session yet: the batch is refused.
    expect(server.messages[0]).toMatchObject({ id: null, error: { code: -32600 } });
    server.write(line(initialize(1, "2025-03-26")) + line(initialized));
    expect(await server.response(1)).toMatchObject({ result: { protocolVersion: "2025-03-26" } });
    server.write(
      line([
        { jsonrpc: "2.0", id: 10, method: "tools/list" },
        { jsonrpc: "2.0", method: "notifications/roots/list_changed" },
        // get_forecast reports progress before its result: the notification comes on its own.
        {
          jsonrpc: "2.0",
          id: "eleven",
          method: "tools/call",
          params: { name: "get_forecast", arguments: { city: "Paris" }, _meta: { progressToken: "p" } },
        },
        42,
        ping(12),
      ]),
    );
    await until(
      () => server.messages.some(Array.isArray),
      () => `the batch answer; got ${JSON.stringify(server.messages).slice(0, 500)}`,
    );
    const batch = server.messages.find(Array.isArray) as Message[];
    expect(batch).toHaveLength(4);
    const byId = new Map(batch.map((m) => [m.id, m]));
    expect(byId.get(10)?.result?.tools).toBeDefined();
    // 2025-03-26 has no structured output: the forecast comes as text.
    expect(byId.get("eleven")?.result).toMatchObject({ content: [{ type: "text" }] });
    expect(byId.get("eleven")?.result?.isError).not.toBe(true);
    expect(byId.get(12)).toMatchObject({ result: {} });
    expect(byId.get(null)).toMatchObject({ error: { code: -32600 } });
    const progress = server.messages.find(
      (m) => !Array.isArray(m) && (m as Message).method === "notifications/progress",
    ) as Message;
    expect(progress.params).toMatchObject({ progressToken: "p" });
    expect(server.messages.indexOf(progress)).toBeLessThan(server.messages.indexOf(batch));

    // An empty batch: one error. Notifications only: nothing at all.
    server.write("[]\n");
    await until(
      () => server.messages.length === 5,
      () => "an answer to []",
    );
    expect(server.messages[4]).toMatchObject({ id: null, error: { code: -32600 } });
    server.write(line([{ jsonrpc: "2.0", method: "notifications/roots/list_changed" }]) + line(ping(13)));
    await server.response(13);
    expect(server.messages).toHaveLength(6);
    server.child.stdin!.end();
    expect(await server.exit).toEqual({ code: 0, signal: null });
  });

  it("answers a 2025-03-26 batch whose requests take a while, and leaves out a cancelled one", async () => {
    const server = startServer({ STDIO_DELAY_MS: "300" });
    server.write(line(initialize(1, "2025-03-26")) + line(initialized));
    await server.response(1);
    server.write(line([listCities(2), listCities(3), ping(4)]));
    server.write(
      line({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 3, reason: "no longer needed" } }),
    );
    await until(
      () => server.messages.some(Array.isArray),
      () => `the batch answer; stderr:\n${server.stderr()}`,
    );
    const batch = server.messages.find(Array.isArray) as Message[];
    expect(batch.map((m) => m.id).sort()).toEqual([2, 4]);
    expect(batch.find((m) => m.id === 2)?.result?.content).toEqual([{ type: "text", text: "paris\noslo\nlisbon" }]);
    server.child.stdin!.end();
    expect(await server.exit).toEqual({ code: 0, signal: null });
  });
});

describe("stdio: the end of the connection", () => {
  it("closes quietly when the host stops reading (EPIPE)", async () => {
    const server = startServer({ STDIO_RESPONSE_BYTES: String(1_000_000) });
    server.write(line(initialize(1, "2025-11-25")) + line(initialized));
    await server.response(1);
    server.child.stdout!.destroy();
    server.write(line(listCities(2)) + line(listCities(3)));
    // The server notices on its next write, closes, and exits on its own (stdin still open).
    expect(await server.exit).toEqual({ code: 0, signal: null });
    expect(server.stderr()).toContain("closed");
    expect(server.stderr()).not.toMatch(/EPIPE|Unhandled|Error/);
  });

  it("finishes requests still running when stdin closes, and writes their responses", async () => {
    const server = startServer({ STDIO_DELAY_MS: "300" });
    server.write(
      line(initialize(1, "2025-11-25")) +
        line(initialized) +
        [2, 3, 4, 5, 6].map((id) => line(listCities(id))).join(""),
    );
    server.child.stdin!.end();
    expect(await server.exit).toEqual({ code: 0, signal: null });
    const ids = server.messages.map((m) => (m as Message).id);
    expect(ids).toEqual(expect.arrayContaining([1, 2, 3, 4, 5, 6]));
    for (const id of [2, 3, 4, 5, 6]) {
      expect(server.messages.find((m) => (m as Message).id === id)).toMatchObject({
        result: { content: [{ type: "text" }] },
      });
    }
  });

  it("gives requests still running drainTimeoutMs to finish, then cancels them and closes", async () => {
    const server = startServer({ STDIO_DELAY_MS: String(600_000), STDIO_DRAIN_TIMEOUT_MS: "300" });
    server.write(line(initialize(1, "2025-11-25")) + line(initialized) + line(listCities(2)));
    await until(
      () => startedCount(server) === 1,
      () => "the handler to start",
    );
    const ended = Date.now();
    server.child.stdin!.end();
    expect(await server.exit).toEqual({ code: 0, signal: null });
    expect(Date.now() - ended).toBeLessThan(10_000);
    expect(server.stderr()).toContain("closed");
    // The cancelled request gets no response.
    expect(server.messages.map((m) => (m as Message).id)).toEqual([1]);
  });

  it("resolves closed over plain streams once in-flight requests are answered", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const server = createWeatherServer({
      ...handlers,
      tools: { ...handlers.tools, listCities: async () => (await gate, "late") },
    });
    const input = new PassThrough();
    const output = new PassThrough();
    let text = "";
    output.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
    const connection = serveStdio(server, { input, output });
    input.end(line(initialize(1, "2025-11-25")) + line(initialized) + line(listCities(2)));
    let isClosed = false;
    void connection.closed.then(() => (isClosed = true));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(isClosed).toBe(false);
    release();
    await connection.closed;
    expect(text).toContain('"text":"late"');
  });
});
