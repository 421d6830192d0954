// Turning messages into text. Results that never change (precomputed list pages) are
// serialised once as RawJson and spliced into responses instead of stringified per request;
// members every result of a kind ends with (the modern envelope) are spliced in the same way
// instead of copying each result to add them.
import type { JsonRpcMessage } from "./messages.js";

/** A JSON value kept as its serialised text. */
export class RawJson {
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
  constructor(
    readonly result: Record<string, unknown>,
    readonly tail: string,
  ) {}
  toJSON(): unknown {
    return { ...this.result, ...(JSON.parse(`{${this.tail}}`) as object) };
  }
}

/** JSON text of a message, splicing a RawJson result or a ResultWithTail's tail without re-serialising them. */
export function serializeMessage(message: JsonRpcMessage): string {
  const result = (message as { result?: unknown }).result;
  if (result instanceof RawJson) {
    const id = (message as { id: string | number }).id;
    return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${result.json}}`;
  }
  if (result instanceof ResultWithTail) {
    const id = (message as { id: string | number }).id;
    const own = JSON.stringify(result.result);
    return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${own.length > 2 ? `${own.slice(0, -1)},` : "{"}${result.tail}}}`;
  }
  return JSON.stringify(message);
}
