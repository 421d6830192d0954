// The mcp-gen catalog server: its manifest (bench/workload/catalog.ts), the generated
// code, and an entry point with one handler per tool — what a user would write — all in
// bench/.out/catalog/ (regenerated on each run; git-ignored, outside tsc's reach).
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { catalogManifest, catalogReply, catalogTools, CATALOG_SIZE, memberName } from "../workload/catalog.js";
import { runGenerator } from "./generate.js";
import { outDir } from "./paths.js";

export const catalogDir = join(outDir, "catalog");

/** Writes manifest and entry, generates the server; returns the entry's path. */
export function buildMcpGenCatalog(): string {
  mkdirSync(catalogDir, { recursive: true });
  const manifest = join(catalogDir, "mcp.yaml");
  writeFileSync(manifest, catalogManifest(CATALOG_SIZE));
  runGenerator(manifest);
  const handlers = catalogTools(CATALOG_SIZE)
    .map((tool) => `      ${memberName(tool.name)}: () => reply,`)
    .join("\n");
  const entry = join(catalogDir, "mcp-gen-server.ts");
  writeFileSync(
    entry,
    `// Written by bench/lib/catalog-build.ts: the catalog workload served by mcp-gen.
import { parseServerArgs } from "../../servers/args.js";
import { pageSizeOption, serveMcpGen } from "../../servers/mcp-gen-serve.js";
import { createCatalogServer } from "./mcp/index.js";

const reply = ${JSON.stringify(catalogReply)};
const args = parseServerArgs("mcp-gen");
const server = createCatalogServer(
  {
    tools: {
${handlers}
    },
  },
  pageSizeOption(args),
);
await serveMcpGen("mcp-gen", server, args);
`,
  );
  return entry;
}
