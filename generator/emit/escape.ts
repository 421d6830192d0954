// Every string that comes from a user (manifest, referenced schema) or from the protocol
// schema reaches generated code through one of these functions, never spliced raw.
// Data literals follow one rule everywhere (see codeLiteral).

const lineSeparators = /[\u2028\u2029]/g;
const escapeSeparator = (c: string) => (c === "\u2028" ? "\\u2028" : "\\u2029");

/** What JSON.stringify would escape (quotes, backslashes, control characters, lone surrogates), and U+2028/U+2029. */
const needsEscape = /["\\\u0000-\u001f\u2028\u2029\ud800-\udfff]/;

/**
 * A TypeScript/JavaScript string literal for `value`, always double-quoted. JSON.stringify
 * escapes quotes, backslashes, control characters and lone surrogates; U+2028/U+2029 are
 * escaped too so the literal is readable in diffs. Backticks and `${` are inert inside a
 * double-quoted literal.
 */
export function stringLiteral(value: string): string {
  // Most strings (names, keywords, plain text) hold nothing to escape: quoted as they are.
  if (!needsEscape.test(value)) return `"${value}"`;
  const literal = JSON.stringify(value);
  return literal.includes("\u2028") || literal.includes("\u2029")
    ? literal.replace(lineSeparators, escapeSeparator)
    : literal;
}

/** A number literal; JSON has no non-finite numbers, so those are written as their global names. */
export function numberLiteral(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (!Number.isFinite(value)) return value > 0 ? "Infinity" : "-Infinity";
  return Object.is(value, -0) ? "-0" : String(value);
}

const identifierPattern = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A property key usable in an object literal or type: bare when it is an ASCII identifier, quoted otherwise. */
export function propertyKey(name: string): string {
  return identifierPattern.test(name) && name !== "__proto__" ? name : stringLiteral(name);
}

/** `object.name` or `object["na-me"]`. */
export function propertyAccess(object: string, name: string): string {
  return identifierPattern.test(name) ? `${object}.${name}` : `${object}[${stringLiteral(name)}]`;
}

/**
 * The text of a doc comment body for `text`: neutralises `*\/` (which would end the
 * comment), turns line and paragraph separators into line breaks, and escapes other
 * control characters; keeps line breaks as separate comment lines. Returns lines
 * without the leading ` * `.
 */
export function docLines(text: string): string[] {
  // Most descriptions are one line with nothing to rewrite: one test instead of four replacements and a split.
  const plain = !docRewrites.test(text);
  if (plain && !text.includes("\n")) return [text.trimEnd()];
  return (plain ? text : rewriteDocText(text)).split("\n").map((line) => line.trimEnd());
}

/** What docLines rewrites: CR, line and paragraph separators, `*\/`, other control characters. */
const docRewrites = /[\r\u2028\u2029\u0000-\u0008\u000b-\u001f\u007f]|\*\//;

function rewriteDocText(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .replace(lineSeparators, "\n")
    .replace(/\*\//g, "*\\/")
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/**
 * The one doc-comment style: `/** text *\/` when the text is one line, else a block with
 * one ` * ` line per line. Ends with a line break; "" when there is no text. `indent`
 * prefixes every line.
 */
export function docComment(text: string | undefined, indent = ""): string {
  if (text === undefined || text.trim() === "") return "";
  const lines = docLines(text.trim());
  if (lines.length === 1) return `${indent}/** ${lines[0]} */\n`;
  return `${indent}/**\n${lines.map((l) => (l === "" ? `${indent} *` : `${indent} * ${l}`)).join("\n")}\n${indent} */\n`;
}

/** A piece of code spliced verbatim into a `codeLiteral` (an identifier, an arrow function). */
export class Verbatim {
  constructor(readonly text: string) {}
}

/** The longest data literal written on one line (without its indentation). */
export const flatDataWidth = 80;

/**
 * A JS expression for JSON data with embedded `Verbatim`, in the one layout of data literals:
 * an object or array goes on one line when it holds no non-empty object or array, no
 * multi-line code, and its one-line text is at most `flatDataWidth` characters; otherwise
 * one entry per line, each ending in a comma, indented two spaces past `indent` (the
 * indentation of the line the literal starts on). Undefined entries of objects are left
 * out. "__proto__" keys are written computed (`["__proto__"]`): a plain or quoted one
 * would set the prototype instead of a property.
 */
export function codeLiteral(value: unknown, indent = ""): string {
  if (value instanceof Verbatim) return value.text.includes("\n") ? reindent(value.text, indent) : value.text;
  if (value === null || typeof value !== "object") return scalarLiteral(value);
  const inner = `${indent}  `;
  // Each entry's text (`key: value` in an object) is written once, at the indentation of the
  // multi-line layout: a scalar's or one-line code's text is the same in both layouts, and
  // any other item rules the one-line layout out.
  const entries: string[] = [];
  let flat = true;
  let width = 0; // of the entries, to skip joining a one-line text that cannot fit
  const isArray = Array.isArray(value);
  const keys = isArray ? undefined : Object.keys(value);
  const count = keys === undefined ? (value as unknown[]).length : keys.length;
  for (let i = 0; i < count; i++) {
    const item = keys === undefined ? (value as unknown[])[i] : (value as Record<string, unknown>)[keys[i]!];
    if (keys !== undefined && item === undefined) continue;
    if (item instanceof Verbatim ? item.text.includes("\n") : item !== null && typeof item === "object") flat = false;
    const entry = keys === undefined ? codeLiteral(item, inner) : `${dataKey(keys[i]!)}: ${codeLiteral(item, inner)}`;
    width += entry.length;
    entries.push(entry);
  }
  // Every entry is followed by ", " or a closing bracket, so the one-line text is at least this wide.
  if (flat && width + 2 * entries.length <= flatDataWidth) {
    const text = isArray ? `[${entries.join(", ")}]` : entries.length === 0 ? "{}" : `{ ${entries.join(", ")} }`;
    if (text.length <= flatDataWidth) return text;
  }
  const lines = entries.map((entry) => `${inner}${entry},`).join("\n");
  return isArray ? `[\n${lines}\n${indent}]` : `{\n${lines}\n${indent}}`;
}

/** JSON data on one line whatever its size (`{ a: 1, b: [true, null] }`): for data inside a one-line statement. */
export function inlineLiteral(value: unknown): string {
  if (value instanceof Verbatim) return value.text;
  if (value === null || typeof value !== "object") return scalarLiteral(value);
  if (Array.isArray(value)) return `[${value.map(inlineLiteral).join(", ")}]`;
  const entries = presentEntries(value);
  return entries.length === 0
    ? "{}"
    : `{ ${entries.map(([k, v]) => `${dataKey(k)}: ${inlineLiteral(v)}`).join(", ")} }`;
}

function scalarLiteral(value: unknown): string {
  if (typeof value === "string") return stringLiteral(value);
  // JSON writes non-finite numbers as null.
  if (typeof value === "number") return Number.isFinite(value) ? numberLiteral(value) : "null";
  if (typeof value === "boolean" || value === null) return String(value);
  throw new TypeError(`not JSON data: ${typeof value}`);
}

function presentEntries(value: object): [string, unknown][] {
  return Object.entries(value).filter(([, v]) => v !== undefined);
}

function dataKey(key: string): string {
  return key === "__proto__" ? `[${stringLiteral(key)}]` : propertyKey(key);
}

/** Multi-line code spliced at `indent`: its later lines move right by `indent`. */
function reindent(text: string, indent: string): string {
  return text.replace(/\n(?=[^\n])/g, `\n${indent}`);
}

/** Whether codeLiteral writes the same text for both values (compared without writing it). */
export function sameLiteral(a: unknown, b: unknown): boolean {
  if (a instanceof Verbatim || b instanceof Verbatim)
    return a instanceof Verbatim && b instanceof Verbatim && a.text === b.text;
  if (a === null || typeof a !== "object" || b === null || typeof b !== "object") {
    return a === b || (typeof a === "number" && typeof b === "number" && scalarLiteral(a) === scalarLiteral(b));
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => sameLiteral(v, b[i]));
  }
  const ea = presentEntries(a);
  const eb = presentEntries(b);
  return ea.length === eb.length && ea.every(([k, v], i) => k === eb[i]![0] && sameLiteral(v, eb[i]![1]));
}

/**
 * `value` as string literals to be concatenated, each at most `width` characters (quotes
 * included) unless one character's escape is wider, for large embedded data a reviewer
 * diffs: pieces end after each line break of the value and otherwise where the content
 * says (a rolling hash of the last characters), so an edit changes only the pieces around
 * it, even in a minified line or base64 data. Deterministic; never splits a surrogate pair.
 */
export function stringLiteralPieces(value: string, width: number): string[] {
  const pieces: string[] = [];
  const room = width - 2; // the quotes
  const minimum = Math.min(24, room);
  let start = 0;
  let used = 0;
  let hash = 0;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    const pair = code >= 0xd800 && code <= 0xdbff && i + 1 < value.length && isLowSurrogate(value.charCodeAt(i + 1));
    const end = pair ? i + 2 : i + 1;
    const cost = escapedWidth(value.slice(i, end));
    if (used > 0 && used + cost > room) {
      pieces.push(stringLiteral(value.slice(start, i)));
      start = i;
      used = 0;
    }
    used += cost;
    hash = ((hash << 1) + gear[code & 0xff]!) | 0;
    i = end - 1;
    if (code === 0x0a || (used >= minimum && (hash & 0x1f) === 0)) {
      pieces.push(stringLiteral(value.slice(start, end)));
      start = end;
      used = 0;
    }
  }
  if (start < value.length || pieces.length === 0) pieces.push(stringLiteral(value.slice(start)));
  return pieces;
}

const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/** The width of `text` (one character or a surrogate pair) inside a string literal. */
function escapedWidth(text: string): number {
  return needsEscape.test(text) ? stringLiteral(text).length - 2 : text.length;
}

/** A fixed table of 256 pseudo-random numbers (the "gear" of content-defined chunking), from a seeded xorshift. */
const gear = (() => {
  const table = new Int32Array(256);
  let state = 0x9e3779b9 | 0;
  for (let i = 0; i < 256; i++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    table[i] = state;
  }
  return table;
})();
