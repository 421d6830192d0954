// `mcp-gen --watch` through the built CLI on a copy of the weather example: edits of the
// manifest and of a referenced schema regenerate, a broken manifest is reported with
// positions while the last good output stays and the process lives on, an editor-style
// save (write a temp file, rename it over) is seen, and SIGTERM ends it with exit 0.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { runCli, tempProject } from "../support/generate.js";
import { cliPath, repoRoot, schemaDir } from "../support/paths.js";

const example = join(repoRoot, "examples", "weather");

/** The CLI running in watch mode, with everything it printed so far. */
function startWatch(dir: string, extraArgs: readonly string[] = []) {
  const child: ChildProcessWithoutNullStreams = spawn(
    process.execPath,
    [cliPath, "mcp.yaml", "--watch", ...extraArgs],
    {
      cwd: dir,
      env: { ...process.env, MCP_GEN_SCHEMA_DIR: schemaDir },
    },
  );
  const output = { stdout: "", stderr: "" };
  child.stdout.setEncoding("utf8").on("data", (d: string) => (output.stdout += d));
  child.stderr.setEncoding("utf8").on("data", (d: string) => (output.stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  onTestFinished(() => {
    if (child.exitCode === null) child.kill("SIGKILL");
  });
  return { child, output, exited };
}

/** Waits (generously) until `ready()` holds; fails with what the CLI printed. */
async function until(
  ready: () => boolean,
  what: string,
  output: { stdout: string; stderr: string },
  seconds = 20,
): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (!ready()) {
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}\nstdout:\n${output.stdout}\nstderr:\n${output.stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Whether the process has ended (gone, or a zombie nobody has reaped yet). */
function processEnded(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  try {
    return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.startsWith("Z") ?? false;
  } catch {
    return true;
  }
}

const statusLines = (text: string) => text.split("\n").filter((line) => /^mcp-gen: \[\d\d:\d\d:\d\d\] /.test(line));
const errorStatusLines = (text: string) =>
  text.split("\n").filter((line) => /^mcp-gen: \[\d\d:\d\d:\d\d\] .*error\(s\), nothing written/.test(line));

describe("mcp-gen --watch", () => {
  it("regenerates on manifest and schema edits, survives a broken manifest, sees rename-on-save, exits 0 on SIGTERM", async () => {
    const dir = tempProject({}, example);
    const manifest = join(dir, "mcp.yaml");
    const schema = join(dir, "schemas", "forecast.json");
    const serverFile = join(dir, "src", "mcp", "server.gen.ts");
    const typesFile = join(dir, "src", "mcp", "types.gen.ts");
    const original = readFileSync(manifest, "utf8");
    const { child, output, exited } = startWatch(dir);

    // The first run: nothing to write (the example's output is checked in), one status line, piped so no hint.
    await until(() => statusLines(output.stdout).length === 1, "the first run", output);
    expect(statusLines(output.stdout)[0]).toMatch(/ start: 7 file\(s\) already up to date in src\/mcp \(\d+ ms\)$/);
    expect(output.stdout).not.toMatch(/watching/);

    // A good manifest edit regenerates: one status line naming the change and the files written.
    writeFileSync(manifest, original.replace("description: Forecast for a city", "description: Forecast for any city"));
    await until(() => statusLines(output.stdout).length === 2, "the run after a manifest edit", output);
    expect(statusLines(output.stdout)[1]).toMatch(
      / mcp\.yaml changed: wrote .*server\.gen\.ts.* in src\/mcp \(\d+ ms\)$/,
    );
    expect(readFileSync(serverFile, "utf8")).toContain("Forecast for any city");
    const goodServer = readFileSync(serverFile, "utf8");

    // A broken manifest: positioned errors, nothing written, the process stays alive.
    writeFileSync(
      manifest,
      original.replace(
        "description: Forecast for a city",
        "description: Forecast for a broken city\n    nonsense_key: 1",
      ),
    );
    await until(() => errorStatusLines(output.stderr).length === 1, "the failed run", output);
    expect(output.stderr).toMatch(/^mcp-gen: mcp\.yaml:\d+:\d+: .*nonsense_key/m);
    expect(errorStatusLines(output.stderr)[0]).toMatch(
      / mcp\.yaml changed: \d+ error\(s\), nothing written; the last good output stays/,
    );
    expect(readFileSync(serverFile, "utf8")).toBe(goodServer);
    expect(child.exitCode).toBeNull();

    // Fixing it regenerates again.
    writeFileSync(
      manifest,
      original.replace("description: Forecast for a city", "description: Forecast for a fixed city"),
    );
    await until(() => statusLines(output.stdout).length === 3, "the run after the fix", output);
    expect(readFileSync(serverFile, "utf8")).toContain("Forecast for a fixed city");

    // A referenced schema file, saved the way editors do: a temp file renamed over it.
    const forecast = JSON.parse(readFileSync(schema, "utf8")) as { description?: string };
    forecast.description = "Watched forecast";
    writeFileSync(`${schema}.swp`, JSON.stringify(forecast, null, 2));
    renameSync(`${schema}.swp`, schema);
    await until(() => statusLines(output.stdout).length === 4, "the run after the schema's rename-on-save", output);
    expect(statusLines(output.stdout)[3]).toMatch(/ schemas\/forecast\.json changed: wrote .*types\.gen\.ts/);
    expect(readFileSync(typesFile, "utf8")).toContain("Watched forecast");

    // The watch on the folder survived the rename: a second save is seen as well.
    forecast.description = "Watched again";
    writeFileSync(`${schema}.swp`, JSON.stringify(forecast, null, 2));
    renameSync(`${schema}.swp`, schema);
    await until(() => statusLines(output.stdout).length === 5, "the run after a second rename-on-save", output);
    expect(readFileSync(typesFile, "utf8")).toContain("Watched again");

    // Files next to the inputs that are not inputs do not trigger runs.
    writeFileSync(join(dir, "schemas", "unrelated.json"), "{}");
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(statusLines(output.stdout)).toHaveLength(5);

    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    // What watch left on disk is exactly what a plain run makes.
    expect(runCli(["mcp.yaml", "--check"], dir).status).toBe(0);
  }, 60_000);

  it("keeps watching a manifest that is broken from the start, and generates once it is fixed", async () => {
    const dir = tempProject({}, example);
    const manifest = join(dir, "mcp.yaml");
    const original = readFileSync(manifest, "utf8");
    writeFileSync(manifest, original.replace("mcpgen: 1", "mcpgen: [1"));
    const { child, output, exited } = startWatch(dir);
    await until(() => errorStatusLines(output.stderr).length === 1, "the failed first run", output);
    expect(output.stderr).toMatch(/^mcp-gen: mcp\.yaml:\d+:\d+: invalid YAML/m);
    writeFileSync(manifest, original.replace("description: Forecast for a city", "description: Forecast once fixed"));
    await until(() => statusLines(output.stdout).length === 1, "the run after the fix", output);
    expect(readFileSync(join(dir, "src", "mcp", "server.gen.ts"), "utf8")).toContain("Forecast once fixed");
    child.kill("SIGINT");
    expect(await exited).toBe(0);
  }, 60_000);

  it("reports a broken referenced schema at its own position and regenerates when it is fixed", async () => {
    const dir = tempProject({}, example);
    const schema = join(dir, "schemas", "forecast.json");
    const original = readFileSync(schema, "utf8");
    const { child, output, exited } = startWatch(dir);
    await until(() => statusLines(output.stdout).length === 1, "the first run", output);
    writeFileSync(schema, '{ "type": "object",\n');
    await until(() => errorStatusLines(output.stderr).length === 1, "the failed run", output);
    expect(output.stderr).toMatch(/^mcp-gen: schemas\/forecast\.json:\d+:\d+: /m);
    expect(errorStatusLines(output.stderr)[0]).toMatch(/ schemas\/forecast\.json changed: /);
    writeFileSync(schema, original.replace(/\{/, '{ "description": "Repaired forecast",'));
    await until(() => statusLines(output.stdout).length === 2, "the run after the fix", output);
    expect(readFileSync(join(dir, "src", "mcp", "types.gen.ts"), "utf8")).toContain("Repaired forecast");
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  }, 60_000);

  it("waits for a referenced schema file that does not exist yet, and generates once it is written", async () => {
    const dir = tempProject({}, example);
    const schema = join(dir, "schemas", "forecast.json");
    const text = readFileSync(schema, "utf8");
    rmSync(schema);
    const { child, output, exited } = startWatch(dir);
    await until(() => errorStatusLines(output.stderr).length === 1, "the failed first run", output);
    expect(output.stderr).toMatch(
      /^mcp-gen: mcp\.yaml:\d+:\d+: \$ref names "schemas\/forecast\.json", which cannot be read/m,
    );
    writeFileSync(schema, text.replace(/\{/, '{ "description": "Written later",'));
    await until(() => statusLines(output.stdout).length === 1, "the run after the file appeared", output);
    expect(statusLines(output.stdout)[0]).toMatch(/ schemas\/forecast\.json changed: wrote /);
    expect(readFileSync(join(dir, "src", "mcp", "types.gen.ts"), "utf8")).toContain("Written later");
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  }, 60_000);

  it("refuses --watch with --check or --dry-run as a usage error", () => {
    const check = runCli(["examples/weather/mcp.yaml", "--watch", "--check"]);
    expect(check.status).toBe(2);
    expect(check.stderr).toMatch(/--watch .*cannot be combined with --check/);
    const dryRun = runCli(["examples/weather/mcp.yaml", "-w", "--dry-run"]);
    expect(dryRun.status).toBe(2);
  });

  it("--run starts a command once the output is there, ends with its exit code, and is stopped with the watch", async () => {
    const dir = tempProject({}, example);
    rmSync(join(dir, "src", "mcp"), { recursive: true });
    // The command sees the generated output, says so, and exits 3: the watch ends with 3.
    const script =
      "const fs = require('fs'); fs.writeFileSync('seen.txt', String(fs.existsSync('src/mcp/server.gen.ts'))); process.exit(3)";
    const ended = startWatch(dir, ["--run", `node -e "${script}"`]);
    expect(await ended.exited).toBe(3);
    expect(readFileSync(join(dir, "seen.txt"), "utf8")).toBe("true");

    // A command that keeps running (through a shell, as dev servers do) is stopped when the watch is.
    const running = startWatch(dir, [
      "--run",
      `node -e "require('fs').writeFileSync('pid.txt', String(process.pid)); setInterval(() => {}, 1000)"`,
    ]);
    await until(() => existsSync(join(dir, "pid.txt")), "the command to start", running.output);
    const pid = Number(readFileSync(join(dir, "pid.txt"), "utf8"));
    running.child.kill("SIGTERM");
    expect(await running.exited).toBe(0);
    await until(() => processEnded(pid), `the command (pid ${pid}) to end`, running.output, 10);

    const alone = runCli(["mcp.yaml", "--run", "true"], dir);
    expect(alone.status).toBe(2);
    expect(alone.stderr).toMatch(/--run starts a command beside --watch; add --watch/);
  }, 60_000);

  it("shows --watch and an example in --help", () => {
    const help = runCli(["--help"]);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/--watch/);
    expect(help.stdout).toMatch(/mcp-gen mcp\.yaml --watch/);
  });
});
