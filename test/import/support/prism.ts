// Prism (@stoplight/prism-cli, a devDependency) as a validating mock of an OpenAPI document:
// `prism mock --errors` checks every request against the document and answers one that breaks
// it with a 4xx and an `sl-violations` header listing the violations (its log says
// `Violation: request.…` too); a response of its own making that breaks the document is a 500
// with `response.…` violations. Its answers are generated from the schemas (`--dynamic`, with a
// fixed seed) rather than from the document's examples, which Prism fills in wrongly for
// recursive schemas (a required property missing two levels down: its own check then fails).
//
// The tests reach Prism through a recording proxy on another port, which forwards each request
// and answer byte for byte and keeps, per request, the method, URL, status and the violations
// of the `sl-violations` header: which call broke which rule, exactly, even when the log
// interleaves. Both listen on 127.0.0.1 only; `close()` ends both, and Prism is killed should
// the test process exit first.
import { spawn, type ChildProcess } from "node:child_process";
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { repoRoot } from "../../support/paths.js";

const prismCli = join(repoRoot, "node_modules", "@stoplight", "prism-cli", "dist", "index.js");

/** One entry of Prism's `sl-violations` header. */
export interface Violation {
  readonly location: readonly string[];
  readonly severity: string;
  readonly code?: string | number;
  readonly message: string;
}

/** A request that went through the proxy to Prism, and how Prism judged it. */
export interface Exchange {
  readonly method: string;
  readonly url: string;
  readonly status: number;
  /** Violations of the request (Prism's validation of what the generated client sent). */
  readonly requestViolations: readonly Violation[];
  /** Violations of the answer Prism generated itself: Prism's fault, not the request's. */
  readonly responseViolations: readonly Violation[];
}

export interface Prism {
  /** The proxy's base URL: what MCP_UPSTREAM_URL points at. */
  readonly url: string;
  /** Every request so far, in the order their answers came back. */
  readonly exchanges: readonly Exchange[];
  /** The errors Prism's validator logged about requests so far, in order: a cross-check of `exchanges`. */
  readonly loggedRequestErrors: readonly string[];
  /** Prism's output so far (for failure messages). */
  log(): string;
  close(): Promise<void>;
}

export interface PrismOptions {
  /** Seed of the generated answers. */
  readonly seed?: string;
  /** How long Prism may take to read the document and listen (GitHub's takes ~20-40 s here). */
  readonly readyTimeoutMs?: number;
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });

/** Waits for the child to exit, killing it (SIGKILL) if SIGTERM has not ended it within 5 s. */
async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
  await exited;
  clearTimeout(timer);
}

/** Prism started on `document`, ready to answer, behind a recording proxy. */
export async function startPrism(document: string, options: PrismOptions = {}): Promise<Prism> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      prismCli,
      "mock",
      "--errors",
      "--dynamic",
      "--seed",
      options.seed ?? "30",
      "-h",
      "127.0.0.1",
      "-p",
      String(port),
      document,
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  const killOnExit = () => child.kill("SIGKILL");
  process.once("exit", killOnExit);
  let output = "";
  let partialLine = "";
  const loggedRequestErrors: string[] = [];
  const append = (chunk: Buffer) => {
    const text = chunk.toString("utf8");
    // Bounded: GitHub's document alone logs a line per operation at start.
    output = (output + text).slice(-4_000_000);
    const lines = (partialLine + text).split("\n");
    partialLine = lines.pop()!;
    // The validator's errors about requests: every line but the `Violation: response.…` ones.
    loggedRequestErrors.push(
      ...lines.filter((line) => /\[VALIDATOR\] ✖\s+error\s+(?!Violation: response\b)/.test(line)),
    );
  };
  child.stdout.on("data", append);
  child.stderr.on("data", append);

  try {
    await new Promise<void>((resolve, reject) => {
      const timeoutMs = options.readyTimeoutMs ?? 60_000;
      const timer = setTimeout(
        () => reject(new Error(`Prism did not listen within ${timeoutMs} ms:\n${output.slice(-2000)}`)),
        timeoutMs,
      );
      const ready = () => {
        if (!output.includes("Prism is listening on")) return;
        clearTimeout(timer);
        child.stdout.off("data", ready);
        resolve();
      };
      child.stdout.on("data", ready);
      child.once("exit", (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`Prism exited (${signal ?? code}) before listening:\n${output.slice(-2000)}`));
      });
      child.once("error", (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
  } catch (error) {
    await stop(child);
    process.off("exit", killOnExit);
    throw error;
  }

  const exchanges: Exchange[] = [];
  const proxy: Server = createServer((incoming, outgoing) => {
    const record = (status: number, violations: readonly Violation[]) =>
      exchanges.push({
        method: incoming.method ?? "",
        url: incoming.url ?? "",
        status,
        requestViolations: violations.filter((v) => v.location[0] === "request"),
        responseViolations: violations.filter((v) => v.location[0] !== "request"),
      });
    const forwarded = httpRequest(
      {
        host: "127.0.0.1",
        port,
        method: incoming.method,
        path: incoming.url,
        headers: { ...incoming.headers, host: `127.0.0.1:${port}` },
        timeout: 30_000,
      },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on("data", (chunk: Buffer) => chunks.push(chunk));
        answer.on("end", () => {
          const body = Buffer.concat(chunks);
          const status = answer.statusCode ?? 502;
          record(status, [
            ...parseViolations(answer.headers["sl-violations"]),
            ...prismRefusal(status, answer.headers["content-type"], body),
          ]);
          outgoing.writeHead(status, answer.headers);
          outgoing.end(body);
        });
      },
    );
    forwarded.on("timeout", () => forwarded.destroy(new Error("Prism did not answer within 30 s")));
    forwarded.on("error", (error) => {
      record(502, [{ location: ["proxy"], severity: "Error", message: error.message }]);
      outgoing.destroy(error);
    });
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  const proxyPort = (proxy.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${proxyPort}`,
    exchanges,
    loggedRequestErrors,
    log: () => output,
    async close() {
      proxy.closeAllConnections();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
      await stop(child);
      process.off("exit", killOnExit);
    },
  };
}

/**
 * A request Prism refused with an error of its own (`application/problem+json` of type
 * `https://stoplight.io/prism/errors#…`) and no `sl-violations` header: unmet security (401) or
 * no such path or method (404, 405). A 5xx of that kind is Prism failing its own answer.
 */
function prismRefusal(status: number, contentType: string | undefined, body: Buffer): Violation[] {
  if (!contentType?.includes("problem+json")) return [];
  let problem: { type?: unknown; title?: unknown; detail?: unknown; validation?: unknown };
  try {
    problem = JSON.parse(body.toString("utf8")) as typeof problem;
  } catch {
    return [];
  }
  if (typeof problem.type !== "string" || !problem.type.startsWith("https://stoplight.io/prism/errors#")) return [];
  if (Array.isArray(problem.validation)) return []; // the sl-violations header lists them
  return [
    {
      location: [status < 500 ? "request" : "response"],
      severity: "Error",
      code: problem.type.slice(problem.type.indexOf("#") + 1),
      message: `${String(problem.title)}: ${String(problem.detail)}`,
    },
  ];
}

function parseViolations(header: string | string[] | undefined): Violation[] {
  if (header === undefined) return [];
  const text = Array.isArray(header) ? header.join(",") : header;
  try {
    return JSON.parse(text) as Violation[];
  } catch {
    return [{ location: ["request"], severity: "Error", message: `unparsable sl-violations header: ${text}` }];
  }
}
