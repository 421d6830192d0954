// An OpenAPI fixture as a running MCP server, the way a user gets one: `mcp-gen import openapi`
// → `mcp-gen` → strict tsc → the project's own src/main.ts over stdio, called with the SDK v1
// client. For the test/import/petstore.test.ts and upstream-*.test.ts files.
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { cliPath, repoRoot, schemaDir } from "../../support/paths.js";

/** Runs a command to its end; throws with its output when it fails. */
export function run(command: string, args: readonly string[], cwd: string): { stdout: string; stderr: string } {
  const result = spawnSync(command, args, { cwd, encoding: "utf8", timeout: 180_000 });
  if (result.status !== 0)
    throw new Error(`${[command, ...args].join(" ")} exited ${result.status}:\n${result.stdout}\n${result.stderr}`);
  return { stdout: result.stdout, stderr: result.stderr };
}

/** import → generate → strict tsc of test/import/fixtures/<fixture> (or an absolute path) into test/import/.out/<name>. */
export function importProject(
  name: string,
  fixture: string,
  ...flags: string[]
): { project: string; warnings: string } {
  const project = join(repoRoot, "test", "import", ".out", name);
  rmSync(project, { recursive: true, force: true });
  const imported = run(
    process.execPath,
    [
      cliPath,
      "import",
      "openapi",
      resolve(repoRoot, "test", "import", "fixtures", fixture),
      "--out",
      project,
      ...flags,
    ],
    repoRoot,
  );
  run(process.execPath, [cliPath, "--schema-dir", schemaDir, "-q"], project);
  // The project's tsconfig is init's: strict, exactOptionalPropertyTypes, noUncheckedIndexedAccess.
  run(
    process.execPath,
    [join(repoRoot, "node_modules", "typescript", "bin", "tsc"), "--noEmit", "-p", project],
    project,
  );
  return { project, warnings: imported.stderr };
}

/** The SDK v1 client connected to the project's src/main.ts over stdio, with this environment only. */
export async function serve(project: string, env: Record<string, string>): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ["--import", "tsx", join(project, "src", "main.ts")],
    cwd: project,
    env: { PATH: process.env.PATH ?? "", ...env },
    stderr: "pipe",
  });
  const client = new Client({ name: "import-upstream-e2e", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

export interface CallResult {
  readonly isError?: boolean;
  readonly structuredContent?: unknown;
  readonly content: readonly { type: string; text?: string; data?: string; mimeType?: string }[];
}

export const call = async (
  client: Client,
  name: string,
  args: Record<string, unknown>,
  options?: { signal?: AbortSignal },
) => (await client.callTool({ name, arguments: args }, undefined, options)) as CallResult;

export const text = (result: CallResult) => result.content.map((c) => c.text ?? "").join("\n");

/** Polls `done` every 10 ms; throws `what` after `ms`. */
export async function waitFor(done: () => boolean, ms: number, what: string): Promise<void> {
  const started = Date.now();
  while (!done()) {
    if (Date.now() - started > ms) throw new Error(what);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
