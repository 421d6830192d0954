// Drives a server over stdio: newline-delimited JSON-RPC on its stdin/stdout, any number
// of requests in flight, responses matched by id.
import type { Writable } from "node:stream";
import type { Call, Params } from "../workload/requests.js";
import { initializeCall } from "../workload/requests.js";
import type { Connection } from "./connection.js";
import type { ServerProcess } from "./proc.js";

type Settle = { resolve: (response: unknown) => void; reject: (error: Error) => void };

export class StdioConnection implements Connection {
  private nextId = 1;
  private readonly pending = new Map<number, Settle>();
  private partial = "";
  private readonly stdin: Writable;
  private corked = false;
  private closedError: Error | undefined;

  constructor(private readonly server: ServerProcess) {
    const { child } = server;
    this.stdin = child.stdin!;
    this.stdin.on("error", () => {});
    child.stdout!.setEncoding("utf8");
    child.stdout!.on("data", (chunk: string) => this.onData(chunk));
    child.once("exit", (code, signal) =>
      this.fail(new Error(`server exited (${signal ?? code}); stderr:\n${server.stderr()}`)),
    );
  }

  request(call: Call): Promise<unknown> {
    if (this.closedError) return Promise.reject(this.closedError);
    const id = this.nextId++;
    this.write(
      `{"jsonrpc":"2.0","id":${id},"method":${JSON.stringify(call.method)},"params":${JSON.stringify(call.params)}}\n`,
    );
    return new Promise((resolve, reject) => this.pending.set(id, { resolve, reject }));
  }

  notify(method: string, params: Params = {}): void {
    this.write(`${JSON.stringify({ jsonrpc: "2.0", method, params })}\n`);
  }

  /** The legacy handshake every implementation accepts over stdio. */
  async initialize(): Promise<void> {
    const call = initializeCall();
    const problem = call.check(await this.request(call));
    if (problem) throw new Error(`initialize failed: ${problem}`);
    this.notify("notifications/initialized");
  }

  async close(): Promise<void> {
    await this.server.stop();
  }

  /** Writes issued while handling one chunk of responses go out together. */
  private write(line: string): void {
    if (!this.corked) {
      this.corked = true;
      this.stdin.cork();
      queueMicrotask(() => {
        this.corked = false;
        this.stdin.uncork();
      });
    }
    this.stdin.write(line);
  }

  private onData(chunk: string): void {
    const text = this.partial + chunk;
    let start = 0;
    for (let end = text.indexOf("\n"); end >= 0; end = text.indexOf("\n", start)) {
      const line = text.slice(start, end);
      start = end + 1;
      if (line.trim() === "") continue;
      let message: { id?: unknown };
      try {
        message = JSON.parse(line) as { id?: unknown };
      } catch {
        this.fail(new Error(`server wrote a line that is not JSON: ${line.slice(0, 200)}`));
        return;
      }
      if (typeof message.id !== "number") continue; // notifications, or responses to nothing we sent
      const settle = this.pending.get(message.id);
      if (!settle) continue;
      this.pending.delete(message.id);
      settle.resolve(message);
    }
    this.partial = text.slice(start);
  }

  private fail(error: Error): void {
    this.closedError ??= error;
    for (const settle of this.pending.values()) settle.reject(error);
    this.pending.clear();
  }
}
