// Long arrays of generated entries (the tools of a large API), written in typed parts.
// TypeScript types an array literal by the union of its element types and reduces that
// union pair by pair; past about a million pairs (1,000 entries of distinct types) it gives
// up with TS2590 "Expression produces a union type that is too complex to represent". Parts
// declared with the array's type keep each union small, and spreading them adds none.
import { Verbatim, codeLiteral } from "../escape.js";
import type { CodeWriter } from "../file.js";

/**
 * The most entries one array literal holds. The pairs grow with the square of a part's
 * length, so short parts also check faster (autotask.net's 2,958 tools: a third less
 * check time with parts of 100 than with parts of 500).
 */
export const entriesPerPart = 100;

/**
 * `entries` for a codeLiteral: themselves when there are at most entriesPerPart, else
 * `[...name1, ...name2, …]` after writing the constants `name1`, `name2`, … of `type` (the
 * array's type) that hold them, entriesPerPart each, under a comment that says why.
 */
export function inParts(w: CodeWriter, name: string, type: string, entries: readonly unknown[]): unknown {
  if (entries.length <= entriesPerPart) return entries;
  w.line(`// ${name} in parts: as one array literal, its union of entry types is too large for TypeScript (TS2590).`);
  const parts: Verbatim[] = [];
  for (let start = 0; start < entries.length; start += entriesPerPart) {
    const part = `${name}${parts.length + 1}`;
    w.line(`const ${part}: ${type} = ${codeLiteral(entries.slice(start, start + entriesPerPart))};`).line();
    parts.push(new Verbatim(`...${part}`));
  }
  return parts;
}
