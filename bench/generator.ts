// The generator benchmark: wall time, CPU time and peak memory of the CLI generating the
// weather and everything examples, catalogs of 100/500/1000 tools (the largest also with
// its typed client) and catalogs of the largest size in other shapes (bench/workload/catalogs.ts),
// cold (a fresh process with MCP_GEN_NO_CACHE=1 and an empty XDG_CACHE_HOME: no cache at
// all) and warm (the bench's own cache folder, filled by an earlier run: it holds only the run
// record, so warm generation does the same work as cold); `--check` with
// nothing changed; and the marginal cost per tool, which must stay constant as the
// catalog grows (linear growth). The user's ~/.cache is never read or written.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { catalogManifest } from "./workload/catalog.js";
import { catalogShapes, shapedCatalogManifest } from "./workload/catalogs.js";
import { benchDir, generatorCli, outDir, repoRoot, schemaDir } from "./lib/paths.js";
import { median } from "./lib/stats.js";

export interface GeneratorCase {
  readonly id: string;
  readonly label: string;
  readonly manifest: string;
  readonly out: string;
  /** Catalog size, for the per-tool figures (undefined for the example and the other cases). */
  readonly tools?: number | undefined;
  /** Tools of a catalog that is not part of the growth figures (a shaped catalog, or with its client). */
  readonly catalogTools?: number | undefined;
}

export interface RunStats {
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly peakRssBytes: number;
}

export interface CaseResult {
  readonly case: GeneratorCase;
  /** No cache at all (MCP_GEN_NO_CACHE=1, an empty XDG_CACHE_HOME), fresh process, output folder empty. */
  readonly cold: RunStats;
  /** Cache filled, output folder empty. */
  readonly warm: RunStats;
  /** `--check` right after generating: nothing to do. */
  readonly check: RunStats;
}

const genDir = join(outDir, "gen");
/** The warm runs' cache (XDG_CACHE_HOME): the bench's own, never the user's. */
const warmCacheHome = join(genDir, "cache");
const preload = pathToFileURL(join(benchDir, "lib", "rusage-preload.mjs")).href;

function casesFor(sizes: readonly number[]): GeneratorCase[] {
  const cases: GeneratorCase[] = [
    {
      id: "weather",
      label: "weather example",
      manifest: join(repoRoot, "examples", "weather", "mcp.yaml"),
      out: join(genDir, "weather", "mcp"),
    },
    {
      id: "everything",
      label: "everything example",
      manifest: join(repoRoot, "examples", "everything", "mcp.yaml"),
      out: join(genDir, "everything", "mcp"),
    },
  ];
  for (const size of sizes) {
    const dir = join(genDir, `catalog-${size}`);
    mkdirSync(dir, { recursive: true });
    const manifest = join(dir, "mcp.yaml");
    writeFileSync(manifest, catalogManifest(size));
    cases.push({
      id: `catalog-${size}`,
      label: `catalog, ${size} tools`,
      manifest,
      out: join(dir, "mcp"),
      tools: size,
    });
  }
  // The largest catalog once more with the typed client (the manifest's default), outside the growth figures.
  const largest = Math.max(...sizes);
  if (Number.isFinite(largest)) {
    const dir = join(genDir, `catalog-${largest}-client`);
    mkdirSync(dir, { recursive: true });
    const manifest = join(dir, "mcp.yaml");
    writeFileSync(manifest, catalogManifest(largest, "./mcp", true));
    cases.push({
      id: `catalog-${largest}-client`,
      label: `catalog, ${largest} tools, with client`,
      manifest,
      out: join(dir, "mcp"),
      catalogTools: largest,
    });
    // Other realistic shapes of the same size, written as JSON and as block YAML: generation speed must depend on neither.
    for (const format of ["json", "yaml"] as const) {
      for (const shape of catalogShapes) {
        const id = format === "json" ? `${shape}-${largest}` : `${shape}-${largest}-yaml`;
        const shapeDir = join(genDir, id);
        mkdirSync(shapeDir, { recursive: true });
        const shapeManifest = join(shapeDir, "mcp.yaml");
        writeFileSync(shapeManifest, shapedCatalogManifest(shape, largest, undefined, format));
        const label = `${shape} catalog, ${largest} tools${format === "yaml" ? ", written as YAML" : ""}`;
        cases.push({ id, label, manifest: shapeManifest, out: join(shapeDir, "mcp"), catalogTools: largest });
      }
    }
  }
  return cases;
}

/** One CLI run as a child process (as users run it), with its own peak RSS and CPU time. */
function runCli(generatorCase: GeneratorCase, mode: "cold" | "warm" | "check"): RunStats {
  if (mode !== "check") rmSync(generatorCase.out, { recursive: true, force: true });
  const rusageFile = join(genDir, `rusage-${process.pid}.json`);
  rmSync(rusageFile, { force: true });
  const env: NodeJS.ProcessEnv = { ...process.env, BENCH_RUSAGE_FILE: rusageFile };
  let coldCacheHome: string | undefined;
  if (mode === "cold") {
    env.MCP_GEN_NO_CACHE = "1";
    env.XDG_CACHE_HOME = coldCacheHome = mkdtempSync(join(genDir, "cold-cache-"));
  } else {
    delete env.MCP_GEN_NO_CACHE;
    env.XDG_CACHE_HOME = warmCacheHome;
  }
  const args = [
    "--import",
    preload,
    generatorCli,
    generatorCase.manifest,
    "--out",
    generatorCase.out,
    "-q",
    "--schema-dir",
    schemaDir(),
  ];
  if (mode === "check") args.push("--check");
  const start = performance.now();
  const result = spawnSync(process.execPath, args, { cwd: repoRoot, env, encoding: "utf8" });
  const wallMs = performance.now() - start;
  if (coldCacheHome !== undefined) rmSync(coldCacheHome, { recursive: true, force: true });
  if (result.status !== 0)
    throw new Error(
      `mcp-gen ${mode} ${generatorCase.label} failed (${result.status ?? result.signal}):\n${result.stderr}${result.stdout}`,
    );
  const usage = JSON.parse(readFileSync(rusageFile, "utf8")) as {
    maxRssKb: number;
    userMicros: number;
    systemMicros: number;
  };
  return { wallMs, cpuMs: (usage.userMicros + usage.systemMicros) / 1000, peakRssBytes: usage.maxRssKb * 1024 };
}

function medianStats(runs: readonly RunStats[]): RunStats {
  return {
    wallMs: median(runs.map((r) => r.wallMs)),
    cpuMs: median(runs.map((r) => r.cpuMs)),
    peakRssBytes: median(runs.map((r) => r.peakRssBytes)),
  };
}

export interface GeneratorOptions {
  readonly reps: number;
  readonly sizes: readonly number[];
  readonly log: (line: string) => void;
}

export function runGeneratorBench(options: GeneratorOptions): CaseResult[] {
  mkdirSync(genDir, { recursive: true });
  // Warm means filled by this run, not by whatever an earlier generator left there.
  rmSync(warmCacheHome, { recursive: true, force: true });
  const cases = casesFor(options.sizes);
  const runs = new Map(
    cases.map((c) => [c.id, { cold: [] as RunStats[], warm: [] as RunStats[], check: [] as RunStats[] }]),
  );
  // Fill the cache once: a warm run is then warm from the first repetition on.
  for (const c of cases) runCli(c, "warm");
  for (let rep = 0; rep < options.reps; rep++) {
    for (const c of cases) {
      const r = runs.get(c.id)!;
      r.cold.push(runCli(c, "cold"));
      r.warm.push(runCli(c, "warm"));
      r.check.push(runCli(c, "check"));
      const last = (list: RunStats[]) => `${Math.round(list.at(-1)!.wallMs)} ms`;
      options.log(
        `[generator ${rep + 1}/${options.reps}] ${c.label}: cold ${last(r.cold)}, warm ${last(r.warm)}, --check ${last(r.check)}`,
      );
    }
  }
  return cases.map((c) => {
    const r = runs.get(c.id)!;
    return { case: c, cold: medianStats(r.cold), warm: medianStats(r.warm), check: medianStats(r.check) };
  });
}

export interface Slope {
  readonly from: number;
  readonly to: number;
  /** Additional milliseconds (or bytes) per additional tool between the two sizes. */
  readonly perTool: number;
}

/** Marginal cost per tool between consecutive catalog sizes, of one statistic. */
export function slopes(results: readonly CaseResult[], pick: (r: CaseResult) => number): Slope[] {
  const catalogs = results.filter((r) => r.case.tools !== undefined).sort((a, b) => a.case.tools! - b.case.tools!);
  const out: Slope[] = [];
  for (let i = 1; i < catalogs.length; i++) {
    const a = catalogs[i - 1]!;
    const b = catalogs[i]!;
    out.push({
      from: a.case.tools!,
      to: b.case.tools!,
      perTool: (pick(b) - pick(a)) / (b.case.tools! - a.case.tools!),
    });
  }
  return out;
}
