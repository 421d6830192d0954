// A fast path for manifests written as plain JSON (which is YAML too): a small JSON
// parser that records the same positions as the YAML path, several times faster than a
// YAML parser on large generated manifests. Anything it does not accept exactly —
// duplicate keys, comments, trailing commas, anything YAML-only — gives undefined, and
// the YAML parser handles the text (and reports its problems).
import { childPointer, maxNestingDepth, setOwn, type JsonValue, type PositionIndex } from "./source.js";

class NotPlainJson extends Error {}

// Sticky patterns shared by every parse (a literal inside the parser would be a new object per value).
const escapedString = /"(?:[^"\\\u0000-\u001f]|\\.)*"/y;
const scalar = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?|true|false|null/y;

/** The value of `text` when it is plain JSON, recording positions into `positions`; else undefined. */
export function parsePlainJson(text: string, positions: PositionIndex, recordDepth = Infinity): JsonValue | undefined {
  let i = 0;
  const fail = (): never => {
    throw new NotPlainJson();
  };
  const space = () => {
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
      else return;
    }
  };
  const string = (): string => {
    const start = i;
    const end = text.indexOf('"', i + 1);
    if (end < 0) fail();
    let j = i + 1;
    // a backslash or a control character: let JSON.parse read the literal
    for (; j < end; j++) {
      const c = text.charCodeAt(j);
      if (c === 0x5c || c < 0x20) break;
    }
    if (j === end) {
      i = end + 1;
      return text.slice(start + 1, end);
    }
    escapedString.lastIndex = start;
    const found = escapedString.exec(text) ?? fail();
    i = start + found[0].length;
    return JSON.parse(found[0]) as string;
  };
  /** After an entry: true when a comma announces another, false at the closing bracket. */
  const another = (close: string): boolean => {
    space();
    const c = text[i++];
    if (c !== "," && c !== close) fail();
    return c === ",";
  };
  // `pointer` is undefined below the recorded depth: nothing there is recorded (or even named).
  const childOf = (pointer: string | undefined, depth: number, token: string | number) => (pointer !== undefined && depth < recordDepth ? childPointer(pointer, token) : undefined);
  const value = (pointer: string | undefined, depth: number): JsonValue => {
    // Too deep to be a manifest: the YAML path reports it with a position.
    if (depth > maxNestingDepth) fail();
    space();
    const start = i;
    const c = text[i];
    let result: JsonValue;
    if (c === "{") {
      i++;
      const out: { [key: string]: JsonValue } = {};
      space();
      if (text[i] === "}") i++;
      else {
        do {
          space();
          if (text[i] !== '"') fail();
          const keyAt = i;
          const key = string();
          if (Object.prototype.hasOwnProperty.call(out, key)) fail();
          space();
          if (text[i++] !== ":") fail();
          const child = childOf(pointer, depth, key);
          if (child !== undefined) positions.setKey(child, keyAt);
          setOwn(out, key, value(child, depth + 1));
        } while (another("}"));
      }
      result = out;
    } else if (c === "[") {
      i++;
      const out: JsonValue[] = [];
      space();
      if (text[i] === "]") i++;
      else {
        do out.push(value(childOf(pointer, depth, out.length), depth + 1));
        while (another("]"));
      }
      result = out;
    } else if (c === '"') {
      result = string();
    } else {
      scalar.lastIndex = i;
      const found = scalar.exec(text) ?? fail();
      const literal = found[0];
      i += literal.length;
      // Number() reads every JSON number literal as JSON.parse does.
      result = literal === "true" ? true : literal === "false" ? false : literal === "null" ? null : Number(literal);
      if (typeof result === "number" && !Number.isFinite(result)) fail();
    }
    if (pointer !== undefined) positions.setValue(pointer, start, i);
    return result;
  };
  try {
    space();
    if (text[i] !== "{" && text[i] !== "[") return undefined;
    const result = value("", 0);
    space();
    return i === text.length ? result : undefined;
  } catch (error) {
    if (error instanceof NotPlainJson) return undefined;
    throw error;
  }
}
