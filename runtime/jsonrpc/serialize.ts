// Turning messages into text. Results that never change (precomputed list pages) are
// serialised once as RawJson and spliced into responses instead of stringified per request.
import type { JsonRpcMessage } from "./messages.js";

/** A JSON value kept as its serialised text. */
export class RawJson {
  constructor(readonly json: string) {}
  /** Keeps plain JSON.stringify correct when a RawJson travels through a generic path. */
  toJSON(): unknown {
    return JSON.parse(this.json);
  }
}

/** JSON text of a message, splicing a RawJson result without re-serialising it. */
export function serializeMessage(message: JsonRpcMessage): string {
  const result = (message as { result?: unknown }).result;
  if (result instanceof RawJson) {
    const id = (message as { id: string | number }).id;
    return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${result.json}}`;
  }
  return JSON.stringify(message);
}
