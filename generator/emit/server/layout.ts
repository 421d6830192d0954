// The small fixed-shape declarations of server.gen.ts written in prettier's layout, so
// they skip the formatter: the Names interface (unions of string literals) and the
// create function. Shapes outside what is modelled here give undefined, and the caller
// leaves the unit to prettier.
import { Unsupported } from "../layout/expression.js";
import { stringCode } from "../layout/literals.js";
import { layoutStatement, printWidth } from "../layout/print.js";
import { fitsWidth } from "../layout/width.js";

const fits = (line: string): boolean => fitsWidth(line, printWidth);

/**
 * `readonly key: "a" | "b";` at two spaces: on one line when it fits, else the union on
 * the next line, else prettier's broken union, one `| "member"` per line. `never` when empty.
 */
function unionMember(key: string, values: readonly string[]): string | undefined {
  const members = values.map(stringCode);
  const line = `  readonly ${key}: ${members.length === 0 ? "never" : members.join(" | ")};`;
  if (fits(line)) return line;
  // a single literal cannot break: not modelled
  if (members.length < 2) return undefined;
  // prettier breaks after the colon first, then between the members
  const next = `    ${members.join(" | ")};`;
  if (fits(next)) return `  readonly ${key}:\n${next}`;
  return [`  readonly ${key}:`, ...members.map((m, i) => `    | ${m}${i === members.length - 1 ? ";" : ""}`)].join("\n");
}

/** `export interface Name extends Base {` with one union member per entry, then `}`. */
export function namesInterface(comment: string, head: string, unions: readonly (readonly [key: string, values: readonly string[]])[]): string | undefined {
  if (!fits(head)) return undefined;
  const lines = [head];
  for (const [key, values] of unions) {
    const member = unionMember(key, values);
    if (member === undefined) return undefined;
    lines.push(member);
  }
  return `${comment}${lines.join("\n")}\n}\n`;
}

/**
 * `export function name(params): Return {` with a one-statement body: the header on one
 * line when it fits, else one parameter per line; the statement as the statement layout
 * prints it at two spaces.
 */
export function functionDeclaration(comment: string, name: string, params: readonly string[], returnType: string, statement: string): string | undefined {
  const oneLine = `export function ${name}(${params.join(", ")}): ${returnType} {`;
  const header = fits(oneLine) ? [oneLine] : [`export function ${name}(`, ...params.map((p) => `  ${p},`), `): ${returnType} {`];
  if (params.length === 0 && header.length > 1) return undefined;
  if (!header.every(fits)) return undefined;
  let body: string;
  try {
    body = layoutStatement(statement, 2);
  } catch (error) {
    if (error instanceof Unsupported) return undefined;
    throw error;
  }
  return `${comment}${header.join("\n")}\n${body}\n}\n`;
}
