// What the end-to-end tests share: how to start the servers under test as child
// processes (stdio or HTTP on a free port), how to stop them whatever happens, and
// the facts every peer of the weather example must agree on.
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { repoRoot } from "../support/paths.js";

/** The weather example's entry point (served by the mcp-gen runtime). */
export const weatherMain = join(repoRoot, "examples", "weather", "src", "main.ts");
/** The same weather tools served by the official SDK v2 (@modelcontextprotocol/server). */
export const sdkV2Server = join(repoRoot, "test", "e2e", "fixtures", "sdk-v2-server.ts");
/** The same weather tools served by the official SDK v1 (@modelcontextprotocol/sdk). */
export const sdkV1Server = join(repoRoot, "test", "e2e", "fixtures", "sdk-v1-server.ts");

/**
 * How to run a TypeScript entry point: node with tsx's loader, one process (the tsx
 * CLI would put a second node process between us and the server, which a kill may miss).
 */
export function tsxCommand(script: string, ...args: string[]): { command: string; args: string[]; cwd: string } {
  return { command: process.execPath, args: ["--import", "tsx", script, ...args], cwd: repoRoot };
}

export interface HttpServerProcess {
  readonly url: string;
  readonly child: ChildProcess;
  /** Everything the server wrote on stderr so far (for failure messages). */
  stderr(): string;
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();

/** Stops a child: SIGTERM, then SIGKILL if it is still there after a while. */
export async function stopChild(child: ChildProcess): Promise<void> {
  running.delete(child);
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const later = (ms: number) => new Promise<"timeout">((resolve) => setTimeout(() => resolve("timeout"), ms).unref());
  child.kill("SIGTERM");
  if ((await Promise.race([exited, later(5_000)])) === "timeout") {
    child.kill("SIGKILL");
    await Promise.race([exited, later(5_000)]);
  }
}

/** Stops every server child this module started and has not stopped yet (for afterAll). */
export async function stopAllChildren(): Promise<void> {
  await Promise.all([...running].map(stopChild));
}

/**
 * Starts `script` with `args` (which must make it serve HTTP on a free port) and resolves
 * once it printed `serving MCP at <url>` on stderr.
 */
export async function startHttpServer(script: string, ...args: string[]): Promise<HttpServerProcess> {
  return startHttpServerWithEnv({}, script, ...args);
}

/** startHttpServer with extra environment variables for the child. */
export async function startHttpServerWithEnv(
  env: Readonly<Record<string, string>>,
  script: string,
  ...args: string[]
): Promise<HttpServerProcess> {
  const { command, args: argv, cwd } = tsxCommand(script, ...args);
  const child = spawn(command, argv, { cwd, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  running.add(child);
  let stderr = "";
  let stdout = "";
  child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`${script} did not print its URL within 60 s; stderr:\n${stderr}`)),
        60_000,
      );
      child.stderr!.on("data", (chunk: Buffer) => {
        stderr += chunk.toString("utf8");
        const match = /serving MCP at (http:\/\/\S+)/.exec(stderr);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]!);
        }
      });
      child.once("exit", (code, signal) => {
        clearTimeout(timer);
        reject(
          new Error(`${script} exited (${signal ?? code}) before serving; stderr:\n${stderr}\nstdout:\n${stdout}`),
        );
      });
      child.once("error", (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
    return { url, child, stderr: () => stderr, stop: () => stopChild(child) };
  } catch (error) {
    await stopChild(child);
    throw error;
  }
}

/** get_forecast for Paris with the manifest's defaults (3 days, metric), as every server must compute it. */
export const parisForecast = {
  city: "Paris",
  units: "metric",
  days: [
    { date: "2026-01-01", high: 18, low: 9, conditions: "cloudy" },
    { date: "2026-01-02", high: 17, low: 10, conditions: "rain" },
    { date: "2026-01-03", high: 16, low: 9, conditions: "sunny" },
  ],
};

export const oslo = { city: "oslo", temperature: 6, conditions: "snow" };

export const appConfig = { defaultUnits: "metric", maxDays: 7 };

/** The JSON-RPC error code of a rejection, whichever client library raised it. */
export async function errorCodeOf(promise: Promise<unknown>): Promise<number> {
  try {
    await promise;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === "number") return code;
    throw new Error(`expected a JSON-RPC error, got ${String(error)}`, { cause: error });
  }
  throw new Error("expected the request to fail, but it succeeded");
}

/** The text of the first text block of a content array. */
export function firstText(content: unknown): string {
  const block = (content as { type: string; text?: string }[] | undefined)?.find((c) => c.type === "text");
  if (typeof block?.text !== "string") throw new Error(`no text content in ${JSON.stringify(content)}`);
  return block.text;
}
