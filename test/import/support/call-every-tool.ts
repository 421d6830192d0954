// An imported project driven end to end: `import openapi` → `mcp-gen` → strict tsc, then its own
// src/main.ts served over stdio and EVERY tool it lists called through the project's generated
// typed client (connect<Name>Client), on one protocol revision, with arguments synthesized from
// the tool's input schema as listed (support/sample-arguments.ts). Each call is paired with the
// requests it made upstream (here: Prism behind its recording proxy, support/prism.ts).
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { ClientChannel } from "@mcp-gen/runtime";
import { stdioChannel } from "@mcp-gen/runtime/node";
import { parse } from "yaml";
import { camelCase, pascalCase } from "../../../generator/model/names.js";
import { cliPath, repoRoot, schemaDir } from "../../support/paths.js";
import type { Exchange, Prism } from "./prism.js";
import { sampleArguments } from "./sample-arguments.js";

const outRoot = join(repoRoot, "test", "import", ".out");

/** Runs a command to its end (at most `timeoutMs`); throws with its output when it fails. */
function run(command: string, args: readonly string[], cwd: string, timeoutMs: number): string {
  const result = spawnSync(command, args, { cwd, encoding: "utf8", timeout: timeoutMs, maxBuffer: 64 << 20 });
  if (result.status !== 0)
    throw new Error(
      `${[command, ...args].join(" ")} exited ${result.status ?? result.signal}:\n${result.stdout}\n${result.stderr}`.slice(
        0,
        20_000,
      ),
    );
  return result.stderr;
}

/** import → generate → strict tsc (the project's tsconfig is init's) into test/import/.out/<name>; the import's stderr. */
export function importProject(
  name: string,
  document: string,
  flags: readonly string[] = [],
  timeoutMs = 240_000,
): { project: string; warnings: string } {
  const project = join(outRoot, name);
  rmSync(project, { recursive: true, force: true });
  const warnings = run(
    process.execPath,
    [cliPath, "import", "openapi", document, "--out", project, ...flags],
    repoRoot,
    timeoutMs,
  );
  run(process.execPath, [cliPath, "--schema-dir", schemaDir, "-q"], project, timeoutMs);
  run(
    process.execPath,
    [join(repoRoot, "node_modules", "typescript", "bin", "tsc"), "--noEmit", "-p", project],
    project,
    timeoutMs,
  );
  return { project, warnings };
}

interface Manifest {
  readonly server: { readonly name: string };
  readonly settings?: Record<string, { readonly env?: string; readonly secret?: boolean }>;
  readonly tools: Record<string, { readonly identifier?: string; readonly output?: unknown }>;
}

type Validator = (value: unknown) => { path: string; message: string } | undefined;
interface TypedClient {
  readonly session: {
    readonly era: string;
    readonly revision: string;
    rawRequest(method: string, params?: object): Promise<Record<string, unknown>>;
  };
  readonly tools: Record<string, (args: unknown) => Promise<ToolResult>>;
  close(): Promise<void>;
}
interface ToolResult {
  readonly isError?: boolean;
  readonly structuredContent?: unknown;
  readonly content: readonly { type: string; text?: string }[];
}

/** What one tool call did. */
export interface CallRecord {
  readonly tool: string;
  readonly revision: string;
  readonly args: unknown;
  /** Why no valid arguments could be synthesized (the tool was not called). */
  readonly unsampled?: string;
  /** The result, or the error the typed client threw. */
  readonly result?: ToolResult;
  readonly thrown?: string;
  /** The requests the call made upstream. */
  readonly exchanges: readonly Exchange[];
  /** undefined: the tool has no output schema; else whether the generated validator accepted the result. */
  readonly outputValid?: boolean;
  readonly outputProblem?: string;
}

/** A value for every secret setting the import declared (the credentials of its security schemes). */
export function credentialsOf(manifest: Manifest): Record<string, string> {
  return Object.fromEntries(
    Object.values(manifest.settings ?? {})
      .filter((setting) => setting.secret === true && setting.env !== undefined)
      .map((setting) => [setting.env!, `test-${setting.env!.toLowerCase()}`]),
  );
}

/**
 * Serves `project` over stdio (MCP_UPSTREAM_URL → Prism's proxy) and calls every listed tool
 * through the generated typed client, negotiating `revision` only; one record per tool.
 */
export async function callEveryTool(project: string, prism: Prism, revision: string): Promise<CallRecord[]> {
  const manifest = parse(readFileSync(join(project, "mcp.yaml"), "utf8")) as Manifest;
  const generated = (await import(pathToFileURL(join(project, "src", "mcp", "index.ts")).href)) as Record<
    string,
    unknown
  >;
  const connectName = Object.keys(generated).find((key) => /^connect\w+Client$/.test(key));
  if (connectName === undefined) throw new Error(`${project}: no connect<Name>Client in src/mcp/index.ts`);
  const connect = generated[connectName] as (
    channel: ClientChannel,
    options: { revisions: readonly string[] },
  ) => Promise<TypedClient>;
  const channel = stdioChannel({
    command: process.execPath,
    args: ["--import", "tsx", join(project, "src", "main.ts")],
    cwd: project,
    env: { MCP_UPSTREAM_URL: prism.url, MCP_UPSTREAM_TIMEOUT_MS: "20000", ...credentialsOf(manifest) },
    stderr: "ignore",
  });
  const client = await connect(channel, { revisions: [revision] });
  const records: CallRecord[] = [];
  try {
    if (client.session.revision !== revision) throw new Error(`negotiated ${client.session.revision}, not ${revision}`);
    const listed: { name: string; inputSchema: Record<string, unknown> }[] = [];
    let cursor: unknown;
    do {
      const page = await client.session.rawRequest("tools/list", cursor === undefined ? {} : { cursor });
      listed.push(...(page.tools as typeof listed));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    for (const { name, inputSchema } of listed) {
      const declared = manifest.tools[name];
      if (declared === undefined) throw new Error(`tools/list lists ${name}, which mcp.yaml does not declare`);
      const member = declared.identifier ?? camelCase(name);
      const method = client.tools[member];
      if (method === undefined) throw new Error(`the typed client has no method ${member} for tool ${name}`);
      const args = sampleArguments(inputSchema);
      if (typeof args === "string") {
        records.push({ tool: name, revision, args: undefined, unsampled: args, exchanges: [] });
        continue;
      }
      const before = prism.exchanges.length;
      let result: ToolResult | undefined;
      let thrown: string | undefined;
      try {
        result = await method(args);
      } catch (error) {
        thrown = (error as Error).message;
      }
      const exchanges = prism.exchanges.slice(before);
      let output: Pick<CallRecord, "outputValid" | "outputProblem"> = {};
      if (declared.output !== undefined) {
        const validate = generated[`validate${pascalCase(member)}Output`] as Validator | undefined;
        if (validate === undefined) throw new Error(`no generated output validator for ${name}`);
        const issue = result === undefined || result.isError === true ? undefined : validate(result.structuredContent);
        output = {
          outputValid: result !== undefined && result.isError !== true && issue === undefined,
          ...(issue !== undefined && { outputProblem: `${issue.path}: ${issue.message}` }),
        };
      }
      records.push({
        tool: name,
        revision,
        args,
        ...(result !== undefined && { result }),
        ...(thrown !== undefined && { thrown }),
        exchanges,
        ...output,
      });
    }
  } finally {
    await client.close();
  }
  return records;
}

/** What went wrong with a call, for a failure message; undefined when it was valid at Prism and answered 2xx. */
export function callProblem(record: CallRecord): string | undefined {
  const where = `${record.tool} (${record.revision}) with ${JSON.stringify(record.args)?.slice(0, 400)}`;
  if (record.unsampled !== undefined) return `${record.tool}: no valid arguments synthesized: ${record.unsampled}`;
  if (record.exchanges.length !== 1)
    return `${where}: made ${record.exchanges.length} requests upstream, not 1${record.thrown ? `: ${record.thrown}` : ""}`;
  const [exchange] = record.exchanges as [Exchange];
  if (exchange.requestViolations.length > 0)
    return `${where}: ${exchange.method} ${exchange.url} invalid at Prism (HTTP ${exchange.status}): ${JSON.stringify(exchange.requestViolations)}`;
  if (exchange.responseViolations.length > 0)
    return `${where}: Prism's own answer broke the document (HTTP ${exchange.status}): ${JSON.stringify(exchange.responseViolations)}`;
  if (record.thrown !== undefined) return `${where}: the typed client threw: ${record.thrown}`;
  if (record.result?.isError === true)
    return `${where}: tool error: ${record.result.content.map((c) => c.text ?? c.type).join(" ")}`;
  if (record.outputValid === false) return `${where}: output invalid: ${record.outputProblem}`;
  return undefined;
}
