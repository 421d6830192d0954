// Markdown tables: every implementation's medians with its ratio to the floor, the
// targets of the generated server, and the generator's figures.
import { cpus, totalmem } from "node:os";
import { readFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import type { CaseResult } from "../generator.js";
import { slopes } from "../generator.js";
import { repoRoot } from "./paths.js";
import { FLOOR, type ImplId, type MetricSpec, type Results } from "./results.js";

export interface ImplInfo {
  readonly id: ImplId;
  readonly label: string;
}

const format = (value: number, digits: number) =>
  Number.isFinite(value)
    ? value.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits })
    : "—";

function cell(results: Results, spec: MetricSpec, impl: ImplId): string {
  if (!results.has(spec.key, impl)) return "—";
  const value = format(results.median(spec.key, impl) / (spec.scale ?? 1), spec.digits);
  if (impl === FLOOR && (spec.base === undefined || spec.base === spec.key)) return value;
  return `${value} (${format(results.ratio(spec, impl), 2)}×)`;
}

export function implementationTable(
  results: Results,
  metrics: readonly MetricSpec[],
  impls: readonly ImplInfo[],
): string {
  const lines = [
    `| measure | ${impls.map((i) => i.label).join(" | ")} |`,
    `|---|${impls.map(() => "---:").join("|")}|`,
  ];
  for (const spec of metrics)
    lines.push(`| ${spec.label} (${spec.unit}) | ${impls.map((i) => cell(results, spec, i.id)).join(" | ")} |`);
  return lines.join("\n");
}

export interface Target {
  readonly label: string;
  /** Metric whose ratio to the floor is checked, or an absolute value. */
  readonly metric: MetricSpec;
  readonly kind: "ratio" | "absolute";
  readonly op: ">=" | "<=";
  readonly limit: number;
}

export function targetTable(results: Results, targets: readonly Target[], impl: ImplId): string {
  const lines = ["| target | mcp-gen | floor | ratio | goal | |", "|---|---:|---:|---:|---:|---|"];
  for (const t of targets) {
    const spec = t.metric;
    const mine = results.median(spec.key, impl) / (spec.scale ?? 1);
    const floor = results.median(spec.base ?? spec.key, FLOOR) / (spec.scale ?? 1);
    const ratio = results.ratio(spec, impl);
    const checked = t.kind === "ratio" ? ratio : mine;
    const met = t.op === ">=" ? checked >= t.limit : checked <= t.limit;
    const goal = t.kind === "ratio" ? `${t.op} ${t.limit}×` : `${t.op} ${t.limit} ${spec.unit}`;
    const status = Number.isFinite(checked) ? (met ? "met" : "**missed**") : "not measured";
    lines.push(
      `| ${t.label} | ${format(mine, spec.digits)} ${spec.unit} | ${format(floor, spec.digits)} ${spec.unit} | ${format(ratio, 2)}× | ${goal} | ${status} |`,
    );
  }
  return lines.join("\n");
}

const ms = (value: number) => format(value, 0);
const mb = (bytes: number) => format(bytes / 2 ** 20, 0);

export function generatorTable(results: readonly CaseResult[]): string {
  const lines = [
    "| input | cold: wall ms | cold: CPU ms | cold: peak RSS MB | warm: wall ms | warm: CPU ms | warm: peak RSS MB | `--check` wall ms | `--check` peak RSS MB |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  for (const r of results) {
    lines.push(
      `| ${r.case.label} | ${ms(r.cold.wallMs)} | ${ms(r.cold.cpuMs)} | ${mb(r.cold.peakRssBytes)} | ${ms(r.warm.wallMs)} | ${ms(r.warm.cpuMs)} | ${mb(r.warm.peakRssBytes)} | ${ms(r.check.wallMs)} | ${mb(r.check.peakRssBytes)} |`,
    );
  }
  return lines.join("\n");
}

export function slopeTable(results: readonly CaseResult[]): string {
  const rows: [string, (r: CaseResult) => number, (v: number) => string][] = [
    ["cold wall, ms/tool", (r) => r.cold.wallMs, (v) => format(v, 2)],
    ["warm wall, ms/tool", (r) => r.warm.wallMs, (v) => format(v, 2)],
    ["warm CPU, ms/tool", (r) => r.warm.cpuMs, (v) => format(v, 2)],
    ["warm peak RSS, KB/tool", (r) => r.warm.peakRssBytes, (v) => format(v / 1024, 0)],
  ];
  const first = slopes(results, (r) => r.warm.wallMs);
  if (first.length === 0) return "(needs at least two catalog sizes)";
  const lines = [
    `| marginal cost | ${first.map((s) => `${s.from} → ${s.to} tools`).join(" | ")} | growth (last / first segment) |`,
    `|---|${first.map(() => "---:").join("|")}|---:|`,
  ];
  for (const [label, pick, show] of rows) {
    const s = slopes(results, pick);
    const growth = s.length > 1 ? s.at(-1)!.perTool / s[0]!.perTool : NaN;
    lines.push(`| ${label} | ${s.map((x) => show(x.perTool)).join(" | ")} | ${format(growth, 2)} |`);
  }
  return lines.join("\n");
}

function packageVersion(name: string): string {
  try {
    return (
      JSON.parse(readFileSync(join(repoRoot, "node_modules", name, "package.json"), "utf8")) as { version: string }
    ).version;
  } catch {
    return "?";
  }
}

function gitRevision(): string {
  try {
    const commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: repoRoot, encoding: "utf8" }).trim();
    const dirty =
      execFileSync("git", ["status", "--porcelain", "--", "runtime", "generator"], {
        cwd: repoRoot,
        encoding: "utf8",
      }).trim() !== "";
    return dirty ? `${commit} + uncommitted runtime/generator changes` : commit;
  } catch {
    return "?";
  }
}

/** Machine, versions and date, for the head of RESULTS.md. */
export function environment(loadBefore: readonly number[]): string {
  const cpu = cpus();
  const own = (JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as { version: string }).version;
  return [
    `- Date: ${new Date().toISOString()}`,
    `- Machine: ${cpu[0]?.model ?? "?"}, ${cpu.length} cores, ${format(totalmem() / 2 ** 30, 1)} GiB; load average before the run ${loadBefore.map((l) => l.toFixed(2)).join(", ")}`,
    `- Node ${process.version} (${process.platform} ${process.arch})`,
    `- mcp-gen ${own} (${gitRevision()}), @modelcontextprotocol/sdk ${packageVersion("@modelcontextprotocol/sdk")}, @modelcontextprotocol/server ${packageVersion("@modelcontextprotocol/server")}, zod ${packageVersion("zod")}, esbuild ${packageVersion("esbuild")}`,
  ].join("\n");
}
