// The schema as the type printer (./schema-type.ts) reads it, and as json-schema-to-typescript
// reads it in the differential test (test/unit/schema-types.test.ts): every $ref becomes a
// reference to a named type (`tsType`, no inlined copies), nested titles are dropped, objects
// without declared shape stay open, schemas without a type-shaping keyword accept any value,
// and 2020-12 tuples are written in draft-07's form. Descriptions may be rewritten on the way
// (absolute spec links).

type Schema = { [key: string]: unknown };

export interface NormaliseOptions {
  /** Maps a local `$ref` (e.g. "#/$defs/Tool") to the TypeScript name of its type. */
  readonly refName: (ref: string) => string | undefined;
  /** Rewrites description text (e.g. to absolutise spec links). */
  readonly describe?: (text: string) => string;
}

/** Keywords whose value is a map of name → schema. */
const schemaMaps = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);
/** Keywords whose value is one schema. */
const schemaSlots = new Set([
  "additionalProperties",
  "items",
  "additionalItems",
  "not",
  "if",
  "then",
  "else",
  "contains",
  "propertyNames",
  "unevaluatedProperties",
  "unevaluatedItems",
]);
/** Keywords whose value is a list of schemas. */
const schemaLists = new Set(["allOf", "anyOf", "oneOf", "prefixItems"]);
/** Keywords a type is derived from; a schema without any accepts every value. */
const typeShaping = new Set([
  "type",
  "properties",
  "patternProperties",
  "additionalProperties",
  "items",
  "additionalItems",
  "prefixItems",
  "enum",
  "const",
  "allOf",
  "anyOf",
  "oneOf",
  "tsType",
]);

/**
 * The normalised copy of a schema (the input is not changed). `root` marks the top of a
 * named definition, whose title may document the type; deeper titles are dropped.
 */
export function normaliseSchema(node: unknown, options: NormaliseOptions, root = true): unknown {
  if (typeof node === "boolean") return { tsType: node ? "unknown" : "never" };
  if (node === null || typeof node !== "object" || Array.isArray(node)) return node;
  const schema = node as Schema;
  const describe = options.describe;
  if (typeof schema.$ref === "string") {
    const name = options.refName(schema.$ref);
    const out: Schema = { tsType: name ?? "unknown" };
    if (typeof schema.description === "string")
      out.description = describe ? describe(schema.description) : schema.description;
    if (schema.deprecated === true) out.deprecated = true;
    return out;
  }
  const out: Schema = {};
  let shaped = false;
  // (a plain loop: this runs for every schema node of every tool and protocol definition)
  for (const key in schema) {
    if (!Object.hasOwn(schema, key) || key === "__proto__") continue; // "__proto__" is no keyword, and would set out's prototype
    const value = schema[key];
    if (key === "description") {
      out.description = typeof value === "string" && describe ? describe(value) : value;
      continue;
    }
    if (
      (key === "title" && !root) ||
      key === "$defs" ||
      key === "definitions" ||
      key === "default" ||
      key === "examples"
    )
      continue; // ($defs are their own types; defaults and examples are no types)
    if (typeShaping.has(key)) shaped = true;
    if (schemaMaps.has(key) && value && typeof value === "object") {
      const map: Schema = {};
      for (const name in value) {
        if (!Object.hasOwn(value, name)) continue;
        const child = normaliseSchema((value as Schema)[name], options, false);
        // a property may be called "__proto__": define it rather than set the prototype
        if (name === "__proto__")
          Object.defineProperty(map, name, { value: child, enumerable: true, writable: true, configurable: true });
        else map[name] = child;
      }
      out[key] = map;
    }
    // boolean schemas in slots (`additionalProperties: false`, …) stay booleans
    else if (schemaSlots.has(key))
      out[key] = typeof value === "boolean" ? value : normaliseSchema(value, options, false);
    else if (schemaLists.has(key) && Array.isArray(value))
      out[key] = value.map((v) => normaliseSchema(v, options, false));
    else out[key] = value;
  }
  // A schema with no type-shaping keyword (only annotations such as `description`)
  // accepts any JSON value (json-schema-to-typescript would read it as an object): e.g.
  // 2026-07-28 CallToolResult.structuredContent, which may be an array or a string.
  if (!shaped) out.tsType = "unknown";
  // Object schemas that declare no shape at all are open maps; declared shapes are
  // closed unless they say otherwise (./schema-type.ts reads a missing
  // additionalProperties as false, as json-schema-to-typescript does with its
  // additionalProperties: false option).
  const isObject = out.type === "object" || (out.type === undefined && out.properties !== undefined);
  if (
    isObject &&
    out.properties === undefined &&
    out.additionalProperties === undefined &&
    out.patternProperties === undefined
  ) {
    out.additionalProperties = {};
  }
  // 2020-12 tuples become draft-07's items list, open unless `items` closes them.
  if (Array.isArray(out.prefixItems)) {
    const rest = out.items;
    out.items = out.prefixItems;
    delete out.prefixItems;
    out.additionalItems = rest === undefined ? {} : rest;
  }
  return out;
}
