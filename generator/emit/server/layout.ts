// The small fixed-shape declarations of server.gen.ts written in prettier's layout, so
// they skip the formatter: the Names interface (unions of string literals) and the
// create function. Shapes outside what is modelled here give undefined, and the caller
// leaves the unit to prettier.
import { stringCode } from "../layout/literals.js";
import { printWidth } from "../layout/print.js";
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

/** `return callee<TypeArgs>(args);` as the body of a function. */
export interface ReturnCall {
  readonly callee: string;
  readonly typeArguments: readonly string[];
  readonly args: readonly string[];
}

/**
 * `export function name(params): Return {` returning one call of names: the header on one
 * line when it fits, else one parameter per line; the call on one line when it fits, else
 * one argument per line (with a trailing comma). Type arguments or parameters that do not
 * fit are not modelled.
 */
export function functionDeclaration(comment: string, name: string, params: readonly string[], returnType: string, body: ReturnCall): string | undefined {
  const oneLine = `export function ${name}(${params.join(", ")}): ${returnType} {`;
  const header = fits(oneLine) ? [oneLine] : [`export function ${name}(`, ...params.map((p) => `  ${p},`), `): ${returnType} {`];
  if (params.length === 0 && header.length > 1) return undefined;
  if (!header.every(fits)) return undefined;
  const callee = `${body.callee}${body.typeArguments.length > 0 ? `<${body.typeArguments.join(", ")}>` : ""}`;
  const flat = `  return ${callee}(${body.args.join(", ")});`;
  const call = fits(flat) ? [flat] : [`  return ${callee}(`, ...body.args.map((a) => `    ${a},`), "  );"];
  if (body.args.length === 0 && call.length > 1) return undefined;
  if (!call.every(fits)) return undefined;
  return `${comment}${header.join("\n")}\n${call.join("\n")}\n}\n`;
}
