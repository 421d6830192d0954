// Declarations of the types we generate from JSON Schema (interfaces and type aliases made
// of object types, unions, arrays, tuples, literals and names, with JSDoc comments), and
// how prettier prints them: the documents built here mirror the ones prettier's estree
// printer builds for these constructs, printed with prettier's own doc printer. Two front
// ends produce these trees: ./types.ts from json-schema-to-typescript's output and
// ../types/schema-types.ts straight from a schema.
import type { Doc } from "prettier";
import { builders, printer } from "prettier/doc";
import { Unsupported } from "./expression.js";
import { printWidth } from "./print.js";
import { textWidth } from "./width.js";

const { group, indent, line, softline, hardline, ifBreak, align, indentIfBreak, lineSuffixBoundary } = builders;

export type TypeNode =
  /** `string`, `unknown`, `undefined`, `null`, …; also `void`, which only matters for hugging. */
  | { readonly kind: "keyword"; readonly text: string }
  | { readonly kind: "reference"; readonly name: string }
  /** A literal as prettier prints it (`"a"`, `-1`, `true`); `null` is a keyword. */
  | { readonly kind: "literal"; readonly text: string }
  | { readonly kind: "union"; readonly members: readonly TypeNode[] }
  | { readonly kind: "intersection"; readonly members: readonly TypeNode[] }
  /** Parentheses as written: they keep a union a single member of an enclosing union. */
  | { readonly kind: "parenthesized"; readonly type: TypeNode }
  | { readonly kind: "array"; readonly element: TypeNode }
  | { readonly kind: "tuple"; readonly elements: readonly TypeNode[] }
  /** `multiline`: written over several lines, which prettier keeps. */
  | { readonly kind: "object"; readonly members: readonly TypeMember[]; readonly multiline: boolean };

export interface TypeMember {
  /** JSDoc blocks before the member, each as written (`/** … *\/`). */
  readonly comments: readonly string[];
  /** The key as prettier prints it, or for an index signature `[k: string]`'s parameter. */
  readonly key: string;
  readonly index?: { readonly parameter: TypeNode };
  readonly optional: boolean;
  readonly type: TypeNode;
}

export type Declaration =
  | { readonly kind: "interface"; readonly comments: readonly string[]; readonly name: string; readonly members: readonly TypeMember[] }
  | { readonly kind: "alias"; readonly comments: readonly string[]; readonly name: string; readonly type: TypeNode };

type Context = "property" | "alias" | "union" | "intersection" | "array" | "tuple";

export const undefinedKeyword: TypeNode = { kind: "keyword", text: "undefined" };

/**
 * The declaration exactly as prettier prints it (printWidth 100), ending in a newline;
 * throws Unsupported outside the modelled shapes. `indent` places it inside a block (a
 * namespace): prettier measures every line from the margin, so that is the declaration
 * printed `indent` columns narrower with every line moved right.
 */
export function printDeclaration(declaration: Declaration, indent = 0): string {
  const width = printWidth - indent;
  let text: string;
  try {
    text = directDeclaration(declaration, width);
  } catch (error) {
    if (!(error instanceof Unsupported)) throw error;
    text = `${printDocument(declarationDoc(declaration), width)}\n`;
  }
  return indent === 0 ? text : indentLines(text, indent);
}

/** Every non-empty line moved `columns` to the right. */
export function indentLines(text: string, columns: number): string {
  const pad = " ".repeat(columns);
  return text.replace(/^(?=[^\n])/gm, pad);
}

/**
 * A block comment's lines as prettier re-indents them (before indentation): continuation
 * lines trimmed and prefixed by one space, except that inside a JSDoc block a line ending
 * in two or more spaces keeps two (a Markdown line break).
 */
function commentLines(comment: string): string[] {
  const lines = comment.split("\n");
  if (lines.length > 1 && !lines.slice(1).every((l) => l.trim().startsWith("*"))) throw new Unsupported("block comment");
  const jsdoc = comment.startsWith("/**") && !comment.startsWith("/***");
  return lines.map((l, i) => {
    if (i === 0) return l.trimEnd();
    if (i === lines.length - 1) return ` ${l.trimStart()}`;
    const trimmed = l.trim();
    return jsdoc && trimmed !== "*" && l.endsWith("  ") ? ` ${trimmed}  ` : ` ${trimmed}`;
  });
}

/**
 * JSDoc blocks as documents, each followed by a line break. The doc printer trims
 * trailing spaces at every line break, so a line's kept Markdown break travels as two
 * private-use characters that printDocument turns back into spaces.
 */
function commentDocs(comments: readonly string[]): Doc[] {
  const out: Doc[] = [];
  for (const comment of comments) {
    if (comment.includes(keptSpace)) throw new Unsupported("private-use character in a comment");
    const lines = commentLines(comment).map((l) => (l.endsWith("  ") ? `${l.slice(0, -2)}${keptSpace}${keptSpace}` : l));
    out.push(lines.flatMap((l, i) => (i === 0 ? [l] : [hardline, l])), hardline);
  }
  return out;
}

const keptSpace = "\uE000";

function printDocument(doc: Doc, width: number): string {
  return printer.printDocToString(doc, { printWidth: width, tabWidth: 2, useTabs: false }).formatted.replaceAll(keptSpace, " ");
}

function declarationDoc(declaration: Declaration): Doc {
  const head = commentDocs(declaration.comments);
  if (declaration.kind === "interface") {
    if (declaration.members.length === 0) return [...head, "export interface ", declaration.name, " {}"];
    return [...head, "export interface ", declaration.name, " {", indent([hardline, ...members(declaration.members, true)]), hardline, "}"];
  }
  const left = group(["type ", declaration.name]);
  const bare = unparenthesized(declaration.type);
  let tail: Doc[];
  if (bare.kind === "union" && !hugsUnion(bare.members)) {
    tail = [group(indent([line, typeDoc(bare, "alias")]))];
  } else if (bare.kind === "object" || bare.kind === "reference" || bare.kind === "keyword" || bare.kind === "literal" || bare.kind === "array") {
    const id = Symbol("assignment");
    tail = [group(indent(line), { id }), lineSuffixBoundary, indentIfBreak(typeDoc(bare, "alias"), { groupId: id })];
  } else throw new Unsupported("alias layout");
  return [...head, "export ", group([left, " =", ...tail]), ";"];
}

/** Members of an interface (each ending in `;`, one per line) or of an object type (`;` between, and after the last when broken). */
function members(list: readonly TypeMember[], interfaceBody: boolean): Doc[] {
  const out: Doc[] = [];
  list.forEach((member, i) => {
    if (i > 0) out.push(...(interfaceBody ? [hardline] : [";", line]));
    out.push(...commentDocs(member.comments), memberDoc(member));
    if (interfaceBody) out.push(";");
  });
  if (!interfaceBody) out.push(ifBreak(";"));
  return out;
}

function memberDoc(member: TypeMember): Doc {
  if (member.index) {
    return group(["[", group([indent([softline, member.key, ":", " ", typeDoc(member.index.parameter, "property")]), softline]), "]", ":", " ", propertyType(member.type, false)]);
  }
  return group([member.key, member.optional ? "?" : "", ":", " ", propertyType(member.type, member.optional)]);
}

const isUndefined = (t: TypeNode) => t.kind === "keyword" && t.text === "undefined";

/** The type of a property; an optional one also accepts undefined (`| undefined` added, as addUndefinedToOptionals writes it). */
function propertyType(type: TypeNode, optional: boolean): Doc {
  if (optional) {
    const alreadyUndefined = type.kind === "union" && type.members.some(isUndefined);
    const open = type.kind === "keyword" && (type.text === "unknown" || type.text === "any");
    if (!alreadyUndefined && !open) {
      const members = type.kind === "union" ? type.members : [type];
      return union([...members, undefinedKeyword], "property");
    }
  }
  const bare = unparenthesized(type);
  return bare.kind === "union" ? union(bare.members, "property") : typeDoc(bare, "property");
}

/** prettier's shouldHugType for a union: an object type with only null/void beside it. */
function hugsUnion(types: readonly TypeNode[]): boolean {
  const voids = types.filter((t) => t.kind === "keyword" && (t.text === "void" || t.text === "null")).length;
  return types.length - 1 === voids && types.some((t) => unparenthesized(t).kind === "object");
}

function union(types: readonly TypeNode[], context: Context): Doc {
  if (hugsUnion(types)) {
    if (context !== "property") throw new Unsupported("hugged union");
    return types.flatMap((t, i) => (i === 0 ? [typeDoc(t, "union")] : [" | ", typeDoc(t, "union")]));
  }
  const printed: Doc[] = [ifBreak("| ")];
  types.forEach((t, i) => printed.push(...(i === 0 ? [] : [line, "| "]), align(2, typeDoc(t, "union"))));
  const body = group(printed);
  if (context === "property") return group(indent([softline, body]));
  if (context === "alias") return body;
  // inside another union, an array or a tuple: parenthesised
  if (context === "tuple" || context === "intersection") throw new Unsupported(`union in ${context}`);
  return ["(", group([indent([softline, body]), softline]), ")"];
}

const isObjectType = (t: TypeNode) => unparenthesized(t).kind === "object";

/** prettier's intersection: names stay on one line or continue indented after `&`; object types hug their neighbours. */
function intersection(types: readonly TypeNode[], context: Context): Doc {
  if (context === "tuple" || context === "intersection") throw new Unsupported(`intersection in ${context}`);
  let wasIndented = false;
  const parts: Doc[] = [];
  types.forEach((t, i) => {
    const doc = typeDoc(t, "intersection");
    if (i === 0) parts.push(doc);
    else if (isObjectType(types[i - 1]!) && isObjectType(t)) parts.push(" & ", wasIndented ? indent(doc) : doc);
    else if (!isObjectType(types[i - 1]!) && !isObjectType(t)) parts.push(indent([" &", line, doc]));
    else {
      if (i > 1) wasIndented = true;
      parts.push(" & ", i > 1 ? indent(doc) : doc);
    }
  });
  const body = group(parts);
  return context === "union" || context === "array" ? ["(", body, ")"] : body;
}

function typeDoc(node: TypeNode, context: Context): Doc {
  const bare = unparenthesized(node);
  switch (bare.kind) {
    case "union":
      return union(bare.members, context);
    case "intersection":
      return intersection(bare.members, context);
    case "keyword":
      return bare.text;
    case "literal":
      return bare.text;
    case "reference":
      return bare.name;
    case "array": {
      const element = unparenthesized(bare.element);
      if (element.kind === "union" && !hugsUnion(element.members)) return [union(element.members, "array"), "[]"];
      if (element.kind === "union") throw new Unsupported("array element");
      if (element.kind === "intersection") return [intersection(element.members, "array"), "[]"];
      return [typeDoc(element, "array"), "[]"];
    }
    case "tuple": {
      if (bare.elements.length === 0) return "[]";
      const elements: Doc[] = [];
      bare.elements.forEach((e, i) => elements.push(...(i === 0 ? [] : [",", line]), group(typeDoc(e, "tuple"))));
      return group(["[", indent([softline, ...elements, ifBreak(",")]), softline, "]"]);
    }
    case "object":
      if (bare.members.length === 0) return "{}";
      return group(["{", indent([line, ...members(bare.members, false)]), line, "}"], { shouldBreak: bare.multiline });
    case "parenthesized":
      throw new Unsupported("nested parentheses");
  }
}

export function unparenthesized(node: TypeNode): TypeNode {
  return node.kind === "parenthesized" ? unparenthesized(node.type) : node;
}

// ---------------------------------------------------------------------------------------
// The common shapes printed straight to text: the same layout the documents above give
// (test/unit/schema-types.test.ts compares both against prettier's own output), without
// building and printing documents, which is most of the cost for thousands of
// declarations. Shapes where a breakable part does not fit its line, tuples and hugged
// unions take the document path. `width` is the line width left of the margin.

const spaces = (n: number) => " ".repeat(n);

/** The type on one line, or undefined when it holds an object type (always printed broken). */
function flatType(node: TypeNode, context: Context): string | undefined {
  const bare = unparenthesized(node);
  switch (bare.kind) {
    case "keyword":
    case "literal":
      return bare.text;
    case "reference":
      return bare.name;
    case "union":
      if (hugsUnion(bare.members)) throw new Unsupported("hugged union");
      return flatMembers(bare.members, "union", " | ", context);
    case "intersection":
      return flatMembers(bare.members, "intersection", " & ", context);
    case "array": {
      const element = flatType(bare.element, "array");
      return element === undefined ? undefined : `${element}[]`;
    }
    case "object":
      if (bare.members.length === 0) return "{}";
      if (!bare.multiline) throw new Unsupported("single-line object type");
      return undefined;
    default:
      throw new Unsupported(bare.kind);
  }
}

/** A union's or intersection's members on one line, in parentheses inside another type; undefined when one holds an object type. */
function flatMembers(members: readonly TypeNode[], kind: "union" | "intersection", separator: string, context: Context): string | undefined {
  if (context === "intersection") throw new Unsupported(`${kind} in an intersection`);
  const parts = members.map((m) => flatType(m, kind));
  if (parts.some((p) => p === undefined)) return undefined;
  const text = parts.join(separator);
  return context === "property" || context === "alias" ? text : `(${text})`;
}

/** Whether prettier could break inside the type's one-line form (a union, an intersection, or an array of one). */
function breakable(node: TypeNode): boolean {
  const bare = unparenthesized(node);
  return bare.kind === "union" || bare.kind === "intersection" || (bare.kind === "array" && breakable(bare.element));
}

/**
 * A type that holds an object type, starting at the current column; `indent` is the
 * indentation its lines continue at. Objects, arrays of them and a name & object pair
 * (`Error & {`) standing alone: anything else with an object inside takes the document path.
 */
function brokenType(node: TypeNode, indent: number, width: number, standalone: boolean): string {
  const bare = unparenthesized(node);
  if (bare.kind === "object") return `{\n${directMembers(bare.members, indent + 2, width)}\n${spaces(indent)}}`;
  if (bare.kind === "array") return `${brokenType(bare.element, indent, width, false)}[]`;
  if (bare.kind === "intersection" && standalone && bare.members.length === 2) {
    // prettier joins two members with " & " when an object type is one of them
    const [first, second] = bare.members.map((m) => (isObjectType(m) ? brokenType(m, indent, width, false) : flatType(m, "intersection")));
    if (first === undefined || second === undefined || bare.members.some((m) => !isObjectType(m) && breakable(m))) throw new Unsupported("intersection member");
    return `${first} & ${second}`;
  }
  throw new Unsupported("object inside a union, intersection or tuple");
}

/** A type that must fit where it stands (`available` columns including what follows it) unless nothing in it can break. */
function fittedType(node: TypeNode, context: Context, available: number): string {
  const flat = flatType(node, context)!;
  if (breakable(node) && textWidth(flat) > available) throw new Unsupported("breakable type beyond the line");
  return flat;
}

function directComments(comments: readonly string[], indent: number): string {
  const pad = spaces(indent);
  let out = "";
  for (const comment of comments) out += commentLines(comment).map((l) => pad + l).join("\n") + "\n";
  return out;
}

/** Members one per line at `indent`, each ending in `;` (interfaces, and object types, which are always broken here). */
function directMembers(list: readonly TypeMember[], indent: number, width: number): string {
  return list.map((member) => directComments(member.comments, indent) + directMember(member, indent, width)).join("\n");
}

function directMember(member: TypeMember, indent: number, width: number): string {
  const pad = spaces(indent);
  let head: string;
  if (member.index) {
    const parameter = flatType(member.index.parameter, "property");
    if (parameter === undefined || breakable(member.index.parameter)) throw new Unsupported("index parameter");
    head = `[${member.key}: ${parameter}]:`;
  } else head = `${member.key}${member.optional ? "?" : ""}:`;
  const optional = member.optional && !member.index;
  const type = member.type;
  const alreadyUndefined = type.kind === "union" && type.members.some(isUndefined);
  const open = type.kind === "keyword" && (type.text === "unknown" || type.text === "any");
  const bare = unparenthesized(type);
  const union = optional && !alreadyUndefined && !open ? [...(type.kind === "union" ? type.members : [type]), undefinedKeyword] : bare.kind === "union" ? bare.members : undefined;
  if (!union) {
    const flat = flatType(bare, "property");
    if (flat === undefined) return `${pad}${head} ${brokenType(bare, indent, width, true)};`;
    return `${pad}${head} ${fittedType(bare, "property", width - indent - textWidth(head) - 2)};`;
  }
  if (hugsUnion(union)) throw new Unsupported("hugged union");
  const parts = union.map((m) => flatType(m, "union"));
  if (parts.every((p) => p !== undefined)) {
    const text = parts.join(" | ");
    if (indent + textWidth(head) + 1 + textWidth(text) + 1 <= width) return `${pad}${head} ${text};`;
    if (indent + 2 + textWidth(text) + 1 <= width) return `${pad}${head}\n${pad}  ${text};`;
  }
  // one member per line, each after `| `, aligned two columns further
  const lines = union.map((m, i) => {
    const last = i === union.length - 1;
    const flat = parts[i];
    const text = flat === undefined ? brokenType(m, indent + 4, width, false) : fittedType(m, "union", width - indent - 4 - (last ? 1 : 0));
    return `${pad}  | ${text}`;
  });
  return `${pad}${head}\n${lines.join("\n")};`;
}

function directDeclaration(declaration: Declaration, width: number): string {
  const head = directComments(declaration.comments, 0);
  if (declaration.kind === "interface") {
    if (declaration.members.length === 0) return `${head}export interface ${declaration.name} {}\n`;
    return `${head}export interface ${declaration.name} {\n${directMembers(declaration.members, 2, width)}\n}\n`;
  }
  const left = `export type ${declaration.name} =`;
  const bare = unparenthesized(declaration.type);
  const flat = flatType(bare, "alias");
  if (flat === undefined) {
    if (bare.kind !== "object" && bare.kind !== "array") throw new Unsupported("alias layout");
    return `${head}${left} ${brokenType(bare, 0, width, false)};\n`;
  }
  if (textWidth(left) + 1 + textWidth(flat) + 1 <= width) return `${head}${left} ${flat};\n`;
  if (bare.kind === "keyword" || bare.kind === "literal" || bare.kind === "reference") return `${head}${left}\n  ${flat};\n`;
  throw new Unsupported("alias beyond the line");
}
