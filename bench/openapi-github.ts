// GitHub's REST description (@octokit/openapi 23.0.2, from the nested package test/openapi-corpora:
// `npm ci --prefix test/openapi-corpora`) through `mcp-gen import openapi`:
// import → generate → strict tsc → serve over stdio → tools/list with the official SDK v1
// client; prints the time and peak memory of each step and the size of tools/list.
//   npm run -s build && npx tsx bench/openapi-github.ts [--tools catalog] [--serve-only]
// `--tools` is the import's (one tool per operation by default). The project is written to the
// gitignored bench/.out/github (bench/.out/github-catalog). Results: bench/openapi-github.md.
import { spawnSync } from "node:child_process";
import { join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const root = resolve(import.meta.dirname, "..");
const toolsAt = process.argv.indexOf("--tools");
const tools = toolsAt < 0 ? "operations" : (process.argv[toolsAt + 1] ?? "operations");
const project = join(root, tools === "operations" ? "bench/.out/github" : `bench/.out/github-${tools}`);
const schemaDir = resolve(process.env.MCP_GEN_SCHEMA_DIR ?? join(root, "..", "shared", "mcp-schema"));

function step(name: string, args: string[], cwd: string): void {
  const started = performance.now();
  const result = spawnSync("/usr/bin/time", ["-f", "%M", process.execPath, ...args], {
    cwd,
    encoding: "utf8",
    timeout: 1_800_000,
    maxBuffer: 1 << 28,
  });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const peak = result.stderr.trim().split("\n").at(-1);
  console.log(`${name}: exit ${result.status}, ${seconds} s, peak ${(Number(peak) / 1024).toFixed(0)} MB`);
  if (result.status !== 0) {
    console.log(result.stdout.slice(0, 4000), result.stderr.slice(0, 4000));
    process.exit(1);
  }
}

if (!process.argv.includes("--serve-only")) {
  const cli = join(root, "dist/generator/cli.js");
  step(
    "import",
    [
      cli,
      "import",
      "openapi",
      join(root, "test/openapi-corpora/node_modules/@octokit/openapi/generated/api.github.com.json"),
      "--out",
      project,
      "--tools",
      tools,
      "-q",
    ],
    root,
  );
  step("generate", [cli, "--schema-dir", schemaDir, "-q"], project);
  step("tsc --noEmit (strict)", [join(root, "node_modules/typescript/bin/tsc"), "--noEmit", "-p", "."], project);
}
const started = performance.now();
const client = new Client({ name: "bench", version: "1" });
await client.connect(
  new StdioClientTransport({
    command: process.execPath,
    args: ["--import", "tsx", "src/main.ts"],
    cwd: project,
    env: { PATH: process.env.PATH ?? "" },
  }),
);
console.log(`serve: initialized in ${((performance.now() - started) / 1000).toFixed(1)} s`);
let [listed, bytes, pages] = [0, 0, 0];
let cursor: string | undefined;
do {
  const page = await client.listTools(cursor === undefined ? {} : { cursor });
  [listed, bytes, pages] = [listed + page.tools.length, bytes + Buffer.byteLength(JSON.stringify(page)), pages + 1];
  cursor = page.nextCursor;
} while (cursor !== undefined);
console.log(
  `tools/list: ${listed} tools in ${pages} page(s), ${bytes} bytes of results, ${(bytes / listed / 1024).toFixed(1)} KB per tool`,
);
await client.close();
