// A small TypeScript type syntax tree and its printer: the one canonical layout every
// generated type is written in. The layout is our own (no formatter runs) and fixed:
//
// - 2-space indentation; a declaration's doc comment sits on the lines above it.
// - An object literal type (and an interface body) has one member per line, each ending in
//   `;`, its doc comment above it; an empty one is `{}`. Index signatures are members:
//   `[k: string]: T;`.
// - A union or intersection is written on one line, members joined by ` | ` / ` & `, when it
//   holds no object literal and the whole line stays within 100 columns (counted in UTF-16
//   code units); otherwise each member goes on its own line, one level deeper, starting
//   with `| ` or `& `, and a member's own continuation lines (an object literal's members
//   and closing brace) are indented past that mark. A broken type after `name:` or
//   `type X =` starts on the next line.
// - Parentheses only where precedence needs them: a union or intersection as an array
//   element (`(A | B)[]`) or before a tuple element's `?`, a union inside an intersection,
//   and a broken union or intersection that must start on the current line.
// - A tuple is one line (`[A, B?, ...C[]]`) when it fits and holds no object literal, else
//   one element per line with trailing commas.
// - Optional properties are `name?: T | undefined` (exactOptionalPropertyTypes); `readonly`
//   is never written.
// - Property keys are bare identifiers or string literals (escape.ts's propertyKey), literal
//   types are escape.ts's string literals and numberLiteral below, and every doc comment goes
//   through escape.ts's docComment, so no text from a schema can leave its comment or string.
import { docComment, propertyKey, stringLiteral } from "../escape.js";

export type TypeNode =
  | {
      readonly kind: "keyword";
      readonly name: "string" | "number" | "boolean" | "null" | "undefined" | "unknown" | "never";
    }
  /** A named type (or an indexed access such as `Foo["params"]`), written as given. */
  | { readonly kind: "reference"; readonly name: string }
  /** A literal type, already written (see literalType). */
  | { readonly kind: "literal"; readonly text: string }
  | { readonly kind: "union"; readonly members: readonly TypeNode[] }
  | { readonly kind: "intersection"; readonly members: readonly TypeNode[] }
  | { readonly kind: "array"; readonly element: TypeNode }
  | { readonly kind: "tuple"; readonly elements: readonly TupleElement[]; readonly rest: TypeNode | undefined }
  | { readonly kind: "object"; readonly members: readonly TypeMember[] };

export interface TupleElement {
  readonly type: TypeNode;
  readonly optional: boolean;
}

export type TypeMember =
  | {
      readonly kind: "property";
      readonly name: string;
      readonly optional: boolean;
      readonly type: TypeNode;
      readonly doc?: string | undefined;
    }
  | { readonly kind: "index"; readonly type: TypeNode; readonly doc?: string | undefined };

export const keyword = (name: Extract<TypeNode, { kind: "keyword" }>["name"]): TypeNode => ({ kind: "keyword", name });
export const reference = (name: string): TypeNode => ({ kind: "reference", name });
export const unknownType = keyword("unknown");
export const neverType = keyword("never");

/** Columns a line may take before a union or intersection breaks over several lines. */
export const lineWidth = 100;

/**
 * A number as a TypeScript numeric literal type: `-0` is written `0` (there is no negative
 * zero literal type), non-finite numbers are not JSON and are refused.
 */
export function numberLiteral(value: number): string {
  if (!Number.isFinite(value)) throw new TypeError(`numberLiteral: ${String(value)} is not a JSON number`);
  return Object.is(value, -0) ? "0" : String(value);
}

/**
 * The literal type of a JSON value: strings, numbers, booleans and null as themselves,
 * arrays as tuples, objects as object literal types with every key required.
 */
export function literalType(value: unknown): TypeNode {
  if (value === null) return keyword("null");
  if (typeof value === "string") return { kind: "literal", text: stringLiteral(value) };
  if (typeof value === "number") return { kind: "literal", text: numberLiteral(value) };
  if (typeof value === "boolean") return { kind: "literal", text: String(value) };
  if (Array.isArray(value))
    return { kind: "tuple", elements: value.map((v) => ({ type: literalType(v), optional: false })), rest: undefined };
  if (typeof value === "object") {
    return {
      kind: "object",
      members: Object.entries(value).map(([name, v]) => ({
        kind: "property",
        name,
        optional: false,
        type: literalType(v),
      })),
    };
  }
  throw new TypeError(`literalType: ${typeof value} is not JSON`);
}

/**
 * A union of `members`: nested unions flattened, repeated members (same text) and `never`
 * dropped, `unknown` absorbing the rest; one member stands alone, none is `never`.
 */
export function union(members: readonly TypeNode[]): TypeNode {
  return combine("union", members);
}

/** An intersection of `members`: nested ones flattened, repeats and `unknown` dropped; `never` absorbs the rest. */
export function intersection(members: readonly TypeNode[]): TypeNode {
  return combine("intersection", members);
}

function combine(kind: "union" | "intersection", members: readonly TypeNode[]): TypeNode {
  if (members.length === 1 && members[0]!.kind !== kind) return members[0]!;
  const identity = kind === "union" ? "never" : "unknown";
  const absorbing = kind === "union" ? "unknown" : "never";
  const out: TypeNode[] = [];
  const seen = new Set<string | TypeNode>();
  const add = (node: TypeNode): boolean => {
    if (node.kind === kind) return node.members.every(add);
    if (node.kind === "keyword" && node.name === absorbing) return false;
    if (node.kind === "keyword" && node.name === identity) return true;
    const key = typeKey(node) ?? node;
    if (!seen.has(key)) {
      seen.add(key);
      out.push(node);
    }
    return true;
  };
  if (!members.every(add)) return keyword(absorbing);
  if (out.length === 0) return keyword(identity);
  return out.length === 1 ? out[0]! : { kind, members: out };
}

/**
 * A string that is the same for two nodes that print the same; object literal types are
 * compared by identity (undefined): two equal ones in one union are rare, and comparing
 * them would cost more than the repeat.
 */
function typeKey(node: TypeNode): string | undefined {
  switch (node.kind) {
    case "keyword":
    case "reference":
      return node.name;
    case "literal":
      return node.text;
    case "object":
      return undefined;
    case "array": {
      const element = typeKey(node.element);
      return element === undefined ? undefined : `${element}[]`;
    }
    case "tuple": {
      const parts = [
        ...node.elements.map((e) => typeKey(e.type)),
        ...(node.rest === undefined ? [] : [typeKey(node.rest)]),
      ];
      return parts.includes(undefined)
        ? undefined
        : `tuple(${node.elements.map((e, i) => `${parts[i]!}${e.optional ? "?" : ""}`).join(",")}${node.rest === undefined ? "" : `,...${parts.at(-1)!}`})`;
    }
    case "union":
    case "intersection": {
      const parts = node.members.map(typeKey);
      return parts.includes(undefined) ? undefined : `${node.kind}(${parts.join(",")})`;
    }
  }
}

/** Whether a node's text spans lines (it is, or holds, a non-empty object literal). */
function multiline(node: TypeNode): boolean {
  switch (node.kind) {
    case "object":
      return node.members.length > 0;
    case "union":
    case "intersection":
      return node.members.some(multiline);
    case "array":
      return multiline(node.element);
    case "tuple":
      return node.elements.some((e) => multiline(e.type)) || (node.rest !== undefined && multiline(node.rest));
    default:
      return false;
  }
}

/**
 * The text of `node`; `pad` is the indentation of the line it starts on (continuation
 * lines are indented from it), `column` how many columns precede it on that line, `after`
 * how many follow it on its last (e.g. 1 for the `;` that ends a member).
 */
export function printType(node: TypeNode, pad: string, column: number, after = 0): string {
  switch (node.kind) {
    case "keyword":
    case "reference":
      return node.name;
    case "literal":
      return node.text;
    case "array": {
      const element = node.element;
      if (element.kind === "union" || element.kind === "intersection")
        return `${parenthesized(element, pad, column, after + 2)}[]`;
      return `${printType(element, pad, column, after + 2)}[]`;
    }
    case "tuple":
      return printTuple(node, pad, column, after);
    case "object":
      return printObject(node.members, pad);
    case "union":
    case "intersection":
      return printCombination(node, pad, column, after);
  }
}

/**
 * One line when it fits (see the header), else a line break and one member per line,
 * `pad` plus two spaces in, each after `| ` or `& `; a member's own continuation lines
 * are indented past that mark.
 */
function printCombination(
  node: Extract<TypeNode, { kind: "union" | "intersection" }>,
  pad: string,
  column: number,
  after: number,
): string {
  const separator = node.kind === "union" ? " | " : " & ";
  const member = (m: TypeNode, memberPad: string, at: number) =>
    node.kind === "intersection" && m.kind === "union"
      ? parenthesized(m, memberPad, at, 0)
      : inline(m, memberPad, at, 0);
  if (!multiline(node)) {
    const flat = node.members.map((m) => member(m, pad, 0)).join(separator);
    if (!flat.includes("\n") && column + flat.length + after <= lineWidth) return flat;
  }
  const linePad = `${pad}  `;
  const memberPad = `${linePad}  `;
  const lead = separator.trim();
  return node.members.map((m) => `\n${linePad}${lead} ${member(m, memberPad, memberPad.length)}`).join("");
}

/** A type that starts on the current line: a union or intersection that breaks over lines goes in parentheses. */
function inline(node: TypeNode, pad: string, column: number, after: number): string {
  const text = printType(node, pad, column, after);
  return text.startsWith("\n") ? parenthesized(node, pad, column, after) : text;
}

/** `(A | B)`: on one line when it fits, else the members one per line inside the parentheses. */
function parenthesized(node: TypeNode, pad: string, column: number, after: number): string {
  const inner = printType(node, pad, column + 1, after + 1);
  return inner.startsWith("\n") ? `(${inner}\n${pad})` : `(${inner})`;
}

function printTuple(node: Extract<TypeNode, { kind: "tuple" }>, pad: string, column: number, after: number): string {
  // `A | B` needs parentheses only before the `?` of an optional element
  const element = (e: TupleElement, elementPad: string, at: number) =>
    e.optional && (e.type.kind === "union" || e.type.kind === "intersection")
      ? `${parenthesized(e.type, elementPad, at, 2)}?`
      : `${inline(e.type, elementPad, at, e.optional ? 2 : 1)}${e.optional ? "?" : ""}`;
  const rest = (restPad: string, at: number) =>
    node.rest === undefined ? [] : [`...${printType({ kind: "array", element: node.rest }, restPad, at + 3)}`];
  if (!multiline(node)) {
    const flat = `[${[...node.elements.map((e) => element(e, pad, 0)), ...rest(pad, 0)].join(", ")}]`;
    if (!flat.includes("\n") && column + flat.length + after <= lineWidth) return flat;
  }
  const elementPad = `${pad}  `;
  const lines = [
    ...node.elements.map((e) => element(e, elementPad, elementPad.length)),
    ...rest(elementPad, elementPad.length),
  ];
  return `[\n${lines.map((line) => `${elementPad}${line},`).join("\n")}\n${pad}]`;
}

const undefinedType = keyword("undefined");

/** `T | undefined`, the type of an optional property (`unknown` already holds undefined). */
function orUndefined(type: TypeNode): TypeNode {
  if (type.kind === "keyword" && (type.name === "unknown" || type.name === "undefined")) return type;
  if (type.kind === "keyword" && type.name === "never") return undefinedType;
  if (type.kind !== "union") return { kind: "union", members: [type, undefinedType] };
  return type.members.some((m) => m.kind === "keyword" && m.name === "undefined")
    ? type
    : { kind: "union", members: [...type.members, undefinedType] };
}

/** `{}` or `{` + one member per line + `}`: the closing brace at `pad`, the members two spaces in. */
export function printObject(members: readonly TypeMember[], pad: string): string {
  if (members.length === 0) return "{}";
  const memberPad = `${pad}  `;
  const lines = members.map((m) => {
    const head = m.kind === "index" ? "[k: string]: " : `${propertyKey(m.name)}${m.optional ? "?" : ""}: `;
    const type = m.kind === "property" && m.optional ? orUndefined(m.type) : m.type;
    const text = printType(type, memberPad, memberPad.length + head.length, 1);
    // a member whose type breaks over lines starts it on the next line (`name:` then `| A` …)
    return `${docComment(m.doc, memberPad)}${memberPad}${text.startsWith("\n") ? head.trimEnd() : head}${text};`;
  });
  return `{\n${lines.join("\n")}\n${pad}}`;
}

/**
 * `export interface Name {…}` when the type is an object literal, else
 * `export type Name = …;`, at nesting level `indent` (two spaces each), with its doc
 * comment; ends in a newline.
 */
export function printDeclaration(
  name: string,
  type: TypeNode,
  doc: string | undefined,
  indent = 0,
  objectAs: "interface" | "type" = "interface",
): string {
  const pad = "  ".repeat(indent);
  if (type.kind === "object") {
    const object = printObject(type.members, pad);
    return `${docComment(doc, pad)}${pad}${objectAs === "interface" ? `export interface ${name} ${object}` : `export type ${name} = ${object};`}\n`;
  }
  const head = `export type ${name} = `;
  const text = printType(type, pad, pad.length + head.length, 1);
  return `${docComment(doc, pad)}${pad}${text.startsWith("\n") ? head.trimEnd() : head}${text};\n`;
}
