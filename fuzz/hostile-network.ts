// The fuzz job's hostile-network phase (`npm run fuzz`, or alone with `--hostile-network`; see
// fuzz/README.md): what an independent hardening run probed beyond the message traffic.
//
// 1. Authorization servers that misbehave: slow (answers after a delay, with keys that sign
//    none of the tokens), refusing (connection refused), failing (500) and silent (accepts TCP,
//    never replies). For each, the notes example (a protected server) is started with --issuer
//    pointing at it and gets a seeded mix of concurrent requests with malformed tokens and
//    well-formed JWTs nobody can verify (random kids). Oracle: every request answered exactly
//    once within a bound; 401 invalid_token for a malformed token, 503 with Retry-After (or,
//    where the keys were had and lack the kid, 401) for a well-formed one; a bounded number of
//    stderr lines, none carrying a token; a bounded number of connections to the issuer.
// 2. Concurrent large bodies: N POSTs of about 4 MiB (some just over maxBodyBytes) held open
//    until all are in flight, against a listenHttp server with default settings. Oracle: each
//    one answer (200, 413 or 503, one JSON-RPC message; 503 with id null), and the peak RSS
//    (VmHWM) grows less than the bound docs/transports.md documents (4 × maxBufferedBodyBytes).
// 3. requestState replays (see runReplays).
// 4. Two copies of the runtime in one bundle: fuzz/runtime-copies-server.ts bundled with esbuild
//    (runtime/ sources and runtime/dist both inside), served by one copy while its tools throw
//    the other copy's RpcError, both ways. Oracle: seeded error codes come back as thrown,
//    inline and from a task, in both eras; never -32603.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer as createHttpServer, request } from "node:http";
import { tmpdir } from "node:os";
import { createServer as createNetServer, type Server, type Socket, type AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { SignJWT, generateKeyPair, exportJWK } from "jose";
import { startHttpServer, stopAllChildren, type HttpServerProcess } from "../test/e2e/helpers.js";
import { procStatus, resetPeakRss } from "../test/support/proc-status.js";
import { listenHttp } from "@mcp-gen/runtime/node";
import { build } from "esbuild";
import { callToolAsTask, connectSession, httpChannel, type ClientSession, type JsonObject } from "../runtime/index.js";
import { createHandlers } from "../examples/everything/src/handlers.js";
import { createNotesServer } from "../examples/everything/src/mcp/index.js";
import { httpClient, modernMeta } from "../test/e2e/raw-mcp.js";
import { deriveSeed, Rng } from "./generate.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const MiB = 1024 * 1024;

export interface HostileViolation {
  readonly where: string;
  readonly what: string;
  readonly expected?: string;
  readonly got?: string;
}

/** Client-side bound on each answer: the server's own deadline (verifyTimeoutSeconds, 10 s) plus slack. */
const ANSWER_BOUND_MS = 20_000;
/** Requests per authorization-server mode. */
const AUTH_REQUESTS = 120;
/** At most this many connections to the issuer per mode (discovery and keys are shared and backed off, not fetched per request). */
const MAX_ISSUER_CONNECTIONS = 8;
/** At most this many stderr lines after the start line per mode (failures are logged at most once per kind a minute). */
const MAX_STDERR_LINES = 6;
/** Concurrent large bodies. */
const LARGE_BODIES = 64;
/** docs/transports.md: bodies being read cost at most about four times maxBufferedBodyBytes (64 MiB by default). */
const DOCUMENTED_BODY_BOUND = 4 * 64 * MiB;

type Mode = "slow" | "refused" | "failing" | "silent";
const MODES: readonly Mode[] = ["slow", "refused", "failing", "silent"];
/** How long the slow issuer waits before each answer. */
const SLOW_SECONDS = 3;

interface Issuer {
  readonly url: string;
  connections(): number;
  close(): Promise<void>;
}

/** An issuer that misbehaves as `mode` says, counting the connections made to it. */
async function startIssuer(mode: Mode): Promise<Issuer> {
  let connections = 0;
  const sockets = new Set<Socket>();
  let server: Server;
  if (mode === "silent") {
    server = createNetServer((socket) => {
      sockets.add(socket);
      socket.on("error", () => {});
    });
  } else {
    const { publicKey } = await generateKeyPair("RS256");
    const jwks = JSON.stringify({
      keys: [{ ...(await exportJWK(publicKey)), kid: "published", alg: "RS256", use: "sig" }],
    });
    const http = createHttpServer((req, res) => {
      if (mode === "failing") {
        res.writeHead(500, { "content-type": "text/plain" }).end("internal error");
        return;
      }
      const base = `http://${req.headers.host}`;
      const body =
        req.url === "/jwks"
          ? jwks
          : JSON.stringify({
              issuer: base,
              jwks_uri: `${base}/jwks`,
              authorization_endpoint: `${base}/authorize`,
              token_endpoint: `${base}/token`,
              response_types_supported: ["code"],
            });
      setTimeout(() => res.writeHead(200, { "content-type": "application/json" }).end(body), SLOW_SECONDS * 1000);
    });
    http.on("connection", (socket) => sockets.add(socket));
    server = http;
  }
  server.on("connection", () => connections++);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  if (mode === "refused") await close(); // The port is now free: connecting to it is refused.
  return { url, connections: () => connections, close: mode === "refused" ? async () => {} : close };
}

const MALFORMED_FIXED = [
  "x",
  "a.b",
  "a.b.c.d.e",
  "eyJhbGciOiJSUzI1NiJ9.e30.",
  "bm90IGpzb24.e30.c2ln",
  "..",
  "e30.e30.e30",
];

/** A malformed token: a fixed shape or seeded garbage (token68 characters, wrong part counts, non-JSON parts). */
function malformedToken(rng: Rng): string {
  if (rng.next() < 0.4) return MALFORMED_FIXED[rng.int(MALFORMED_FIXED.length)]!;
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  const part = () => Array.from({ length: 1 + rng.int(40) }, () => alphabet[rng.int(alphabet.length)]).join("");
  const parts = [1, 2, 4, 5][rng.int(4)]!;
  if (rng.next() < 0.5) return Array.from({ length: parts }, part).join(".");
  return `${part()}.${part()}.${part()}`; // Three parts that do not decode to a JSON header.
}

/** A well-formed RS256 JWT from `issuer` for `audience`, signed with a key nobody publishes, under a random kid. */
async function unverifiableToken(
  rng: Rng,
  issuer: string,
  audience: string,
  key: Awaited<ReturnType<typeof generateKeyPair>>["privateKey"],
): Promise<string> {
  return new SignJWT({ scope: "notes:read" })
    .setProtectedHeader({ alg: "RS256", kid: rng.next() < 0.2 ? "published" : `k${rng.int(1_000_000)}` })
    .setIssuer(issuer)
    .setSubject(`user${rng.int(100)}`)
    .setAudience(audience)
    .setIssuedAt()
    .setExpirationTime("5m")
    .sign(key);
}

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
  readonly ms: number;
}

/** POSTs `body` on a connection of its own; resolves with its one answer, or status 0 when none came within `boundMs`. Counts the answers it saw (a second one would be a violation). */
function post(
  url: string,
  body: Buffer,
  headers: Record<string, string>,
  boundMs: number,
  hold: Promise<void> = Promise.resolve(),
  sent: () => void = () => {},
): Promise<Answer & { answers: number }> {
  const start = Date.now();
  return new Promise((resolve) => {
    let answers = 0;
    const req = request(
      url,
      {
        method: "POST",
        agent: false,
        headers: { ...headers, "content-length": String(body.length) },
        timeout: boundMs,
      },
      (res) => {
        answers++;
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text, ms: Date.now() - start, answers }),
        );
        res.on("error", () =>
          resolve({ status: 0, headers: {}, body: "response error", ms: Date.now() - start, answers }),
        );
      },
    );
    req.on("timeout", () => req.destroy(new Error("timeout")));
    req.on("error", (error) =>
      resolve({ status: 0, headers: {}, body: String(error), ms: Date.now() - start, answers }),
    );
    req.write(body.subarray(0, body.length - 1), () => sent());
    void hold.then(() => req.end(body.subarray(body.length - 1)));
  });
}

function initializeBody(id: number): Buffer {
  return Buffer.from(
    JSON.stringify({
      jsonrpc: "2.0",
      id,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "fuzz", version: "1" } },
    }),
  );
}

export interface AuthFigures {
  readonly mode: Mode;
  readonly requests: number;
  readonly statuses: Record<string, number>;
  readonly maxMs: number;
  readonly issuerConnections: number;
  readonly stderrLines: number;
}

async function runAuthMode(mode: Mode, seed: number, violate: (v: HostileViolation) => void): Promise<AuthFigures> {
  const where = `hostile-network auth (${mode} issuer)`;
  const rng = new Rng(seed);
  const issuer = await startIssuer(mode);
  const notes: HttpServerProcess = await startHttpServer(
    path.join(root, "examples", "notes", "src", "main.ts"),
    "--issuer",
    issuer.url,
    "--port",
    "0",
  );
  const startLines = notes.stderr().split("\n").filter(Boolean).length;
  const { privateKey } = await generateKeyPair("RS256");
  const cases = await Promise.all(
    Array.from({ length: AUTH_REQUESTS }, async () => {
      const malformed = rng.next() < 0.4;
      return {
        malformed,
        token: malformed ? malformedToken(rng) : await unverifiableToken(rng, issuer.url, notes.url, privateKey),
      };
    }),
  );
  const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
  const answers = await Promise.all(
    cases.map((c, i) =>
      post(notes.url, initializeBody(i), { ...headers, authorization: `Bearer ${c.token}` }, ANSWER_BOUND_MS),
    ),
  );
  const statuses: Record<string, number> = {};
  answers.forEach((a, i) => {
    const c = cases[i]!;
    statuses[a.status || "none"] = (statuses[a.status || "none"] ?? 0) + 1;
    const got = `${a.status} ${JSON.stringify(a.headers["www-authenticate"] ?? a.headers["retry-after"] ?? "")} after ${a.ms} ms; token ${c.token.slice(0, 80)}`;
    if (a.status === 0)
      return violate({
        where,
        what: "no answer within the bound",
        expected: `an answer within ${ANSWER_BOUND_MS} ms`,
        got,
      });
    if (a.answers !== 1) violate({ where, what: "not exactly one answer", got: `${a.answers} answers` });
    if (c.malformed) {
      if (a.status !== 401 || !/^Bearer error="invalid_token"/.test(String(a.headers["www-authenticate"])))
        violate({ where, what: "malformed token not refused 401 invalid_token", expected: "401 invalid_token", got });
    } else if (a.status === 503) {
      if (!(Number(a.headers["retry-after"]) >= 1)) violate({ where, what: "503 without Retry-After", got });
    } else if (!(a.status === 401 && mode === "slow")) {
      violate({
        where,
        what: "unverifiable token not answered 503 (keys not to be had) or 401 (keys lack its kid)",
        expected: mode === "slow" ? "503 or 401" : "503 with Retry-After",
        got,
      });
    }
  });
  const stderrLines = notes.stderr().split("\n").filter(Boolean).length - startLines;
  if (stderrLines > MAX_STDERR_LINES)
    violate({
      where,
      what: "too many stderr lines",
      expected: `≤ ${MAX_STDERR_LINES}`,
      got: `${stderrLines}: ${notes.stderr().slice(-600)}`,
    });
  if (/\n\s+at /.test(notes.stderr()))
    violate({ where, what: "stack trace on stderr", got: notes.stderr().slice(-1000) });
  for (const c of cases)
    if (notes.stderr().includes(c.token) && c.token.length > 8)
      violate({ where, what: "a token on stderr", got: c.token.slice(0, 80) });
  if (issuer.connections() > MAX_ISSUER_CONNECTIONS)
    violate({
      where,
      what: "too many connections to the issuer",
      expected: `≤ ${MAX_ISSUER_CONNECTIONS}`,
      got: String(issuer.connections()),
    });
  if (notes.child.exitCode !== null)
    violate({ where, what: "server exited", got: `code ${notes.child.exitCode}; ${notes.stderr().slice(-600)}` });
  await stopAllChildren();
  await issuer.close();
  return {
    mode,
    requests: AUTH_REQUESTS,
    statuses,
    maxMs: Math.max(...answers.map((a) => a.ms)),
    issuerConnections: issuer.connections(),
    stderrLines,
  };
}

export interface BodyFigures {
  readonly bodies: number;
  readonly statuses: Record<string, number>;
  readonly baseline: number;
  readonly peak: number;
  readonly grown: number;
  readonly bound: number;
}

async function runLargeBodies(seed: number, violate: (v: HostileViolation) => void): Promise<BodyFigures> {
  const where = "hostile-network large bodies";
  const rng = new Rng(seed);
  const server = await startHttpServer(path.join(root, "test", "e2e", "fixtures", "http-memory-server.ts"));
  const pid = server.child.pid!;
  const headers = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": "server/discover",
  };
  const meta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
  };
  const small = Buffer.from(
    JSON.stringify({ jsonrpc: "2.0", id: 0, method: "server/discover", params: { _meta: meta } }),
  );
  for (let i = 0; i < 5; i++) await post(server.url, small, headers, ANSWER_BOUND_MS); // Warm up: the first requests load code.
  const baseline = procStatus(pid, "VmRSS");
  resetPeakRss(pid);
  const peakBefore = procStatus(pid, "VmHWM");
  const envelope = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "server/discover",
    params: { _meta: { ...meta, pad: "" } },
  });
  // 3.5 to 4.25 MiB: most just under the default maxBodyBytes (4 MiB), some over it (413).
  const bodies = Array.from({ length: LARGE_BODIES }, () =>
    Buffer.from(
      envelope.replace(
        '"pad":""',
        `"pad":"${"x".repeat(Math.floor(3.5 * MiB + rng.next() * 0.75 * MiB) - envelope.length)}"`,
      ),
    ),
  );
  let release!: () => void;
  const hold = new Promise<void>((resolve) => (release = resolve));
  let sent = 0;
  const answers = await Promise.all(
    bodies.map((body) => post(server.url, body, headers, 60_000, hold, () => ++sent === bodies.length && release())),
  );
  const statuses: Record<string, number> = {};
  for (const [i, a] of answers.entries()) {
    // A body over maxBodyBytes is refused 413 from its Content-Length; the server reads and drops
    // the rest before closing (a bounded lingering close), so the client, still writing, is not
    // reset before it reads the 413: EPIPE or ECONNRESET is a violation like any missing answer.
    const key = a.status || "none";
    statuses[key] = (statuses[key] ?? 0) + 1;
    if (![200, 413, 503].includes(a.status) || a.answers !== 1)
      violate({
        where,
        what: "not one answer 200, 413 or 503",
        got: `${a.status} (${a.answers} answers) to ${bodies[i]!.length} bytes: ${a.body.slice(0, 200)}`,
      });
    else {
      let message: { jsonrpc?: unknown; id?: unknown } | undefined;
      try {
        message = JSON.parse(a.body) as typeof message;
      } catch {
        message = undefined;
      }
      if (message?.jsonrpc !== "2.0")
        violate({ where, what: "answer is not one JSON-RPC message", got: `${a.status}: ${a.body.slice(0, 200)}` });
      else if (a.status === 503 && message.id !== null)
        violate({ where, what: "503 refusal without id null", got: a.body.slice(0, 200) });
    }
  }
  const peak = procStatus(pid, "VmHWM");
  const grown = peak - Math.max(baseline, peakBefore);
  if (grown >= DOCUMENTED_BODY_BOUND)
    violate({
      where,
      what: "peak RSS over the documented bound",
      expected: `< ${DOCUMENTED_BODY_BOUND / MiB} MiB over the baseline`,
      got: `${(grown / MiB).toFixed(0)} MiB`,
    });
  if ((statuses["200"] ?? 0) === 0)
    violate({ where, what: "no body was read (the bound bought by refusing everything)" });
  if ((await post(server.url, small, headers, ANSWER_BOUND_MS)).status !== 200)
    violate({ where, what: "server no longer answers after the load" });
  await stopAllChildren();
  return { bodies: LARGE_BODIES, statuses, baseline, peak, grown, bound: DOCUMENTED_BODY_BOUND };
}

/** requestState replays, each with one thing changed from the request the state was issued for. */
const REPLAYS = 60;
const REPLAY_MUTATIONS = [
  "other note",
  "other caller",
  "unasked answer",
  "extra argument",
  "tampered state",
  "other tool",
] as const;

export interface ReplayFigures {
  readonly replays: number;
  readonly refused: Record<string, number>;
  readonly sent: Record<string, number>;
}

/**
 * 3. requestState replays: the everything example's delete_note (it asks the user to confirm)
 * over real HTTP with 2026-07-28 requests; each round obtains an approval for one note and
 * replays it with one seeded change. Oracle: the replay is refused, with a JSON-RPC error or a
 * tool error result (other tool: whatever it answers, nothing is deleted) and both notes still exist; at the
 * end the unchanged replay still deletes its note (the refusals are not bought by refusing all).
 */
async function runReplays(seed: number, violate: (v: HostileViolation) => void): Promise<ReplayFigures> {
  const where = "hostile-network requestState replays";
  const rng = new Rng(seed);
  const server = createNotesServer(createHandlers({ changed: () => {} }));
  const resource = "http://127.0.0.1/mcp";
  // A bearer token is its subject: enough to tell callers apart.
  const verifyToken = (token: string) => ({
    subject: token,
    scopes: [],
    expiresAt: undefined,
    audience: [resource],
    claims: {},
  });
  const listener = await listenHttp(server, {
    port: 0,
    auth: { verifyToken, resource, authorizationServers: ["http://127.0.0.1/issuer"] },
  });
  const as = (subject: string) =>
    httpClient(listener.url, "modern", () => ({}), fetch, { authorization: `Bearer ${subject}` });
  const meta = { _meta: modernMeta(false) };
  const accept = { action: "accept", content: { confirm: true } };
  const notes = ["groceries", "launch-plan"];
  const exists = async (id: string) =>
    (await as("alice").request("tools/call", { name: "get_note", arguments: { id }, ...meta })).result?.isError !==
    true;
  const refused: Record<string, number> = {};
  const sent: Record<string, number> = {};
  try {
    for (let round = 0; round < REPLAYS; round++) {
      const subject = `user${rng.int(5)}`;
      const target = rng.pick(notes);
      const other = notes.find((n) => n !== target)!;
      const first = await as(subject).request("tools/call", {
        name: "delete_note",
        arguments: { id: target },
        ...meta,
      });
      const key = Object.keys((first.result?.inputRequests ?? {}) as JsonObject)[0];
      const state = first.result?.requestState;
      if (key === undefined || typeof state !== "string") {
        violate({ where, what: "delete_note did not ask for confirmation", got: JSON.stringify(first).slice(0, 300) });
        continue;
      }
      const mutation = rng.pick(REPLAY_MUTATIONS);
      let client = as(subject);
      let name = "delete_note";
      let args: JsonObject = { id: target };
      let answers: JsonObject = { [key]: accept };
      let sentState = state;
      if (mutation === "other note") args = { id: other };
      else if (mutation === "other caller") client = as(`mallory${rng.int(5)}`);
      else if (mutation === "unasked answer") answers = { ...answers, [`q${rng.int(100)}`]: accept };
      else if (mutation === "extra argument") args = { id: target, force: true };
      else if (mutation === "tampered state") {
        const at = rng.int(state.length);
        sentState = `${state.slice(0, at)}${state[at] === "A" ? "B" : "A"}${state.slice(at + 1)}`;
      } else name = "get_note";
      const replay = await client.request("tools/call", {
        name,
        arguments: args,
        inputResponses: answers,
        requestState: sentState,
        ...meta,
      });
      // A JSON-RPC error, or a tool error result (an extra argument fails delete_note's input schema first).
      const wasRefused = replay.error !== undefined || replay.result?.isError === true;
      sent[mutation] = (sent[mutation] ?? 0) + 1;
      if (wasRefused) refused[mutation] = (refused[mutation] ?? 0) + 1;
      if (!wasRefused && mutation !== "other tool")
        violate({ where, what: `replay with ${mutation} not refused`, got: JSON.stringify(replay).slice(0, 300) });
      for (const id of notes)
        if (!(await exists(id))) violate({ where, what: `note ${id} deleted by a replay with ${mutation}` });
      if (!(await exists(target)) || !(await exists(other))) break;
    }
    // Control: the unchanged replay still works.
    const first = await as("alice").request("tools/call", {
      name: "delete_note",
      arguments: { id: "groceries" },
      ...meta,
    });
    const key = Object.keys((first.result?.inputRequests ?? {}) as JsonObject)[0] ?? "";
    const done = await as("alice").request("tools/call", {
      name: "delete_note",
      arguments: { id: "groceries" },
      inputResponses: { [key]: accept },
      requestState: first.result?.requestState ?? "",
      ...meta,
    });
    if (done.error !== undefined || (await exists("groceries")))
      violate({ where, what: "the unchanged replay did not delete its note", got: JSON.stringify(done).slice(0, 300) });
  } finally {
    await listener.close();
  }
  return { replays: REPLAYS, refused, sent };
}

/** Errors thrown per server copy, era and way (inline, task). */
const COPY_CASES = 10;
/** Codes a handler may mean (never -32603, which is what a lost code becomes). */
const COPY_CODES = [-32602, -32601, -32600, -32700, -32002, -32042] as const;

export interface CopyFigures {
  /** Copies of the runtime's RpcError class in the bundle. */
  readonly copiesInBundle: number;
  readonly calls: number;
  /** `server copy, era, way` → kept / sent. */
  readonly kept: Record<string, number>;
  readonly sent: Record<string, number>;
}

/**
 * 4. Two runtime copies: errors thrown by the other copy keep their code and message through a
 * server of one copy, inline and from a task, in 2026-07-28 and 2025-11-25.
 */
async function runCopies(seed: number, violate: (v: HostileViolation) => void): Promise<CopyFigures> {
  const where = "hostile-network two runtime copies";
  const rng = new Rng(seed);
  const dir = mkdtempSync(path.join(tmpdir(), "mcp-gen-copies-"));
  const bundle = path.join(dir, "server.mjs");
  const kept: Record<string, number> = {};
  const sent: Record<string, number> = {};
  try {
    await build({
      entryPoints: [path.join(root, "fuzz", "runtime-copies-server.ts")],
      bundle: true,
      platform: "node",
      format: "esm",
      outfile: bundle,
      logLevel: "error",
    });
    const copiesInBundle = (readFileSync(bundle, "utf8").match(/^var RpcError\d* = class extends Error/gm) ?? [])
      .length;
    if (copiesInBundle !== 2)
      violate({
        where,
        what: "the bundle does not hold two copies of the runtime",
        got: `${copiesInBundle} RpcError classes`,
      });
    for (const copy of ["dist", "source"] as const) {
      const server = await startHttpServer(bundle, "--server", copy);
      for (const revision of ["2026-07-28", "2025-11-25"]) {
        const session: ClientSession = await connectSession(httpChannel(server.url), { revisions: [revision] });
        for (let i = 0; i < 2 * COPY_CASES; i++) {
          const way = i % 2 === 0 ? "inline" : "task";
          const thrown = {
            code: rng.pick(COPY_CODES),
            message: `refused ${rng.int(1e6)}`,
            ...(rng.chance(0.5) ? { data: { n: rng.int(100) } } : {}),
          };
          const key = `${copy} server, ${revision}, ${way}`;
          sent[key] = (sent[key] ?? 0) + 1;
          let failure: unknown;
          try {
            if (way === "inline") await session.rawRequest("tools/call", { name: "refuse", arguments: thrown });
            else
              await (
                await callToolAsTask(session, "refuse_later", { ...thrown, delayMs: 30 + rng.int(40) })
              ).wait({ timeoutMs: ANSWER_BOUND_MS });
          } catch (error) {
            failure = error;
          }
          // Inline: the RpcError itself; from a task: TaskFailedError, the task's error in `error`.
          const got = failure as
            { code?: unknown; message?: unknown; error?: { code?: unknown; message?: unknown } } | undefined;
          const code = way === "inline" ? got?.code : got?.error?.code;
          const message = way === "inline" ? got?.message : got?.error?.message;
          if (code === thrown.code && message === thrown.message) kept[key] = (kept[key] ?? 0) + 1;
          else
            violate({
              where,
              what: "an error of the other runtime copy lost its code or message",
              expected: `${thrown.code} ${thrown.message}`,
              got: `${key}: ${String(code)} ${String(message)} (${String(failure)})`,
            });
        }
        await session.close();
      }
      if (/\n\s+at |Error:/.test(server.stderr()))
        violate({ where, what: "stack trace or error on stderr", got: server.stderr().slice(-1000) });
      await server.stop();
    }
    return { copiesInBundle, calls: Object.values(sent).reduce((a, b) => a + b, 0), kept, sent };
  } finally {
    await stopAllChildren();
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface HostileFigures {
  readonly auth: AuthFigures[];
  readonly bodies: BodyFigures;
  readonly replays: ReplayFigures;
  readonly copies: CopyFigures;
  readonly ms: number;
}

/** Runs the phase with streams derived from `seed`, reporting each broken oracle to `violate`. */
export async function runHostileNetwork(seed: number, violate: (v: HostileViolation) => void): Promise<HostileFigures> {
  const started = Date.now();
  // The modes one after the other: each has a server of its own, and two cores are shared.
  const auth: AuthFigures[] = [];
  for (const [i, mode] of MODES.entries()) auth.push(await runAuthMode(mode, deriveSeed(seed, 1000 + i), violate));
  const bodies = await runLargeBodies(deriveSeed(seed, 1100), violate);
  const replays = await runReplays(deriveSeed(seed, 1200), violate);
  const copies = await runCopies(deriveSeed(seed, 1300), violate);
  return { auth, bodies, replays, copies, ms: Date.now() - started };
}

const counts = (c: Record<string, number>) =>
  Object.entries(c)
    .sort()
    .map(([k, v]) => `${k}: ${v}`)
    .join(", ");

/** The phase's section of fuzz/RESULTS.md. */
export function hostileSection(f: HostileFigures): string[] {
  const mib = (n: number) => `${(n / MiB).toFixed(0)} MiB`;
  return [
    `## Hostile network`,
    ``,
    `Authorization servers that misbehave (notes example, ${AUTH_REQUESTS} concurrent initialize requests each, about 40% with malformed tokens, the rest well-formed JWTs nobody can verify; the slow issuer answers after ${SLOW_SECONDS} s with keys that lack their kids):`,
    ``,
    `| issuer | requests | statuses | slowest answer (bound ${ANSWER_BOUND_MS / 1000} s) | connections to the issuer (≤ ${MAX_ISSUER_CONNECTIONS}) | stderr lines (≤ ${MAX_STDERR_LINES}) |`,
    `|---|---:|---|---:|---:|---:|`,
    ...f.auth.map(
      (a) =>
        `| ${a.mode} | ${a.requests} | ${counts(a.statuses)} | ${(a.maxMs / 1000).toFixed(1)} s | ${a.issuerConnections} | ${a.stderrLines} |`,
    ),
    ``,
    `Large bodies: ${f.bodies.bodies} concurrent POSTs of 3.5–4.25 MiB held open until all were in flight (listenHttp defaults): ${counts(f.bodies.statuses)}; RSS ${mib(f.bodies.baseline)} before, peak ${mib(f.bodies.peak)} (+${mib(f.bodies.grown)}, bound +${mib(f.bodies.bound)}).`,
    ``,
    `requestState replays (everything example's delete_note, each with one change): ${f.replays.replays}; refused / sent by change: ${Object.entries(
      f.replays.sent,
    )
      .sort()
      .map(([k, v]) => `${k}: ${f.replays.refused[k] ?? 0} / ${v}`)
      .join(
        ", ",
      )} (other tool: get_note answers, ignoring the state); no note deleted by a replay, and the unchanged replay still deletes.`,
    ``,
    `Two runtime copies (fuzz/runtime-copies-server.ts bundled with esbuild: ${f.copies.copiesInBundle} RpcError classes in the bundle; one copy serves, the other's RpcError is thrown, seeded codes ${COPY_CODES.join(", ")}): ${f.copies.calls} tool calls; kept code and message / sent: ${Object.entries(
      f.copies.sent,
    )
      .sort()
      .map(([k, v]) => `${k}: ${f.copies.kept[k] ?? 0} / ${v}`)
      .join("; ")}.`,
    ``,
    `Phase time: ${(f.ms / 1000).toFixed(1)} s.`,
  ];
}
