// The official mcpb CLI (@anthropic-ai/mcpb, a devDependency of this repository) and what a
// host does with an unpacked bundle: run `mcp_config` with `${__dirname}` and `${user_config.x}`
// replaced. Shared by the tests that pack a project into an .mcpb bundle.
import { spawnSync } from "node:child_process";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { join } from "node:path";
import { repoRoot } from "./paths.js";

export const mcpbCli = join(repoRoot, "node_modules", ".bin", "mcpb");

/** Runs the mcpb CLI; its stdout and stderr together, as a person reads them. */
export function mcpb(...args: string[]): { status: number | null; output: string } {
  const result = spawnSync(mcpbCli, args, { encoding: "utf8", timeout: 60_000 });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

/** The parts of a bundle's manifest.json a host reads to start the server. */
export interface McpbLaunchManifest {
  readonly server: {
    readonly mcp_config: {
      readonly command: string;
      readonly args: readonly string[];
      readonly env?: Readonly<Record<string, string>>;
    };
  };
  readonly user_config?: Readonly<Record<string, { readonly default?: unknown }>>;
}

/**
 * How a host starts the bundle unpacked in `dir`: ${__dirname} is that folder, ${user_config.x}
 * what the user `entered` or the setting's default. The command is `node`: this Node.js.
 */
export function mcpbLaunch(
  manifest: McpbLaunchManifest,
  dir: string,
  entered: Record<string, string> = {},
): { command: string; args: string[]; env: Record<string, string> } {
  const substitute = (value: string) =>
    value
      .replaceAll("${__dirname}", dir)
      .replace(
        /\$\{user_config\.([A-Za-z0-9_]+)\}/g,
        (_, key: string) => entered[key] ?? String(manifest.user_config?.[key]?.default ?? ""),
      );
  const { command, args, env = {} } = manifest.server.mcp_config;
  if (command !== "node") throw new Error(`the bundle runs ${command}, not node`);
  return {
    command: process.execPath,
    args: args.map(substitute),
    env: Object.fromEntries(Object.entries(env).map(([name, value]) => [name, substitute(value)])),
  };
}

/**
 * The official SDK client connected to the bundle unpacked in `dir`, started as a host does
 * (mcpbLaunch) with what the user `entered`, in `cwd`: never the project, so nothing resolves
 * from its node_modules.
 */
export async function connectBundle(
  manifest: McpbLaunchManifest,
  dir: string,
  entered: Record<string, string>,
  cwd: string,
): Promise<Client> {
  const { command, args, env } = mcpbLaunch(manifest, dir, entered);
  const transport = new StdioClientTransport({
    command,
    args,
    env: { ...getDefaultEnvironment(), ...env },
    cwd,
    stderr: "pipe",
  });
  const client = new Client({ name: "e2e-bundle", version: "1.0.0" });
  await client.connect(transport);
  return client;
}
