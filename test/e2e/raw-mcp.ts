// A bare JSON-RPC client for the tasks tests: it sends exactly the messages a test writes
// (no protocol logic of the runtime's own client in between), over stdio or Streamable
// HTTP, in either era, and answers the server's requests with a test-supplied handler.
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import type { JsonObject } from "../../runtime/index.js";

export interface RawResponse {
  readonly result?: JsonObject;
  readonly error?: { readonly code: number; readonly message: string; readonly data?: unknown };
}

/** Answers a request from the server (elicitation/create ...), given its params. */
export type ServerRequestHandler = (method: string, params: JsonObject | undefined) => JsonObject;

export interface RawClient {
  request(method: string, params?: JsonObject): Promise<RawResponse>;
  /** Requests the server sent, in order. */
  readonly serverRequests: { method: string; params: JsonObject | undefined }[];
  close(): Promise<void>;
}

const TASKS = "io.modelcontextprotocol/tasks";
export const modernRevision = "2026-07-28";
export const legacyRevision = "2025-11-25";

/** The _meta a 2026-07-28 request carries; `tasks` adds the tasks extension to the client's capabilities. */
export function modernMeta(tasks: boolean): JsonObject {
  return {
    "io.modelcontextprotocol/protocolVersion": modernRevision,
    "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1.0.0" },
    "io.modelcontextprotocol/clientCapabilities": {
      elicitation: {},
      ...(tasks ? { extensions: { [TASKS]: {} } } : {}),
    },
  };
}

let nextId = 1;

/** Over stdio: one child process serving both eras on its pipe. */
export function stdioClient(
  command: string,
  args: readonly string[],
  cwd: string,
  answer: ServerRequestHandler,
): RawClient & {
  readonly child: ChildProcess;
  readonly notifications: { method: string; params: JsonObject | undefined }[];
  stderr(): string;
} {
  const child = spawn(command, [...args], { cwd, stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  child.stderr!.on("data", (c: Buffer) => (stderr += c.toString("utf8")));
  const pending = new Map<number, (response: RawResponse) => void>();
  const serverRequests: RawClient["serverRequests"] = [];
  const notifications: { method: string; params: JsonObject | undefined }[] = [];
  createInterface({ input: child.stdout! }).on("line", (line) => {
    const message = JSON.parse(line) as JsonObject & { id?: number; method?: string; params?: JsonObject };
    if (message.method !== undefined && message.id !== undefined) {
      serverRequests.push({ method: message.method, params: message.params });
      child.stdin!.write(
        `${JSON.stringify({ jsonrpc: "2.0", id: message.id, result: answer(message.method, message.params) })}\n`,
      );
    } else if (message.id !== undefined && message.method === undefined)
      pending.get(message.id)?.(message as RawResponse);
    else if (message.method !== undefined) notifications.push({ method: message.method, params: message.params });
  });
  return {
    child,
    notifications,
    stderr: () => stderr,
    serverRequests,
    request(method, params) {
      const id = nextId++;
      return new Promise((resolve) => {
        pending.set(id, resolve);
        child.stdin!.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, ...(params ? { params } : {}) })}\n`);
      });
    },
    async close() {
      child.stdin!.end();
      if (child.exitCode !== null || child.signalCode !== null) return;
      // A request still open (subscriptions/listen) keeps the server waiting for it: end it.
      const exited = new Promise((resolve) => child.once("exit", resolve));
      const timer = setTimeout(() => child.kill("SIGTERM"), 2_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** The Mcp-Name value of a 2026-07-28 request, as SEP-2243 and the tasks extension define it. */
function mcpName(method: string, params: JsonObject | undefined): string | undefined {
  const field =
    method === "tools/call" || method === "prompts/get"
      ? "name"
      : method === "resources/read"
        ? "uri"
        : method.startsWith("tasks/")
          ? "taskId"
          : undefined;
  const value = field === undefined ? undefined : params?.[field];
  return typeof value === "string" ? value : undefined;
}

/**
 * Over Streamable HTTP. Modern: every request a POST of its own with the mirrored headers.
 * Legacy: `initialize` opens a session; requests of the server arriving on a response's SSE
 * stream are answered with POSTs of their own.
 */
export function httpClient(
  url: string,
  era: "modern" | "legacy",
  answer: ServerRequestHandler,
  fetchImpl: typeof fetch = fetch,
  extraHeaders: Readonly<Record<string, string>> = {},
): RawClient {
  let session: string | undefined;
  const serverRequests: RawClient["serverRequests"] = [];
  const post = (message: JsonObject, method?: string) => {
    const headers: Record<string, string> = {
      ...extraHeaders,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    };
    if (era === "modern") {
      headers["mcp-protocol-version"] = modernRevision;
      if (method) {
        headers["mcp-method"] = method;
        const name = mcpName(method, message.params as JsonObject | undefined);
        if (name !== undefined) headers["mcp-name"] = name;
      }
    } else {
      if (session) headers["mcp-session-id"] = session;
      if (method !== "initialize") headers["mcp-protocol-version"] = legacyRevision;
    }
    return fetchImpl(url, { method: "POST", headers, body: JSON.stringify(message) });
  };
  return {
    serverRequests,
    async request(method, params) {
      const id = nextId++;
      const response = await post({ jsonrpc: "2.0", id, method, ...(params ? { params } : {}) }, method);
      session ??= response.headers.get("mcp-session-id") ?? undefined;
      const type = response.headers.get("content-type") ?? "";
      if (type.includes("application/json")) return (await response.json()) as RawResponse;
      if (!type.includes("text/event-stream")) throw new Error(`HTTP ${response.status}: ${await response.text()}`);
      // Read events as they come: the server may ask something before it answers.
      const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`the SSE stream of ${method} ended without its response`);
        buffer += value;
        let cut: number;
        while ((cut = buffer.indexOf("\n\n")) >= 0) {
          const event = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const data = event
            .split("\n")
            .filter((l) => l.startsWith("data:"))
            .map((l) => l.slice(5).trimStart())
            .join("\n");
          if (!data) continue;
          const message = JSON.parse(data) as JsonObject & { id?: number; method?: string; params?: JsonObject };
          if (message.method !== undefined && message.id !== undefined) {
            serverRequests.push({ method: message.method, params: message.params });
            await post({ jsonrpc: "2.0", id: message.id, result: answer(message.method, message.params) });
          } else if (message.id === id) {
            await reader.cancel().catch(() => {});
            return message as RawResponse;
          }
        }
      }
    },
    async close() {
      if (session)
        await fetch(url, {
          method: "DELETE",
          headers: { "mcp-session-id": session, "mcp-protocol-version": legacyRevision },
        }).catch(() => {});
    },
  };
}
