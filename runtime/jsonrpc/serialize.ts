// Turning messages into text. Results that never change (precomputed list pages) are
// serialised once as RawJson and spliced into responses instead of stringified per request;
// members every result of a kind ends with (the modern envelope) are spliced in the same way
// instead of copying each result to add them.
import { brand } from "./brand.js";
import type { JsonRpcMessage } from "./messages.js";

/** A JSON value kept as its serialised text. */
export class RawJson {
  static {
    brand(this, "RawJson");
  }

  constructor(readonly json: string) {}
  /** Keeps plain JSON.stringify correct when a RawJson travels through a generic path. */
  toJSON(): unknown {
    return JSON.parse(this.json);
  }
}

/**
 * A result object followed by members already serialised (`tail`: `"key":value,...`), which
 * it must not have itself. Keeps plain JSON.stringify correct through `toJSON`.
 */
export class ResultWithTail {
  static {
    brand(this, "ResultWithTail");
  }

  constructor(
    readonly result: Record<string, unknown>,
    readonly tail: string,
  ) {}
  toJSON(): unknown {
    return { ...this.result, ...(JSON.parse(`{${this.tail}}`) as object) };
  }
}

/** An id as JSON: a BigInt id (past 2^53, see parseMessage) as its digits. */
const idJson = (id: unknown): string => (typeof id === "bigint" ? id.toString() : JSON.stringify(id));

/** JSON text of a message, splicing a RawJson result or a ResultWithTail's tail without re-serialising them. */
export function serializeMessage(message: JsonRpcMessage): string {
  const result = (message as { result?: unknown }).result;
  const id = (message as { id?: unknown }).id;
  if (result instanceof RawJson) return `{"jsonrpc":"2.0","id":${idJson(id)},"result":${result.json}}`;
  if (result instanceof ResultWithTail) {
    const own = JSON.stringify(result.result);
    return `{"jsonrpc":"2.0","id":${idJson(id)},"result":${own.length > 2 ? `${own.slice(0, -1)},` : "{"}${result.tail}}}`;
  }
  if (typeof id === "bigint") {
    // JSON.stringify cannot write a BigInt: write the id, then the rest of the message.
    const { jsonrpc: _jsonrpc, id: _id, ...rest } = message as unknown as Record<string, unknown>;
    const tail = JSON.stringify(rest);
    return `{"jsonrpc":"2.0","id":${id.toString()}${tail.length > 2 ? `,${tail.slice(1)}` : "}"}`;
  }
  return JSON.stringify(message);
}
