// The server definition (routing tables, validators, list payloads) is one long object
// literal. Its values are built here twice over: as code text, for the general statement
// layout and prettier, and as layout nodes, which data.ts prints straight in prettier's
// layout without parsing the text back. Values data.ts does not model become code nodes,
// and the whole declaration then takes the general path.
import { jsonLiteral, propertyKey, stringLiteral } from "../escape.js";
import { arrowNode, codeNode, dataKey, dataNode, layoutDataDeclaration, layoutDataProperty, stringNode, textNode, type DataNode } from "../layout/data.js";
import { printWidth, statementsUnit, type Unit, type UnitPiece } from "../layout/print.js";
import { fitsWidth } from "../layout/width.js";

/** A value of the definition: its code, and its layout node (built only when laid out). */
export interface DefinitionValue {
  readonly code: string;
  readonly node: () => DataNode;
}

/** Code data.ts does not model (a block body, a regular expression). */
export const code = (text: string): DefinitionValue => ({ code: text, node: () => codeNode(text) });

/** An identifier, `true` or another unbreakable token. */
export const token = (text: string): DefinitionValue => ({ code: text, node: () => textNode(text) });

export const string = (value: string): DefinitionValue => ({ code: stringLiteral(value), node: () => stringNode(value) });

/** JSON data written on one line (jsonLiteral). */
export const json = (value: unknown): DefinitionValue => ({ code: jsonLiteral(value), node: () => dataNode(value, false) });

/** `params => body`, params written `(a, b)`. */
export const arrow = (params: string, body: string): DefinitionValue => ({ code: `${params} => ${body}`, node: () => arrowNode(params, body) });

/** `{ key: value, … }` on one line; undefined values are left out. */
export function record(entries: readonly (readonly [key: string, value: DefinitionValue | undefined])[]): DefinitionValue {
  const present = entries.filter((entry): entry is readonly [string, DefinitionValue] => entry[1] !== undefined);
  return {
    code: present.length === 0 ? "{}" : `{ ${present.map(([k, v]) => `${propertyKey(k)}: ${v.code}`).join(", ")} }`,
    node: () => objectNode(present, false),
  };
}

/** `[a, b]`. */
export function list(items: readonly DefinitionValue[]): DefinitionValue {
  return { code: `[${items.map((i) => i.code).join(", ")}]`, node: () => ({ kind: "array", elements: items.map((i) => i.node()) }) };
}

function objectNode(entries: readonly (readonly [string, DefinitionValue])[], expanded: boolean): DataNode {
  return { kind: "object", entries: entries.map(([k, v]) => [dataKey(k), v.node()] as const), expanded: expanded && entries.length > 0 };
}

/**
 * `${comment}${head} = { key: value, … };`, the object written expanded (one entry per
 * line), as a unit laid out directly, or by the general paths when a value is outside
 * data.ts's model. Then the entries data.ts models are still laid out here and only the
 * others (a template's pattern and read function, a declarative prompt's body,
 * completers) go to prettier, one by one: a 1000-tool manifest with one declarative
 * prompt does not send its whole tool table through prettier.
 */
export function definitionUnit(comment: string, head: string, entries: readonly (readonly [key: string, value: DefinitionValue | undefined])[]): Unit {
  const present = entries.filter((entry): entry is readonly [string, DefinitionValue] => entry[1] !== undefined);
  const direct = layoutDataDeclaration(head, () => objectNode(present, true));
  if (direct !== undefined) return { text: `${comment}${direct}`, formatted: true };
  const body = present.map(([k, v]) => `  ${propertyKey(k)}: ${v.code},\n`).join("");
  const general = statementsUnit(comment, [`${head} = {\n${body}};`]);
  if (general.formatted || !fitsWidth(`${head} = {`, printWidth)) return general;
  const pieces: UnitPiece[] = [`${comment}${head} = {\n`];
  for (const [key, value] of present) pieces.push(layoutDataProperty(key, value.node) ?? { property: `${propertyKey(key)}: ${value.code}` });
  pieces.push("};\n");
  return { ...general, pieces };
}
