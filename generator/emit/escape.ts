// Every string that comes from a user (manifest, referenced schema) or from the protocol
// schema reaches generated code through one of these functions, never spliced raw.

/**
 * A TypeScript/JavaScript string literal for `value`. JSON.stringify escapes quotes,
 * backslashes and control characters; U+2028/U+2029 are escaped too so the literal is
 * also safe in older engines and readable in diffs. Backticks and `${` are inert inside
 * a double-quoted literal.
 */
export function stringLiteral(value: string): string {
  return JSON.stringify(value).replace(/[\u2028\u2029]/g, (c) => (c === "\u2028" ? "\\u2028" : "\\u2029"));
}

/**
 * A JS expression for plain JSON data (objects, arrays, strings, numbers, booleans, null).
 * An object literal with a "__proto__" key would set the prototype instead of a property,
 * so such data is emitted as JSON.parse of a string literal.
 */
export function jsonLiteral(value: unknown): string {
  const text = JSON.stringify(value);
  if (text === undefined) throw new TypeError("jsonLiteral: value is not JSON");
  if (hasProtoKey(value)) return `JSON.parse(${stringLiteral(text)})`;
  return text.replace(/[\u2028\u2029]/g, (c) => (c === "\u2028" ? "\\u2028" : "\\u2029"));
}

function hasProtoKey(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(hasProtoKey);
  if (value === null || typeof value !== "object") return false;
  return Object.keys(value).some((k) => k === "__proto__" || hasProtoKey((value as Record<string, unknown>)[k]));
}

const identifierPattern = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A property key usable in an object literal or type: bare when it is an identifier, quoted otherwise. */
export function propertyKey(name: string): string {
  return identifierPattern.test(name) && name !== "__proto__" ? name : stringLiteral(name);
}

/** `object.name` or `object["na-me"]`. */
export function propertyAccess(object: string, name: string): string {
  return identifierPattern.test(name) ? `${object}.${name}` : `${object}[${stringLiteral(name)}]`;
}

/**
 * The text of a doc comment body for `text`: neutralises `*\/` (which would end the
 * comment), line and paragraph separators, and control characters; keeps line breaks
 * as separate comment lines. Returns lines without the leading ` * `.
 */
export function docLines(text: string): string[] {
  return text
    .replace(/\r\n?/g, "\n")
    .replace(/[\u2028\u2029]/g, "\n")
    .replace(/\*\//g, "*\\/")
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)
    .split("\n")
    .map((line) => line.trimEnd());
}

/** A complete `/** ... *\/` block (with a trailing newline), or "" when there is no text. */
export function docComment(text: string | undefined, indent = ""): string {
  if (text === undefined || text.trim() === "") return "";
  const lines = docLines(text.trim());
  if (lines.length === 1) return `${indent}/** ${lines[0]} */\n`;
  return `${indent}/**\n${lines.map((l) => (l === "" ? `${indent} *` : `${indent} * ${l}`)).join("\n")}\n${indent} */\n`;
}

/** Text safe inside a `//` line comment: one line, no line terminators. */
export function lineCommentText(text: string): string {
  return text.replace(/[\r\n\u2028\u2029]+/g, " ");
}

/** A piece of code spliced verbatim into a `codeLiteral` (an identifier, an arrow function). */
export class Code {
  constructor(readonly text: string) {}
}

/**
 * A JS expression for JSON data with embedded `Code`. Object keys go through
 * propertyKey, except "__proto__", which is written as a computed key: in an object
 * literal a plain or quoted "__proto__" key would set the prototype instead.
 */
export function codeLiteral(value: unknown, indent = ""): string {
  if (value instanceof Code) return value.text;
  if (value === null || typeof value !== "object") return jsonLiteral(value);
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    return `[\n${value.map((v) => `${inner}${codeLiteral(v, inner)},`).join("\n")}\n${indent}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  if (entries.length === 0) return "{}";
  const key = (k: string) => (k === "__proto__" ? `[${stringLiteral(k)}]` : propertyKey(k));
  return `{\n${entries.map(([k, v]) => `${inner}${key(k)}: ${codeLiteral(v, inner)},`).join("\n")}\n${indent}}`;
}

/** Whether codeLiteral writes the same text for both values (compared without writing it). */
export function sameLiteral(a: unknown, b: unknown): boolean {
  if (a instanceof Code || b instanceof Code) return a instanceof Code && b instanceof Code && a.text === b.text;
  if (a === null || typeof a !== "object" || b === null || typeof b !== "object") {
    return a === b || (typeof a === "number" && typeof b === "number" && jsonLiteral(a) === jsonLiteral(b));
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => sameLiteral(v, b[i]));
  }
  const entries = (o: object) => Object.entries(o).filter(([, v]) => v !== undefined);
  const ea = entries(a);
  const eb = entries(b);
  return ea.length === eb.length && ea.every(([k, v], i) => k === eb[i]![0] && sameLiteral(v, eb[i]![1]));
}
