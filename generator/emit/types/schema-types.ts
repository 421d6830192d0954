// The declaration json-schema-to-typescript would write for a normalised schema (see
// ../json-schema-types.ts), read straight from the schema for the shapes tool schemas and
// the protocol's own schema are made of: objects with properties, primitives, enums and
// consts of primitives, arrays, names of other types, anyOf/oneOf unions, allOf
// intersections and type lists. Anything else — tuples, pattern properties, keywords that
// change the type, combinators beside other type keywords — gives undefined and goes
// through json-schema-to-typescript itself. Large manifests are thousands of such schemas; reading
// them here costs microseconds instead of milliseconds each. test/unit/schema-types.test.ts
// checks that both paths write the same declarations.
import { Unsupported } from "../layout/expression.js";
import { bareKey, numberCode } from "../layout/literals.js";
import { printString } from "../layout/print.js";
import { printDeclaration, unparenthesized, type Declaration, type TypeMember, type TypeNode } from "../layout/type-doc.js";

type Schema = { readonly [key: string]: unknown };

/** Keywords that only constrain values (or annotate), leaving the TypeScript type alone. */
const valueOnly = new Set([
  "minLength", "maxLength", "pattern", "format", "contentMediaType", "contentEncoding",
  "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
  "uniqueItems", "minProperties", "maxProperties", "readOnly", "writeOnly", "$comment", "$schema",
]);

/** The keywords this file reads; a schema with any other (except x-… extensions and the above) goes to json-schema-to-typescript. */
const understood = new Set(["type", "description", "properties", "required", "additionalProperties", "items", "enum", "const", "minItems", "maxItems", "tsType", "anyOf", "oneOf", "allOf"]);

/** Keywords that shape a type besides a combinator; json-schema-to-typescript merges them with it, which is not modelled here. */
const besideCombinator = ["type", "properties", "required", "additionalProperties", "items", "enum", "const", "minItems", "maxItems", "tsType"];

/** JSON Schema's primitive type names as TypeScript keywords. */
const primitiveTypes: Record<string, string> = { string: "string", number: "number", integer: "number", boolean: "boolean", null: "null" };

const identifier = /^[A-Za-z_$][\w$]*$/;
const keywordTypes = new Set(["string", "number", "boolean", "unknown", "any", "never", "undefined", "null", "object", "void"]);

/** A type with the comment json-schema-to-typescript attaches to it (its description, escaped). */
interface Typed {
  readonly type: TypeNode;
  readonly comment: string | undefined;
  /** An array's items description, which goes up to the declaration the array sits on. */
  readonly itemsComment?: string | undefined;
}

function isSchema(value: unknown): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A description as json-schema-to-typescript writes it into a comment: `*\/` defused; line breaks other than \n are not modelled. */
function commentText(schema: Schema): string | undefined {
  const description = schema.description;
  if (description === undefined || description === "") return undefined;
  if (typeof description !== "string" || /[\r\u2028\u2029]/.test(description)) throw new Unsupported("description");
  return description.replace(/\*\//g, "* /");
}

function literal(value: unknown): TypeNode {
  // Strings as json-schema-to-typescript writes them (JSON.stringify: U+2028 stays raw, where stringCode escapes it).
  if (typeof value === "string") return { kind: "literal", text: printString(JSON.stringify(value)) };
  if (typeof value === "number" && Number.isFinite(value)) return { kind: "literal", text: numberCode(value) };
  if (typeof value === "boolean") return { kind: "literal", text: String(value) };
  if (value === null) return { kind: "keyword", text: "null" };
  throw new Unsupported("literal");
}

/** Values an enum (or const) may hold when it also states `type`. */
const enumTypes: Record<string, (value: unknown) => boolean> = {
  string: (v) => typeof v === "string",
  number: (v) => typeof v === "number",
  integer: (v) => typeof v === "number",
  boolean: (v) => typeof v === "boolean",
};

function enumType(schema: Schema): TypeNode {
  const values = schema.const !== undefined ? [schema.const] : schema.enum;
  if (schema.const !== undefined && schema.enum !== undefined) throw new Unsupported("const and enum");
  if (!Array.isArray(values) || values.length === 0) throw new Unsupported("enum");
  const check = schema.type === undefined ? undefined : typeof schema.type === "string" ? enumTypes[schema.type] : undefined;
  if (schema.type !== undefined && !check) throw new Unsupported("enum type");
  const seen = new Set<string>();
  const members = values.map((value) => {
    if (check && !check(value)) throw new Unsupported("enum value of another type");
    const node = literal(value);
    const key = node.kind === "literal" ? node.text : "null";
    if (seen.has(key)) throw new Unsupported("repeated enum value");
    seen.add(key);
    return node;
  });
  if (members.length === 1) return members[0]!;
  return { kind: "parenthesized", type: { kind: "union", members } };
}

function typed(schema: unknown): Typed {
  if (!isSchema(schema)) throw new Unsupported("schema");
  for (const key of Object.keys(schema)) {
    if (!understood.has(key) && !valueOnly.has(key) && !key.startsWith("x-")) throw new Unsupported(`keyword ${key}`);
  }
  const comment = commentText(schema);
  const combinators = (["anyOf", "oneOf", "allOf"] as const).filter((key) => schema[key] !== undefined);
  if (combinators.length > 0) return { type: combination(schema, combinators), comment };
  if (Array.isArray(schema.type)) return { type: typeList(schema), comment };
  if (schema.tsType !== undefined) {
    const name = schema.tsType;
    if (typeof name !== "string" || !identifier.test(name) || Object.keys(schema).some((k) => k !== "tsType" && k !== "description")) throw new Unsupported("tsType");
    return { type: keywordTypes.has(name) ? { kind: "keyword", text: name } : { kind: "reference", name }, comment };
  }
  if (schema.enum !== undefined || schema.const !== undefined) {
    if (schema.type === "object" || schema.type === "array" || schema.properties !== undefined || schema.items !== undefined) throw new Unsupported("enum of structures");
    return { type: enumType(schema), comment };
  }
  const type = schema.type ?? (schema.properties !== undefined ? "object" : undefined);
  if (type !== "object" && (schema.properties !== undefined || schema.required !== undefined || schema.additionalProperties !== undefined)) throw new Unsupported("object keywords");
  if (type !== "array" && (schema.items !== undefined || schema.minItems !== undefined || schema.maxItems !== undefined)) throw new Unsupported("array keywords");
  switch (type) {
    case "string":
    case "number":
    case "boolean":
    case "null":
      return { type: { kind: "keyword", text: String(type) }, comment };
    case "integer":
      return { type: { kind: "keyword", text: "number" }, comment };
    case "object":
      return { type: { kind: "object", members: objectMembers(schema), multiline: true }, comment };
    case "array":
      return arrayType(schema, comment);
    default:
      throw new Unsupported("type");
  }
}

/**
 * anyOf/oneOf as a union, allOf as an intersection, written in parentheses as
 * json-schema-to-typescript writes them (they show beside `| undefined`). The members'
 * descriptions are not written anywhere.
 */
function combination(schema: Schema, combinators: readonly ("anyOf" | "oneOf" | "allOf")[]): TypeNode {
  if (combinators.length > 1 || besideCombinator.some((key) => schema[key] !== undefined)) throw new Unsupported("combinator beside other type keywords");
  const key = combinators[0]!;
  const list = schema[key];
  if (!Array.isArray(list) || list.length < 2) throw new Unsupported("combinator of fewer than two members");
  const members = list.map((member) => typed(member).type);
  // json-schema-to-typescript's optimizer drops or merges such members: not modelled
  if (members.some((m) => m.kind === "keyword" && (m.text === "unknown" || m.text === "any"))) throw new Unsupported("open member");
  if (hasRepeats(members)) throw new Unsupported("repeated member");
  if (key !== "allOf" && members.some((m) => unparenthesized(m).kind === "object")) throw new Unsupported("object type in a union");
  return { kind: "parenthesized", type: { kind: key === "allOf" ? "intersection" : "union", members } };
}

/** `type: [a, b]` of primitive types: their union, in parentheses as json-schema-to-typescript writes it. */
function typeList(schema: Schema): TypeNode {
  if (besideCombinator.some((key) => key !== "type" && schema[key] !== undefined)) throw new Unsupported("type list beside other type keywords");
  const names = (schema.type as unknown[]).map((name) => (typeof name === "string" && Object.hasOwn(primitiveTypes, name) ? primitiveTypes[name]! : undefined));
  if (names.length < 2 || names.some((name) => name === undefined) || new Set(names).size < names.length) throw new Unsupported("type list");
  return { kind: "parenthesized", type: { kind: "union", members: names.map((text) => ({ kind: "keyword", text: text! })) } };
}

/** Whether two members are the same type (json-schema-to-typescript would drop one). */
const hasRepeats = (members: readonly TypeNode[]) => new Set(members.map((m) => JSON.stringify(m))).size < members.length;

/** An index signature's union flattened, as json-schema-to-typescript writes it (nested anonymous unions become members). */
function indexSignatureType(type: TypeNode): TypeNode {
  const members: TypeNode[] = [];
  const add = (node: TypeNode) => {
    const bare = unparenthesized(node);
    if (bare.kind === "union") bare.members.forEach(add);
    else members.push(node);
  };
  add(type);
  if (members.length === 1) return type;
  if (hasRepeats(members)) throw new Unsupported("repeated member");
  return { kind: "union", members };
}

function objectMembers(schema: Schema): TypeMember[] {
  const properties = schema.properties ?? {};
  if (!isSchema(properties)) throw new Unsupported("properties");
  const required = schema.required ?? [];
  if (!Array.isArray(required) || required.some((name) => typeof name !== "string" || !Object.hasOwn(properties, name))) throw new Unsupported("required");
  const members: TypeMember[] = [];
  for (const [name, child] of Object.entries(properties)) {
    const { type, comment } = withItemsComment(typed(child));
    const bare = bareKey(name);
    if (bare === undefined) throw new Unsupported("key prettier may unquote");
    members.push({ comments: comment === undefined ? [] : [jsdoc(comment)], key: bare ? name : printString(JSON.stringify(name)), optional: !required.includes(name), type });
  }
  const rest = schema.additionalProperties;
  if (rest === undefined || rest === false) return members;
  // `{}` (as normaliseSchema writes for objects of undeclared shape) accepts anything, as `true` does
  const anything = rest === true || (isSchema(rest) && Object.keys(rest).length === 0);
  const restType = anything ? { type: { kind: "keyword", text: "unknown" } as TypeNode, comment: undefined } : withItemsComment(typed(rest));
  const open = restType.type.kind === "keyword" && restType.type.text === "unknown";
  // Named properties beside a narrower index signature make json-schema-to-typescript widen it.
  if (!open && members.length > 0) throw new Unsupported("index signature beside properties");
  members.push({ comments: restType.comment === undefined ? [] : [jsdoc(restType.comment)], key: "k", index: { parameter: { kind: "keyword", text: "string" } }, optional: false, type: indexSignatureType(restType.type) });
  return members;
}

function arrayType(schema: Schema, description: string | undefined): Typed {
  const bounds = [
    ...(schema.minItems !== undefined ? [`@minItems ${String(schema.minItems)}`] : []),
    ...(schema.maxItems !== undefined ? [`@maxItems ${String(schema.maxItems)}`] : []),
  ];
  if (bounds.length > 0 && [schema.minItems, schema.maxItems].some((n) => n !== undefined && typeof n !== "number")) throw new Unsupported("bounds");
  const comment = bounds.length === 0 ? description : description ? `${description}\n\n${bounds.join("\n")}` : bounds.join("\n");
  if (Array.isArray(schema.items)) throw new Unsupported("tuple");
  const items: Typed = schema.items === undefined ? { type: { kind: "keyword", text: "unknown" }, comment: undefined } : typed(schema.items);
  // (nested arrays carry their own @minItems/@maxItems tags, which would read as tags of this declaration)
  const nested = items.type.kind === "array";
  return { type: { kind: "array", element: items.type }, comment, itemsComment: nested ? undefined : items.comment };
}

/** An array's items description goes into the comment of the declaration the array sits on ("Items: …"), unless it holds a JSDoc tag. */
function withItemsComment(value: Typed): Typed {
  const items = value.itemsComment;
  if (!items || /(^|\s)@\w/.test(items)) return value;
  return { ...value, comment: value.comment ? `${value.comment}\n\nItems: ${items}` : `Items: ${items}` };
}

function jsdoc(text: string): string {
  return ["/**", ...text.split("\n").map((line) => ` * ${line}`), " */"].join("\n");
}

/** The declaration of `name` for a normalised schema, in prettier's layout (`indent` columns in); undefined outside the shapes this file reads. */
export function schemaDeclaration(name: string, schema: unknown, indent = 0): string | undefined {
  try {
    if (!isSchema(schema)) return undefined;
    const { title: _title, ...rest } = schema;
    const root = withItemsComment(typed(rest));
    const comments = root.comment === undefined ? [] : [jsdoc(root.comment)];
    const declaration: Declaration =
      root.type.kind === "object" ? { kind: "interface", comments, name, members: root.type.members } : { kind: "alias", comments, name, type: root.type };
    return printDeclaration(declaration, indent);
  } catch (error) {
    if (error instanceof Unsupported) return undefined;
    throw error;
  }
}
