// Where things are: the repository, the bench folder, its scratch output (bench/.out/,
// git-ignored), and the official protocol schemas the generator reads.
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const benchDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const repoRoot = dirname(benchDir);
export const outDir = join(benchDir, ".out");
export const generatorCli = join(repoRoot, "dist", "generator", "cli.js");

/** `$MCP_GEN_SCHEMA_DIR`, else ../shared/mcp-schema next to the repository (as the tests and the example). */
export function schemaDir(): string {
  return resolve(repoRoot, process.env.MCP_GEN_SCHEMA_DIR ?? "../shared/mcp-schema");
}
