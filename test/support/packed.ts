// The two packages as users install them: `npm pack` of the generator (mcp-gen) and the
// runtime (@mcp-gen/runtime), and npm run the way a user's shell runs it. Shared by the e2e
// tests that install the tarballs into fresh projects outside this repository.
import { spawnSync, type SpawnSyncReturns } from "node:child_process";
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { repoRoot, schemaDir } from "./paths.js";

export const npm = process.platform === "win32" ? "npm.cmd" : "npm";

/** Runs a command to its end (at most `timeoutMs`), without audit, funding or update chatter from npm. */
export function run(
  command: string,
  args: readonly string[],
  cwd: string,
  options: { input?: string; env?: Record<string, string>; timeoutMs?: number } = {},
): SpawnSyncReturns<string> {
  const result = spawnSync(command, args, {
    cwd,
    encoding: "utf8",
    timeout: options.timeoutMs ?? 60_000,
    input: options.input,
    env: {
      ...process.env,
      MCP_GEN_SCHEMA_DIR: schemaDir,
      npm_config_audit: "false",
      npm_config_fund: "false",
      npm_config_update_notifier: "false",
      ...options.env,
    },
  });
  if (result.error) throw result.error;
  return result;
}

export function succeeded(result: SpawnSyncReturns<string>, what: string): SpawnSyncReturns<string> {
  expect(result.status, `${what} failed:\n${result.stdout}\n${result.stderr}`).toBe(0);
  return result;
}

/** Packs both packages into `folder`; returns the tarballs' paths. */
export function packTarballs(folder: string): { generator: string; runtime: string } {
  mkdirSync(folder, { recursive: true });
  // --ignore-scripts: `npm test` has built both packages; prepack would rebuild dist/ under the feet of other tests.
  expect(
    existsSync(join(repoRoot, "runtime", "dist", "index.js")) &&
      existsSync(join(repoRoot, "dist", "generator", "cli.js")),
    "run `npm run build` first",
  ).toBe(true);
  succeeded(
    run(
      npm,
      ["pack", "--workspaces", "--include-workspace-root", "--ignore-scripts", "--pack-destination", folder],
      repoRoot,
    ),
    "npm pack",
  );
  expect(readdirSync(folder).sort()).toEqual(["mcp-gen-0.1.0.tgz", "mcp-gen-runtime-0.1.0.tgz"]);
  return { generator: join(folder, "mcp-gen-0.1.0.tgz"), runtime: join(folder, "mcp-gen-runtime-0.1.0.tgz") };
}
