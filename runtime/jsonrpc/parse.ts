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

/**
 * Walks `text` (known to be valid JSON) and, in the lone message or in each object element of
 * the top-level array (`values` is that array, or the lone message alone), replaces an unsafe
 * integer `id`, and `requestId` in its `params`, with the BigInt of its digits.
 */
function restoreIds(text: string, values: unknown[]): void {
  // Members of a lone message are at depth 1; of a batch's messages, depth 2.
  const topDepth = text.trimStart().startsWith("[") ? 2 : 1;
  // Open containers, innermost last: true for an object (whose strings after { or , are keys).
  const objects: boolean[] = [];
  // Which element of `values` the walk is in: a batch's elements are counted by their commas,
  // whatever they are (objects, numbers, strings...).
  let element = 0;
  let expectKey = false;
  // The key last read at the message's depth: whether an object opened there is `params`.
  let memberKey = "";
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const depth = objects.length;
    if (c === 0x22 /* " */) {
      let j = i + 1;
      while (j < text.length && text.charCodeAt(j) !== 0x22) j += text.charCodeAt(j) === 0x5c /* \ */ ? 2 : 1;
      const key = expectKey && objects[depth - 1] === true ? text.slice(i, j + 1) : undefined;
      if (depth === topDepth && key !== undefined) memberKey = key;
      const message = values[element] as { id?: unknown } | undefined;
      if (depth === topDepth && key === '"id"' && isUnsafeInteger(message?.id)) {
        const digits = integerAfter(text, j + 1);
        if (digits !== undefined) message!.id = BigInt(digits);
      } else if (depth === topDepth + 1 && memberKey === '"params"' && key === '"requestId"') {
        const params = paramsOf(message);
        const digits = isUnsafeInteger(params?.requestId) ? integerAfter(text, j + 1) : undefined;
        if (digits !== undefined) params!.requestId = BigInt(digits);
      }
      expectKey = false;
      i = j;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      objects.push(c === 0x7b);
      expectKey = c === 0x7b;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      objects.pop();
    } else if (c === 0x2c /* , */) {
      if (topDepth === 2 && depth === 1) element++;
      expectKey = objects[depth - 1] === true;
    }
  }
}

/** The integer literal after the colon that follows position `k` (just past a key), if it is one. */
function integerAfter(text: string, k: number): string | undefined {
  while (k < text.length && text[k] !== ":") k++;
  k++;
  while (text[k] === " " || text[k] === "\t" || text[k] === "\n" || text[k] === "\r") k++;
  return /^-?\d+(?=[\s,}])/.exec(text.slice(k, k + 400))?.[0];
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
