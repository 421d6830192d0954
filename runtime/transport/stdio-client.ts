// A client channel to a server process spawned with its stdio as the transport.
// Node-only (imported through @mcp-gen/runtime/node).
import { spawn, type ChildProcess } from "node:child_process";
import type { JsonRpcMessage, RequestId } from "../jsonrpc/messages.js";
import { serializeMessage } from "../jsonrpc/serialize.js";
import type { ClientChannel } from "../mcp/client.js";
import { LineDecoder } from "./lines.js";
import { parseMessage } from "../jsonrpc/parse.js";

export interface StdioServerParameters {
  readonly command: string;
  readonly args?: readonly string[] | undefined;
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
  readonly cwd?: string | undefined;
  /** What to do with the server's stderr. Default "inherit". */
  readonly stderr?: "inherit" | "ignore" | "pipe" | undefined;
}

export interface StdioChannel extends ClientChannel {
  /** The spawned process (after start). */
  readonly process: ChildProcess | undefined;
}

export function stdioChannel(parameters: StdioServerParameters): StdioChannel {
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  return {
    kind: "stdio",
    get process() {
      return child;
    },
    async start(handlers: {
      receive(value: unknown): void;
      fail(id: RequestId, error: Error): void;
      closed(error?: Error): void;
    }) {
      const spawned = spawn(parameters.command, [...(parameters.args ?? [])], {
        cwd: parameters.cwd,
        env: { ...process.env, ...parameters.env } as NodeJS.ProcessEnv,
        stdio: ["pipe", "pipe", parameters.stderr ?? "inherit"],
        windowsHide: true,
      });
      child = spawned;
      exited = new Promise((resolve) => spawned.once("exit", () => resolve()));
      await new Promise<void>((resolve, reject) => {
        spawned.once("spawn", resolve);
        spawned.once("error", reject);
      });
      const decoder = new LineDecoder();
      spawned.stdout!.on("data", (chunk: Buffer) => {
        for (const line of decoder.push(chunk)) {
          let value: unknown;
          try {
            value = parseMessage(line);
          } catch {
            continue; // Servers must write only protocol messages; ignore stray output.
          }
          handlers.receive(value);
        }
      });
      spawned.stdin!.on("error", () => {});
      spawned.once("exit", (code, signal) =>
        handlers.closed(code === 0 ? undefined : new Error(`server exited (${signal ?? code})`)),
      );
    },
    send(message: JsonRpcMessage) {
      if (child?.stdin?.writable) child.stdin.write(`${serializeMessage(message)}\n`);
    },
    async close() {
      const running = child;
      if (!running || running.exitCode !== null || running.signalCode !== null) return;
      // Close stdin and give the server a moment to exit on its own, then insist.
      running.stdin?.end();
      const timeout = (ms: number) =>
        new Promise<"timeout">((resolve) => setTimeout(() => resolve("timeout"), ms).unref());
      if ((await Promise.race([exited, timeout(2000)])) === "timeout") {
        running.kill("SIGTERM");
        if ((await Promise.race([exited, timeout(2000)])) === "timeout") running.kill("SIGKILL");
      }
    },
  };
}
