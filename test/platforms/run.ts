// `npm run platforms`: the weather example's fetch handler (createWebHandler) on the fetch
// platforms it is meant for — Bun, Deno and workerd, whose binaries come from the npm
// packages of this folder's own package (`npm ci --prefix test/platforms`) — driven over
// real sockets by the official SDK clients running here, under Node:
//
//   platform bun: 15/15 checks (sdk-v1 13/13, sdk-v2 10/10, http 2/2)
//   platform deno: 15/15 checks (sdk-v1 13/13, sdk-v2 10/10, http 2/2)
//   platform workerd: 15/15 checks (sdk-v1 13/13, sdk-v2 10/10, http 2/2)
//   example everything on workerd (no nodejs_compat): starts
//
// For each platform, worker.ts (the weather server behind createWebHandler) is bundled with
// esbuild into one ESM file for the platform-neutral target, with the platform's export
// conditions, resolving @mcp-gen/runtime through the workspace link in the root node_modules
// to the built runtime (runtime/dist, as the package exports it: run `npm run build` first);
// the bundle is then served as the platform serves a fetch module, with the platform's
// defaults and the commands docs/deployment.md gives: `bun run <bundle>` (on $PORT),
// `deno serve <bundle>`, and workerd with a generated config (no compatibility flags, and a
// compatibility date before Node.js compatibility became the default), each on a free port
// (Deno and workerd on 127.0.0.1; Bun's default export serving binds every interface). The checks:
//   - SDK v1 (@modelcontextprotocol/sdk, the legacy era at 2025-11-25) and SDK v2
//     (@modelcontextprotocol/client, versionNegotiation auto: the modern era at 2026-07-28):
//     connecting, tools/list, get_forecast for Paris (structured), list_cities, config://app,
//     weather://oslo/current, prompts/list, prompts/get summarize, completion of a city,
//     invalid arguments as a tool error; SDK v1 only (legacy sessions): ping, the session's
//     GET stream stays open 30 s (kept alive through the platform's idle timeout), DELETE
//     ends the session;
//   - plain HTTP: the Host allow-list (a handler without `allowedHosts` answers 403 under a
//     real hostname such as mcp.example.com, saying what to pass; the weather example's fetch
//     module of docs/deployment.md, given `allowedHosts`, serves it) and the idle-session
//     sweep (a session idle past sessionIdleMs is gone).
// A check counts as passed when every client it applies to passed it. Finally the everything
// example is bundled the same way and started on workerd without nodejs_compat: examples
// must stay platform-neutral.
//
// The platforms run side by side; the whole run takes about 35 s (the GET stream check
// waits 31 s). Failures, and the folder with the bundles and the platforms' output, go to
// stderr; exits 1 when a check failed. Installs nothing.
import { deepStrictEqual, equal, match, ok } from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { connect, createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { build } from "esbuild";
import { appConfig, firstText, oslo, parisForecast } from "../e2e/helpers.js";

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, "..", "..");
const bin = (name: string) => join(here, "node_modules", ".bin", name);

/** The hostname worker.ts's /hosts/mcp handler allows (never resolved: only sent as Host). */
const deployedHost = "mcp.example.com";
/** How long the legacy GET stream must stay open. */
const streamWindowMs = 31_000;
/** worker.ts's /sweep/mcp closes sessions idle this long (sessionIdleMs). */
const sweepIdleMs = 1_000;
/** Each check's own time limit. */
const checkTimeoutMs = 15_000;
/** The whole run's. */
const runTimeoutMs = 170_000;

type PlatformName = "bun" | "deno" | "workerd";
type Who = "sdk-v1" | "sdk-v2" | "http";

/** The checks, in the order they are named; `who` are the clients each applies to. */
const checks = [
  { name: "connect", who: ["sdk-v1", "sdk-v2"] },
  { name: "tools/list", who: ["sdk-v1", "sdk-v2"] },
  { name: "get_forecast Paris", who: ["sdk-v1", "sdk-v2"] },
  { name: "list_cities", who: ["sdk-v1", "sdk-v2"] },
  { name: "resources/read config://app", who: ["sdk-v1", "sdk-v2"] },
  { name: "resources/read weather://oslo/current", who: ["sdk-v1", "sdk-v2"] },
  { name: "prompts/list", who: ["sdk-v1", "sdk-v2"] },
  { name: "prompts/get summarize", who: ["sdk-v1", "sdk-v2"] },
  { name: "completion/complete city", who: ["sdk-v1", "sdk-v2"] },
  { name: "invalid arguments", who: ["sdk-v1", "sdk-v2"] },
  { name: "ping", who: ["sdk-v1"] },
  { name: "GET stream open 30 s", who: ["sdk-v1"] },
  { name: "DELETE ends the session", who: ["sdk-v1"] },
  { name: "Host allow-list", who: ["http"] },
  { name: "idle session sweep", who: ["http"] },
] as const satisfies readonly { name: string; who: readonly Who[] }[];

type CheckName = (typeof checks)[number]["name"];

interface Outcome {
  readonly check: CheckName;
  readonly who: Who;
  readonly error?: string | undefined;
}

/** A platform serving a bundle. */
interface Served {
  readonly url: string;
  readonly port: number;
  readonly child: ChildProcess;
  stderr(): string;
}

const children = new Set<ChildProcess>();

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : "";
  return `${error.message.split("\n")[0]}${cause}`;
}

const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Runs one check for one client and records its outcome. */
async function attempt(
  outcomes: Outcome[],
  check: CheckName,
  who: Who,
  run: () => Promise<void>,
  ms = checkTimeoutMs,
): Promise<boolean> {
  try {
    await withTimeout(run(), ms, check);
    outcomes.push({ check, who });
    return true;
  } catch (error) {
    outcomes.push({ check, who, error: describeError(error) });
    return false;
  }
}

function fail(message: string): never {
  process.stderr.write(`platforms: ${message}\n`);
  process.exit(1);
}

// ---------------------------------------------------------------------------------------
// Bundling

const conditions: Record<PlatformName, string[]> = {
  bun: ["bun"],
  deno: ["deno"],
  workerd: ["workerd", "worker", "browser"],
};

/** Bundles `entry` into `outfile` for a platform; checks the bundle holds the built runtime once. */
async function bundle(entry: string, outfile: string, platform: PlatformName): Promise<void> {
  const result = await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: "esm",
    // Neutral: no Node built-ins are available, nor shimmed; an import of one fails the build.
    platform: "neutral",
    target: "es2022",
    conditions: conditions[platform],
    mainFields: ["module", "main"],
    metafile: true,
    logLevel: "silent",
  });
  const inputs = Object.keys(result.metafile.inputs);
  // @mcp-gen/runtime resolves through the workspace link (node_modules/@mcp-gen/runtime -> runtime/)
  // to its exports, the built files under runtime/dist: never to the TypeScript sources beside them.
  const source = inputs.filter((input) => input.startsWith("runtime/") && !input.startsWith("runtime/dist/"));
  if (source.length > 0)
    throw new Error(`the bundle holds the runtime's sources (${source.join(", ")}) instead of runtime/dist`);
  if (!inputs.includes("runtime/dist/index.js")) throw new Error("the bundle does not hold runtime/dist/index.js");
}

// ---------------------------------------------------------------------------------------
// Serving

function track(child: ChildProcess): () => string {
  children.add(child);
  child.once("exit", () => children.delete(child));
  let output = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  return () => output;
}

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolvePort(port));
    });
  });
}

function accepts(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      done(true);
    });
    socket.once("error", () => done(false));
  });
}

/** Resolves once something listens on `port`; rejects when `child` exits first or 30 s pass. */
async function listening(child: ChildProcess, output: () => string, port: number, what: string): Promise<Served> {
  const started = Date.now();
  while (Date.now() - started < 30_000) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`${what} exited (${child.signalCode ?? child.exitCode}) before serving:\n${output()}`);
    if (await accepts(port)) return { url: `http://127.0.0.1:${port}/mcp`, port, child, stderr: output };
    await sleep(100);
  }
  throw new Error(`${what} did not listen within 30 s:\n${output()}`);
}

/** `bun run <bundle>`: Bun serves a module whose default export has `fetch`, on $PORT. */
async function serveBun(bundlePath: string, dir: string): Promise<Served> {
  const port = await freePort();
  const child = spawn(bin("bun"), ["run", bundlePath], {
    cwd: dir,
    env: {
      ...process.env,
      PORT: String(port),
      NODE_ENV: "production",
      DO_NOT_TRACK: "1",
      BUN_INSTALL_CACHE_DIR: join(dir, "bun-cache"),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  return listening(child, track(child), port, "bun");
}

/** `deno serve <bundle>`: Deno serves the module's default export. */
async function serveDeno(bundlePath: string, dir: string): Promise<Served> {
  const port = await freePort();
  const args = [
    "serve",
    "--no-config",
    "--no-prompt",
    "--allow-net=127.0.0.1",
    `--allow-read=${dir}`,
    "--host",
    "127.0.0.1",
    "--port",
    String(port),
    bundlePath,
  ];
  const child = spawn(bin("deno"), args, {
    cwd: dir,
    env: { ...process.env, DENO_NO_UPDATE_CHECK: "1", DENO_DIR: join(dir, "deno-dir"), NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  return listening(child, track(child), port, "deno");
}

/**
 * The compatibility date workerd runs the bundles at: the last one before Node.js compatibility
 * (a global Buffer, process, node:* modules) comes by default — from 2026-08-04 on, this
 * workerd behaves as if nodejs_compat were set. A platform-neutral module must run without it.
 */
const workerdCompatibilityDate = "2026-08-01";

/** workerd with a config serving the bundle on one socket; no compatibility flags (no nodejs_compat). */
async function serveWorkerd(bundlePath: string, dir: string): Promise<Served> {
  const port = await freePort();
  const config = join(dir, `${bundlePath.replace(/^.*\//, "").replace(/\.js$/, "")}.capnp`);
  writeFileSync(
    config,
    [
      `using Workerd = import "/workerd/workerd.capnp";`,
      `const config :Workerd.Config = (`,
      `  services = [ (name = "main", worker = .worker) ],`,
      `  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],`,
      `);`,
      `const worker :Workerd.Worker = (`,
      // embed reads a path relative to the config's folder (an absolute one is not found).
      `  modules = [ (name = "worker.js", esModule = embed ${JSON.stringify(relative(dirname(config), bundlePath))}) ],`,
      `  compatibilityDate = "${workerdCompatibilityDate}",`,
      `);`,
      ``,
    ].join("\n"),
  );
  const child = spawn(bin("workerd"), ["serve", config], { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
  const output = track(child);
  const closed = new Promise((done) => child.once("close", done));
  const started = Date.now();
  while (Date.now() - started < 30_000) {
    // A module that throws while loading is reported, and nothing listens.
    if (/Uncaught|error/i.test(output())) throw new Error(output().trim());
    if (child.exitCode !== null || child.signalCode !== null) {
      await closed;
      throw new Error(`workerd exited (${child.signalCode ?? child.exitCode}) before serving:\n${output()}`);
    }
    if (await accepts(port)) {
      // workerd listens before it loads the module: give a module that throws the time to say so.
      await sleep(500);
      if (child.exitCode !== null || child.signalCode !== null) await closed;
      if (/Uncaught|error/i.test(output())) throw new Error(output().trim());
      return { url: `http://127.0.0.1:${port}/mcp`, port, child, stderr: output };
    }
    await sleep(100);
  }
  throw new Error(`workerd did not listen within 30 s:\n${output()}`);
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((done) => child.once("exit", () => done()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
  await exited;
  clearTimeout(timer);
}

// ---------------------------------------------------------------------------------------
// Plain HTTP

interface RawReply {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
}

/** One HTTP request with a Host header of our choosing (fetch would not let us set it). */
function raw(
  port: number,
  path: string,
  options: { method?: string; host?: string; headers?: Record<string, string>; body?: unknown },
): Promise<RawReply> {
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolveReply, reject) => {
    const req = httpRequest(
      {
        host: "127.0.0.1",
        port,
        path,
        method: options.method ?? "POST",
        headers: {
          host: options.host ?? `127.0.0.1:${port}`,
          accept: "application/json, text/event-stream",
          ...(body === undefined
            ? {}
            : { "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) }),
          ...options.headers,
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
        res.once("end", () => resolveReply({ status: res.statusCode ?? 0, headers: res.headers, text }));
        res.once("error", reject);
      },
    );
    req.once("error", reject);
    req.end(body);
  });
}

const legacyInitialize = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "platforms", version: "1.0.0" } },
};

async function httpChecks(served: Served, outcomes: Outcome[]): Promise<void> {
  const { port } = served;
  const host = attempt(outcomes, "Host allow-list", "http", async () => {
    const local = await raw(port, "/mcp", { body: legacyInitialize });
    equal(local.status, 200, `Host 127.0.0.1:${port} on /mcp: ${local.status} ${local.text}`);
    // Without allowedHosts, a real hostname is refused (DNS-rebinding protection stays on by
    // default), and the refusal says what to pass: docs/scale-out.md's deployment passes allowedHosts.
    const deployed = await raw(port, "/mcp", { host: deployedHost, body: legacyInitialize });
    equal(
      deployed.status,
      403,
      `Host ${deployedHost} on /mcp (default allowedHosts): expected 403, got ${deployed.status} ${deployed.text}`,
    );
    match(
      deployed.text,
      new RegExp(
        `Host '${deployedHost.replace(/\./g, "\\.")}' is not allowed; serving as ${deployedHost.replace(/\./g, "\\.")}\\? pass allowedHosts: \\[\\\\"${deployedHost.replace(/\./g, "\\.")}\\\\"\\]`,
      ),
    );
    const allowed = await raw(port, "/hosts/mcp", { host: deployedHost, body: legacyInitialize });
    equal(
      allowed.status,
      200,
      `Host ${deployedHost} on /hosts/mcp (allowedHosts: [${deployedHost}]): ${allowed.status} ${allowed.text}`,
    );
  });
  const sweep = attempt(
    outcomes,
    "idle session sweep",
    "http",
    async () => {
      const init = await raw(port, "/sweep/mcp", { body: legacyInitialize });
      equal(init.status, 200, `initialize: ${init.status} ${init.text}`);
      const session = init.headers["mcp-session-id"];
      ok(typeof session === "string", "initialize answered without Mcp-Session-Id");
      const headers = { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" };
      const initialized = await raw(port, "/sweep/mcp", {
        headers,
        body: { jsonrpc: "2.0", method: "notifications/initialized" },
      });
      equal(initialized.status, 202, `notifications/initialized: ${initialized.status} ${initialized.text}`);
      const ping = await raw(port, "/sweep/mcp", { headers, body: { jsonrpc: "2.0", id: 2, method: "ping" } });
      equal(ping.status, 200, `ping right away: ${ping.status} ${ping.text}`);
      const idle = 3.5 * sweepIdleMs;
      await sleep(idle);
      const late = await raw(port, "/sweep/mcp", { headers, body: { jsonrpc: "2.0", id: 3, method: "ping" } });
      equal(
        late.status,
        404,
        `a session idle for ${idle / 1000} s (sessionIdleMs ${sweepIdleMs}) still answers ${late.status}: the idle sweep did not close it`,
      );
    },
    checkTimeoutMs + 5_000,
  );
  await Promise.all([host, sweep]);
}

// ---------------------------------------------------------------------------------------
// SDK v1: the legacy era (initialize, a session, its GET stream, DELETE)

interface GetStream {
  readonly opened: number;
  readonly status: number;
  bytes: number;
  /** SSE comments (`:` lines), which is what the server's keep-alives are. */
  keepAlives: number;
  ended?: { readonly at: number; readonly how: string };
}

/** fetch, recording each GET response and when and how its body ends. */
function recordingFetch(gets: GetStream[]) {
  return async (input: string | URL, init?: RequestInit): Promise<Response> => {
    const response = await fetch(input, init);
    if ((init?.method ?? "GET") !== "GET") return response;
    const record: GetStream = { opened: Date.now(), status: response.status, bytes: 0, keepAlives: 0 };
    const decoder = new TextDecoder();
    gets.push(record);
    if (!response.body) return response;
    const reader = response.body.getReader();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const { done, value } = await reader.read();
          if (done) {
            record.ended ??= { at: Date.now(), how: "closed by the server" };
            controller.close();
          } else {
            record.bytes += value.byteLength;
            record.keepAlives += decoder.decode(value, { stream: true }).match(/^:/gm)?.length ?? 0;
            controller.enqueue(value);
          }
        } catch (error) {
          record.ended ??= { at: Date.now(), how: describeError(error) };
          controller.error(error);
        }
      },
      cancel(reason) {
        record.ended ??= { at: Date.now(), how: "cancelled by the client" };
        return reader.cancel(reason);
      },
    });
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

/** The checks both SDK clients run (their APIs agree on these calls). */
type CommonClient = Pick<
  ClientV1,
  "listTools" | "callTool" | "readResource" | "listPrompts" | "getPrompt" | "complete"
>;

async function commonChecks(client: CommonClient, who: Who, outcomes: Outcome[]): Promise<void> {
  await attempt(outcomes, "tools/list", who, async () => {
    const { tools } = await client.listTools();
    deepStrictEqual(
      tools.map((t) => t.name),
      ["get_forecast", "list_cities"],
    );
    equal(tools[0]!.title, "Get forecast");
    deepStrictEqual(tools[0]!.inputSchema.required, ["city"]);
    ok(tools[0]!.outputSchema, "get_forecast has no outputSchema");
  });
  await attempt(outcomes, "get_forecast Paris", who, async () => {
    const result = await client.callTool({ name: "get_forecast", arguments: { city: "Paris" } });
    ok(!result.isError, `isError: ${JSON.stringify(result.content)}`);
    deepStrictEqual(result.structuredContent, parisForecast);
    deepStrictEqual(JSON.parse(firstText(result.content)), parisForecast);
  });
  await attempt(outcomes, "list_cities", who, async () => {
    const result = await client.callTool({ name: "list_cities", arguments: {} });
    ok(!result.isError);
    equal(firstText(result.content), "paris\noslo\nlisbon");
  });
  await attempt(outcomes, "resources/read config://app", who, async () => {
    const { contents } = await client.readResource({ uri: "config://app" });
    equal(contents.length, 1);
    equal(contents[0]!.uri, "config://app");
    equal(contents[0]!.mimeType, "application/json");
    deepStrictEqual(JSON.parse((contents[0] as { text: string }).text), appConfig);
  });
  await attempt(outcomes, "resources/read weather://oslo/current", who, async () => {
    const { contents } = await client.readResource({ uri: "weather://oslo/current" });
    equal(contents[0]!.uri, "weather://oslo/current");
    deepStrictEqual(JSON.parse((contents[0] as { text: string }).text), oslo);
  });
  await attempt(outcomes, "prompts/list", who, async () => {
    const { prompts } = await client.listPrompts();
    deepStrictEqual(
      prompts.map((p) => p.name),
      ["summarize", "plan_trip"],
    );
    deepStrictEqual(prompts[0]!.arguments, [
      { name: "text", description: "The text to summarize", required: true },
      { name: "style", description: "tone", required: false },
    ]);
  });
  await attempt(outcomes, "prompts/get summarize", who, async () => {
    const neutral = await client.getPrompt({ name: "summarize", arguments: { text: "hello" } });
    deepStrictEqual(neutral.messages, [
      { role: "user", content: { type: "text", text: "Summarize in a neutral tone:\nhello" } },
    ]);
    const formal = await client.getPrompt({ name: "summarize", arguments: { text: "hello", style: "formal" } });
    deepStrictEqual(formal.messages, [
      { role: "user", content: { type: "text", text: "Summarize in a formal tone:\nhello" } },
    ]);
  });
  await attempt(outcomes, "completion/complete city", who, async () => {
    const template = await client.complete({
      ref: { type: "ref/resource", uri: "weather://{city}/current" },
      argument: { name: "city", value: "o" },
    });
    deepStrictEqual(template.completion.values, ["oslo"]);
    const prompt = await client.complete({
      ref: { type: "ref/prompt", name: "plan_trip" },
      argument: { name: "city", value: "Li" },
    });
    deepStrictEqual(prompt.completion.values, ["lisbon"]);
  });
  await attempt(outcomes, "invalid arguments", who, async () => {
    for (const args of [{ city: "" }, {}, { city: "Paris", days: 9 }]) {
      const result = await client.callTool({ name: "get_forecast", arguments: args });
      equal(result.isError, true, `${JSON.stringify(args)} is not a tool error: ${JSON.stringify(result)}`);
      match(firstText(result.content), /Invalid arguments for tool get_forecast/);
    }
  });
}

/** Records every check of `who` as failed for the same reason (the client could not connect). */
function failAll(outcomes: Outcome[], who: Who, error: string): void {
  for (const check of checks) {
    const applies = (check.who as readonly Who[]).includes(who);
    if (applies && !outcomes.some((o) => o.check === check.name && o.who === who))
      outcomes.push({ check: check.name, who, error });
  }
}

interface V1Session {
  /** The GET stream and DELETE checks, once the stream window has passed. */
  finish(): Promise<void>;
}

async function sdkV1(url: string, outcomes: Outcome[]): Promise<V1Session> {
  const gets: GetStream[] = [];
  const transport = new TransportV1(new URL(url), { fetch: recordingFetch(gets) });
  const client = new ClientV1({ name: "platforms-sdk-v1", version: "1.0.0" });
  const connected = await attempt(outcomes, "connect", "sdk-v1", async () => {
    await client.connect(transport);
    equal(transport.protocolVersion, "2025-11-25");
    deepStrictEqual(client.getServerVersion(), { name: "weather", version: "1.0.0", title: "Weather" });
    equal(
      client.getInstructions(),
      "Use get_forecast for multi-day forecasts; read weather://{city}/current for current conditions.",
    );
  });
  if (!connected) {
    failAll(outcomes, "sdk-v1", "not connected");
    await client.close().catch(() => {});
    return { finish: async () => {} };
  }
  await commonChecks(client, "sdk-v1", outcomes);
  await attempt(outcomes, "ping", "sdk-v1", async () => {
    deepStrictEqual(await client.ping(), {});
  });
  return {
    async finish() {
      await attempt(
        outcomes,
        "GET stream open 30 s",
        "sdk-v1",
        async () => {
          // The SDK opens the session's GET stream after notifications/initialized.
          for (let waited = 0; gets.length === 0 && waited < 5_000; waited += 100) await sleep(100);
          const first = gets[0];
          ok(first, "the client opened no GET stream");
          equal(first.status, 200, `GET answered ${first.status}`);
          await sleep(Math.max(0, first.opened + streamWindowMs - Date.now()));
          const seconds = (at: number) => `${((at - first.opened) / 1000).toFixed(1)} s`;
          if (first.ended) {
            const got = `${first.bytes} bytes, ${first.keepAlives} keep-alive(s) received`;
            throw new Error(
              `the GET stream ended after ${seconds(first.ended.at)} (${first.ended.how}); ${got}; the client reopened it ${gets.length - 1} time(s)`,
            );
          }
          equal(gets.length, 1, `the client reopened the GET stream ${gets.length - 1} time(s)`);
          ok(first.keepAlives > 0, `no keep-alive came on the GET stream in ${streamWindowMs / 1000} s`);
        },
        streamWindowMs + checkTimeoutMs,
      );
      await attempt(outcomes, "DELETE ends the session", "sdk-v1", async () => {
        const session = transport.sessionId;
        ok(session, "no session id");
        await transport.terminateSession();
        const after = await fetch(url, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            "mcp-session-id": session,
            "mcp-protocol-version": "2025-11-25",
          },
          body: JSON.stringify({ jsonrpc: "2.0", id: 99, method: "ping" }),
        });
        equal(after.status, 404, `a request on the deleted session answered ${after.status}`);
        await after.body?.cancel();
        // The session's GET stream ends with it.
        for (let waited = 0; gets.some((g) => !g.ended) && waited < 2_000; waited += 100) await sleep(100);
        ok(
          gets.every((g) => g.ended),
          "the session's GET stream is still open after DELETE",
        );
      });
      await client.close().catch(() => {});
    },
  };
}

// ---------------------------------------------------------------------------------------
// SDK v2: the modern era (server/discover, self-contained requests)

async function sdkV2(url: string, outcomes: Outcome[]): Promise<void> {
  const transport = new TransportV2(new URL(url));
  const client = new ClientV2({ name: "platforms-sdk-v2", version: "2.0.0" }, { versionNegotiation: { mode: "auto" } });
  const connected = await attempt(outcomes, "connect", "sdk-v2", async () => {
    await client.connect(transport);
    equal(client.getProtocolEra(), "modern");
    equal(client.getNegotiatedProtocolVersion(), "2026-07-28");
    ok(
      client.getDiscoverResult()?.supportedVersions.includes("2025-11-25"),
      "server/discover does not list 2025-11-25",
    );
    deepStrictEqual({ ...client.getServerVersion() }, { name: "weather", version: "1.0.0", title: "Weather" });
  });
  if (!connected) failAll(outcomes, "sdk-v2", "not connected");
  else await commonChecks(client as unknown as CommonClient, "sdk-v2", outcomes);
  await client.close().catch(() => {});
}

// ---------------------------------------------------------------------------------------

interface PlatformResult {
  readonly name: PlatformName;
  readonly outcomes: readonly Outcome[];
  readonly startError?: string;
  readonly output: string;
}

const servers: Record<PlatformName, (bundlePath: string, dir: string) => Promise<Served>> = {
  bun: serveBun,
  deno: serveDeno,
  workerd: serveWorkerd,
};

async function runPlatform(name: PlatformName, workDir: string): Promise<PlatformResult> {
  const dir = join(workDir, name);
  mkdirSync(dir);
  const outcomes: Outcome[] = [];
  let served: Served | undefined;
  try {
    const bundlePath = join(dir, "worker.js");
    await bundle(join(here, "worker.ts"), bundlePath, name);
    served = await servers[name](bundlePath, dir);
  } catch (error) {
    return { name, outcomes, startError: describeError(error), output: served?.stderr() ?? "" };
  }
  try {
    const v1 = await sdkV1(served.url, outcomes);
    await Promise.all([sdkV2(served.url, outcomes), httpChecks(served, outcomes)]);
    await v1.finish();
  } finally {
    await stop(served.child);
    writeFileSync(join(dir, "output.txt"), served.stderr());
  }
  return { name, outcomes, output: served.stderr() };
}

/** Starts the everything example on workerd; undefined when it serves, else why not. */
async function everythingOnWorkerd(workDir: string): Promise<string | undefined> {
  const dir = join(workDir, "everything");
  mkdirSync(dir);
  let served: Served | undefined;
  try {
    const bundlePath = join(dir, "everything.js");
    await bundle(join(here, "everything-worker.ts"), bundlePath, "workerd");
    served = await serveWorkerd(bundlePath, dir);
    const reply = await raw(served.port, "/mcp", { body: legacyInitialize });
    if (reply.status !== 200) return `initialize answered ${reply.status} ${reply.text}`;
    return undefined;
  } catch (error) {
    const output = served?.stderr().trim();
    return `${describeError(error)}${output ? `\n${output}` : ""}`;
  } finally {
    if (served) await stop(served.child);
  }
}

function summarize(result: PlatformResult): { line: string; failures: string[] } {
  if (result.startError !== undefined) {
    return {
      line: `platform ${result.name}: 0/${checks.length} checks (did not start)`,
      failures: [`  ${result.name}: did not start: ${result.startError}`],
    };
  }
  const failures: string[] = [];
  let passed = 0;
  const perClient = new Map<Who, { passed: number; total: number }>();
  for (const check of checks) {
    let all = true;
    for (const who of check.who) {
      const outcome = result.outcomes.find((o) => o.check === check.name && o.who === who);
      const tally = perClient.get(who) ?? { passed: 0, total: 0 };
      tally.total++;
      if (outcome && outcome.error === undefined) tally.passed++;
      else {
        all = false;
        failures.push(`  ${result.name}: ${check.name} (${who}): ${outcome?.error ?? "not run"}`);
      }
      perClient.set(who, tally);
    }
    if (all) passed++;
  }
  const clients = [...perClient].map(([who, t]) => `${who} ${t.passed}/${t.total}`).join(", ");
  return { line: `platform ${result.name}: ${passed}/${checks.length} checks (${clients})`, failures };
}

async function main(): Promise<number> {
  for (const name of ["bun", "deno", "workerd"]) {
    if (!existsSync(bin(name))) fail("the platforms are not installed; run `npm ci --prefix test/platforms` first");
  }
  if (!existsSync(join(repoRoot, "runtime", "dist", "index.js")))
    fail("the runtime is not built; run `npm run build` first");
  const workDir = mkdtempSync(join(tmpdir(), "mcp-gen-platforms-"));
  const names: PlatformName[] = ["bun", "deno", "workerd"];
  const [results, everything] = await Promise.all([
    Promise.all(names.map((name) => runPlatform(name, workDir))),
    everythingOnWorkerd(workDir),
  ]);
  const failures: string[] = [];
  for (const result of results) {
    const summary = summarize(result);
    process.stdout.write(`${summary.line}\n`);
    failures.push(...summary.failures);
  }
  process.stdout.write(
    `example everything on workerd (no nodejs_compat): ${everything === undefined ? "starts" : "does not start"}\n`,
  );
  if (everything !== undefined) failures.push(`  everything on workerd: ${everything}`);
  if (failures.length > 0) process.stderr.write(`${failures.join("\n")}\n  bundles and platform output: ${workDir}\n`);
  else rmSync(workDir, { recursive: true, force: true });
  return failures.length > 0 ? 1 : 0;
}

const watchdog = setTimeout(() => {
  process.stderr.write(`platforms: the run did not finish within ${runTimeoutMs / 1000} s\n`);
  for (const child of children) child.kill("SIGKILL");
  process.exit(1);
}, runTimeoutMs);
watchdog.unref();

try {
  process.exitCode = await main();
} finally {
  for (const child of children) child.kill("SIGKILL");
}
// SDK clients may leave sockets (a cut GET stream's reconnection timers): do not wait for them.
process.exit(process.exitCode);
