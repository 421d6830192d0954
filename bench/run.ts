// The benchmark suite: `npm run bench [-- options]`. See bench/README.md.
//   --quick           short windows, one repetition, small generator catalogs (checks that it all works)
//   --reps N          repetitions of the server measures (default 3; --quick: 1)
//   --gen-reps N      repetitions of the generator measures (default: --reps)
//   --sizes a,b,c     generator catalog sizes (default 100,500,1000; --quick: 50,100,200)
//   --only servers|generator
//   --http-client raw|node   HTTP load driver: raw HTTP/1.1 on sockets (default) or node:http
//   --no-write        print the tables only; do not rewrite bench/RESULTS.md
import { readFileSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { runGeneratorBench, slopes, type CaseResult } from "./generator.js";
import { bundle, bundleSize } from "./lib/bundle.js";
import type { HttpClientKind } from "./lib/http-driver.js";
import { buildMcpGenCatalog } from "./lib/catalog-build.js";
import { runGenerator } from "./lib/generate.js";
import {
  measureColdStart,
  measureList,
  measureThroughput,
  sanityCheck,
  type ServerCommand,
  type Transport,
  type Workload,
} from "./lib/measure.js";
import { benchDir, outDir } from "./lib/paths.js";
import {
  environment,
  generatorTable,
  implementationTable,
  slopeTable,
  targetTable,
  type Target,
} from "./lib/report.js";
import { Results, type ImplId, type MetricSpec } from "./lib/results.js";
import { median } from "./lib/stats.js";
import type { Era } from "./workload/requests.js";

// --- options -------------------------------------------------------------------------

interface Options {
  readonly quick: boolean;
  readonly reps: number;
  readonly genReps: number;
  readonly sizes: readonly number[];
  readonly servers: boolean;
  readonly generator: boolean;
  readonly write: boolean;
  readonly httpClient: HttpClientKind;
}

function parseOptions(argv: readonly string[]): Options {
  const value = (flag: string) => {
    const i = argv.indexOf(flag);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const known = new Set(["--quick", "--reps", "--gen-reps", "--sizes", "--only", "--no-write", "--http-client"]);
  for (const arg of argv) {
    if (arg.startsWith("--") && !known.has(arg)) {
      process.stderr.write(`bench: unknown option ${arg}; see the head of bench/run.ts\n`);
      process.exit(2);
    }
  }
  const quick = argv.includes("--quick");
  const reps = Number(value("--reps") ?? (quick ? 1 : 3));
  const only = value("--only");
  return {
    quick,
    reps,
    genReps: Number(value("--gen-reps") ?? reps),
    sizes: (value("--sizes") ?? (quick ? "50,100,200" : "100,500,1000")).split(",").map(Number),
    servers: only !== "generator",
    generator: only !== "servers",
    write: !argv.includes("--no-write"),
    httpClient: value("--http-client") === "node" ? "node" : "raw",
  };
}

const options = parseOptions(process.argv.slice(2));
const log = (line: string) => process.stderr.write(`${line}\n`);
const durations = {
  ...(options.quick
    ? { warmupMs: 300, c1Ms: 500, c64Ms: 800, listMs: 500, coldRuns: 1 }
    : { warmupMs: 1_500, c1Ms: 2_000, c64Ms: 3_000, listMs: 2_000, coldRuns: 3 }),
  httpClient: options.httpClient,
};

// --- implementations and measures ------------------------------------------------------

interface Implementation {
  readonly id: ImplId;
  readonly label: string;
  readonly source: string;
  /** Request shape over stateless HTTP. */
  readonly httpEra: Era;
}

const implementations: readonly Implementation[] = [
  { id: "floor", label: "floor", source: "servers/floor.ts", httpEra: "modern" },
  { id: "mcp-gen", label: "mcp-gen", source: "servers/mcp-gen.ts", httpEra: "modern" },
  { id: "sdk-v2", label: "SDK v2", source: "servers/sdk-v2.ts", httpEra: "modern" },
  { id: "sdk-v1", label: "SDK v1", source: "servers/sdk-v1.ts", httpEra: "legacy" },
];

const MB = 2 ** 20;
const metric = (
  key: string,
  label: string,
  unit: string,
  digits: number,
  extra: Partial<MetricSpec> = {},
): MetricSpec => ({ key, label, unit, digits, ...extra });
const loadMetrics = (t: Transport): MetricSpec[] => {
  const name = t === "stdio" ? "stdio" : "HTTP";
  return [1, 64].flatMap((c) => [
    metric(`${t}.c${c}.rps`, `${name} c${c} tools/call throughput`, "req/s", 0),
    metric(`${t}.c${c}.p50`, `${name} c${c} latency p50`, "ms", 3),
    metric(`${t}.c${c}.p99`, `${name} c${c} latency p99`, "ms", 3),
    metric(`${t}.c${c}.cpu`, `${name} c${c} server CPU per request`, "µs", 1),
  ]);
};
const M = {
  stdioRss: metric("stdio.rss", "stdio peak RSS (basic, after load)", "MB", 1, { scale: MB }),
  httpRss: metric("http.rss", "HTTP peak RSS (basic, after load)", "MB", 1, { scale: MB }),
  coldBasic: metric("cold.basic", "cold start, basic (spawn → initialize response)", "ms", 1),
  coldCatalog: metric("cold.catalog", "cold start, 200-tool catalog", "ms", 1),
  listStdio: metric("list.stdio.p50", "tools/list of 200 tools, stdio, p50", "ms", 3),
  listStdio99: metric("list.stdio.p99", "tools/list of 200 tools, stdio, p99", "ms", 3),
  listStdioOnePage: metric(
    "list.stdio.page200.p50",
    "tools/list of 200 tools, stdio, p50, mcp-gen with pageSize 200",
    "ms",
    3,
    { base: "list.stdio.p50" },
  ),
  listHttp: metric("list.http.p50", "tools/list of 200 tools, HTTP, p50", "ms", 3),
  listHttp99: metric("list.http.p99", "tools/list of 200 tools, HTTP, p99", "ms", 3),
  catalogRss: metric("list.stdio.rss", "peak RSS, 200-tool catalog over stdio", "MB", 1, { scale: MB }),
  bundleMin: metric("bundle.min", "minimal echo/add stdio server, minified", "KB", 1, { scale: 1024 }),
  bundleGzip: metric("bundle.gzip", "minimal echo/add stdio server, minified + gzip", "KB", 1, { scale: 1024 }),
  fullBundleMin: metric("bundle.full.min", "benchmark server (stdio + HTTP, both workloads), minified", "KB", 1, {
    scale: 1024,
  }),
};
const metricsTable: MetricSpec[] = [
  ...loadMetrics("stdio"),
  M.stdioRss,
  ...loadMetrics("http"),
  M.httpRss,
  M.coldBasic,
  M.coldCatalog,
  M.listStdio,
  M.listStdio99,
  M.listStdioOnePage,
  M.listHttp,
  M.listHttp99,
  M.catalogRss,
  M.bundleMin,
  M.bundleGzip,
  M.fullBundleMin,
];
const find = (key: string) => metricsTable.find((m) => m.key === key)!;
const targets: Target[] = [
  { label: "stdio c64 throughput", metric: find("stdio.c64.rps"), kind: "ratio", op: ">=", limit: 0.8 },
  { label: "stdio c64 server CPU/request", metric: find("stdio.c64.cpu"), kind: "ratio", op: "<=", limit: 1.5 },
  { label: "HTTP c64 throughput", metric: find("http.c64.rps"), kind: "ratio", op: ">=", limit: 0.5 },
  { label: "HTTP c64 server CPU/request", metric: find("http.c64.cpu"), kind: "ratio", op: "<=", limit: 2 },
  { label: "cold start (basic)", metric: M.coldBasic, kind: "ratio", op: "<=", limit: 1.3 },
  { label: "tools/list, 200 tools (stdio p50)", metric: M.listStdio, kind: "ratio", op: "<=", limit: 1.5 },
  { label: "minified bundle, echo/add server", metric: M.bundleMin, kind: "absolute", op: "<=", limit: 25 },
  { label: "gzipped bundle, echo/add server", metric: M.bundleGzip, kind: "absolute", op: "<=", limit: 8 },
  { label: "peak RSS (stdio)", metric: M.stdioRss, kind: "ratio", op: "<=", limit: 1.3 },
  { label: "peak RSS (HTTP)", metric: M.httpRss, kind: "ratio", op: "<=", limit: 1.3 },
];

// --- the server benchmark ----------------------------------------------------------------

const bundleDir = join(outDir, "bundles");
const rotate = <T>(list: readonly T[], by: number): T[] => list.map((_, i) => list[(i + by) % list.length]!);
const fmt = (n: number, digits = 0) => n.toLocaleString("en-US", { maximumFractionDigits: digits });

async function prepare(): Promise<Map<string, string>> {
  log("preparing: regenerating the workload if stale, generating the catalog, bundling every server");
  runGenerator(join(benchDir, "workload", "mcp.yaml"));
  const catalogEntry = buildMcpGenCatalog();
  const bundles = new Map<string, string>();
  for (const impl of implementations) {
    for (const workload of ["basic", "catalog"] as const) {
      const entry = impl.id === "mcp-gen" && workload === "catalog" ? catalogEntry : join(benchDir, impl.source);
      const file = join(bundleDir, `${impl.id}-${workload}.mjs`);
      await bundle(entry, file);
      bundles.set(`${impl.id}/${workload}`, file);
    }
  }
  return bundles;
}

async function measureBundles(results: Results): Promise<void> {
  for (const impl of implementations) {
    const minimal = await bundleSize(
      join(benchDir, "servers", "minimal", `${impl.id}.ts`),
      join(bundleDir, `${impl.id}-minimal.min.mjs`),
    );
    results.record(M.bundleMin.key, impl.id, 0, minimal.minified);
    results.record(M.bundleGzip.key, impl.id, 0, minimal.gzipped);
    const full = await bundleSize(join(benchDir, impl.source), join(bundleDir, `${impl.id}-full.min.mjs`));
    results.record(M.fullBundleMin.key, impl.id, 0, full.minified);
    log(
      `bundle ${impl.id}: minimal ${fmt(minimal.minified / 1024, 1)} KB (${fmt(minimal.gzipped / 1024, 1)} KB gzip), benchmark server ${fmt(full.minified / 1024, 1)} KB`,
    );
  }
}

async function serverBench(results: Results): Promise<void> {
  const bundles = await prepare();
  const command = (impl: Implementation, workload: Workload, extraArgs: string[] = []): ServerCommand => ({
    bundle: bundles.get(`${impl.id}/${workload}`)!,
    workload,
    httpEra: impl.httpEra,
    extraArgs,
  });
  // Guarded: a failing measurement is reported and the run goes on with the others.
  const guarded = async (impl: Implementation, what: string, run: () => Promise<void>) => {
    try {
      await run();
    } catch (error) {
      const message = `${what}: ${error instanceof Error ? error.message : String(error)}`;
      results.recordError(impl.id, message);
      log(`ERROR ${impl.id} ${message}`);
    }
  };

  log("checking that every implementation answers every request correctly");
  for (const impl of implementations) {
    for (const transport of ["stdio", "http"] as const) {
      for (const workload of ["basic", "catalog"] as const)
        await guarded(impl, `sanity ${transport} ${workload}`, () =>
          sanityCheck(command(impl, workload), transport, durations),
        );
    }
  }
  await measureBundles(results);

  for (let rep = 0; rep < options.reps; rep++) {
    const order = rotate(implementations, rep);
    const tag = `[rep ${rep + 1}/${options.reps}]`;
    for (const impl of order) {
      for (const workload of ["basic", "catalog"] as const) {
        await guarded(impl, `cold start ${workload}`, async () => {
          const runs: number[] = [];
          for (let i = 0; i < durations.coldRuns; i++) runs.push(await measureColdStart(command(impl, workload)));
          results.record(workload === "basic" ? M.coldBasic.key : M.coldCatalog.key, impl.id, rep, median(runs));
          log(`${tag} cold start ${workload} ${impl.id}: ${fmt(median(runs), 1)} ms`);
        });
      }
    }
    for (const transport of ["stdio", "http"] as const) {
      for (const impl of order) {
        await guarded(impl, `${transport} tools/call`, async () => {
          const r = await measureThroughput(command(impl, "basic"), transport, durations);
          for (const [c, w] of [
            [1, r.c1],
            [64, r.c64],
          ] as const) {
            if (w.errors > 0)
              results.recordError(impl.id, `${transport} c${c}: ${w.errors} errors, first: ${w.firstError}`);
            results.record(`${transport}.c${c}.rps`, impl.id, rep, w.throughput);
            results.record(`${transport}.c${c}.p50`, impl.id, rep, w.p50);
            results.record(`${transport}.c${c}.p99`, impl.id, rep, w.p99);
            results.record(`${transport}.c${c}.cpu`, impl.id, rep, w.cpuPerRequest);
          }
          results.record(`${transport}.rss`, impl.id, rep, r.peakRss);
          log(
            `${tag} ${transport} ${impl.id}: c1 ${fmt(r.c1.throughput)} req/s p50 ${fmt(r.c1.p50, 3)} ms ${fmt(r.c1.cpuPerRequest, 1)} µs/req; ` +
              `c64 ${fmt(r.c64.throughput)} req/s p99 ${fmt(r.c64.p99, 2)} ms ${fmt(r.c64.cpuPerRequest, 1)} µs/req (driver ${fmt(r.c64.driverCpuPerRequest, 1)}); RSS ${fmt(r.peakRss / MB, 1)} MB` +
              (r.c1.errors + r.c64.errors > 0 ? `; ${r.c1.errors + r.c64.errors} ERRORS` : ""),
          );
        });
      }
    }
    for (const transport of ["stdio", "http"] as const) {
      const runs: [Implementation, string[], string][] = order.map((impl) => [impl, [], `list.${transport}`]);
      if (transport === "stdio")
        runs.push([implementations.find((i) => i.id === "mcp-gen")!, ["--page-size", "200"], "list.stdio.page200"]);
      for (const [impl, extraArgs, key] of runs) {
        await guarded(impl, `${key}`, async () => {
          const r = await measureList(command(impl, "catalog", extraArgs), transport, durations);
          if (r.errors > 0) results.recordError(impl.id, `${key}: ${r.errors} errors, first: ${r.firstError}`);
          results.record(`${key}.p50`, impl.id, rep, r.p50);
          if (extraArgs.length === 0) results.record(`${key}.p99`, impl.id, rep, r.p99);
          if (transport === "stdio" && extraArgs.length === 0)
            results.record(M.catalogRss.key, impl.id, rep, r.peakRss);
          log(
            `${tag} ${key} ${impl.id}${extraArgs.length ? ` ${extraArgs.join(" ")}` : ""}: p50 ${fmt(r.p50, 3)} ms, p99 ${fmt(r.p99, 3)} ms (${r.listings} listings)`,
          );
        });
      }
    }
  }
}

// --- RESULTS.md ----------------------------------------------------------------------------

/** What profiling found, kept by hand in bench/FINDINGS.md and carried into every RESULTS.md. */
function findings(): string {
  try {
    return `\n${readFileSync(join(benchDir, "FINDINGS.md"), "utf8")}`;
  } catch {
    return "";
  }
}

function serverSection(results: Results): string {
  const errors = [...results.errors].flatMap(([impl, list]) => list.map((e) => `- ${impl}: ${e}`));
  return `## Servers

${errors.length > 0 ? `**INVALID: some measurements had errors** (the figures below include them):\n\n${errors.join("\n")}\n\n` : ""}Medians over ${options.reps} repetition(s); in parentheses the ratio to the floor (the median over repetitions of
the ratio to the floor measured in the same repetition; > 1 is more, not necessarily worse).
Throughput windows ${durations.c1Ms / 1000} s (c1) and ${durations.c64Ms / 1000} s (c64) after a ${durations.warmupMs / 1000} s warm-up at c64;
tools/call alternates echo and add. Cold start: median of ${durations.coldRuns} spawn(s) per repetition.

### Targets of the generated server

${targetTable(results, targets, "mcp-gen")}

### All implementations

${implementationTable(
  results,
  metricsTable,
  implementations.map(({ id, label }) => ({ id, label })),
)}

How each one is served (every one validates tool arguments):

- **floor** — bench/servers/floor.ts: newline JSON, \`JSON.parse\`, a \`switch\`, hand-written checks
  (a small schema interpreter for the catalog), \`JSON.stringify\`, one write per input chunk; the
  tools/list payload serialised once. HTTP: bare \`node:http\`, answering modern (2026-07-28) requests.
- **mcp-gen** — the server generated from bench/workload/mcp.yaml (\`createBenchServer\`) on
  \`serveStdio\` / \`listenHttp\`. HTTP: modern 2026-07-28 requests, stateless (\`_meta\` envelope and
  MCP-Protocol-Version / Mcp-Method / Mcp-Name headers). Lists are paged (100 per page by default),
  so its tools/list figure is two round trips; the "pageSize 200" row is one.
- **SDK v2** — \`McpServer\` from @modelcontextprotocol/server with zod schemas, one factory:
  \`serveStdio\` (legacy handshake → pinned instance); HTTP \`createMcpHandler\` (\`responseMode: "json"\`,
  a fresh instance per request, modern 2026-07-28 requests) behind a \`node:http\` → fetch adapter
  equivalent to \`toNodeHandler\` of @modelcontextprotocol/node (not installed).
- **SDK v1** — \`McpServer\` from @modelcontextprotocol/sdk with zod schemas; \`StdioServerTransport\`;
  HTTP stateless as documented (a fresh server + \`StreamableHTTPServerTransport\` per request, no
  session id generator, \`enableJsonResponse: true\`), driven with legacy (2025-11-25) requests
  without a session — SDK v1 has no modern era.

The HTTP load driver is ${options.httpClient === "raw" ? "a minimal HTTP/1.1 client on keep-alive sockets (bench/lib/http-driver.ts; node:http's client costs the driver about twice as much CPU, and the driver shares the two cores with the server)" : "node:http with a keep-alive Agent"},
one connection per request in flight. "driver CPU per request" in the log shows how close the driver is to being the limit.
Reading the stdio c64 row: the floor answers a whole input chunk with one write, so driver and
server take turns, while a server that writes each response as soon as it is ready overlaps with the
driver on the second core — a throughput above 1× the floor there is not less work; CPU per request is.
Over stdio every implementation is driven through the legacy handshake (initialize 2025-11-25 +
notifications/initialized). Catalog zod schemas come from \`z.fromJSONSchema\` of the same JSON
schemas, built once per process. Servers run as esbuild bundles under plain \`node\`; CPU is the
server process's utime + stime (all threads) from /proc over the measured window; peak RSS is VmHWM.`;
}

function generatorSection(cases: readonly CaseResult[]): string {
  const catalogs = cases.filter((c) => c.case.tools !== undefined);
  const largest = catalogs.at(-1);
  const size = largest?.case.tools;
  // Every catalog of the largest size: the growth series' last, with its client, and the other shapes.
  const full = cases.filter((c) => (c.case.tools ?? c.case.catalogTools) === size && size !== undefined);
  const slowest = (pick: (r: CaseResult) => number) =>
    full.reduce<CaseResult | undefined>(
      (worst, c) => (worst === undefined || pick(c) > pick(worst) ? c : worst),
      undefined,
    );
  const slowestCold = slowest((r) => r.cold.wallMs);
  const slowestWarm = slowest((r) => r.warm.wallMs);
  const slowestCheck = [...cases].sort((a, b) => b.check.wallMs - a.check.wallMs)[0];
  // Judged on CPU time: wall time of a single-threaded run on a shared machine is noisier.
  const growth = (() => {
    const s = slopes(cases, (r) => r.warm.cpuMs);
    return s.length > 1 ? s.at(-1)!.perTool / s[0]!.perTool : NaN;
  })();
  const status = (met: boolean) => (met ? "met" : "**missed**");
  const at1000 = size === 1000;
  const sizeNote = at1000 ? "" : ` (for 1,000 tools; measured at ${size ?? "—"})`;
  const rows = [
    slowestCold
      ? `| slowest ${size}-tool catalog, cold (no cache at all, fresh process): ${slowestCold.case.label} | ${fmt(slowestCold.cold.wallMs)} ms | < 1,000 ms${sizeNote} | ${at1000 ? status(slowestCold.cold.wallMs < 1000) : "not measured at 1,000"} |`
      : "",
    ...full.map(
      (c) =>
        `| ${c.case.label}, cold | ${fmt(c.cold.wallMs)} ms | < 1,000 ms${sizeNote} | ${at1000 ? status(c.cold.wallMs < 1000) : "not measured at 1,000"} |`,
    ),
    slowestWarm
      ? `| slowest ${size}-tool catalog, warm cache: ${slowestWarm.case.label} | ${fmt(slowestWarm.warm.wallMs)} ms | < 1,000 ms${sizeNote} | ${at1000 ? status(slowestWarm.warm.wallMs < 1000) : "not measured at 1,000"} |`
      : "",
    slowestCheck
      ? `| slowest \`--check\`, nothing changed: ${slowestCheck.case.label} | ${fmt(slowestCheck.check.wallMs)} ms | < 500 ms | ${status(slowestCheck.check.wallMs < 500)} |`
      : "",
    `| growth of the per-tool cost, warm CPU time (last / first segment) | ${Number.isFinite(growth) ? growth.toFixed(2) : "—"} | ≤ ~1.5 (linear) | ${Number.isFinite(growth) ? status(growth <= 1.5) : "—"} |`,
  ].filter((r) => r !== "");
  return `## Generator

The CLI (\`node dist/generator/cli.js <manifest> --out <dir> -q\`) as a child process; medians over
${options.genReps} repetition(s). Cold: a fresh process with \`MCP_GEN_NO_CACHE=1\` and an empty
\`XDG_CACHE_HOME\`: no disk cache at all, as on the first run on a machine (the ajv validators of the
manifest schema and the meta-schemas are compiled by \`npm run build\`, part of the package). Warm: the
bench's own cache folder (bench/.out/gen/cache, emptied at the start of the run and filled by its
first pass), as on every later run; the user's ~/.cache is never used. Both write into an empty
folder. The only cache left is the run record, which answers only an unchanged output folder, so
warm does the same work as cold (the two differ by noise). \`--check\` runs right after, with nothing changed (answered from the run record when
everything is unchanged). Peak RSS and CPU come from the CLI process itself (\`process.resourceUsage()\`
at exit, via bench/lib/rusage-preload.mjs). The growth series (\`catalog, N tools\`) is written by
bench/workload/catalog.ts (the same tool shapes as the server catalog); the other catalogs of the
largest size by bench/workload/catalogs.ts (seeded): **nullable** (type lists such as
\`["string","null"]\`, patterns with slashes, asterisks, backticks and dollar signs, arrays of objects with minItems/maxItems,
exclusiveMinimum with multipleOf, enums, defaults; two revisions), **composed** (deep nesting,
\`$defs\`/\`$ref\`, anyOf/oneOf/allOf, patternProperties, additionalProperties schemas, outputSchemas)
and **surface** (also 300 prompts, 300 resources and 300 templates per 1,000 tools; long descriptions
with \`*/\`, backticks, \`\${\`, U+2028 and non-ASCII text), each written twice: as JSON (what tools write) and
as block YAML in the yaml library's default style, long text folded over lines (what people write).

| target | measured | goal | |
|---|---:|---:|---|
${rows.join("\n")}

${generatorTable(cases)}

${slopeTable(cases)}`;
}

// --- main ------------------------------------------------------------------------------------

const loadBefore = loadavg();
const results = new Results();
let servers = "## Servers\n\n_Not run (--only generator)._";
let generator = "## Generator\n\n_Not run (--only servers)._";
if (options.servers) {
  await serverBench(results);
  servers = serverSection(results);
}
if (options.generator) {
  generator = generatorSection(runGeneratorBench({ reps: options.genReps, sizes: options.sizes, log }));
}
const markdown = `# mcp-gen benchmark results

Written by \`npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(" ")}` : ""}\` (bench/run.ts). Figures are only comparable within one run:
the floor is measured in the same run, interleaved with the others. ${options.quick ? "**Quick run: short windows, one repetition — a smoke test, not final numbers.**" : ""}

${environment(loadBefore)}

${servers}

${generator}
${findings()}`;
process.stdout.write(markdown);
if (options.write) {
  writeFileSync(join(benchDir, "RESULTS.md"), markdown);
  log("wrote bench/RESULTS.md");
}
if (results.errors.size > 0) process.exitCode = 1;
