// The shortcut that judges a `default` without compiling an ajv validator
// (generator/validate/schema-mistakes.ts, plainlyAccepts) may only ever say "accepted" where ajv
// accepts too: checked against ajv on seeded random schemas of plain keywords and values.
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import type { JsonValue } from "../../generator/load/source.js";
import { plainlyAccepts } from "../../generator/validate/schema-mistakes.js";

const require = createRequire(import.meta.url);
type AjvClass = new (options: object) => { compile(schema: object): (value: unknown) => boolean };
const Ajv2020 = (require("ajv/dist/2020") as { default: AjvClass }).default;
const Ajv7 = (require("ajv") as { default: AjvClass }).default;
const options = {
  strict: false,
  validateFormats: false,
  allErrors: false,
  validateSchema: false,
  addUsedSchema: false,
};
const ajvs = { "2020-12": new Ajv2020(options), "draft-07": new Ajv7(options) };

let seed = 7;
const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

const values: JsonValue[] = [
  null,
  true,
  false,
  0,
  1,
  2,
  3.5,
  -7,
  10,
  100,
  1e21,
  0.1,
  0.3,
  "",
  "a",
  "abc",
  "😀😀",
  "x/y*`$",
  "2024-01-01",
  "AB12",
  [],
  [1],
  [1, 1],
  ["a", "b"],
  ["a", "a"],
  [1, "1"],
  [{}],
  [[1]],
  {},
  { a: 1 },
  12.000001,
];

function randomSchema(): Record<string, JsonValue> {
  const schema: Record<string, JsonValue> = {};
  for (let n = 1 + Math.floor(random() * 4); n > 0; n--) {
    switch (Math.floor(random() * 17)) {
      case 0:
        schema.type = pick<JsonValue>([
          "string",
          "number",
          "integer",
          "boolean",
          "null",
          "object",
          "array",
          ["string", "null"],
          ["integer", "null"],
          ["array", "null"],
        ]);
        break;
      case 1:
        schema.enum = pick<JsonValue>([["a", "b"], [1, 2, 3], [null, "a"], [0], [{ a: 1 }, "abc"], [[1]]]);
        break;
      case 2:
        schema.const = pick<JsonValue>(["a", 1, null, 0, { a: 1 }]);
        break;
      case 3:
        schema.pattern = pick(["^a", "^[A-Z]{2}\\d+$", "b", "^\\p{L}+$", ".", "\\d{4}-\\d{2}-\\d{2}", "^.{2}$"]);
        break;
      case 4:
        schema.minLength = pick([0, 1, 2, 3]);
        break;
      case 5:
        schema.maxLength = pick([0, 1, 2, 3]);
        break;
      case 6:
        schema.minimum = pick([0, 1, -1, 3.5]);
        break;
      case 7:
        schema.maximum = pick([0, 1, 10, 3.5]);
        break;
      case 8:
        schema.exclusiveMinimum = pick([0, 1, -7]);
        break;
      case 9:
        schema.exclusiveMaximum = pick([0, 10, 100]);
        break;
      case 10:
        schema.multipleOf = pick([1, 0.1, 0.5, 2, 0.01, 1e-7]);
        break;
      case 11:
        schema.items = pick<JsonValue>([
          { type: "string" },
          { type: "integer" },
          true,
          false,
          { enum: [1, "a"] },
          { minimum: 1 },
        ]);
        break;
      case 12:
        schema.minItems = pick([0, 1, 2]);
        break;
      case 13:
        schema.maxItems = pick([0, 1, 2]);
        break;
      case 14:
        schema.uniqueItems = pick([true, false]);
        break;
      case 15:
        Object.assign(schema, { description: "d", format: "date", "x-mcp": 1 });
        break;
      case 16:
        schema.properties = { a: { type: "string" } };
        break;
    }
  }
  return schema;
}

describe("judging a default without ajv", () => {
  it("never accepts a value ajv rejects (10,000 seeded schema/value pairs, both dialects)", () => {
    const compiled = new Map<string, (value: unknown) => boolean>();
    let accepted = 0;
    const disagreements: string[] = [];
    for (let i = 0; i < 10_000; i++) {
      const schema = randomSchema();
      const value = pick(values);
      const dialect = pick(["2020-12", "draft-07"] as const);
      if (!plainlyAccepts(schema, value)) continue;
      accepted++;
      const key = `${dialect} ${JSON.stringify(schema)}`;
      let validate = compiled.get(key);
      if (!validate) compiled.set(key, (validate = ajvs[dialect].compile(schema)));
      if (!validate(value)) disagreements.push(`${key} ${JSON.stringify(value)}`);
    }
    expect(disagreements).toEqual([]);
    // the shortcut is taken often enough for the comparison to mean something
    expect(accepted).toBeGreaterThan(1_000);
  });
});
