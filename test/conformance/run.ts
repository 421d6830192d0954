// `npm run conformance`: serves test/conformance/server over HTTP on a free port, runs
// the official conformance suite's server leg against it for each requirement set
// (2025-11-25: stateful initialize handshake; 2026-07-28: stateless), then its client
// leg (test/conformance/client driven against the suite's scenario servers, one run per
// required client scenario, OAuth ones included), and prints one line per leg and revision:
//
//   conformance server 2026-07-28: 40/40 scenarios (120 passed, 0 failed checks)
//   conformance client 2026-07-28: 32/32 scenarios (412 passed, 0 failed checks)
//
// Scenarios count as passed when none of their checks failed; checks are counted as
// the suite counts them (SUCCESS and FAILURE; warnings, skips and infos are neither).
// Exits 1 when a scenario the revision requires fails (the suite's own verdict; scenarios
// it runs without scoring — extensions, pending — are reported but never decide it).
// Failing scenarios, and where the full results are, go to stderr. Installs nothing: the
// suite lives in its own package (it needs Node 22) under test/conformance.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, "..", "..");
const revisions = ["2025-11-25", "2026-07-28"] as const;

const suiteDir = join(here, "node_modules", "@modelcontextprotocol", "conformance");
const suiteNode = join(here, "node_modules", ".bin", "node");
const suiteCli = join(here, "node_modules", ".bin", "conformance");

interface Check {
  readonly id: string;
  readonly status: string;
  readonly errorMessage?: string;
}

interface ScenarioResult {
  readonly scenario: string;
  readonly checks: readonly Check[];
}

function fail(message: string): never {
  process.stderr.write(`conformance: ${message}\n`);
  process.exit(1);
}

/** Starts the conformance server on a free port; resolves with its URL once it listens. */
function startServer(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ["--import", "tsx", join(here, "server", "main.ts"), "--port", "0"], {
    cwd: repoRoot,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  return new Promise((resolveStart, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the conformance server did not start within 30 s:\n${stderr}`)),
      30_000,
    );
    child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
      const match = /serving MCP at (\S+)/.exec(stderr);
      if (match) {
        clearTimeout(timer);
        resolveStart({ url: match[1]!, child });
      }
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the conformance server exited (${signal ?? code}) before listening:\n${stderr}`));
    });
  });
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolveStop) => {
    const force = setTimeout(() => child.kill("SIGKILL"), 5_000);
    child.once("exit", () => {
      clearTimeout(force);
      resolveStop();
    });
    child.kill("SIGTERM");
  });
}

/** Runs the suite for one revision; resolves with its exit code and the results folder. */
function runSuite(url: string, revision: string, outputDir: string): Promise<number> {
  return runSuiteProcess([suiteCli, "server", "--url", url, "--requirements", revision, "-o", outputDir], outputDir);
}

/** Runs one client scenario against our client program; resolves with the suite's exit code. */
function runClientScenario(scenario: string, revision: string, outputDir: string): Promise<number> {
  // The suite splits the command at spaces and appends the server URL; Node 20 runs our
  // client (the runtime's own target), through tsx, as a user's program would.
  const command = [
    process.execPath,
    join(repoRoot, "node_modules", "tsx", "dist", "cli.mjs"),
    join(here, "client", "main.ts"),
  ].join(" ");
  return runSuiteProcess(
    [suiteCli, "client", "--command", command, "--scenario", scenario, "--spec-version", revision, "-o", outputDir],
    outputDir,
  );
}

/** Runs the suite under its Node 22, keeping its output next to its results; resolves with its exit code. */
function runSuiteProcess(args: readonly string[], outputDir: string): Promise<number> {
  return new Promise((resolveRun, reject) => {
    const log: string[] = [];
    const child = spawn(suiteNode, args, { cwd: here, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => log.push(chunk));
    child.stderr!.setEncoding("utf8").on("data", (chunk: string) => log.push(chunk));
    child.once("error", reject);
    child.once("exit", (code, signal) => {
      writeFileSync(join(outputDir, "suite-output.txt"), log.join(""));
      resolveRun(code ?? (signal ? 1 : 0));
    });
  });
}

/** Required client scenarios known not to pass yet: printed, never silently dropped. */
const clientNotYet: readonly string[] = [];

/** The suite's checks.json under `dir`: `<scenario>-<timestamp>/`, nested once more for `auth/...` names. */
function findChecks(dir: string, depth = 2): string | undefined {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const file = join(dir, entry.name, "checks.json");
    if (existsSync(file)) return file;
    const nested = depth > 1 ? findChecks(join(dir, entry.name), depth - 1) : undefined;
    if (nested) return nested;
  }
  return undefined;
}

/** Client scenarios run at once. */
const CLIENT_CONCURRENCY = 4;

/** Maps `items` through `work` with at most `limit` running at a time; results in input order. */
async function inPool<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** Runs the client leg of one revision; prints its line and returns whether a scenario failed. */
async function clientLeg(revision: string): Promise<boolean> {
  const all = requiredScenarios(revision, "client");
  const scenarios = [...all].filter((s) => !clientNotYet.includes(s));
  const outputDir = mkdtempSync(join(tmpdir(), `mcp-gen-conformance-client-${revision}-`));
  // A few scenarios at a time: each starts the suite (Node 22) and our client (tsx), and all 32
  // at once on a 2-core machine starved the clients past their 5 s probe timeout.
  const runs = await inPool(scenarios, CLIENT_CONCURRENCY, async (scenario) => {
    const dir = join(outputDir, scenario.replace(/\//g, "_"));
    mkdirSync(dir);
    const code = await runClientScenario(scenario, revision, dir);
    const file = findChecks(dir);
    const checks = file ? (JSON.parse(readFileSync(file, "utf8")) as Check[]) : [];
    return { scenario, code, checks };
  });
  let passedChecks = 0;
  let failedChecks = 0;
  let passedScenarios = 0;
  const failing: string[] = [];
  for (const { scenario, code, checks } of runs) {
    const failures = checks.filter((c) => c.status === "FAILURE");
    passedChecks += checks.filter((c) => c.status === "SUCCESS").length;
    failedChecks += failures.length;
    // No results at all, or a non-zero suite verdict (e.g. the client timed out), fails too.
    if (failures.length === 0 && checks.length > 0 && code === 0) passedScenarios++;
    else
      failing.push(
        `  ${scenario}: ${failures.map((c) => c.id).join(", ") || `suite exit ${code}, ${checks.length} checks`}`,
      );
  }
  const notYet = clientNotYet.filter((s) => all.has(s));
  const skipped = notYet.length > 0 ? `not yet: ${notYet.join(", ")}` : "";
  process.stdout.write(
    `conformance client ${revision}: ${passedScenarios}/${scenarios.length} scenarios (${passedChecks} passed, ${failedChecks} failed checks)${skipped ? `; ${skipped}` : ""}\n`,
  );
  if (failing.length > 0) process.stderr.write(`${failing.join("\n")}\n  results: ${outputDir}\n`);
  else rmSync(outputDir, { recursive: true, force: true });
  return failing.length > 0;
}

/** Results folders are named `server-<scenario>-<ISO timestamp>`. */
function readResults(outputDir: string): ScenarioResult[] {
  const results: ScenarioResult[] = [];
  for (const entry of readdirSync(outputDir, { withFileTypes: true })) {
    const match = /^server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/.exec(entry.name);
    if (!entry.isDirectory() || !match) continue;
    const file = join(outputDir, entry.name, "checks.json");
    if (!existsSync(file)) continue;
    results.push({ scenario: match[1]!, checks: JSON.parse(readFileSync(file, "utf8")) as Check[] });
  }
  return results.sort((a, b) => a.scenario.localeCompare(b.scenario));
}

/** The scenarios of a leg a revision requires (the rest it runs unscored). */
function requiredScenarios(revision: string, leg: "server" | "client" = "server"): Set<string> {
  const file = join(suiteDir, "requirements", `${revision}.yaml`);
  const requirements = parse(readFileSync(file, "utf8")) as { server?: string[]; client?: string[] };
  return new Set(requirements[leg] ?? []);
}

async function main(): Promise<number> {
  if (!existsSync(join(here, "node_modules")) || !existsSync(suiteCli) || !existsSync(suiteNode)) {
    fail("the conformance suite is not installed; run `npm ci --prefix test/conformance` first");
  }
  const { url, child } = await startServer().catch((error: Error) => fail(error.message));
  let failedRequired = false;
  try {
    for (const revision of revisions) {
      const outputDir = mkdtempSync(join(tmpdir(), `mcp-gen-conformance-${revision}-`));
      const code = await runSuite(url, revision, outputDir);
      const results = readResults(outputDir);
      if (results.length === 0)
        fail(
          `the suite produced no results for ${revision} (exit ${code}); see ${join(outputDir, "suite-output.txt")}`,
        );
      const required = requiredScenarios(revision);
      // The headline counts what the revision requires; extension and pending scenarios
      // the suite also runs are reported after it, as the suite does.
      let passedChecks = 0;
      let failedChecks = 0;
      let passedScenarios = 0;
      let requiredRun = 0;
      let unscoredRun = 0;
      let unscoredPassed = 0;
      const failing: string[] = [];
      for (const result of results) {
        const failures = result.checks.filter((c) => c.status === "FAILURE");
        const scored = required.has(result.scenario);
        if (scored) {
          requiredRun++;
          passedChecks += result.checks.filter((c) => c.status === "SUCCESS").length;
          failedChecks += failures.length;
          if (failures.length === 0) passedScenarios++;
        } else {
          unscoredRun++;
          if (failures.length === 0) unscoredPassed++;
        }
        if (failures.length > 0) {
          if (scored) failedRequired = true;
          failing.push(`  ${result.scenario}${scored ? "" : " (not scored)"}: ${failures.map((c) => c.id).join(", ")}`);
        }
      }
      // The suite's exit code is its verdict on the required scenarios; trust it too.
      if (code !== 0) failedRequired = true;
      const unscored =
        unscoredRun > 0 ? `; not scored: ${unscoredPassed}/${unscoredRun} extension or pending scenarios pass` : "";
      process.stdout.write(
        `conformance server ${revision}: ${passedScenarios}/${requiredRun} scenarios (${passedChecks} passed, ${failedChecks} failed checks)${unscored}\n`,
      );
      // Results are kept (and named) only when something failed.
      if (failing.length > 0) process.stderr.write(`${failing.join("\n")}\n  results: ${outputDir}\n`);
      else rmSync(outputDir, { recursive: true, force: true });
    }
  } finally {
    await stop(child);
  }
  for (const revision of revisions) {
    if (await clientLeg(revision)) failedRequired = true;
  }
  return failedRequired ? 1 : 0;
}

process.exitCode = await main();
