// Running the generator CLI (dist/generator/cli.js) as a child process, as users do.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { generatorCli, outDir, repoRoot, schemaDir } from "./paths.js";

/** The bench's own generator cache: a benchmark never reads or writes the user's ~/.cache. */
const cacheHome = join(outDir, "cache");

/** Generates from `manifest` (optionally into `out`); throws with the CLI's output on failure. */
export function runGenerator(manifest: string, ...extra: string[]): void {
  const result = spawnSync(process.execPath, [generatorCli, manifest, "-q", "--schema-dir", schemaDir(), ...extra], {
    cwd: repoRoot,
    encoding: "utf8",
    env: { ...process.env, XDG_CACHE_HOME: cacheHome },
  });
  if (result.status !== 0)
    throw new Error(
      `mcp-gen ${manifest} failed (${result.status ?? result.signal}):\n${result.stderr}${result.stdout}`,
    );
}
