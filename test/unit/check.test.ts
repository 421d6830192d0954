// `mcp-gen --check` against the checked-in example, through the real CLI.
import { spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { runCli, tempProject } from "../support/generate.js";
import { repoRoot, schemaDir } from "../support/paths.js";

const example = join(repoRoot, "examples", "weather");

describe("mcp-gen --check", () => {
  it("exits 0 on the checked-in weather example", () => {
    const run = runCli(["examples/weather/mcp.yaml", "--check"]);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/7 file\(s\) up to date/);
  });

  it("exits 0 on the checked-in everything example", () => {
    const run = runCli(["examples/everything/mcp.yaml", "--check"]);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/6 file\(s\) up to date/);
  });

  it("exits 0 on the checked-in notes example (OAuth-protected)", () => {
    const run = runCli(["examples/notes/mcp.yaml", "--check"]);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/6 file\(s\) up to date/);
  });

  it("exits 1 and names the stale files after the manifest changes, writing nothing", () => {
    const dir = tempProject({}, example);
    const manifest = join(dir, "mcp.yaml");
    writeFileSync(
      manifest,
      readFileSync(manifest, "utf8").replace("description: Forecast for a city", "description: Forecast for any city"),
    );
    const before = readFileSync(join(dir, "src", "mcp", "server.gen.ts"), "utf8");
    const run = runCli(["generate", "mcp.yaml", "--check"], dir);
    expect(run.status).toBe(1);
    // Only the list payloads and doc comments change: server and client code, and the index is untouched.
    expect(run.stderr.split("\n").filter(Boolean)).toEqual([
      "mcp-gen: src/mcp/server.gen.ts: stale",
      "mcp-gen: src/mcp/client.gen.ts: stale",
      "mcp-gen: 2 generated file(s) out of date; run `mcp-gen generate mcp.yaml`",
    ]);
    expect(readFileSync(join(dir, "src", "mcp", "server.gen.ts"), "utf8")).toBe(before);

    const generate = runCli(["generate", "mcp.yaml"], dir);
    expect(generate.status).toBe(0);
    expect(generate.stdout).toContain("wrote server.gen.ts, client.gen.ts");
    expect(runCli(["mcp.yaml", "--check"], dir).status).toBe(0);

    // The remembered run answers the next --check quickly, but never hides a hand edit.
    expect(runCli(["mcp.yaml", "--check"], dir).status).toBe(0);
    writeFileSync(
      join(dir, "src", "mcp", "types.gen.ts"),
      `${readFileSync(join(dir, "src", "mcp", "types.gen.ts"), "utf8")}// edited\n`,
    );
    const edited = runCli(["mcp.yaml", "--check"], dir);
    expect(edited.status).toBe(1);
    expect(edited.stderr).toContain("mcp-gen: src/mcp/types.gen.ts: stale");
  });

  it("reports missing files", () => {
    const dir = tempProject({}, example);
    const out = join(dir, "src", "mcp", "index.ts");
    expect(existsSync(out)).toBe(true);
    writeFileSync(out, "");
    const run = runCli(["mcp.yaml", "--check"], dir);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("mcp-gen: src/mcp/index.ts: stale");
  });

  it("usage errors exit 2", () => {
    const run = runCli(["generate", "--bogus"]);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^mcp-gen: Unknown argument/);
  });
});

describe("the --check run record", () => {
  // mcp-gen installed as a user's project installs it: in node_modules/mcp-gen, its
  // dependencies hoisted next to it (no node_modules/mcp-gen/node_modules).
  function hoistedInstall(): { base: string; packageDir: string; nodeModules: string } {
    const base = mkdtempSync(join(tmpdir(), "mcp-gen-hoisted-"));
    const nodeModules = join(base, "node_modules");
    const packageDir = join(nodeModules, "mcp-gen");
    mkdirSync(packageDir, { recursive: true });
    for (const part of ["package.json", "dist", "schema", "templates"])
      cpSync(join(repoRoot, part), join(packageDir, part), { recursive: true });
    const { dependencies } = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as {
      dependencies: Record<string, string>;
    };
    for (const dep of Object.keys(dependencies)) {
      mkdirSync(dirname(join(nodeModules, dep)), { recursive: true });
      symlinkSync(realpathSync(join(repoRoot, "node_modules", dep)), join(nodeModules, dep), "dir");
    }
    return { base, packageDir, nodeModules };
  }

  it("is a new record when a hoisted dependency changes, and when the generator's code changes", () => {
    const { base, packageDir, nodeModules } = hoistedInstall();
    const cache = mkdtempSync(join(tmpdir(), "mcp-gen-record-cache-"));
    onTestFinished(() => {
      rmSync(base, { recursive: true, force: true });
      rmSync(cache, { recursive: true, force: true });
    });
    const project = tempProject({}, example);
    const records = () => readdirSync(join(cache, "mcp-gen", "runs")).sort();
    const check = () => {
      const run = spawnSync(
        process.execPath,
        [join(packageDir, "dist", "generator", "cli.js"), "mcp.yaml", "--check"],
        {
          cwd: project,
          encoding: "utf8",
          env: { ...process.env, XDG_CACHE_HOME: cache, MCP_GEN_NO_CACHE: "", MCP_GEN_SCHEMA_DIR: schemaDir },
        },
      );
      expect(run.stderr).toBe("");
      expect(run.status).toBe(0);
    };

    check();
    const first = records();
    expect(first).toHaveLength(1);
    check();
    expect(records()).toEqual(first);

    // Another version of a dependency (found only by module resolution, next to mcp-gen): another generator.
    const yaml = join(nodeModules, "yaml");
    const real = realpathSync(yaml);
    unlinkSync(yaml);
    cpSync(real, yaml, { recursive: true });
    const manifest = JSON.parse(readFileSync(join(yaml, "package.json"), "utf8")) as { version: string };
    writeFileSync(join(yaml, "package.json"), JSON.stringify({ ...manifest, version: `${manifest.version}-patched` }));
    check();
    const second = records();
    expect(second).toHaveLength(2);

    // A changed module of the generator itself: another generator.
    const memo = join(packageDir, "dist", "generator", "memo.js");
    writeFileSync(memo, `${readFileSync(memo, "utf8")}\n// patched\n`);
    check();
    expect(records()).toHaveLength(3);
  });
});
