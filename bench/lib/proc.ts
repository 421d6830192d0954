// The server process as the benchmark sees it: spawned directly (node + a pre-built
// bundle, so the pid measured is the server's own), its CPU time and peak RSS from
// /proc, and stopping it whatever state it is in.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";

let ticksPerSecond: number | undefined;

/** Clock ticks per second of /proc/<pid>/stat times (getconf CLK_TCK, almost always 100). */
export function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/** User + system CPU time the process (all its threads) has used so far, in microseconds. */
export function cpuMicros(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // Fields after "(comm)": state is field 3, utime field 14, stime field 15.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1e6) / clockTicks();
}

/** Peak resident set size (VmHWM) of the process, in bytes. */
export function peakRss(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const match = /^VmHWM:\s+(\d+) kB/m.exec(status);
  return match ? Number(match[1]) * 1024 : NaN;
}

export interface ServerProcess {
  readonly child: ChildProcess;
  readonly pid: number;
  /** What the server wrote on stderr (for error messages). */
  stderr(): string;
  stop(): Promise<void>;
}

export interface SpawnOptions {
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
}

/** Starts `node <args>` with piped stdio. */
export function spawnNode(args: readonly string[], options: SpawnOptions = {}): ServerProcess {
  const child = spawn(process.execPath, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr!.setEncoding("utf8");
  child.stderr!.on("data", (chunk: string) => {
    if (stderr.length < 64 * 1024) stderr += chunk;
  });
  child.on("error", () => {});
  if (child.pid === undefined) throw new Error(`could not start node ${args.join(" ")}`);
  return { child, pid: child.pid, stderr: () => stderr, stop: () => stopChild(child) };
}

/** Closes stdin, then SIGTERM, then SIGKILL, until the child has exited. */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const within = (ms: number) =>
    Promise.race([
      exited.then(() => true),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms).unref()),
    ]);
  child.stdin?.end();
  if (await within(500)) return;
  child.kill("SIGTERM");
  if (await within(2_000)) return;
  child.kill("SIGKILL");
  await within(5_000);
}

/** Resolves with the URL an HTTP server announces on stderr (`serving MCP at <url>`). */
export function announcedUrl(server: ServerProcess, timeoutMs = 30_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const { child } = server;
    const timer = setTimeout(
      () => fail(new Error(`no URL announced within ${timeoutMs} ms; stderr:\n${server.stderr()}`)),
      timeoutMs,
    );
    const onData = () => {
      const match = /serving MCP at (http:\/\/\S+)/.exec(server.stderr());
      if (match) done(() => resolve(match[1]!));
    };
    const onExit = () => fail(new Error(`server exited before listening; stderr:\n${server.stderr()}`));
    const done = (then: () => void) => {
      clearTimeout(timer);
      child.stderr!.off("data", onData);
      child.off("exit", onExit);
      then();
    };
    const fail = (error: Error) => done(() => reject(error));
    child.stderr!.on("data", onData);
    child.once("exit", onExit);
    onData();
  });
}
