// Runs the generator the way users do: the pipeline in-process (fast), or the built CLI
// as a child process (exit codes, stdout/stderr, files on disk).
import { spawn, spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, writeFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { generate, type GenerateResult } from "../../generator/pipeline.js";
import { cliPath, repoRoot, schemaDir } from "./paths.js";

export function generateManifest(
  manifest: string,
  options: { out?: string; cwd?: string; version?: string } = {},
): Promise<GenerateResult> {
  return generate({ manifest, schemaDir, ...options });
}

export interface CliRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export function runCli(args: readonly string[], cwd = repoRoot, env: Record<string, string> = {}): CliRun {
  const result = spawnSync(process.execPath, [cliPath, ...args], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, MCP_GEN_SCHEMA_DIR: schemaDir, ...env },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Like runCli, without blocking this process (needed when the test itself serves the CLI, e.g. over HTTP). */
export function runCliAsync(
  args: readonly string[],
  cwd = repoRoot,
  env: Record<string, string> = {},
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliPath, ...args], {
      cwd,
      env: { ...process.env, MCP_GEN_SCHEMA_DIR: schemaDir, ...env },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

/**
 * A fresh temporary folder holding `files` (path → content). It lives in test/.tmp
 * (git-ignored) inside the repository, so generated code resolves `@mcp-gen/runtime` through
 * the workspace link in the root node_modules, as it would in a user's project that installed it.
 */
export function tempProject(files: Record<string, string | Uint8Array> = {}, copyFrom?: string): string {
  const base = join(repoRoot, "test", ".tmp");
  mkdirSync(base, { recursive: true });
  const dir = mkdtempSync(join(base, "case-"));
  if (copyFrom) cpSync(copyFrom, dir, { recursive: true });
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}
