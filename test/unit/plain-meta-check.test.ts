// The shortcut that judges a schema against its dialect's meta-schema without ajv
// (generator/validate/json-schema.ts, plainlyMetaValid) may only ever say "valid" where
// the meta-schema validator accepts too: checked against it on seeded random schemas,
// valid and subtly invalid, in both dialects.
import { describe, expect, it } from "vitest";
import type { Dialect } from "../../generator/load/revisions.js";
import type { JsonValue } from "../../generator/load/source.js";
import { metaValidator, plainlyMetaValid } from "../../generator/validate/json-schema.js";

let seed = 11;
const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

/** Values of every JSON type, including the near misses a meta-schema rejects. */
const anyValues: JsonValue[] = [
  null,
  true,
  false,
  0,
  1,
  -1,
  2.5,
  1e21,
  "",
  "a",
  "#/$defs/a",
  [],
  ["a"],
  ["a", "a"],
  [1],
  {},
  { a: 1 },
];
const counts: JsonValue[] = [0, 1, 5, -1, 1.5, "1", null, true];
const numbers: JsonValue[] = [0, 1, -3, 0.1, "5", null, [1]];
const typeValues: JsonValue[] = [
  "string",
  "integer",
  "null",
  "object",
  "array",
  "boolean",
  "number",
  "float",
  "",
  ["string", "null"],
  ["string", "string"],
  [],
  ["int"],
  [1],
  ["object", "array", "null"],
  7,
  null,
];
const nameLists: JsonValue[] = [[], ["a"], ["a", "b"], ["a", "a"], [1], ["a", null], "a", {}, null];

function randomSchema(depth: number): JsonValue {
  if (depth > 2 || random() < 0.08) return pick<JsonValue>([true, false, {}, null, 3, "x", []]);
  const schema: { [key: string]: JsonValue } = {};
  const child = () => randomSchema(depth + 1);
  const children = (): JsonValue =>
    pick<() => JsonValue>([() => [child()], () => [child(), child()], () => [], () => child()])();
  const map = (): JsonValue =>
    pick<() => JsonValue>([
      () => ({ a: child() }),
      () => ({ a: child(), b: child() }),
      () => ({}),
      () => [child()],
      () => null,
    ])();
  for (let n = 1 + Math.floor(random() * 4); n > 0; n--) {
    switch (Math.floor(random() * 30)) {
      case 0:
        schema.type = pick(typeValues);
        break;
      case 1:
        schema.enum = pick<JsonValue>([["a", "b"], ["a", "a"], [], [1, "1"], [{ a: 1 }, { a: 1 }], [null], "a", {}]);
        break;
      case 2:
        schema.const = pick(anyValues);
        break;
      case 3:
        schema[
          pick([
            "minLength",
            "maxLength",
            "minItems",
            "maxItems",
            "minProperties",
            "maxProperties",
            "minContains",
            "maxContains",
          ])
        ] = pick(counts);
        break;
      case 4:
        schema[pick(["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"])] = pick<JsonValue>([
          ...numbers,
          true,
        ]);
        break;
      case 5:
        schema.multipleOf = pick<JsonValue>([...numbers, -1, 2]);
        break;
      case 6:
        schema.pattern = pick<JsonValue>(["^a", "(", 1, null, ""]);
        break;
      case 7:
        schema.required = pick(nameLists);
        break;
      case 8:
        schema.properties = map();
        break;
      case 9:
        schema.patternProperties = map();
        break;
      case 10:
        schema.$defs = map();
        break;
      case 11:
        schema.definitions = map();
        break;
      case 12:
        schema.items = pick<() => JsonValue>([child, () => [child()], () => [], () => [child(), child()]])();
        break;
      case 13:
        schema.prefixItems = children();
        break;
      case 14:
        schema.additionalItems = child();
        break;
      case 15:
        schema[pick(["allOf", "anyOf", "oneOf"])] = children();
        break;
      case 16:
        schema[pick(["not", "if", "then", "else", "contains", "propertyNames", "additionalProperties"])] = child();
        break;
      case 17:
        schema.uniqueItems = pick<JsonValue>([true, false, 1, "true", null]);
        break;
      case 18:
        schema[pick(["title", "description", "format", "$comment", "contentMediaType", "contentEncoding"])] =
          pick<JsonValue>(["t", "", 1, null, ["t"]]);
        break;
      case 19:
        schema[pick(["deprecated", "readOnly", "writeOnly"])] = pick<JsonValue>([true, false, "yes", 0, null]);
        break;
      case 20:
        schema.examples = pick<JsonValue>([[], [1, "a"], "a", {}, null]);
        break;
      case 21:
        schema.default = pick(anyValues);
        break;
      case 22:
        schema.$ref = pick<JsonValue>(["#/$defs/a", "#", "other.json", 1, null, {}]);
        break;
      case 23:
        schema.dependencies = pick<JsonValue>([{ a: ["b"] }, { a: child() }, { a: ["b", "b"] }, { a: 1 }, []]);
        break;
      case 24:
        schema.dependentRequired = pick<JsonValue>([{ a: ["b"] }, { a: ["b", "b"] }, { a: "b" }, []]);
        break;
      case 25:
        schema.dependentSchemas = map();
        break;
      case 26:
        schema[
          pick([
            "$id",
            "$anchor",
            "$dynamicRef",
            "$dynamicAnchor",
            "$recursiveRef",
            "$vocabulary",
            "unevaluatedProperties",
            "unevaluatedItems",
            "contentSchema",
          ])
        ] = pick<JsonValue>(["a", "#a", "x#y", 1, true, {}, { "https://x": true }]);
        break;
      case 27:
        schema[pick(["x-mcp", "requird", "nullable", "examples2"])] = pick(anyValues);
        break;
      case 28:
        schema.$schema = pick<JsonValue>([1, null, "https://json-schema.org/draft/2020-12/schema"]);
        break;
      case 29:
        schema.__proto__ = pick(anyValues);
        break;
    }
  }
  return schema;
}

/** The schemas `judge` accepts that the meta-schema validator rejects, and how many it accepted. */
function disagreements(
  judge: (schema: JsonValue, dialect: Dialect) => boolean,
  count: number,
): { accepted: number; wrong: string[] } {
  let accepted = 0;
  const wrong: string[] = [];
  for (let i = 0; i < count; i++) {
    const schema = randomSchema(0);
    const dialect = pick(["2020-12", "draft-07"] as const);
    if (!judge(schema, dialect)) continue;
    accepted++;
    if (!metaValidator(dialect)(schema)) wrong.push(`${dialect} ${JSON.stringify(schema)}`);
  }
  return { accepted, wrong };
}

describe("judging a schema against its meta-schema without ajv", () => {
  it("never accepts a schema the meta-schema rejects (20,000 seeded schemas, both dialects)", () => {
    seed = 11;
    const { accepted, wrong } = disagreements(plainlyMetaValid, 20_000);
    expect(wrong).toEqual([]);
    // the shortcut is taken often enough for the comparison to mean something
    expect(accepted).toBeGreaterThan(2_000);
  });

  it("the comparison catches a judge that accepts too much", () => {
    seed = 11;
    // the same rules with draft-07's `items` arrays and `enum` duplicates let through: wrong on some schemas
    const lenient = (schema: JsonValue, dialect: Dialect) =>
      plainlyMetaValid(schema, "2020-12") || plainlyMetaValid(schema, dialect);
    expect(disagreements(lenient, 20_000).wrong.length).toBeGreaterThan(0);
    seed = 11;
    expect(disagreements(() => true, 2_000).wrong.length).toBeGreaterThan(500);
  });

  it("accepts the plain schemas tools declare", () => {
    const schema: JsonValue = {
      type: "object",
      $defs: {
        money: { type: "object", properties: { amount: { type: "string", pattern: "^\\d+$" } }, required: ["amount"] },
      },
      properties: {
        price: { $ref: "#/$defs/money" },
        tags: { type: "array", items: { enum: ["a", "b"] }, uniqueItems: true },
      },
      required: ["price"],
      additionalProperties: false,
      "x-note": { any: "thing" },
    };
    expect(plainlyMetaValid(schema, "2020-12")).toBe(true);
    expect(plainlyMetaValid({ ...schema, required: ["price", "price"] }, "2020-12")).toBe(false);
    expect(plainlyMetaValid({ items: [{ type: "string" }] }, "draft-07")).toBe(false);
  });
});
