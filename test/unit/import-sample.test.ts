// sampleOf (generator/import/openapi/sample.ts): the values the imported project's own test
// sends and answers with. Each must be one the schema accepts (ajv, 2020-12), and where the
// schema asks for what sampleOf cannot make up, it says so with undefined.
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { sampleOf } from "../../generator/import/openapi/sample.js";

const accepted = (schema: object, value: unknown) =>
  new Ajv2020({ strict: false, validateFormats: false }).validate(schema, value);

describe("sampleOf", () => {
  const cases: [string, object, unknown][] = [
    [
      "required properties only",
      { type: "object", properties: { a: { type: "string" }, b: { type: "integer" } }, required: ["b"] },
      { b: 1 },
    ],
    [
      "the first of an enum, a const",
      { type: "object", properties: { e: { enum: ["x", "y"] }, c: { const: 3 } }, required: ["e", "c"] },
      { e: "x", c: 3 },
    ],
    ["a nullable type as its other type", { type: ["null", "boolean"] }, true],
    [
      "bounds and multiples",
      {
        type: "object",
        properties: { n: { type: "integer", exclusiveMinimum: 4, multipleOf: 3 }, m: { type: "number", maximum: -2 } },
        required: ["n", "m"],
      },
      { n: 6, m: -2 },
    ],
    ["lengths", { type: "string", minLength: 10, maxLength: 12 }, "examplexxx"],
    [
      "formats",
      {
        type: "object",
        properties: { at: { type: "string", format: "date-time" }, id: { type: "string", format: "uuid" } },
        required: ["at", "id"],
      },
      { at: "2024-01-02T03:04:05Z", id: "00000000-0000-4000-8000-000000000000" },
    ],
    [
      "one item, of a referenced schema",
      {
        type: "array",
        items: { $ref: "#/$defs/Pet" },
        $defs: { Pet: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } },
      },
      [{ name: "example" }],
    ],
    [
      "allOf merged",
      {
        allOf: [
          { type: "object", properties: { a: { type: "boolean" } }, required: ["a"] },
          { type: "object", properties: { b: { type: "null" } }, required: ["b"] },
        ],
      },
      { a: true, b: null },
    ],
    [
      "a recursive schema through its optional property",
      {
        $ref: "#/$defs/Node",
        $defs: {
          Node: {
            type: "object",
            properties: { children: { type: "array", items: { $ref: "#/$defs/Node" } } },
            required: ["children"],
          },
        },
      },
      { children: [] },
    ],
  ];
  it.each(cases)("%s", (_, schema, expected) => {
    const value = sampleOf(schema);
    expect(value).toEqual(expected);
    expect(accepted(schema, value)).toBe(true);
  });

  it("gives up on what it cannot make up: a pattern, endless required recursion", () => {
    expect(sampleOf({ type: "string", pattern: "^[a-z]+$" })).toBeUndefined();
    expect(
      sampleOf({
        $ref: "#/$defs/Loop",
        $defs: { Loop: { type: "object", properties: { next: { $ref: "#/$defs/Loop" } }, required: ["next"] } },
      }),
    ).toBeUndefined();
  });
});
