// Literals in generated code, written exactly as prettier prints them (and as ./print.ts
// prints them flat): validators, data tables and declarations written with them are final
// as written when they fit the print width, and need no parsing to be laid out.
import { stringLiteral } from "../escape.js";
import { printNumber } from "./print.js";

/**
 * Whether `value` holds a character JSON.stringify or stringLiteral escape (surrogates:
 * conservatively, paired or not) or the double quote, which may change prettier's choice
 * of quotes. A loop: most values are short messages, where a regular expression call costs more.
 */
function needsEscapeOrQuote(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c || c === 0x2028 || c === 0x2029 || (c >= 0xd800 && c <= 0xdfff)) return true;
  }
  return false;
}

/** A string literal for `value` in prettier's form: its choice of quotes and escapes. */
export function stringCode(value: string): string {
  // Most text needs no escapes: then the literal is the text in double quotes (as
  // JSON.stringify would write it, only faster).
  if (!needsEscapeOrQuote(value)) return `"${value}"`;
  const literal = stringLiteral(value);
  // prettier keeps the double-quoted form unless the text holds more double quotes than
  // single ones; then it switches quotes: `\"` loses its backslash and `'` gains one (no
  // other escape changes, and JSON writes every `"` as `\"`).
  if (count(value, '"') <= count(value, "'")) return literal;
  return `'${literal.slice(1, -1).replaceAll('\\"', '"').replaceAll("'", "\\'")}'`;
}

function count(text: string, character: string): number {
  let n = 0;
  for (let at = text.indexOf(character); at !== -1; at = text.indexOf(character, at + 1)) n++;
  return n;
}

/** A number as prettier normalises it (`1e+21` becomes `1e21`); Infinity stays a name. */
export function numberCode(value: number): string {
  const text = String(value);
  // Integers below 1e21 are written plainly already.
  if (Number.isSafeInteger(value)) return text;
  return Number.isFinite(value) ? printNumber(text) : text;
}

const asciiIdentifier = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const printableAscii = /^[\x20-\x7e]*$/;
/** A character no identifier holds (ES5 identifiers: letters, marks, digits, connectors, $, ZWNJ, ZWJ), or one beyond the BMP, which prettier's test never accepts. */
const outsideIdentifiers = /[^\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}$\u200C\u200D]|[\u{10000}-\u{10FFFF}]/u;
const identifierStart = /^[\p{L}\p{Nl}$_]/u;

/**
 * Whether prettier (quoteProps "as-needed") prints the property key `name` bare: ASCII
 * identifiers yes, keys no identifier could spell no. Undefined for other non-ASCII
 * names (`你好`, `ß`): prettier unquotes ES5 identifier names by its own Unicode tables,
 * which are not reproduced here, so callers leave such keys to prettier.
 */
export function bareKey(name: string): boolean | undefined {
  if (asciiIdentifier.test(name)) return true;
  if (printableAscii.test(name) || outsideIdentifiers.test(name) || !identifierStart.test(name)) return false;
  return undefined;
}

/**
 * JSON data as an expression that creates a fresh copy, printed flat the way prettier
 * prints it (`{ a: 1, "b-c": [true, null] }`). An object literal with a "__proto__" key
 * would set the prototype instead of creating the property, so such data goes through
 * JSON.parse.
 */
export function dataCode(value: unknown): string {
  // Primitives (most enum and const members) print directly; JSON writes non-finite numbers as null.
  if (typeof value === "string") return stringCode(value);
  if (typeof value === "number") return Number.isFinite(value) ? numberCode(value) : "null";
  if (typeof value === "boolean" || value === null) return String(value);
  const json = JSON.stringify(value);
  if (json === undefined) throw new TypeError("dataCode: value is not JSON");
  // Printed from the parsed JSON text, so the data is exactly what JSON would carry.
  return keysNeedParse(value) ? `JSON.parse(${stringCode(json)})` : flatData(JSON.parse(json));
}

function flatData(value: unknown): string {
  if (value === null || typeof value === "boolean") return String(value);
  if (typeof value === "number") return numberCode(value);
  if (typeof value === "string") return stringCode(value);
  if (Array.isArray(value)) return `[${value.map(flatData).join(", ")}]`;
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return "{}";
  // prettier's quoteProps "as-needed": a key that is an identifier goes unquoted.
  return `{ ${entries.map(([key, v]) => `${bareKey(key) ? key : stringCode(key)}: ${flatData(v)}`).join(", ")} }`;
}

/** A "__proto__" key (which would set the prototype), or a key prettier may or may not unquote: the data is written as JSON text instead. */
function keysNeedParse(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(keysNeedParse);
  if (value === null || typeof value !== "object") return false;
  return Object.keys(value).some((k) => k === "__proto__" || bareKey(k) === undefined || keysNeedParse((value as Record<string, unknown>)[k]));
}
