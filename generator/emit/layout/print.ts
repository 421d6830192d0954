// Transitional: what the types and protocol emitters (rewritten in another branch, which
// stops importing generator/emit/layout/) still use. Delete once that branch merges.

export const printWidth = 100;

const quoteOrEscape = /["'\\]/;

/** A string literal as prettier writes it: double quotes unless the text holds more of them than single quotes. */
export function printString(raw: string): string {
  const content = raw.slice(1, -1);
  // Without quotes or escapes inside, only the quotes can change.
  if (!quoteOrEscape.test(content)) return `"${content}"`;
  const doubles = (content.match(/"/g) ?? []).length;
  const singles = (content.match(/'/g) ?? []).length;
  const quote = doubles > singles ? "'" : '"';
  const other = quote === '"' ? "'" : '"';
  const body = content.replace(/\\(.)|(["'])/gsu, (match, escaped: string | undefined, q: string | undefined) => {
    if (escaped === other) return escaped;
    if (q === quote) return `\\${q}`;
    if (q) return q;
    return /^[^\n\r"'0-7\\bfnrt-vx\u2028\u2029]$/.test(escaped!) ? escaped! : `\\${escaped!}`;
  });
  return quote + body + quote;
}

/** A number literal as prettier normalises it. */
export function printNumber(raw: string): string {
  return raw
    .toLowerCase()
    .replace(/^([+-]?[\d.]+e)(?:\+|(-))?0*(\d)/, "$1$2$3")
    .replace(/^([+-]?[\d.]+)e[+-]?0+$/, "$1")
    .replace(/^([+-])?\./, "$10.")
    .replace(/(\.\d+?)0+(?=e|$)/, "$1")
    .replace(/\.(?=e|$)/, "");
}

export interface Unit {
  /** The unit's code (laid out when `formatted`). */
  readonly text: string;
  readonly formatted: boolean;
}

