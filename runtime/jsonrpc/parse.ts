// Text to message values. JSON.parse rounds integers past 2^53, so an id such as
// 9007199254740993 would come back as ...992 and the client could not match the answer:
// such ids are re-read from the text as BigInt, which serializeMessage writes back digit
// for digit. The same goes for `params.requestId` (notifications/cancelled names the request
// it cancels by it: rounded, it would cancel none, or another). Everything else is
// JSON.parse's (the rare re-read costs nothing otherwise).

/** Parses one JSON text (a message or a batch); throws SyntaxError like JSON.parse. */
export function parseMessage(text: string): unknown {
  const value: unknown = JSON.parse(text);
  if (Array.isArray(value)) {
    if (value.some(hasUnsafeId)) restoreIds(text, value);
  } else if (hasUnsafeId(value)) restoreIds(text, [value]);
  return value;
}

const isUnsafeInteger = (value: unknown): boolean => typeof value === "number" && Number.isInteger(value) && !Number.isSafeInteger(value);

/** The object holding `params.requestId`, if `value` has params. */
function paramsOf(value: unknown): { requestId?: unknown } | undefined {
  const params = (value as { params?: unknown } | null)?.params;
  return typeof params === "object" && params !== null ? (params as { requestId?: unknown }) : undefined;
}

function hasUnsafeId(value: unknown): boolean {
  return isUnsafeInteger((value as { id?: unknown } | null)?.id) || isUnsafeInteger(paramsOf(value)?.requestId);
}

/** A JSON text's strings (kept as they are) and number literals. */
const TOKENS = /"[^"\\]*(?:\\.[^"\\]*)*"|-?\d[\d.eE+-]*/g;

/**
 * In the lone message or in each element of the top-level array (`values` is that array, or
 * the lone message alone), replaces an unsafe integer `id`, and `requestId` in its `params`,
 * with the BigInt of its digits: read from the text parsed again with every integer literal
 * quoted (so JSON.parse keeps its digits), at the same place.
 */
function restoreIds(text: string, values: unknown[]): void {
  const quoted: unknown = JSON.parse(text.replace(TOKENS, (token) => (/^-?\d+$/.test(token) ? `"${token}"` : token)));
  const quotedValues = Array.isArray(quoted) ? quoted : [quoted];
  values.forEach((value, i) => {
    restore(value, quotedValues[i], "id");
    restore(paramsOf(value), paramsOf(quotedValues[i]), "requestId");
  });
}

/** `holder[key]`, when an unsafe integer, becomes the BigInt of the digits `quoted[key]` holds. */
function restore(holder: unknown, quoted: unknown, key: string): void {
  const digits = (quoted as Record<string, unknown> | null | undefined)?.[key];
  if (isUnsafeInteger((holder as Record<string, unknown> | null | undefined)?.[key]) && typeof digits === "string") (holder as Record<string, unknown>)[key] = BigInt(digits);
}

/** A body that may hold a JSON-RPC answer: its value, or undefined when empty or not JSON. */
export function parseBody(text: string): unknown {
  if (text === "") return undefined;
  try {
    return parseMessage(text);
  } catch {
    return undefined;
  }
}
