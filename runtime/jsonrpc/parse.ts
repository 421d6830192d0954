// Text to message values. JSON.parse rounds integers past 2^53, so an id such as
// 9007199254740993 would come back as ...992 and the client could not match the answer:
// such ids are re-read from the text as BigInt, which serializeMessage writes back digit
// for digit. Everything else is JSON.parse's (the rare re-read costs nothing otherwise).

/** Parses one JSON text (a message or a batch); throws SyntaxError like JSON.parse. */
export function parseMessage(text: string): unknown {
  const value: unknown = JSON.parse(text);
  if (Array.isArray(value)) {
    if (value.some(hasUnsafeId)) restoreIds(text, value);
  } else if (hasUnsafeId(value)) restoreIds(text, [value]);
  return value;
}

function hasUnsafeId(value: unknown): boolean {
  const id = (value as { id?: unknown } | null)?.id;
  return typeof id === "number" && Number.isInteger(id) && !Number.isSafeInteger(id);
}

/**
 * Walks `text` (known to be valid JSON) and, in the lone message or in each object element of
 * the top-level array (`values` is that array, or the lone message alone), replaces an unsafe
 * integer `id` with the BigInt of its digits.
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
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const depth = objects.length;
    if (c === 0x22 /* " */) {
      let j = i + 1;
      while (j < text.length && text.charCodeAt(j) !== 0x22) j += text.charCodeAt(j) === 0x5c /* \ */ ? 2 : 1;
      if (depth === topDepth && expectKey && objects[depth - 1] === true && text.slice(i, j + 1) === '"id"') {
        let k = j + 1;
        while (k < text.length && text[k] !== ":") k++;
        k++;
        while (text[k] === " " || text[k] === "\t" || text[k] === "\n" || text[k] === "\r") k++;
        const match = /^-?\d+(?=[\s,}])/.exec(text.slice(k, k + 400));
        const target = values[element] as { id?: unknown } | undefined;
        if (match && target && hasUnsafeId(target)) target.id = BigInt(match[0]);
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

/** A body that may hold a JSON-RPC answer: its value, or undefined when empty or not JSON. */
export function parseBody(text: string): unknown {
  if (text === "") return undefined;
  try {
    return parseMessage(text);
  } catch {
    return undefined;
  }
}
