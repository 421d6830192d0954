// `mcp-gen --watch --run <command>`: a command (a dev server) that runs beside the watch.
// Its output goes straight to the terminal; stopping it signals the whole process group, so a
// shell and what it started (tsx watch and its server) end together.
import { spawn } from "node:child_process";
import { constants } from "node:os";

export interface Companion {
  /** Resolves with the command's exit code (128 + signal number when a signal ended it). */
  readonly exited: Promise<number>;
  /** SIGTERM, then SIGKILL after `graceMs` if it is still running; resolves once it has exited. */
  stop(graceMs?: number): Promise<void>;
}

export function startCompanion(command: string): Companion {
  // Its own process group (detached), so that stop() reaches the shell's children as well; no
  // stdin, which a background group may not read from a terminal.
  const child = spawn(command, {
    shell: true,
    stdio: ["ignore", "inherit", "inherit"],
    detached: process.platform !== "win32",
  });
  let running = true;
  const exited = new Promise<number>((resolve) => {
    child.once("error", () => resolve(127));
    child.once("exit", (code, signal) => {
      running = false;
      resolve(code ?? 128 + (signal === null ? 0 : constants.signals[signal]));
    });
  });
  const kill = (signal: NodeJS.Signals) => {
    if (!running || child.pid === undefined) return;
    try {
      if (process.platform === "win32") child.kill(signal);
      else process.kill(-child.pid, signal);
    } catch {
      // Gone already.
    }
  };
  return {
    exited,
    async stop(graceMs = 5_000) {
      kill("SIGTERM");
      const timer = setTimeout(() => kill("SIGKILL"), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}
