// Output for people and for programs: a progress line on a terminal (and nothing when piped),
// `--json` documents, and `--help` with examples for every command.
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { terminalProgress } from "../../generator/progress.js";
import { runCli, tempProject } from "../support/generate.js";
import { cliPath, repoRoot, schemaDir } from "../support/paths.js";

const example = join(repoRoot, "examples", "weather");

function weatherCopy(): string {
  const dir = tempProject({}, example);
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe("progress line", () => {
  it("rewrites one line on a terminal and erases it at the end", () => {
    const written: string[] = [];
    const progress = terminalProgress({ isTTY: true, columns: 30, write: (text: string) => written.push(text) });
    progress.update("emitting 1000 tools, 0 resources, 0 prompts");
    progress.update("bad\nname\u001b[31m");
    progress.clear();
    progress.clear();
    expect(written).toEqual(["\r\x1b[2Kmcp-gen: emitting 1000 tools,", "\r\x1b[2Kmcp-gen: bad name [31m", "\r\x1b[2K"]);
  });

  it("writes nothing when the stream is not a terminal, or when not wanted", () => {
    const written: string[] = [];
    const write = (text: string) => written.push(text);
    for (const progress of [
      terminalProgress({ write }),
      terminalProgress({ isTTY: false, write }),
      terminalProgress({ isTTY: true, write }, false),
    ]) {
      progress.update("reading mcp.yaml");
      progress.clear();
    }
    expect(written).toEqual([]);
  });

  it("shows the generator's phases on a real terminal (a pty from script(1)), and only results when piped", () => {
    const dir = weatherCopy();
    rmSync(join(dir, "src", "mcp"), { recursive: true });
    const command = `"${process.execPath}" "${cliPath}" mcp.yaml --schema-dir "${schemaDir}"`;
    const tty = spawnSync("script", ["-qfec", command, "/dev/null"], {
      cwd: dir,
      encoding: "utf8",
      env: { ...process.env, MCP_GEN_NO_CACHE: "1" },
    });
    expect(tty.status).toBe(0);
    const phases = tty.stdout
      .split("\r\x1b[2K")
      .map((part) => part.trim())
      .filter(Boolean);
    expect(phases.slice(0, -1)).toEqual([
      "mcp-gen: reading mcp.yaml",
      "mcp-gen: checking mcp.yaml and the schemas it references",
      "mcp-gen: reading 5 protocol schemas",
      "mcp-gen: emitting 2 tools, 2 resources, 2 prompts for 5 revisions",
      "mcp-gen: writing 7 files in src/mcp",
    ]);
    expect(phases.at(-1)).toMatch(/^mcp-gen: wrote .* in src\/mcp$/);

    rmSync(join(dir, "src", "mcp"), { recursive: true });
    const piped = runCli(["mcp.yaml"], dir, { MCP_GEN_NO_CACHE: "1" });
    expect(piped.status).toBe(0);
    expect(piped.stderr).toBe("");
    expect(piped.stdout).not.toContain("\r");
  });
});

describe("--json", () => {
  it("reports every file and its status, and the run's exit code is unchanged", () => {
    const dir = weatherCopy();
    const fresh = runCli(["mcp.yaml", "--json"], dir, { MCP_GEN_NO_CACHE: "1" });
    expect(fresh.stderr).toBe("");
    expect(fresh.status).toBe(0);
    const document = JSON.parse(fresh.stdout) as {
      ok: boolean;
      outDir: string;
      files: { path: string; status: string }[];
      diagnostics: unknown[];
    };
    expect(document.ok).toBe(true);
    expect(document.outDir).toBe("src/mcp");
    expect(document.files.map((f) => f.path).sort()).toEqual([
      "apps.gen.ts",
      "client.gen.ts",
      "index.ts",
      "protocol.gen.ts",
      "server.gen.ts",
      "types.gen.ts",
      "validators.gen.ts",
    ]);
    expect(new Set(document.files.map((f) => f.status))).toEqual(new Set(["unchanged"]));
    expect(document.diagnostics).toEqual([]);

    // Stale output under --check: exit 1, the stale files named as such, nothing on stderr.
    const manifest = join(dir, "mcp.yaml");
    writeFileSync(
      manifest,
      readFileSync(manifest, "utf8").replace("description: Forecast for a city", "description: Forecast for any city"),
    );
    const check = runCli(["mcp.yaml", "--check", "--json"], dir);
    expect(check.stderr).toBe("");
    expect(check.status).toBe(1);
    const stale = JSON.parse(check.stdout) as typeof document;
    expect(stale.ok).toBe(false);
    expect(stale.files.filter((f) => f.status !== "unchanged")).toEqual([
      { path: "server.gen.ts", status: "stale" },
      { path: "client.gen.ts", status: "stale" },
    ]);
  });

  it("puts diagnostics with their positions into the document instead of stderr", () => {
    const dir = weatherCopy();
    const manifest = join(dir, "mcp.yaml");
    writeFileSync(
      manifest,
      readFileSync(manifest, "utf8").replace("description: Forecast for a city", "descripton: Forecast for a city"),
    );
    const run = runCli(["mcp.yaml", "--json"], dir);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(1);
    const document = JSON.parse(run.stdout) as {
      ok: boolean;
      files: unknown[];
      diagnostics: { file: string; line: number; col: number; severity: string; message: string }[];
    };
    expect(document.ok).toBe(false);
    expect(document.files).toEqual([]);
    expect(document.diagnostics).toContainEqual(
      expect.objectContaining({
        file: "mcp.yaml",
        severity: "error",
        message: expect.stringContaining('did you mean "description"'),
      }),
    );
    const located = document.diagnostics.find((d) => d.message.includes("descripton"))!;
    expect(
      readFileSync(manifest, "utf8")
        .split("\n")
        [located.line - 1]!.slice(located.col - 1),
    ).toMatch(/^descripton/);
  });

  it("is refused with --watch", () => {
    const run = runCli(["examples/weather/mcp.yaml", "--watch", "--json"]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("cannot be combined with --json");
  });

  it("lists where each protocol schema is found (schema list --json)", () => {
    const run = runCli(["schema", "list", "--json", "--schema-dir", schemaDir]);
    expect(run.status).toBe(0);
    const rows = JSON.parse(run.stdout) as { revision: string; era: string; file: string | null }[];
    expect(rows.map((r) => r.revision)).toEqual(["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]);
    for (const row of rows) expect(row.file).toBe(join(schemaDir, row.revision, "schema.json"));
  });
});

describe("pipes", () => {
  it("stops quietly when the reader has closed the pipe (| head, | true)", () => {
    // `true` exits at once, so every write finds the pipe closed (EPIPE).
    const run = spawnSync(
      "bash",
      [
        "-c",
        `set -o pipefail; "${process.execPath}" "${cliPath}" diff 2025-06-18 2026-07-28 --schema-dir "${schemaDir}" | true`,
      ],
      { encoding: "utf8" },
    );
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
  });
});

describe("--help", () => {
  it.each([["generate"], ["init"], ["pull"], ["schema"], ["diff"], ["scaffold"], ["docs"]])(
    "%s --help shows examples",
    (command) => {
      const run = runCli([command, "--help"]);
      expect(run.status).toBe(0);
      expect(run.stdout).toMatch(/Examples:\n\s+mcp-gen /);
    },
  );
});
