// Transitional: what the types and protocol emitters (rewritten in another branch) still
// import. Delete once that branch merges.
import { printNumber } from "./print.js";

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
