// Transitional: only the types and protocol emitters (rewritten in another branch) still measure text. Delete once that branch merges.
// The column width of text as prettier measures it, for every direct layout. Printable
// ASCII is one column per character; other text goes to prettier's own getStringWidth
// (wide characters take two columns, combining marks none), loaded on first use from
// prettier's CommonJS build: generated code is almost all ASCII, and loading prettier
// takes a noticeable part of a run.
import { createRequire } from "node:module";

const notAscii = /[^\x20-\x7F]/u;
let measure: ((text: string) => number) | undefined;

export function textWidth(text: string): number {
  if (!notAscii.test(text)) return text.length;
  measure ??= (createRequire(import.meta.url)("prettier") as typeof import("prettier")).util.getStringWidth;
  return measure(text);
}

/** Whether `text` takes at most `available` columns. */
export function fitsWidth(text: string, available: number): boolean {
  // No character takes more than two columns: short text fits without being measured.
  return text.length * 2 <= available || textWidth(text) <= available;
}
