// Where tests find things: the repository, the official protocol schemas (never copied
// into the repository) and the built CLI.
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** `$MCP_GEN_SCHEMA_DIR`, or ../shared/mcp-schema next to the repository. */
export const schemaDir = resolve(process.env.MCP_GEN_SCHEMA_DIR ?? join(repoRoot, "..", "shared", "mcp-schema"));

if (!existsSync(join(schemaDir, "2026-07-28", "schema.json"))) {
  throw new Error(
    `protocol schemas not found in ${schemaDir}; set MCP_GEN_SCHEMA_DIR to a folder holding <revision>/schema.json`,
  );
}

/** The built CLI (npm test builds first). */
export const cliPath = join(repoRoot, "dist", "generator", "cli.js");

export const allRevisions = ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"] as const;
