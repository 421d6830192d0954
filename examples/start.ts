// `npm run -s example`: serves the weather example in this process (one process, so that
// signals reach it), rebuilding mcp-gen and regenerating the example first only when their
// sources are newer than what was built: a start where nothing changed takes well under a
// second and needs no protocol schemas. Whatever the steps print goes to stderr: over stdio,
// stdout carries the protocol only.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync, utimesSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const at = (path: string) => join(root, path);

/** The newest modification time under `paths` (files or folders), 0 for none; build output (runtime/dist) is not a source. */
function newest(paths: readonly string[]): number {
  let latest = 0;
  const visit = (path: string) => {
    if (!existsSync(path)) return;
    const stat = statSync(path);
    if (stat.isDirectory()) {
      for (const entry of readdirSync(path)) if (entry !== "dist" && entry !== "node_modules") visit(join(path, entry));
    } else latest = Math.max(latest, stat.mtimeMs);
  };
  for (const path of paths) visit(at(path));
  return latest;
}

/** Runs `step` when `target` is missing or older than `sources`, then marks `target` current. */
function refresh(target: string, sources: readonly string[], command: string, args: readonly string[]): void {
  if (existsSync(at(target)) && statSync(at(target)).mtimeMs >= newest(sources)) return;
  execFileSync(command, args, { cwd: root, stdio: ["ignore", 2, 2] });
  // The step may leave unchanged files untouched: mark the target so the next start skips it.
  const now = new Date();
  utimesSync(at(target), now, now);
}

const schemaDir = process.env.MCP_GEN_SCHEMA_DIR ?? "../shared/mcp-schema";
refresh("dist/.tsbuildinfo", ["generator", "runtime", "schema", "tsconfig.json", "tsconfig.build.json"], "npm", [
  "run",
  "-s",
  "build",
]);
// The forecast panel (an MCP App) is one HTML page bundled from its sources; the manifest inlines it.
refresh(
  "examples/weather/ui/forecast.html",
  ["examples/weather/ui/forecast.ts", "examples/weather/ui/panel.html", "examples/weather/ui/build.ts"],
  process.execPath,
  ["--import", "tsx", at("examples/weather/ui/build.ts")],
);
refresh(
  "examples/weather/src/mcp/index.ts",
  ["examples/weather/mcp.yaml", "examples/weather/schemas", "examples/weather/ui", "dist/generator", "schema"],
  process.execPath,
  [at("dist/generator/cli.js"), at("examples/weather/mcp.yaml"), "-q", "--schema-dir", schemaDir],
);
await import("./weather/src/main.js");
