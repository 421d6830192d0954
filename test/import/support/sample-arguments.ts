// Arguments for a tool, synthesized deterministically from its input schema (JSON Schema
// 2020-12 with local `$defs`): the schema's own `examples`, `default`, `const` or first `enum`
// value where it has one, else a value built from its type, format, bounds and pattern. Every
// optional property is filled too (recursive references stop at a depth), so each call
// exercises as much of the request building as the schema allows. The result is checked against
// the schema with Ajv; when it fails, the same is tried without the schema's examples, then with
// required properties only; `sampleArguments` answers a reason when none was valid.
import { Ajv2020 } from "ajv/dist/2020.js";

type Schema = boolean | { readonly [keyword: string]: unknown };
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const formats: Readonly<Record<string, string>> = {
  "date-time": "2024-01-02T03:04:05Z",
  date: "2024-01-02",
  time: "03:04:05Z",
  email: "someone@example.com",
  uri: "https://example.com/a",
  "uri-reference": "https://example.com/a",
  "uri-template": "https://example.com/{a}",
  url: "https://example.com/a",
  hostname: "example.com",
  ipv4: "192.0.2.1",
  ipv6: "2001:db8::1",
  uuid: "123e4567-e89b-12d3-a456-426614174000",
  byte: "c2FtcGxl",
  binary: "c2FtcGxl",
};

/**
 * A string matching a regular expression's simple subset (literals, escapes, classes, groups,
 * alternation, quantifiers): each class's first member, each alternation's first branch, each
 * quantifier's least count (one for `+` and `*`). Undefined for what the subset does not cover.
 */
export function matchOf(pattern: string): string | undefined {
  let at = 0;
  const escapes: Readonly<Record<string, string>> = {
    d: "1",
    w: "a",
    s: " ",
    D: "a",
    W: "-",
    S: "a",
    n: "\n",
    t: "\t",
  };
  const atom = (): string | undefined => {
    const c = pattern[at++]!;
    if (c === "\\") {
      const e = pattern[at++]!;
      return escapes[e] ?? (/[A-Za-z0-9]/.test(e) ? undefined : e);
    }
    if (c === ".") return "a";
    if (c === "[") {
      const negated = pattern[at] === "^";
      if (negated) at++;
      const members: string[] = [];
      while (at < pattern.length && (pattern[at] !== "]" || members.length === 0)) {
        let member = pattern[at++]!;
        if (member === "\\") {
          const escaped = pattern[at++]!;
          member = escapes[escaped] ?? escaped;
        }
        members.push(member);
      }
      at++;
      if (!negated) return members[0] === "-" && members.length > 1 ? members[1] : members[0];
      return ["a", "1", "_", "x", "-"].find((candidate) => !members.includes(candidate));
    }
    if (c === "(") {
      if (pattern.startsWith("?:", at)) at += 2;
      const inner = alternatives();
      at++; // )
      return inner;
    }
    return c;
  };
  const sequence = (): string | undefined => {
    let out = "";
    while (at < pattern.length && pattern[at] !== "|" && pattern[at] !== ")") {
      if (pattern[at] === "^" || pattern[at] === "$") {
        at++;
        continue;
      }
      const piece = atom();
      if (piece === undefined) return undefined;
      let count = 1;
      const quantifier = /^(?:[?*+]|\{(\d+)(?:,\d*)?\})\??/.exec(pattern.slice(at));
      if (quantifier) {
        at += quantifier[0].length;
        count = quantifier[0][0] === "?" ? 0 : quantifier[1] !== undefined ? Number(quantifier[1]) : 1;
      }
      out += piece.repeat(count);
    }
    return out;
  };
  const alternatives = (): string | undefined => {
    const first = sequence();
    while (pattern[at] === "|") {
      at++;
      sequence();
    }
    return first;
  };
  try {
    const result = alternatives();
    return at >= pattern.length ? result : undefined;
  } catch {
    return undefined;
  }
}

/** Two schemas' keywords together, their `required` and `properties` united (a branch beside its siblings). */
function merged(
  a: { readonly [keyword: string]: unknown },
  b: { readonly [keyword: string]: unknown },
): { readonly [keyword: string]: unknown } {
  const list = (value: unknown) => (Array.isArray(value) ? (value as unknown[]) : []);
  return {
    ...a,
    ...b,
    ...((a.required ?? b.required) !== undefined && {
      required: [...new Set([...list(a.required), ...list(b.required)])],
    }),
    ...((a.properties ?? b.properties) !== undefined && {
      properties: { ...(a.properties as object | undefined), ...(b.properties as object | undefined) },
    }),
  };
}

class Sampler {
  /**
   * `useExamples`: whether `examples` and `default` may be used (off when they do not validate);
   * `optional`: whether optional properties are filled (off when they make a `oneOf` ambiguous).
   */
  constructor(
    private readonly root: { readonly [keyword: string]: unknown },
    private readonly useExamples: boolean,
    private readonly optional: boolean,
  ) {}

  value(schema: Schema, name: string, depth: number): Json | undefined {
    if (typeof schema === "boolean") return schema ? name : undefined;
    const ref = schema.$ref;
    if (typeof ref === "string") {
      if (depth > 8) return undefined;
      const target = this.resolve(ref);
      const rest = Object.fromEntries(Object.entries(schema).filter(([k]) => k !== "$ref"));
      return this.value(Object.keys(rest).length === 0 ? target : { allOf: [target, rest] }, name, depth + 1);
    }
    if ("const" in schema) return schema.const as Json;
    if (this.useExamples) {
      if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0] as Json;
      if ("default" in schema) return schema.default as Json;
    }
    if (Array.isArray(schema.enum)) return (schema.enum.find((v) => v !== null) ?? schema.enum[0]) as Json;
    if (Array.isArray(schema.allOf)) return this.allOf(schema, name, depth);
    const branches = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
    if (Array.isArray(branches) && branches.length > 0) {
      const rest = Object.fromEntries(Object.entries(schema).filter(([k]) => k !== "oneOf" && k !== "anyOf"));
      // The first branch that is not just null, with the keywords beside the branches.
      const branch = branches.find((b) => typeof b !== "object" || b.type !== "null") ?? branches[0]!;
      return this.value(
        Object.keys(rest).length === 0 || typeof branch === "boolean" ? branch : merged(rest, branch),
        name,
        depth,
      );
    }
    const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string | undefined];
    const type =
      types.find((t) => t !== "null" && t !== undefined) ??
      (types.includes("null") ? "null" : schema.properties ? "object" : schema.items ? "array" : "string");
    switch (type) {
      case "null":
        return null;
      case "boolean":
        return true;
      case "integer":
      case "number":
        return this.number(schema, type);
      case "string":
        return this.string(schema, name);
      case "array":
        return this.array(schema, name, depth);
      default:
        return this.object(schema, depth);
    }
  }

  private resolve(ref: string): Schema {
    if (!ref.startsWith("#/")) throw new Error(`only local references are sampled, not ${ref}`);
    let target: unknown = this.root;
    for (const part of ref.slice(2).split("/"))
      target = (target as Record<string, unknown>)[part.replace(/~1/g, "/").replace(/~0/g, "~")];
    return target as Schema;
  }

  private allOf(schema: { readonly [keyword: string]: unknown }, name: string, depth: number): Json | undefined {
    const rest = Object.fromEntries(Object.entries(schema).filter(([k]) => k !== "allOf"));
    const parts = [...(schema.allOf as Schema[]), ...(Object.keys(rest).length > 0 ? [rest] : [])].map((part) =>
      this.value(part, name, depth),
    );
    const objects = parts.filter((p): p is { [key: string]: Json } => typeof p === "object" && p !== null);
    if (objects.length > 0 && objects.length === parts.filter((p) => p !== undefined).length)
      return Object.assign({}, ...objects) as Json;
    return parts.find((p) => p !== undefined);
  }

  private number(schema: { readonly [keyword: string]: unknown }, type: string): number {
    const min = typeof schema.minimum === "number" ? schema.minimum : undefined;
    const exclusiveMin = typeof schema.exclusiveMinimum === "number" ? schema.exclusiveMinimum : undefined;
    const max = typeof schema.maximum === "number" ? schema.maximum : undefined;
    let value = min ?? (exclusiveMin !== undefined ? exclusiveMin + 1 : max !== undefined ? Math.min(1, max) : 1);
    if (typeof schema.multipleOf === "number") value = Math.ceil(value / schema.multipleOf) * schema.multipleOf;
    return type === "integer" ? Math.ceil(value) : value;
  }

  private string(schema: { readonly [keyword: string]: unknown }, name: string): string {
    const format = typeof schema.format === "string" ? formats[schema.format] : undefined;
    const minLength = typeof schema.minLength === "number" ? schema.minLength : 0;
    const maxLength = typeof schema.maxLength === "number" ? schema.maxLength : Infinity;
    const fit = (s: string) => (s.length < minLength ? s.padEnd(minLength, "x") : s).slice(0, maxLength);
    if (typeof schema.pattern === "string") {
      const pattern = new RegExp(schema.pattern, "u");
      const found = [format, matchOf(schema.pattern)].find((c) => c !== undefined && pattern.test(fit(c)));
      return fit(found ?? "sample");
    }
    // A space, so that every location's percent-encoding is exercised.
    return fit(format ?? `${name.replace(/[^A-Za-z0-9]/g, "") || "value"} 1`);
  }

  private array(schema: { readonly [keyword: string]: unknown }, name: string, depth: number): Json[] {
    const count = Math.max(typeof schema.minItems === "number" ? schema.minItems : 1, 1);
    const max = typeof schema.maxItems === "number" ? schema.maxItems : Infinity;
    const items: Json[] = [];
    const itemSchema = (schema.items ?? true) as Schema;
    const enumValues = typeof itemSchema === "object" && Array.isArray(itemSchema.enum) ? itemSchema.enum : undefined;
    for (let i = 0; i < Math.min(count, max); i++) {
      const item =
        enumValues !== undefined && schema.uniqueItems === true
          ? (enumValues[i] as Json)
          : this.value(itemSchema, i === 0 ? name : `${name}${i}`, depth + 1);
      if (item !== undefined) items.push(item);
    }
    return items;
  }

  private object(schema: { readonly [keyword: string]: unknown }, depth: number): { [key: string]: Json } {
    const properties = (schema.properties ?? {}) as Record<string, Schema>;
    const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
    const result: { [key: string]: Json } = {};
    for (const [key, property] of Object.entries(properties)) {
      // Optional properties stop a few levels down, so recursive schemas end.
      if (!required.has(key) && (depth > 4 || !this.optional)) continue;
      const value = this.value(property, key, depth + 1);
      if (value !== undefined) result[key] = value;
    }
    const additional = schema.additionalProperties;
    if (Object.keys(result).length === 0 && typeof additional === "object" && additional !== null) {
      const value = this.value(additional as Schema, "key", depth + 1);
      if (value !== undefined) result.key = value;
    }
    return result;
  }
}

const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: false, logger: false });

/** Arguments valid for `inputSchema`, or why none were found (Ajv's first error). */
export function sampleArguments(inputSchema: { readonly [keyword: string]: unknown }): Record<string, Json> | string {
  const validate = ajv.compile(inputSchema);
  let problem = "";
  for (const [useExamples, optional] of [
    [true, true],
    [false, true],
    [true, false],
    [false, false],
  ] as const) {
    const args = new Sampler(inputSchema, useExamples, optional).value(inputSchema, "args", 0);
    if (validate(args)) return args as Record<string, Json>;
    const error = validate.errors?.[0];
    problem = `${error?.instancePath || "/"} ${error?.message ?? "is invalid"}: ${JSON.stringify(args).slice(0, 300)}`;
  }
  return problem;
}
