// Text to message values. JSON.parse rounds integers past 2^53, so an id such as
// 9007199254740993 would come back as ...992 and the client could not match the answer:
// such ids are re-read from the text as BigInt, which serializeMessage writes back digit
// for digit. The same goes for `params.requestId` (notifications/cancelled names the request
// it cancels by it: rounded, it would cancel none, or another) and progress tokens
// (`params._meta.progressToken`, echoed in notifications/progress as `params.progressToken`). Everything else is
// JSON.parse's (the rare re-read costs nothing otherwise).

/** Parses one JSON text (a message or a batch); throws SyntaxError like JSON.parse. */
export function parseMessage(text: string): unknown {
  const value: unknown = JSON.parse(text);
  if (Array.isArray(value)) {
    if (value.some(hasUnsafeId)) restoreIds(text, value);
  } else if (hasUnsafeId(value)) restoreIds(text, [value]);
  return value;
}

const isUnsafeInteger = (value: unknown): boolean =>
  typeof value === "number" && Number.isInteger(value) && !Number.isSafeInteger(value);

type Holder = Record<string, unknown> | undefined;

/** Where a message may hold an integer that must keep its digits: [object, key] pairs. */
function idPlaces(value: unknown): [Holder, string][] {
  const params = (value as { params?: Holder } | null)?.params;
  return [
    [value as Holder, "id"],
    [params, "requestId"],
    [params, "progressToken"],
    [params?._meta as Holder, "progressToken"],
  ];
}

const hasUnsafeId = (value: unknown): boolean =>
  idPlaces(value).some(([holder, key]) => isUnsafeInteger(holder?.[key]));

/** A JSON text's strings (kept as they are) and number literals. */
const TOKENS = /"[^"\\]*(?:\\.[^"\\]*)*"|-?\d[\d.eE+-]*/g;

/**
 * In the lone message or in each element of the top-level array (`values` is that array, or
 * the lone message alone), replaces each unsafe integer of idPlaces with the BigInt of its
 * digits: read from the text parsed again with every integer literal quoted (so JSON.parse
 * keeps its digits), at the same place.
 */
function restoreIds(text: string, values: unknown[]): void {
  const quoted: unknown = JSON.parse(text.replace(TOKENS, (token) => (/^-?\d+$/.test(token) ? `"${token}"` : token)));
  const quotedValues = Array.isArray(quoted) ? quoted : [quoted];
  values.forEach((value, i) => {
    const quotedPlaces = idPlaces(quotedValues[i]);
    idPlaces(value).forEach(([holder, key], j) => {
      // The digits as a string (or an integer written with an exponent, as a number).
      if (isUnsafeInteger(holder?.[key])) holder![key] = BigInt(quotedPlaces[j]![0]![key] as string);
    });
  });
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
