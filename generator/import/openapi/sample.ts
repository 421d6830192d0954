// Values a tool schema accepts, made up from the schema alone: the arguments and the upstream
// answer of the imported project's own test (project-test.ts). The smallest value that says
// something: required properties only, one item in a list, the first of an enum, a value of
// the right shape for common formats. Not a validator: project-test.ts checks every value it
// uses with ajv, and a schema this cannot satisfy (a `pattern`, a `not`) gives undefined.

import { resolvePointer } from "./document.js";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const isObject = (value: unknown): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Strings of the common formats (mcp-gen does not assert formats; documents' readers may). */
const formatted: Readonly<Record<string, string>> = {
  "date-time": "2024-01-02T03:04:05Z",
  date: "2024-01-02",
  time: "03:04:05Z",
  duration: "P1D",
  email: "user@example.com",
  "idn-email": "user@example.com",
  hostname: "example.com",
  "idn-hostname": "example.com",
  ipv4: "192.0.2.1",
  ipv6: "2001:db8::1",
  uri: "https://example.com/",
  "uri-reference": "https://example.com/",
  iri: "https://example.com/",
  url: "https://example.com/",
  uuid: "00000000-0000-4000-8000-000000000000",
  byte: "ZXhhbXBsZQ==",
  binary: "ZXhhbXBsZQ==",
};

/** How deep references may nest before a required recursive property gives up. */
const maxDepth = 12;

/** A value `schema` accepts (references into its root's `$defs`), or undefined when none is found. */
export function sampleOf(schema: unknown): Json | undefined {
  return new Sampler(schema).value(schema, 0);
}

class Sampler {
  /** References being expanded: an optional list of one of them stays empty (a tree is one node). */
  private readonly expanding: string[] = [];

  constructor(private readonly root: unknown) {}

  value(schema: unknown, depth: number): Json | undefined {
    if (schema === true) return "example";
    if (!isObject(schema) || depth > maxDepth) return undefined;
    if (typeof schema.$ref === "string") {
      this.expanding.push(schema.$ref);
      const value = this.value(this.resolve(schema.$ref), depth + 1);
      this.expanding.pop();
      return value;
    }
    if ("const" in schema) return schema.const;
    if (Array.isArray(schema.enum)) return schema.enum[0];
    if (Array.isArray(schema.allOf)) return this.allOf(schema, depth);
    const branches = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : [];
    for (const branch of branches) {
      const value = this.value(branch, depth + 1);
      if (value !== undefined) return value;
    }
    if (branches.length > 0) return undefined;
    return this.ofType(schema, depth);
  }

  /** Each part's value, objects merged. */
  private allOf(schema: JsonObject, depth: number): Json | undefined {
    const { allOf, ...rest } = schema;
    const parts = [...(allOf as Json[]), ...(Object.keys(rest).length > 0 ? [rest] : [])].map((part) =>
      this.value(part, depth + 1),
    );
    if (parts.some((part) => part === undefined)) return undefined;
    if (parts.every(isObject)) return Object.assign({}, ...parts) as JsonObject;
    return parts[0];
  }

  private ofType(schema: JsonObject, depth: number): Json | undefined {
    const types = Array.isArray(schema.type) ? schema.type : schema.type === undefined ? [] : [schema.type];
    const type =
      types.find((t) => t !== "null") ??
      types[0] ??
      (isObject(schema.properties) || Array.isArray(schema.required)
        ? "object"
        : schema.items !== undefined
          ? "array"
          : undefined);
    switch (type) {
      case "null":
        return null;
      case "boolean":
        return true;
      case "integer":
      case "number":
        return this.number(schema, type);
      case "string":
        return this.string(schema);
      case "array":
        return this.array(schema, depth);
      case "object":
        return this.object(schema, depth);
      case undefined:
        return "example";
      default:
        return undefined;
    }
  }

  private number(schema: JsonObject, type: "integer" | "number"): number {
    const num = (key: string) => (typeof schema[key] === "number" ? schema[key] : undefined);
    const low = num("minimum") ?? (num("exclusiveMinimum") === undefined ? undefined : num("exclusiveMinimum")! + 1);
    const high = num("maximum") ?? (num("exclusiveMaximum") === undefined ? undefined : num("exclusiveMaximum")! - 1);
    let value = low ?? (high !== undefined && high < 1 ? high : 1);
    const step = num("multipleOf");
    if (step !== undefined && step > 0) value = Math.ceil(value / step) * step;
    return type === "integer" ? Math.ceil(value) : value;
  }

  private string(schema: JsonObject): string | undefined {
    if (typeof schema.pattern === "string") return undefined;
    const format = typeof schema.format === "string" ? formatted[schema.format] : undefined;
    let text = format ?? "example";
    const min = typeof schema.minLength === "number" ? schema.minLength : 0;
    const max = typeof schema.maxLength === "number" ? schema.maxLength : Infinity;
    if (format === undefined) text = text.padEnd(min, "x").slice(0, Math.max(min, Math.min(max, text.length)));
    return text.length >= min && text.length <= max ? text : undefined;
  }

  private array(schema: JsonObject, depth: number): Json[] | undefined {
    const min = typeof schema.minItems === "number" ? schema.minItems : 0;
    const max = typeof schema.maxItems === "number" ? schema.maxItems : Infinity;
    const recursive = isObject(schema.items) && this.expanding.includes(schema.items.$ref as string);
    const count = Math.min(Math.max(min, recursive ? 0 : 1), max);
    if (count === 0) return [];
    const item = this.value(schema.items ?? true, depth + 1);
    if (item === undefined) return min === 0 ? [] : undefined;
    // Unique items would need distinct values: one item, or give up.
    if (schema.uniqueItems === true && count > 1) return undefined;
    return Array.from({ length: count }, () => item);
  }

  private object(schema: JsonObject, depth: number): JsonObject | undefined {
    const properties = isObject(schema.properties) ? schema.properties : {};
    const required = Array.isArray(schema.required) ? schema.required.filter((r) => typeof r === "string") : [];
    const value: JsonObject = {};
    for (const name of required) {
      const property = this.value(properties[name] ?? true, depth + 1);
      if (property === undefined) return undefined;
      value[name] = property;
    }
    return value;
  }

  /** `#/$defs/Name` (or any local pointer) in the root schema. */
  private resolve(ref: string): unknown {
    return ref.startsWith("#") ? resolvePointer(this.root, decodeURIComponent(ref.slice(1))) : undefined;
  }
}
