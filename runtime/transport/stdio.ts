// MCP over stdio: newline-delimited JSON on stdin/stdout. Only protocol messages go to
// stdout; diagnostics belong on stderr. Node-only (imported through mcp-gen/runtime/node).
import type { Readable, Writable } from "node:stream";
import type { JsonRpcMessage } from "../jsonrpc/messages.js";
import { serializeMessage } from "../jsonrpc/serialize.js";
import type { McpEndpoint } from "../mcp/server.js";
import { LineDecoder } from "./lines.js";

export interface StdioOptions {
  readonly input?: Readable | undefined;
  readonly output?: Writable | undefined;
}

export interface StdioConnection {
  /** Resolves when the input ends (the client closed stdin) and pending writes are flushed. */
  readonly closed: Promise<void>;
  close(): void;
}

/** Serves `server` on stdin/stdout (or the given streams) until the input ends. */
export function serveStdio(server: McpEndpoint, options: StdioOptions = {}): StdioConnection {
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const decoder = new LineDecoder();
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  let waitingForDrain = false;
  // Responses produced while one chunk of input is processed go out in one write: on a
  // pipe every write is a system call, and under load a chunk carries many requests.
  let queued: string[] = [];
  let flushScheduled = false;
  const flush = () => {
    flushScheduled = false;
    if (queued.length === 0) return;
    const text = queued.length === 1 ? queued[0]! : queued.join("");
    queued = [];
    // Backpressure: stop reading requests while the client is not reading responses.
    if (!output.write(text) && !waitingForDrain) {
      waitingForDrain = true;
      input.pause();
      output.once("drain", () => {
        waitingForDrain = false;
        input.resume();
      });
    }
  };

  const peer = server.connect({
    send(message: JsonRpcMessage) {
      queued.push(`${serializeMessage(message)}\n`);
      if (!flushScheduled) {
        flushScheduled = true;
        setImmediate(flush);
      }
    },
  });

  const handleLine = (line: string) => {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      peer.receiveParseError((error as Error).message);
      return;
    }
    if (Array.isArray(value)) for (const item of value) peer.receive(item);
    else peer.receive(value);
  };
  const onData = (chunk: Buffer | string) => {
    for (const line of decoder.push(chunk)) handleLine(line);
  };
  const finish = () => {
    for (const line of decoder.flush()) handleLine(line);
    input.off("data", onData);
    peer.close("stdin closed");
    // Let handlers still running finish their writes before reporting closed.
    setImmediate(() => {
      flush();
      resolveClosed();
    });
  };
  input.on("data", onData);
  input.once("end", finish);
  input.once("close", finish);
  input.once("error", finish);
  return {
    closed,
    close() {
      input.off("data", onData);
      peer.close("Server closed");
      flush();
      resolveClosed();
    },
  };
}
