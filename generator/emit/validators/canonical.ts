// The canonical form of a schema, for deciding that two validators would be the same code:
// what the compiled checks depend on, and nothing else. Annotations (descriptions, titles,
// examples, `format`, which mcp-gen never asserts) are left out, `definitions` and `$defs`
// are spelled alike, and the dialect counts only where the schema uses a keyword the two
// dialects read differently. So a protocol type that every revision defines alike (`Role`,
// `TextContent`) is one validator however its description changed.
import type { SchemaDialect } from "../../validate/schema-check.js";

export interface CanonicalSchema {
  /** JSON text of the canonical form. */
  readonly text: string;
  /** The `$ref` values inside the schema (as written), in order of appearance. */
  readonly refs: readonly string[];
  /** Whether the schema compiles to the same code in both dialects. */
  readonly dialectFree: boolean;
}

/** Keywords that only annotate: the compiled code never reads them. */
const annotations = new Set([
  "description",
  "title",
  "$comment",
  "examples",
  "deprecated",
  "readOnly",
  "writeOnly",
  "format",
  "contentMediaType",
  "contentEncoding",
]);

/** Keywords whose value is one subschema. */
const schemaKeywords = new Set([
  "not",
  "if",
  "then",
  "else",
  "contains",
  "propertyNames",
  "additionalProperties",
  "additionalItems",
  "unevaluatedItems",
  "unevaluatedProperties",
  "items",
]);

/** Keywords whose value is a list of subschemas. */
const schemaListKeywords = new Set(["allOf", "anyOf", "oneOf", "prefixItems"]);

/** Keywords whose value maps names to subschemas (`dependencies` also to lists of names). */
const schemaMapKeywords = new Set([
  "properties",
  "patternProperties",
  "$defs",
  "definitions",
  "dependentSchemas",
  "dependencies",
]);

/** Keywords the two dialects read differently (array `items` and `$ref` with siblings are checked apart). */
const dialectKeywords = new Set([
  "additionalItems",
  "prefixItems",
  "dependencies",
  "dependentRequired",
  "dependentSchemas",
  "minContains",
  "maxContains",
  "unevaluatedItems",
  "unevaluatedProperties",
  "$anchor",
  "$dynamicRef",
  "$dynamicAnchor",
  "$recursiveRef",
  "$id",
]);

/** `#/definitions/…` and `#/$defs/…` name the same place in the canonical form. */
export function canonicalPointer(pointer: string): string {
  return pointer.replace(/^(#?)\/definitions(?=\/|$)/, "$1/$defs");
}

export function canonicalSchema(schema: unknown): CanonicalSchema {
  const walk = new CanonicalWalk();
  return { text: walk.schema(schema), refs: walk.refs, dialectFree: walk.dialectFree };
}

/** Writes the canonical JSON text directly (no copy of the schema is built: this runs for every $ref target). */
class CanonicalWalk {
  readonly refs: string[] = [];
  dialectFree = true;

  schema(schema: unknown): string {
    if (schema === null || typeof schema !== "object" || Array.isArray(schema)) return JSON.stringify(schema);
    const members: string[] = [];
    const source = schema as Record<string, unknown>;
    let hasRef = false;
    for (const key of Object.keys(source)) {
      if (annotations.has(key)) continue;
      if (dialectKeywords.has(key)) this.dialectFree = false;
      if (key === "$ref") hasRef = true;
      members.push(`${JSON.stringify(key === "definitions" ? "$defs" : key)}:${this.keyword(key, source[key])}`);
    }
    if (hasRef && members.length > 1) this.dialectFree = false;
    return `{${members.join(",")}}`;
  }

  private keyword(key: string, value: unknown): string {
    if (key === "$ref" && typeof value === "string") {
      this.refs.push(value);
      return JSON.stringify(canonicalPointer(value));
    }
    if (key === "items" && Array.isArray(value)) this.dialectFree = false;
    // A list of subschemas where a list stands (`items` in draft-07 may be one).
    if ((schemaKeywords.has(key) || schemaListKeywords.has(key)) && Array.isArray(value)) return this.list(value);
    if (schemaKeywords.has(key)) return this.schema(value);
    if (schemaMapKeywords.has(key) && value !== null && typeof value === "object" && !Array.isArray(value)) {
      const map = value as Record<string, unknown>;
      const members = Object.keys(map).map(
        (name) =>
          `${JSON.stringify(name)}:${Array.isArray(map[name]) ? JSON.stringify(map[name]) : this.schema(map[name])}`,
      );
      return `{${members.join(",")}}`;
    }
    return JSON.stringify(value); // data: const, enum, default, required, numbers, patterns, …
  }

  private list(schemas: readonly unknown[]): string {
    return `[${schemas.map((item) => this.schema(item)).join(",")}]`;
  }
}

/** The part of a sharing key that names the dialect: none when the code is the same in both. */
export function dialectKey(dialectFree: boolean, dialect: SchemaDialect): string {
  return dialectFree ? "any dialect" : dialect;
}
