// Compiles the benchmark's mcp-gen server (bench/servers/mcp-gen.ts, what a user writes,
// and the generated bench/workload/mcp/ tree) to one JavaScript module, so that
// `npm run bench:server` runs it with plain `node`: its start-up, CPU and peak RSS are the
// server's own, not tsx's. mcp-gen/runtime stays an import of the built package (dist/),
// as in an application that has mcp-gen installed. Plain JavaScript itself, so building
// needs no TypeScript loader either. It writes nothing on stdout: the stdout of
// `npm run bench:server` carries only protocol.
import { build } from "esbuild";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const benchDir = dirname(fileURLToPath(import.meta.url));
const builtServer = join(benchDir, ".out", "server", "mcp-gen.mjs");

await build({
  entryPoints: [join(benchDir, "servers", "mcp-gen.ts")],
  outfile: builtServer,
  bundle: true,
  packages: "external",
  platform: "node",
  format: "esm",
  target: "node20",
  sourcemap: "linked",
  logLevel: "error",
});
