// A deterministic, schema-valid instance of a tool's inputSchema: the arguments the side-by-side
// bench (bench/openapi-peers.ts) sends to every generator's tools, built the same way for each.
// Required properties only (so an optional parameter a generator mislabels never helps it),
// enum/const/default/example first, then the smallest value the keywords allow.

type Schema = Record<string, unknown>;

const isSchema = (value: unknown): value is Schema =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const formatted: Record<string, string> = {
  "date-time": "2024-01-02T03:04:05Z",
  date: "2024-01-02",
  time: "03:04:05Z",
  email: "user@example.com",
  uri: "https://example.com/a",
  url: "https://example.com/a",
  uuid: "00000000-0000-4000-8000-000000000000",
  ipv4: "192.0.2.1",
  ipv6: "2001:db8::1",
  hostname: "example.com",
  byte: "aGVsbG8=",
};

/** The schema a local `$ref` ("#/…") points at, within the tool's own input schema. */
function resolve(root: Schema, schema: Schema): Schema {
  let current = schema;
  for (let hops = 0; typeof current.$ref === "string" && hops < 32; hops++) {
    const ref = current.$ref as string;
    if (!ref.startsWith("#")) return {};
    let target: unknown = root;
    for (const part of ref.slice(1).split("/").filter(Boolean)) {
      const key = decodeURIComponent(part).replaceAll("~1", "/").replaceAll("~0", "~");
      target = isSchema(target) ? target[key] : undefined;
    }
    if (!isSchema(target)) return {};
    const { $ref: _dropped, ...siblings } = current;
    current = { ...target, ...siblings };
  }
  return current;
}

function number(schema: Schema, integer: boolean): number {
  const min = typeof schema.minimum === "number" ? schema.minimum : undefined;
  const exclusiveMin = typeof schema.exclusiveMinimum === "number" ? schema.exclusiveMinimum : undefined;
  const max = typeof schema.maximum === "number" ? schema.maximum : undefined;
  let value = Math.max(1, min ?? 1, exclusiveMin === undefined ? -Infinity : exclusiveMin + 1);
  if (max !== undefined && value > max) value = max;
  if (integer) value = Math.ceil(value);
  const step = typeof schema.multipleOf === "number" ? schema.multipleOf : undefined;
  return step !== undefined && step > 0 ? Math.ceil(value / step) * step : value;
}

function string(schema: Schema): string {
  const format = typeof schema.format === "string" ? schema.format : "";
  let value = formatted[format] ?? "abc";
  const min = typeof schema.minLength === "number" ? schema.minLength : 0;
  const max = typeof schema.maxLength === "number" ? schema.maxLength : Infinity;
  if (value.length < min) value = value.padEnd(min, "a");
  if (value.length > max) value = value.slice(0, max);
  return value;
}

function instance(root: Schema, raw: unknown, depth: number): unknown {
  if (!isSchema(raw) || depth > 12) return undefined;
  const schema = resolve(root, raw);
  if ("const" in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0)
    return schema.enum.find((v) => v !== null) ?? schema.enum[0];
  if ("default" in schema && schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if ("example" in schema && schema.example !== undefined) return schema.example;
  for (const key of ["anyOf", "oneOf"] as const) {
    const options = schema[key];
    if (Array.isArray(options) && options.length > 0) {
      const chosen = options.find((o) => !(isSchema(o) && o.type === "null")) ?? options[0];
      return instance(root, { ...schema, [key]: undefined, ...(chosen as Schema) }, depth + 1);
    }
  }
  if (Array.isArray(schema.allOf) && schema.allOf.length > 0) {
    const parts = schema.allOf.map((part) => instance(root, part, depth + 1));
    if (parts.every((p) => isSchema(p))) return Object.assign({}, ...parts, objectOf(root, schema, depth));
    return parts[0];
  }
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const type = types.find((t) => t !== "null") ?? (isSchema(schema.properties) ? "object" : undefined);
  switch (type) {
    case "object":
      return objectOf(root, schema, depth);
    case "array": {
      const count = Math.max(1, typeof schema.minItems === "number" ? schema.minItems : 1);
      return Array.from({ length: count }, () => instance(root, schema.items ?? {}, depth + 1) ?? "abc");
    }
    case "integer":
      return number(schema, true);
    case "number":
      return number(schema, false);
    case "boolean":
      return true;
    case "string":
      return string(schema);
    case "null":
      return null;
    default:
      return "abc";
  }
}

function objectOf(root: Schema, schema: Schema, depth: number): Schema {
  const result: Schema = {};
  const properties = isSchema(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  for (const name of required) {
    const value = instance(root, properties[name] ?? {}, depth + 1);
    if (value !== undefined) result[name] = value;
  }
  return result;
}

/** Arguments for a tool whose input schema is `inputSchema` (an object schema). */
export function argumentsFor(inputSchema: unknown): Record<string, unknown> {
  if (!isSchema(inputSchema)) return {};
  const value = instance(inputSchema, inputSchema, 0);
  return isSchema(value) ? value : {};
}
