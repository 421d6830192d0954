// The fuzz job: `npm run fuzz` (see fuzz/README.md). Starts fuzz/server.ts over stdio (one
// long-running child per context) and over Streamable HTTP (one child, many concurrent
// keep-alive POSTs), sends seeded generated traffic, and checks every message against its
// oracle. Writes fuzz/RESULTS.md; saves the first failing cases to fuzz/failures/; exits 1 on
// any violation.
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync, writeFileSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { hostileSection, runHostileNetwork, type HostileFigures } from "./hostile-network.js";
import {
  answerFor,
  deriveSeed,
  Generator,
  keyOfNumberText,
  LEGACY_REVISIONS,
  MODERN,
  Rng,
  type Case,
  type Context,
  type Expect,
  type HttpExpect,
  type Kind,
} from "./generate.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..");

// --- options --------------------------------------------------------------------------
const argv = process.argv.slice(2);
const flag = (name: string) => argv.includes(name);
const option = (name: string, fallback: number) => {
  const at = argv.indexOf(name);
  if (at < 0) return fallback;
  const value = Number(argv[at + 1]);
  if (!Number.isFinite(value) || value < 0) {
    console.error(`fuzz: ${name} needs a number, got ${argv[at + 1]}`);
    process.exit(2);
  }
  return value;
};
if (flag("--help")) {
  console.log(
    "usage: tsx fuzz/run.ts [--seed N] [--messages N] [--quick] [--http-share F] [--concurrency N] [--window N] [--no-results] [--hostile-network | --no-hostile-network]",
  );
  process.exit(0);
}
const QUICK = flag("--quick");
const SEED = option("--seed", 20260728) >>> 0;
const MESSAGES = Math.floor(option("--messages", QUICK ? 20_000 : 1_000_000));
const HTTP_SHARE = option("--http-share", 0.5);
const CONCURRENCY = Math.max(1, Math.floor(option("--concurrency", 48)));
const WINDOW = Math.max(2, Math.floor(option("--window", 256)));
const WRITE_RESULTS = !flag("--no-results");
/** The section `npm run fuzz:openapi` keeps at the end of RESULTS.md (fuzz/openapi.ts), left as it is. */
const openApiSection = (results: string) => {
  const at = results.indexOf("\n## OpenAPI import");
  return at < 0 ? "" : `${results.slice(at)}`;
};
/** `--hostile-network`: that phase alone (its section of RESULTS.md replaced); `--no-hostile-network`: the message traffic alone. */
const HOSTILE_ONLY = flag("--hostile-network");
const HOSTILE = HOSTILE_ONLY || !flag("--no-hostile-network");
const HANG_MS = 15_000;
const MAX_SAVED_FAILURES = 25;
const SESSION_MESSAGES = 400;

// --- violations -----------------------------------------------------------------------
interface Violation {
  readonly where: string;
  readonly what: string;
  readonly note?: string;
  readonly expected?: string;
  readonly got?: string;
  readonly body?: string | Buffer;
  readonly headers?: Record<string, string | null>;
}
const violations: Violation[] = [];
let violationCount = 0;
function violate(v: Violation): void {
  violationCount++;
  if (violations.length < 200) violations.push(v);
}

const short = (text: string, n = 300) => (text.length > n ? `${text.slice(0, n)}… (${text.length} chars)` : text);
const bodyText = (b: string | Buffer) => (typeof b === "string" ? b : `<bytes ${b.toString("base64")}>`);

// --- children and memory -------------------------------------------------------------
interface Child {
  readonly name: string;
  readonly proc: ChildProcess;
  stderr: string;
  probes: string[];
  exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  expectedExit: boolean;
  baselineRss: number | undefined;
  maxRss: number;
  maxRssAfterWarmup: number;
  samples: number;
}
const children: Child[] = [];

function startServer(name: string, args: string[]): Child {
  const proc = spawn(process.execPath, ["--import", "tsx", path.join("fuzz", "server.ts"), ...args], {
    cwd: root,
    stdio: ["pipe", "pipe", "pipe"],
  });
  const child: Child = {
    name,
    proc,
    stderr: "",
    probes: [],
    exited: undefined,
    expectedExit: false,
    baselineRss: undefined,
    maxRss: 0,
    maxRssAfterWarmup: 0,
    samples: 0,
  };
  proc.stderr!.setEncoding("utf8");
  let partial = "";
  proc.stderr!.on("data", (chunk: string) => {
    partial += chunk;
    let nl: number;
    while ((nl = partial.indexOf("\n")) >= 0) {
      const line = partial.slice(0, nl);
      partial = partial.slice(nl + 1);
      if (line.startsWith("FUZZ-PROBE ")) child.probes.push(line.slice(11));
      else if (!line.startsWith("FUZZ-LISTENING ")) {
        if (child.stderr.length < 20_000) child.stderr += `${line}\n`;
      }
      for (const waiter of stderrWaiters.splice(0)) waiter();
    }
  });
  proc.on("exit", (code, signal) => {
    child.exited = { code, signal };
    if (!child.expectedExit)
      violate({
        where: name,
        what: "server process exited (crash)",
        got: `code ${code} signal ${signal}; stderr: ${short(child.stderr, 2000)}`,
      });
  });
  children.push(child);
  return child;
}
const stderrWaiters: (() => void)[] = [];

function rssOf(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const m = /VmRSS:\s+(\d+) kB/.exec(status);
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}
const sampler = setInterval(() => {
  for (const c of children) {
    if (c.exited || c.proc.pid === undefined) continue;
    const rss = rssOf(c.proc.pid);
    if (rss === 0) continue;
    c.samples++;
    c.maxRss = Math.max(c.maxRss, rss);
    if (c.baselineRss !== undefined) c.maxRssAfterWarmup = Math.max(c.maxRssAfterWarmup, rss);
  }
}, 200);
const bound = (c: Child) => 2 * (c.baselineRss ?? 0) + 100 * 1024 * 1024;
/** Warm baseline: the RSS once a tenth of the child's traffic has gone through. */
function markWarm(c: Child): void {
  if (c.baselineRss === undefined && c.proc.pid !== undefined) c.baselineRss = rssOf(c.proc.pid);
}

async function probe(c: Child): Promise<string | undefined> {
  const before = c.probes.length;
  c.proc.kill("SIGUSR2");
  const deadline = Date.now() + 5_000;
  while (c.probes.length === before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  const line = c.probes[before];
  if (line === undefined) {
    violate({ where: c.name, what: "prototype probe did not answer" });
    return undefined;
  }
  const probe = JSON.parse(line) as { changed: string[]; inherited: string[]; handlerErrors: number };
  if (probe.changed.length > 0 || probe.inherited.length > 0)
    violate({ where: c.name, what: "built-in prototypes changed", got: line });
  return line;
}

// --- statistics -----------------------------------------------------------------------
interface Stats {
  readonly name: string;
  readonly transport: "stdio" | "http";
  readonly context: string;
  cases: number;
  /** Messages put on the wire (a duplicate case is two; lifecycle messages included). */
  messages: number;
  lifecycle: number;
  byKind: Partial<Record<Kind, number>>;
  /** Valid-id request messages (batch elements and duplicate copies counted one by one). */
  requests: number;
  responses: number;
  nullErrors: number;
  internalErrors: number;
  serverNotifications: number;
  serverRequests: number;
  hangs: number;
  httpStatus: Record<string, number>;
  started: number;
  ms: number;
}
const allStats: Stats[] = [];
function newStats(name: string, transport: "stdio" | "http", context: string): Stats {
  const s: Stats = {
    name,
    transport,
    context,
    cases: 0,
    messages: 0,
    lifecycle: 0,
    byKind: {},
    requests: 0,
    responses: 0,
    nullErrors: 0,
    internalErrors: 0,
    serverNotifications: 0,
    serverRequests: 0,
    hangs: 0,
    httpStatus: {},
    started: Date.now(),
    ms: 0,
  };
  allStats.push(s);
  return s;
}
function countCase(s: Stats, c: Case): void {
  const copies = c.copies ?? 1;
  s.cases++;
  s.messages += copies;
  s.byKind[c.kind] = (s.byKind[c.kind] ?? 0) + copies;
  for (const e of c.expect) if ("id" in e) s.requests += copies;
}

// --- ids in responses -----------------------------------------------------------------
/**
 * Raw `id` texts of a JSON text (a message, or a batch), by element: ids[i] is the raw text of
 * the `id` member of element i (of the lone message when i is 0), undefined when it has none.
 */
function rawIds(text: string): (string | undefined)[] {
  const ids: (string | undefined)[] = [];
  let depth = 0;
  const top = text.trimStart().startsWith("[") ? 2 : 1;
  let element = 0;
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      if (depth === top && expectKey && text.slice(i, j + 1) === '"id"') {
        let k = j + 1;
        while (text[k] !== ":") k++;
        k++;
        while (/\s/.test(text[k]!)) k++;
        const m = /^(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|null|"(?:[^"\\]|\\.)*")/.exec(text.slice(k, k + 5000));
        ids[element] = m ? m[1]! : "?";
      }
      expectKey = false;
      i = j;
    } else if (c === "{") {
      depth++;
      expectKey = true;
    } else if (c === "[") depth++;
    else if (c === "}" || c === "]") depth--;
    else if (c === ",") {
      expectKey = true;
      if (top === 2 && depth === 1) element++;
    }
  }
  return ids;
}

interface Incoming {
  readonly kind: "response" | "server-request" | "server-notification";
  /** Response id key (null for id null); server request raw id text. */
  readonly key: string | null;
  readonly method?: string;
  readonly errorCode?: number;
  readonly raw?: string;
}

/** Classifies the messages of one JSON text the server wrote (a message or an array of them). */
function incoming(text: string): Incoming[] | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const items = Array.isArray(value) ? value : [value];
  let raws: (string | undefined)[] | undefined;
  const out: Incoming[] = [];
  items.forEach((item, index) => {
    if (typeof item !== "object" || item === null) {
      out.push({ kind: "response", key: "?non-object", raw: JSON.stringify(item) });
      return;
    }
    const m = item as { id?: unknown; method?: unknown; error?: { code?: unknown } };
    const idKey = (): string | null => {
      const id = m.id;
      if (id === null || id === undefined) return null;
      if (typeof id === "string") return `s:${id}`;
      if (typeof id === "number" && Number.isSafeInteger(id)) return `n:${id}`;
      raws ??= rawIds(text);
      const raw = raws[index];
      return raw === undefined ? `?${String(id)}` : keyOfNumberText(raw);
    };
    if (typeof m.method === "string") {
      if (m.id !== undefined) {
        raws ??= rawIds(text);
        out.push({ kind: "server-request", key: raws[index] ?? JSON.stringify(m.id), method: m.method });
      } else out.push({ kind: "server-notification", key: null, method: m.method });
      return;
    }
    const code = typeof m.error?.code === "number" ? m.error.code : undefined;
    out.push({ kind: "response", key: idKey(), ...(code === undefined ? {} : { errorCode: code }) });
  });
  return out;
}

// --- stdio ---------------------------------------------------------------------------
interface PendingEntry {
  count: number;
  /** When it was sent; past HANG_MS it no longer holds a window slot (it is reported as a hang unless answered later). */
  readonly at: number;
  expired: boolean;
  readonly flex: boolean;
  readonly note: string;
  readonly body: string | Buffer;
}

async function runStdio(ctx: Context, budget: number, streamIndex: number): Promise<void> {
  const name = `stdio ${ctx.revision === MODERN ? "2026-07-28 (stateless)" : ctx.revision}`;
  const stats = newStats(name, "stdio", ctx.revision);
  const child = startServer(name, ["--stdio"]);
  const rng = new Rng(deriveSeed(SEED, 1000 + streamIndex));
  const answerRng = new Rng(deriveSeed(SEED, 2000 + streamIndex));
  const gen = new Generator(rng, ctx, `st${streamIndex}-`, 0);
  const stdin = child.proc.stdin!;
  stdin.on("error", () => {});
  stdin.setMaxListeners(0);

  const pending = new Map<string, PendingEntry>();
  const recent = new Map<string, string>();
  let pendingTotal = 0;
  let pendingNull = 0;
  let flexOutstanding = 0;
  let flexAsNull = 0;
  let progress = 0;
  let expired = 0;
  let wake: (() => void) | undefined;
  const outstanding = () => pendingTotal + pendingNull - flexAsNull - expired;
  const expiry = setInterval(() => {
    const now = Date.now();
    let changed = false;
    for (const entry of pending.values()) {
      if (!entry.expired && now - entry.at > HANG_MS) {
        entry.expired = true;
        expired += entry.count;
        changed = true;
      }
    }
    if (changed && wake) {
      const w = wake;
      wake = undefined;
      w();
    }
  }, 1_000);

  const write = (text: string | Buffer): Promise<void> | undefined => {
    const ok =
      typeof text === "string" ? stdin.write(`${text}\n`) : stdin.write(Buffer.concat([text, Buffer.from("\n")]));
    return ok ? undefined : new Promise((resolve) => stdin.once("drain", () => resolve()));
  };

  const onMessage = (m: Incoming, line: string) => {
    if (m.kind === "server-notification") {
      stats.serverNotifications++;
      return;
    }
    if (m.kind === "server-request") {
      stats.serverRequests++;
      if (!ctx.clientAnswers)
        violate({
          where: name,
          what: "server sent a request to a client that declared no capability",
          got: short(line),
        });
      void write(answerFor(answerRng, m.method!, m.key!));
      return;
    }
    stats.responses++;
    progress++;
    if (m.errorCode === -32603) stats.internalErrors++;
    if (m.key === null) {
      stats.nullErrors++;
      if (pendingNull > 0) pendingNull--;
      else if (flexOutstanding > 0) {
        flexOutstanding--;
        flexAsNull++;
      } else
        violate({
          where: name,
          what: "response with id null that no message called for (a notification or a valid request answered?)",
          got: short(line),
        });
    } else {
      const entry = pending.get(m.key);
      if (entry === undefined) {
        const sent = recent.get(m.key);
        violate({
          where: name,
          what: `${sent ? "request answered more than once" : "response with an id never sent"}: ${short(m.key, 80)}`,
          got: short(line, 20_000),
          ...(sent ? { note: sent } : {}),
        });
      } else {
        pendingTotal--;
        if (entry.expired) expired--;
        if (entry.flex) flexOutstanding--;
        if (--entry.count === 0) {
          pending.delete(m.key);
          if (recent.size > 5000) recent.delete(recent.keys().next().value!);
          recent.set(m.key, entry.note);
        }
      }
    }
    if (wake) {
      const w = wake;
      wake = undefined;
      w();
    }
  };

  let partial = "";
  child.proc.stdout!.setEncoding("utf8");
  child.proc.stdout!.on("data", (chunk: string) => {
    partial += chunk;
    let start = 0;
    let nl: number;
    while ((nl = partial.indexOf("\n", start)) >= 0) {
      const line = partial.slice(start, nl);
      start = nl + 1;
      if (line.length === 0) continue;
      const messages = incoming(line);
      if (messages === undefined) {
        violate({ where: name, what: "stdout carried a line that is not JSON", got: short(line) });
        continue;
      }
      for (const m of messages) onMessage(m, line);
    }
    partial = partial.slice(start);
  });

  const register = (c: Case) => {
    const copies = c.copies ?? 1;
    for (const e of c.expect) {
      if ("nullError" in e) {
        pendingNull += copies;
        continue;
      }
      const key = "id" in e ? e.id : e.idOrNull;
      const flex = "idOrNull" in e;
      const entry = pending.get(key);
      if (entry) entry.count += copies;
      else pending.set(key, { count: copies, at: Date.now(), expired: false, flex, note: c.note, body: c.body });
      pendingTotal += copies;
      if (flex) flexOutstanding += copies;
    }
  };

  /** Waits until at most `limit` answers are outstanding; false when nothing moved for HANG_MS. */
  const waitFor = async (limit: number): Promise<boolean> => {
    while (outstanding() > limit) {
      const before = progress;
      const moved = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), HANG_MS);
        wake = () => {
          clearTimeout(timer);
          resolve(true);
        };
      });
      if (!moved && progress === before && outstanding() > limit) return false;
      if (child.exited) return false;
    }
    return true;
  };

  // The session (legacy) or nothing (stateless modern requests need none).
  if (ctx.revision !== MODERN) {
    const capabilities = ctx.clientAnswers
      ? { sampling: {}, elicitation: { form: {}, url: {} }, roots: { listChanged: true } }
      : {};
    const init = `{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"${ctx.revision}","capabilities":${JSON.stringify(capabilities)},"clientInfo":{"name":"fuzz","version":"1.0.0"}}}`;
    pending.set("s:init", { count: 1, at: Date.now(), expired: false, flex: false, note: "initialize", body: init });
    pendingTotal++;
    await write(init);
    if (!(await waitFor(0))) violate({ where: name, what: "initialize was not answered", body: init });
    await write('{"jsonrpc":"2.0","method":"notifications/initialized"}');
    stats.messages += 2;
    stats.lifecycle += 2;
  }

  let aborted = false;
  const warmAt = Math.floor(budget / 10);
  for (let i = 0; i < budget; i++) {
    if (i === warmAt) markWarm(child);
    const c = gen.next();
    countCase(stats, c);
    register(c);
    for (let k = 0; k < (c.copies ?? 1); k++) {
      const drained = write(c.body);
      if (drained) await drained;
    }
    if (outstanding() >= WINDOW && !(await waitFor(WINDOW >> 1))) {
      aborted = true;
      break;
    }
    if (child.exited) {
      aborted = true;
      break;
    }
  }
  if (!aborted && !(await waitFor(0))) aborted = true;
  clearInterval(expiry);
  // Whatever is still outstanding is a hang.
  for (const [key, entry] of pending) {
    if (entry.flex && flexAsNull > 0) {
      flexAsNull--;
      continue;
    }
    stats.hangs += entry.count;
    violate({
      where: name,
      what: "request not answered",
      note: entry.note,
      expected: `a response with id ${key}`,
      got: "nothing",
      body: entry.body,
    });
  }
  if (pendingNull > 0) {
    stats.hangs += pendingNull;
    violate({
      where: name,
      what: `${pendingNull} invalid message(s) not answered with an id-null error`,
      expected: "error responses with id null",
      got: "nothing",
    });
  }
  if (!child.exited) {
    await probe(child);
    child.expectedExit = true;
    stdin.end();
    const deadline = Date.now() + 10_000;
    while (!child.exited && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    if (!child.exited) {
      violate({ where: name, what: "server did not exit within 10 s of stdin closing" });
      child.proc.kill("SIGKILL");
    } else {
      const exit = child.exited as { code: number | null; signal: NodeJS.Signals | null };
      if (exit.code !== 0)
        violate({
          where: name,
          what: "server exited with an error after stdin closed",
          got: `code ${exit.code} signal ${exit.signal}`,
        });
    }
  }
  if (/\n\s+at |Error:|Warning:|Unhandled|uncaught/i.test(child.stderr))
    violate({ where: name, what: "stack trace or error on stderr", got: short(child.stderr, 2000) });
  stats.ms = Date.now() - stats.started;
}

// --- HTTP ----------------------------------------------------------------------------
interface HttpReply {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
  readonly sessionId?: string;
  readonly hang?: boolean;
  readonly error?: string;
}

function post(
  agent: http.Agent,
  port: number,
  headers: Record<string, string | null>,
  body: string | Buffer,
  method = "POST",
): Promise<HttpReply> {
  const data = typeof body === "string" ? Buffer.from(body) : body;
  const h: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "content-length": String(data.length),
  };
  for (const [k, v] of Object.entries(headers)) {
    if (v === null) delete h[k];
    else h[k] = v;
  }
  if (!("host" in h)) h.host = `127.0.0.1:${port}`;
  return new Promise((resolve) => {
    let done = false;
    const finish = (reply: HttpReply) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(reply);
    };
    const req = http.request({ host: "127.0.0.1", port, path: "/mcp", method, headers: h, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const sid = res.headers["mcp-session-id"];
        finish({
          status: res.statusCode ?? 0,
          contentType: String(res.headers["content-type"] ?? ""),
          body: Buffer.concat(chunks).toString("utf8"),
          ...(typeof sid === "string" ? { sessionId: sid } : {}),
        });
      });
      res.on("error", (e) => finish({ status: -1, contentType: "", body: "", error: e.message }));
    });
    const timer = setTimeout(() => {
      req.destroy();
      finish({ status: 0, contentType: "", body: "", hang: true });
    }, HANG_MS);
    req.on("error", (e) => finish({ status: -1, contentType: "", body: "", error: e.message }));
    req.end(method === "DELETE" ? undefined : data);
  });
}

/** The JSON texts of a reply: its JSON body, or the data of each SSE event. */
function replyTexts(reply: HttpReply): string[] {
  if (reply.body.length === 0) return [];
  if (reply.contentType.includes("text/event-stream")) {
    const texts: string[] = [];
    for (const event of reply.body.split(/\r?\n\r?\n/)) {
      const data = event
        .split(/\r?\n/)
        .filter((l) => l.startsWith("data:"))
        .map((l) => l.slice(5).replace(/^ /, ""));
      if (data.length > 0 && data.join("").length > 0) texts.push(data.join("\n"));
    }
    return texts;
  }
  return [reply.body];
}

/** Matches responses against expectations; returns why they differ, if they do. */
function match(expect: readonly Expect[], keys: (string | null)[]): string | undefined {
  const ids = new Map<string, number>();
  let nulls = 0;
  const flex = new Set<string>();
  for (const e of expect) {
    if ("id" in e) ids.set(e.id, (ids.get(e.id) ?? 0) + 1);
    else if ("nullError" in e) nulls++;
    else flex.add(e.idOrNull);
  }
  for (const key of keys) {
    if (key !== null) {
      const n = ids.get(key);
      if (n) ids.set(key, n - 1);
      else if (flex.has(key)) flex.delete(key);
      else return `unexpected response id ${short(key, 80)}`;
    } else if (nulls > 0) nulls--;
    else if (flex.size > 0) flex.delete(flex.values().next().value!);
    else return "unexpected response with id null";
  }
  for (const [key, n] of ids) if (n > 0) return `no response with id ${short(key, 80)}`;
  if (nulls > 0) return `${nulls} id-null error(s) missing`;
  if (flex.size > 0) return `no error for ${short([...flex][0]!, 80)}`;
  return undefined;
}

function judge(expect: HttpExpect, c: Case, reply: HttpReply, stats: Stats): string | undefined {
  stats.httpStatus[reply.status] = (stats.httpStatus[reply.status] ?? 0) + 1;
  if (reply.hang) {
    stats.hangs++;
    return `no reply within ${HANG_MS} ms`;
  }
  if (reply.error) return `connection error: ${reply.error}`;
  if (reply.status >= 500) return `status ${reply.status}`;
  const keys: (string | null)[] = [];
  for (const text of replyTexts(reply)) {
    const messages = incoming(text);
    if (messages === undefined) return `reply is not JSON: ${short(text)}`;
    for (const m of messages) {
      if (m.kind === "server-notification") stats.serverNotifications++;
      else if (m.kind === "server-request") {
        stats.serverRequests++;
        return `server request ${m.method} on a POST of a client that declared no capability`;
      } else {
        stats.responses++;
        if (m.key === null) stats.nullErrors++;
        if (m.errorCode === -32603) stats.internalErrors++;
        keys.push(m.key);
      }
    }
  }
  const answer = () => (reply.status === 202 ? "202 where a response was due" : match(c.expect, keys));
  const accepted = () =>
    reply.status === 202 && keys.length === 0
      ? undefined
      : `expected 202 without a body, got ${reply.status} with ${keys.length} response(s)`;
  const allowed = new Set(c.expect.flatMap((e) => ("id" in e ? [e.id] : "idOrNull" in e ? [e.idOrNull] : [])));
  const refused = () =>
    reply.status >= 400 && reply.status < 500 && keys.length === 1 && (keys[0] === null || allowed.has(keys[0]!))
      ? undefined
      : `expected a 4xx with one JSON-RPC error (id null or the message's), got ${reply.status} with ${keys.length} response(s)${keys.length ? ` (ids ${keys.map((k) => short(String(k), 60)).join(", ")})` : ""}`;
  switch (expect) {
    case "answer":
      return answer();
    case "accepted":
      return accepted();
    case "refused":
      return refused();
    case "answer-or-refused":
      return answer() === undefined ? undefined : refused();
    case "accepted-or-refused":
      return accepted() === undefined
        ? undefined
        : reply.status >= 400 && reply.status < 500 && keys.length === 1 && keys[0] === null
          ? undefined
          : `expected 202 or a 4xx with an id-null error, got ${reply.status} with ${keys.length} response(s)`;
  }
}

interface Session {
  id: string;
  used: number;
}

async function runHttp(budget: number): Promise<void> {
  const child = startServer("http", ["--http", "--port", "0"]);
  let url: string | undefined;
  const deadline = Date.now() + 20_000;
  await new Promise<void>((resolve) => {
    const look = () => {
      const m = /FUZZ-LISTENING (\S+)/.exec(child.stderr + "");
      if (m) url = m[1];
      if (url || Date.now() > deadline || child.exited) resolve();
      else stderrWaiters.push(look);
    };
    // The listening line is not kept in child.stderr: watch the raw stream for it.
    child.proc.stderr!.on("data", (chunk: string) => {
      const m = /FUZZ-LISTENING (\S+)/.exec(chunk);
      if (m) url = m[1];
    });
    look();
    const poll = setInterval(() => {
      if (url || Date.now() > deadline || child.exited) {
        clearInterval(poll);
        resolve();
      }
    }, 20);
  });
  if (!url) {
    violate({ where: "http", what: "HTTP server did not start", got: child.stderr });
    return;
  }
  const port = Number(new URL(url).port);
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const contexts = [...LEGACY_REVISIONS, MODERN];
  const statsBy = new Map<string, Stats>();
  for (const rev of contexts)
    statsBy.set(rev, newStats(`http ${rev === MODERN ? "2026-07-28 (stateless)" : rev}`, "http", rev));
  let sent = 0;
  const warmAt = Math.floor(budget / 10);

  const failure = (where: string, c: Case, why: string, headers: Record<string, string | null>, reply?: HttpReply) =>
    violate({
      where,
      what: why,
      note: c.note,
      expected: c.http ?? "answer",
      got: reply ? `${reply.status} ${short(reply.body, 500)}` : "—",
      body: c.body,
      headers,
    });

  const worker = async (w: number) => {
    const rng = new Rng(deriveSeed(SEED, 3000 + w));
    const gens = new Map<string, Generator>();
    for (const rev of contexts)
      gens.set(
        rev,
        new Generator(
          new Rng(deriveSeed(SEED, 4000 + w * 8 + contexts.indexOf(rev))),
          { transport: "http", revision: rev, clientAnswers: false },
          `w${w}-`,
          w % 64,
        ),
      );
    const sessions = new Map<string, Session>();
    let initN = 0;

    const openSession = async (rev: string, stats: Stats): Promise<Session | undefined> => {
      const old = sessions.get(rev);
      if (old) {
        const r = await post(agent, port, { "mcp-session-id": old.id }, "", "DELETE");
        stats.messages++;
        stats.lifecycle++;
        if (r.status !== 200)
          violate({ where: stats.name, what: "DELETE of a session failed", got: `${r.status} ${short(r.body)}` });
        sessions.delete(rev);
      }
      const id = `init-${w}-${++initN}`;
      const init = `{"jsonrpc":"2.0","id":"${id}","method":"initialize","params":{"protocolVersion":"${rev}","capabilities":{},"clientInfo":{"name":"fuzz","version":"1.0.0"}}}`;
      const r = await post(agent, port, {}, init);
      stats.messages += 2;
      stats.lifecycle += 2;
      if (r.status !== 200 || !r.sessionId) {
        violate({ where: stats.name, what: "initialize failed", got: `${r.status} ${short(r.body)}` });
        return undefined;
      }
      const h: Record<string, string> = { "mcp-session-id": r.sessionId };
      if (rev >= "2025-06-18") h["mcp-protocol-version"] = rev;
      const n = await post(agent, port, h, '{"jsonrpc":"2.0","method":"notifications/initialized"}');
      if (n.status !== 202)
        violate({
          where: stats.name,
          what: "notifications/initialized not accepted",
          got: `${n.status} ${short(n.body)}`,
        });
      const s = { id: r.sessionId, used: 0 };
      sessions.set(rev, s);
      return s;
    };

    while (sent < budget) {
      const n = sent++;
      if (n === warmAt) markWarm(child);
      const rev = rng.pick(rng.chance(0.6) ? LEGACY_REVISIONS : [MODERN]);
      const stats = statsBy.get(rev)!;
      const gen = gens.get(rev)!;
      const c = gen.next();
      countCase(stats, c);
      const headers: Record<string, string | null> = {};
      if (rev !== MODERN) {
        let s = sessions.get(rev);
        if (!s || s.used >= SESSION_MESSAGES) s = await openSession(rev, stats);
        if (!s) continue;
        s.used++;
        headers["mcp-session-id"] = s.id;
        if (rev >= "2025-06-18") headers["mcp-protocol-version"] = rev;
      }
      Object.assign(headers, c.headers ?? {});
      const copies = c.copies ?? 1;
      const replies = await Promise.all(Array.from({ length: copies }, () => post(agent, port, headers, c.body)));
      for (const reply of replies) {
        const why = judge(c.http ?? "answer", c, reply, stats);
        if (why) failure(stats.name, c, why, headers, reply);
      }
      if (child.exited) return;
    }
    for (const [rev, s] of sessions) {
      await post(agent, port, { "mcp-session-id": s.id }, "", "DELETE");
      statsBy.get(rev)!.messages++;
      statsBy.get(rev)!.lifecycle++;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, (_, w) => worker(w)));
  agent.destroy();
  const elapsed = Date.now() - statsBy.get(MODERN)!.started;
  for (const s of statsBy.values()) s.ms = elapsed;
  if (!child.exited) {
    await probe(child);
    child.expectedExit = true;
    child.proc.kill("SIGTERM");
    const until = Date.now() + 10_000;
    while (!child.exited && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    if (!child.exited) {
      violate({ where: "http", what: "server did not exit within 10 s of SIGTERM" });
      child.proc.kill("SIGKILL");
    }
  }
  if (/\n\s+at |Error:|Warning:|Unhandled|uncaught/i.test(child.stderr))
    violate({ where: "http", what: "stack trace or error on stderr", got: short(child.stderr, 2000) });
}

// --- main ----------------------------------------------------------------------------
if (HOSTILE_ONLY) {
  console.log(`fuzz: seed ${SEED}, hostile-network phase alone`);
  const section = hostileSection(await runHostileNetwork(SEED, violate));
  const verdict = violationCount === 0 ? "PASS: 0 violations" : `FAIL: ${violationCount} violation(s)`;
  const text = [
    ...section,
    ``,
    `- seed ${SEED}; command: \`tsx fuzz/run.ts ${argv.join(" ")}\`; ${new Date().toISOString()}; **${verdict}**`,
    ...violations
      .slice(0, 20)
      .map(
        (v) =>
          `- [${v.where}] ${v.what}${v.expected ? `; expected ${v.expected}` : ""}${v.got ? `; got ${short(v.got, 300).replace(/\n/g, " ")}` : ""}`,
      ),
  ].join("\n");
  console.log(`\n${text}`);
  if (WRITE_RESULTS) {
    const file = path.join(here, "RESULTS.md");
    const before = readFileSync(file, "utf8");
    const at = before.indexOf("## Hostile network");
    writeFileSync(
      file,
      `${at < 0 ? `${before.trimEnd()}\n\n` : before.slice(0, at)}${text}\n${openApiSection(before)}`,
    );
  }
  process.exit(violationCount === 0 ? 0 : 1);
}
const started = Date.now();
const httpBudget = Math.round(MESSAGES * HTTP_SHARE);
const stdioBudget = MESSAGES - httpBudget;
const stdioContexts: Context[] = [
  { transport: "stdio", revision: "2025-03-26", clientAnswers: true },
  { transport: "stdio", revision: "2025-06-18", clientAnswers: true },
  { transport: "stdio", revision: "2025-11-25", clientAnswers: true },
  { transport: "stdio", revision: MODERN, clientAnswers: false },
];
console.log(
  `fuzz: seed ${SEED}, ${MESSAGES.toLocaleString("en-US")} messages (${stdioBudget.toLocaleString("en-US")} stdio, ${httpBudget.toLocaleString("en-US")} HTTP), HTTP concurrency ${CONCURRENCY}, stdio window ${WINDOW}`,
);
const tStdio = Date.now();
await Promise.all(
  stdioContexts.map((ctx, i) => runStdio(ctx, Math.floor(stdioBudget / 4) + (i < stdioBudget % 4 ? 1 : 0), i)),
);
const stdioMs = Date.now() - tStdio;
console.log(`fuzz: stdio done in ${(stdioMs / 1000).toFixed(1)} s`);
const tHttp = Date.now();
if (httpBudget > 0) await runHttp(httpBudget);
const httpMs = Date.now() - tHttp;
console.log(`fuzz: HTTP done in ${(httpMs / 1000).toFixed(1)} s`);
let hostile: HostileFigures | undefined;
if (HOSTILE) {
  hostile = await runHostileNetwork(SEED, violate);
  console.log(`fuzz: hostile network done in ${(hostile.ms / 1000).toFixed(1)} s`);
}
clearInterval(sampler);

for (const c of children) {
  if (c.baselineRss !== undefined && c.maxRssAfterWarmup > bound(c)) {
    violate({
      where: c.name,
      what: "RSS over its bound",
      expected: `< ${mb(bound(c))} (2 × warm ${mb(c.baselineRss)} + 100 MB)`,
      got: mb(c.maxRssAfterWarmup),
    });
  }
}

function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(0)} MB`;
}
const fmt = (n: number) => n.toLocaleString("en-US");
const totalMs = Date.now() - started;
const sum = (f: (s: Stats) => number) => allStats.reduce((a, s) => a + f(s), 0);
const kinds: Kind[] = [
  "request",
  "notification",
  "client-response",
  "invalid-envelope",
  "parse-error",
  "batch",
  "duplicate-id",
  "prototype",
  "header-mutation",
];
const childOf = (s: Stats) =>
  s.transport === "http" ? children.find((c) => c.name === "http") : children.find((c) => c.name === s.name);

const lines: string[] = [];
lines.push(
  `| stream | messages | requests (valid id) | responses | id-null errors | -32603 | server notif. / requests | hangs | crashes | max RSS (warm → max, bound) | time |`,
);
lines.push(`|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|`);
for (const s of allStats) {
  const c = childOf(s);
  const crashed = c?.exited && !c.expectedExit ? 1 : 0;
  const rss = c ? `${mb(c.baselineRss ?? 0)} → ${mb(c.maxRss)} (< ${mb(bound(c))})` : "";
  lines.push(
    `| ${s.name} | ${fmt(s.messages)} | ${fmt(s.requests)} | ${fmt(s.responses)} | ${fmt(s.nullErrors)} | ${fmt(s.internalErrors)} | ${fmt(s.serverNotifications)} / ${fmt(s.serverRequests)} | ${fmt(s.hangs)} | ${crashed} | ${rss} | ${(s.ms / 1000).toFixed(1)} s |`,
  );
}
const crashes = children.filter((c) => c.exited && !c.expectedExit).length;
lines.push(
  `| **total** | **${fmt(sum((s) => s.messages))}** | ${fmt(sum((s) => s.requests))} | ${fmt(sum((s) => s.responses))} | ${fmt(sum((s) => s.nullErrors))} | ${fmt(sum((s) => s.internalErrors))} | ${fmt(sum((s) => s.serverNotifications))} / ${fmt(sum((s) => s.serverRequests))} | **${fmt(sum((s) => s.hangs))}** | **${crashes}** | | ${(totalMs / 1000).toFixed(1)} s |`,
);
const kindLines: string[] = [];
kindLines.push(`| stream | ${kinds.join(" | ")} |`);
kindLines.push(`|---|${kinds.map(() => "---:").join("|")}|`);
for (const s of allStats) kindLines.push(`| ${s.name} | ${kinds.map((k) => fmt(s.byKind[k] ?? 0)).join(" | ")} |`);
kindLines.push(`| **total** | ${kinds.map((k) => fmt(sum((s) => s.byKind[k] ?? 0))).join(" | ")} |`);
const statusLine = (() => {
  const all: Record<string, number> = {};
  for (const s of allStats) for (const [k, v] of Object.entries(s.httpStatus)) all[k] = (all[k] ?? 0) + v;
  return Object.entries(all)
    .sort()
    .map(([k, v]) => `${k === "0" ? "hang" : k}: ${fmt(v)}`)
    .join(", ");
})();
const probes = children.map((c) => `- ${c.name}: \`${c.probes[0] ?? "(none)"}\``);

const cpu = os.cpus();
const verdict = violationCount === 0 ? "PASS: 0 violations" : `FAIL: ${fmt(violationCount)} violation(s)`;
const report = [
  `# Fuzz results`,
  ``,
  `Written by \`npm run fuzz\` (fuzz/run.ts); see fuzz/README.md.`,
  ``,
  `- date: ${new Date().toISOString()}`,
  `- seed: ${SEED}; messages asked: ${fmt(MESSAGES)}${QUICK ? " (--quick)" : ""}; command: \`tsx fuzz/run.ts ${argv.join(" ")}\``,
  `- machine: ${os.platform()} ${os.arch()}, ${cpu.length} × ${cpu[0]?.model ?? "?"}, ${mb(os.totalmem())} RAM`,
  `- Node ${process.version}; HTTP concurrency ${CONCURRENCY}, stdio window ${WINDOW}`,
  `- duration: ${(totalMs / 1000).toFixed(1)} s (stdio ${(stdioMs / 1000).toFixed(1)} s, HTTP ${(httpMs / 1000).toFixed(1)} s)`,
  `- **${verdict}**`,
  ``,
  ...lines,
  ``,
  `Messages by kind (a duplicate-id case counts its two copies; a batch counts once):`,
  ``,
  ...kindLines,
  ``,
  `HTTP statuses: ${statusLine || "—"}`,
  ``,
  `Prototype probes (own keys of the built-in prototypes compared with the server's start; keys a fresh \`{}\` enumerates):`,
  ``,
  ...probes,
  ``,
  ...(hostile ? [...hostileSection(hostile), ``] : []),
  ...(violations.length
    ? [
        `First violations:`,
        ``,
        ...violations
          .slice(0, 20)
          .map(
            (v) =>
              `- [${v.where}] ${v.what}${v.note ? ` — ${v.note}` : ""}${v.expected ? `; expected ${v.expected}` : ""}${v.got ? `; got ${short(v.got, 300).replace(/\n/g, " ")}` : ""}${v.body ? `; message ${short(bodyText(v.body), 200)}` : ""}`,
          ),
        ``,
      ]
    : []),
].join("\n");

console.log(`\n${report}`);
const failuresDir = path.join(here, "failures");
try {
  for (const f of readdirSync(failuresDir)) if (f.endsWith(".json")) rmSync(path.join(failuresDir, f));
} catch {
  // No folder yet.
}
if (violations.length > 0) {
  mkdirSync(failuresDir, { recursive: true });
  violations.slice(0, MAX_SAVED_FAILURES).forEach((v, i) => {
    const file = path.join(failuresDir, `${String(i + 1).padStart(3, "0")}.json`);
    const saved = {
      ...v,
      seed: SEED,
      body:
        v.body === undefined ? undefined : typeof v.body === "string" ? v.body : { base64: v.body.toString("base64") },
    };
    writeFileSync(file, `${JSON.stringify(saved, null, 2)}\n`);
  });
  console.log(
    `fuzz: first ${Math.min(violations.length, MAX_SAVED_FAILURES)} failing cases saved to ${path.relative(root, failuresDir)}/`,
  );
}
if (WRITE_RESULTS) {
  const file = path.join(here, "RESULTS.md");
  writeFileSync(file, `${report}\n${openApiSection(readFileSync(file, "utf8"))}`);
}
process.exit(violationCount === 0 ? 0 : 1);
