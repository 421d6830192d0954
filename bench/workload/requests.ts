// What the load drivers send and how they check the answers. Every implementation gets
// the same requests; a response that is not the correct result counts as an error, and a
// measurement with errors is reported invalid.
import { CATALOG_SIZE } from "./catalog.js";

export const LEGACY_REVISION = "2025-11-25";
export const MODERN_REVISION = "2026-07-28";

/** Which request shape an implementation is driven with over HTTP (see RESULTS.md). */
export type Era = "legacy" | "modern";

export type Params = Record<string, unknown>;

export interface Call {
  readonly method: string;
  readonly params: Params;
  /** Mcp-Name header value of a modern request (the tool name of tools/call). */
  readonly name?: string | undefined;
  /** Why the JSON-RPC response is not the expected one, or undefined when it is. */
  check(response: unknown): string | undefined;
}

const clientInfo = { name: "mcp-gen-bench", version: "1.0.0" };

/** The `_meta` every modern (2026-07-28) request carries: the stateless era has no handshake. */
export const modernMeta = {
  "io.modelcontextprotocol/protocolVersion": MODERN_REVISION,
  "io.modelcontextprotocol/clientInfo": clientInfo,
  "io.modelcontextprotocol/clientCapabilities": {},
};

/** Adds the modern `_meta` to a call's params (HTTP drivers of modern-era servers). */
export function modernParams(params: Params): Params {
  return { ...params, _meta: modernMeta };
}

function resultOf(response: unknown): { result?: Record<string, unknown>; problem?: string } {
  if (typeof response !== "object" || response === null) return { problem: "not a JSON-RPC response" };
  const r = response as { result?: unknown; error?: { code?: unknown; message?: unknown } };
  if (r.error) return { problem: `error ${String(r.error.code)}: ${String(r.error.message)}` };
  if (typeof r.result !== "object" || r.result === null) return { problem: "no result" };
  return { result: r.result as Record<string, unknown> };
}

function firstText(result: Record<string, unknown>): string | undefined {
  const content = result.content;
  if (!Array.isArray(content)) return undefined;
  const block = content[0] as { type?: unknown; text?: unknown } | undefined;
  return block?.type === "text" && typeof block.text === "string" ? block.text : undefined;
}

export const initializeParams: Params = { protocolVersion: LEGACY_REVISION, capabilities: {}, clientInfo };

/** The legacy handshake's first request; any successful result with a protocolVersion will do. */
export function initializeCall(): Call {
  return {
    method: "initialize",
    params: initializeParams,
    check(response) {
      const { result, problem } = resultOf(response);
      if (problem) return problem;
      return typeof result?.protocolVersion === "string" ? undefined : "initialize result without protocolVersion";
    },
  };
}

export function echoCall(seq: number): Call {
  const text = `hello, world ${seq}`;
  return {
    method: "tools/call",
    params: { name: "echo", arguments: { text } },
    name: "echo",
    check(response) {
      const { result, problem } = resultOf(response);
      if (problem) return problem;
      if (result!.isError) return `tool error: ${firstText(result!) ?? ""}`;
      return firstText(result!) === text ? undefined : "echo returned another text";
    },
  };
}

export function addCall(seq: number): Call {
  const a = seq;
  const b = 0.5;
  return {
    method: "tools/call",
    params: { name: "add", arguments: { a, b } },
    name: "add",
    check(response) {
      const { result, problem } = resultOf(response);
      if (problem) return problem;
      if (result!.isError) return `tool error: ${firstText(result!) ?? ""}`;
      const structured = result!.structuredContent as { sum?: unknown } | undefined;
      if (structured?.sum !== a + b) return "add returned a wrong structuredContent.sum";
      return firstText(result!) === undefined ? "add returned no text content" : undefined;
    },
  };
}

/** The tools/call mix every throughput run uses: echo and add alternately. */
export function mixedCall(seq: number): Call {
  return seq % 2 === 0 ? echoCall(seq) : addCall(seq);
}

/** A tools/call whose arguments the server must reject (tool error or -32602, both accepted). */
export function invalidCall(name: string, args: Params): Call {
  return {
    method: "tools/call",
    params: { name, arguments: args },
    name,
    check(response) {
      const r = response as { error?: { code?: unknown }; result?: { isError?: unknown } };
      if (r.error?.code === -32602 || r.result?.isError === true) return undefined;
      return "invalid arguments were accepted";
    },
  };
}

/** A tools/call of a catalog tool with valid arguments. */
export function catalogCall(name: string, args: Params, reply: string): Call {
  return {
    method: "tools/call",
    params: { name, arguments: args },
    name,
    check(response) {
      const { result, problem } = resultOf(response);
      if (problem) return problem;
      if (result!.isError) return `tool error: ${firstText(result!) ?? ""}`;
      return firstText(result!) === reply ? undefined : "unexpected catalog reply";
    },
  };
}

/** One page of tools/list; `onPage` gets the page (to follow nextCursor). */
export function toolsListCall(
  cursor: string | undefined,
  onPage: (tools: number, nextCursor: string | undefined) => void,
): Call {
  return {
    method: "tools/list",
    params: cursor === undefined ? {} : { cursor },
    check(response) {
      const { result, problem } = resultOf(response);
      if (problem) return problem;
      if (!Array.isArray(result!.tools)) return "tools/list without tools";
      const next = result!.nextCursor;
      onPage(result!.tools.length, typeof next === "string" ? next : undefined);
      return undefined;
    },
  };
}

export const expectedCatalogTools = CATALOG_SIZE;
