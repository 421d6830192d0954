// The TypeScript type of a JSON Schema, read straight from the (normalised, ./normalise.ts)
// schema for every shape — there is no second path — and printed in the canonical layout
// of ./type-node.ts. The types accept the values json-schema-to-typescript's types accepted
// before (test/unit/schema-types.test.ts checks both against each other and against ajv):
//
// - `$ref`s arrive as `tsType` (a type's name, or `unknown`); recursion goes through those
//   names, so reading a schema never recurses into another definition.
// - `true` and `{}` (a schema without a type-shaping keyword) are `unknown`, `false` is
//   `never`; `not`, `if`/`then`/`else`, `propertyNames`, `contains` and the value-only
//   keywords (format, pattern, minimum, …) leave the type alone.
// - `type` may be a list: the union of each type read with the schema's other keywords.
//   Without `type`, object keywords make an object, array keywords an array, `enum`/`const`
//   literal types.
// - Objects are closed unless they say otherwise: named properties, plus one index
//   signature when `additionalProperties` (true, a schema) or `patternProperties` allow more
//   keys. The index signature's type is the union of those schemas' types and the named
//   properties' types (TypeScript requires every property to fit it). An object that
//   declares no shape at all is open (`{ [k: string]: unknown }`, done by the normaliser).
// - Arrays: `items` a schema → `T[]`; tuples (draft-07 `items` lists, 2020-12 `prefixItems`)
//   → `[A, B?, ...R[]]`, elements past `minItems` optional, the rest typed by
//   `additionalItems`/`items` (`unknown` when absent, none when false).
// - `enum`/`const` → unions of literal types (objects and arrays as literal object and tuple
//   types); values the schema's `type` rules out are dropped.
// - `anyOf`/`oneOf` → union, `allOf` → intersection; keywords beside a combinator form one
//   more part of the intersection.
// - `description`, a root `title` and `deprecated` become the doc comment of the declaration
//   or property the schema types.
import { hasJsonType, isJsonObject, type JsonObject } from "../../validate/schema-check.js";
import {
  literalType,
  intersection,
  keyword,
  neverType,
  printDeclaration,
  reference,
  union,
  unknownType,
  type TupleElement,
  type TypeMember,
  type TypeNode,
} from "./type-node.js";

const typeKeywords = new Set(["string", "number", "integer", "boolean", "null", "object", "array"]);
const objectKeywords = ["properties", "additionalProperties", "patternProperties"] as const;
const arrayKeywords = ["items", "prefixItems", "additionalItems"] as const;
const combinators = ["allOf", "anyOf", "oneOf"] as const;

/** The schema's `type` as a list of known type names (undefined when it states none). */
function declaredTypes(schema: JsonObject): string[] | undefined {
  const type = schema.type;
  if (typeof type === "string") return typeKeywords.has(type) ? [type] : [];
  if (Array.isArray(type)) return type.filter((t): t is string => typeof t === "string" && typeKeywords.has(t));
  return undefined;
}

/** The type of a normalised schema (a boolean schema included). */
export function schemaType(schema: unknown): TypeNode {
  if (schema === true) return unknownType;
  if (schema === false) return neverType;
  if (!isJsonObject(schema)) return unknownType;
  if (typeof schema.tsType === "string")
    return schema.tsType === "unknown" || schema.tsType === "never" ? keyword(schema.tsType) : reference(schema.tsType);
  const parts: TypeNode[] = [];
  const own = ownType(schema);
  if (own !== undefined) parts.push(own);
  for (const key of combinators) {
    const list = schema[key];
    if (!Array.isArray(list) || list.length === 0) continue;
    const members = list.map(schemaType);
    parts.push(key === "allOf" ? intersection(members) : union(members));
  }
  return parts.length === 0 ? unknownType : intersection(parts);
}

/** The type the schema's own keywords (all but the combinators) give; undefined when none shapes a type. */
function ownType(schema: JsonObject): TypeNode | undefined {
  const types = declaredTypes(schema);
  const values = schema.const !== undefined ? [schema.const] : Array.isArray(schema.enum) ? schema.enum : undefined;
  if (values !== undefined) {
    const allowed = types === undefined ? values : values.filter((v) => types.some((t) => hasJsonType(v, t)));
    return union(allowed.map(literalType));
  }
  if (types !== undefined) {
    const typeOf = (type: string): TypeNode => {
      if (type === "object") return objectType(schema);
      if (type === "array") return arrayType(schema);
      return keyword(type === "integer" ? "number" : (type as "string" | "number" | "boolean" | "null"));
    };
    return union(types.map(typeOf));
  }
  const object = objectKeywords.some((key) => schema[key] !== undefined);
  const array = arrayKeywords.some((key) => schema[key] !== undefined);
  if (!object && !array) return undefined;
  return union([...(object ? [objectType(schema)] : []), ...(array ? [arrayType(schema)] : [])]);
}

/** The doc comment text of a schema: its description (and a root title), `@deprecated` when it says so. */
export function schemaDoc(schema: unknown, title = false): string | undefined {
  if (!isJsonObject(schema)) return undefined;
  const parts: string[] = [];
  if (title && typeof schema.title === "string" && schema.title.trim() !== "") parts.push(schema.title);
  if (typeof schema.description === "string" && schema.description.trim() !== "") parts.push(schema.description);
  if (schema.deprecated === true) parts.push("@deprecated");
  return parts.length === 0 ? undefined : parts.join("\n\n");
}

/** The doc of a property: its own, with the description of an array's items below it. */
function propertyDoc(schema: unknown): string | undefined {
  const own = schemaDoc(schema);
  const items = isJsonObject(schema) && isJsonObject(schema.items) ? schema.items.description : undefined;
  if (typeof items !== "string" || items.trim() === "") return own;
  return own === undefined ? `Items: ${items}` : `${own}\n\nItems: ${items}`;
}

function objectType(schema: JsonObject): TypeNode {
  const properties = isJsonObject(schema.properties) ? schema.properties : {};
  const required = new Set(
    Array.isArray(schema.required) ? schema.required.filter((n): n is string => typeof n === "string") : [],
  );
  const members: TypeMember[] = [];
  for (const [name, child] of Object.entries(properties)) {
    members.push({
      kind: "property",
      name,
      optional: !required.has(name),
      type: schemaType(child),
      doc: propertyDoc(child),
    });
  }
  // Keys beyond the named ones: what additionalProperties and patternProperties allow.
  const extra: TypeNode[] = [];
  const docs: string[] = [];
  const rest = schema.additionalProperties;
  if (rest !== undefined && rest !== false) {
    extra.push(schemaType(rest));
    const doc = schemaDoc(rest);
    if (doc !== undefined) docs.push(doc);
  }
  const patterns = isJsonObject(schema.patternProperties) ? Object.entries(schema.patternProperties) : [];
  for (const [pattern, child] of patterns) {
    extra.push(schemaType(child));
    const doc = schemaDoc(child);
    docs.push(`Keys matching ${JSON.stringify(pattern)}${doc === undefined ? "." : `: ${doc}`}`);
  }
  if (extra.length > 0) {
    // every named property must fit the index signature
    const named = members.flatMap((m) => (m.kind === "property" ? [m.type] : []));
    const optional = members.some((m) => m.kind === "property" && m.optional) ? [keyword("undefined")] : [];
    members.push({
      kind: "index",
      type: union([...extra, ...named, ...optional]),
      doc: docs.length === 0 ? undefined : docs.join("\n\n"),
    });
  }
  return { kind: "object", members };
}

function arrayType(schema: JsonObject): TypeNode {
  const items = schema.items;
  if (!Array.isArray(items)) return { kind: "array", element: items === undefined ? unknownType : schemaType(items) };
  // A tuple: the first minItems elements are required, the others may be missing.
  const minItems = typeof schema.minItems === "number" ? schema.minItems : 0;
  const elements: TupleElement[] = items.map((item, i) => ({ type: schemaType(item), optional: i >= minItems }));
  const additional = schema.additionalItems;
  const rest = additional === false ? undefined : additional === undefined ? unknownType : schemaType(additional);
  const restType = rest !== undefined && rest.kind === "keyword" && rest.name === "never" ? undefined : rest;
  return { kind: "tuple", elements, rest: restType };
}

/**
 * The declaration of `name` for a normalised schema: an interface for an object type,
 * else a type alias; `doc` (when given) replaces the schema's own doc. `indent` is the
 * nesting level (1 inside a namespace). Ends in a newline.
 */
export function schemaDeclaration(name: string, schema: unknown, indent = 0, doc = schemaDoc(schema, true)): string {
  return printDeclaration(name, schemaType(schema), doc, indent);
}
