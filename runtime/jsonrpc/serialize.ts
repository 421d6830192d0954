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

/** JSON text of a message, splicing a RawJson result or a ResultWithTail's tail without re-serialising them. */
export function serializeMessage(message: JsonRpcMessage): string {
  const result = (message as { result?: unknown }).result;
  const id = (message as { id?: unknown }).id;
  if (result instanceof RawJson) return `{"jsonrpc":"2.0","id":${withBigInts(id)},"result":${result.json}}`;
  if (result instanceof ResultWithTail) {
    const own = JSON.stringify(result.result);
    return `{"jsonrpc":"2.0","id":${withBigInts(id)},"result":${own.length > 2 ? `${own.slice(0, -1)},` : "{"}${result.tail}}}`;
  }
  try {
    return JSON.stringify(message);
  } catch {
    return withBigInts(message); // JSON.stringify cannot write a BigInt (see parseMessage).
  }
}

/**
 * JSON text of a value holding BigInts, each written as its digits: marked as strings `mark`
 * + digits, then unquoted (keys never are: they come before a colon). A longer mark is tried
 * when a string of the value starts with it, so that the value's own text stays as it is.
 */
function withBigInts(value: unknown, mark = "\0"): string {
  let clash = false;
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v === "bigint") return mark + v;
    clash ||= typeof v === "string" && v.startsWith(mark);
    return v;
  });
  return clash
    ? withBigInts(value, mark + "\0")
    : text.replace(RegExp(`"(\\\\u0000){${mark.length}}(-?\\d+)"(?!:)`, "g"), "$2");
}
