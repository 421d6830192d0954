// The validator compiler writes every statement already in the flat form the layout
// prints (literals as prettier writes them, numbers normalised), so layoutFlatCode keeps
// a fitting line as written without parsing it. These tests hold that contract: for
// every compiled validator — the differential corpus, hostile strings, wide characters,
// odd numbers, and names that push lines around the 100-column limit — the unparsed
// layout equals the layout that parses every line.
import { describe, expect, it } from "vitest";
import { jsonLiteral, stringLiteral } from "../../generator/emit/escape.js";
import { layoutCode, layoutFlatCode, layoutFlatLines, printNumber, printString } from "../../generator/emit/layout/print.js";
import { compileValidator, type SchemaDialect, type ValidatorSpec } from "../../generator/emit/validators/compile-schema.js";
import { dataCode, numberCode, stringCode } from "../../generator/emit/layout/literals.js";
import { corpus } from "./fixtures/compile-schema/corpus.js";

const hostile = ["*/ /* `${x}` \" ' \\ \u2028 \u2029 </script>", `it's "quoted"`, `"""'`, "''\"", "\\'", "tab\there", "\u0001\u007f", "漢字かな", "e\u0301", "\ud83d\ude00", "\ud800"];
const oddNumbers = [0, -0, 0.5, -0.5, 1e21, -1e21, 1e-7, 123.456, 2 ** 53, 2 ** 53 + 2, -1e300, 5e-324, 1.5e300, 100];

/** Schemas whose generated lines hold every kind of literal the compiler writes. */
function edgeSchema(width: number, dialect: SchemaDialect): unknown {
  const pad = "x".repeat(width / 2);
  return {
    type: "object",
    properties: {
      [`name${pad}`]: { type: "string", pattern: `^[a-z${pad}]+$`, maxLength: width * 10, minLength: 2 },
      quoted: { type: "string", enum: [...hostile, pad], default: hostile[1] },
      wide: { type: "string", enum: ["漢字".repeat(width % 40), "かな", "e\u0301", "\u2028"], pattern: "^[漢字]{1,9}$" },
      [hostile[0]!]: { type: "number", minimum: -width, maximum: 1e21, exclusiveMinimum: -0.5, multipleOf: 0.01 },
      // (a list of numbers only is left to prettier: it fills lines)
      count: { enum: [...oddNumbers, "n"], default: 1e21 },
      mixed: { enum: ["a", 1, null, true, { [hostile[1]!]: [1e21, -0, "漢"] }, [0.5, "x"]] },
      settings: {
        type: "object",
        default: { "a-b": 1, c: [true, null, 1e-7], [hostile[2]!]: { "漢 字": "x" }, nested: {} },
        properties: { [`p${pad}`]: { const: { [pad]: hostile } } },
        additionalProperties: { type: "array", items: { type: "string" }, uniqueItems: true, minItems: 1e21 },
      },
      list: {
        type: "array",
        ...(dialect === "2020-12" ? { prefixItems: [{ type: "string" }], items: false } : { items: [{ type: "string" }], additionalItems: false }),
        maxItems: width,
        contains: { const: hostile[3] },
      },
    },
    required: [`name${pad}`, "quoted"],
    additionalProperties: false,
  };
}

function specs(): ValidatorSpec[] {
  const out: ValidatorSpec[] = corpus.map((c, i) => ({ name: `validateCase${i}`, schema: c.schema, dialect: c.dialect ?? "2020-12", applyDefaults: true }));
  // Names and padding that put lines just under, at and over the print width at every depth.
  for (const width of [1, 20, 35, 40, 45, 50, 55, 60, 65, 70, 75, 80]) {
    out.push({ name: `validate${"N".repeat(width)}`, schema: edgeSchema(width, "2020-12"), dialect: "2020-12", applyDefaults: true });
    out.push({ name: `validate${"M".repeat(width)}`, schema: edgeSchema(width, "draft-07"), dialect: "draft-07", applyDefaults: false });
  }
  return out;
}

describe("validators written in flat form", () => {
  it("lay out without parsing exactly as with parsing every line", () => {
    let wide = 0;
    let laidOut = 0;
    let asciiCount = 0;
    for (const spec of specs()) {
      const { code, lines, ascii, problems } = compileValidator(spec);
      expect(problems, spec.name).toEqual([]);
      const expected = layoutCode(code);
      expect(layoutFlatCode(code), spec.name).toBe(expected);
      expect(layoutFlatLines(lines), spec.name).toBe(expected);
      // the ASCII flag is exact, and measuring by length under it changes nothing
      expect(ascii, spec.name).toBe(!/[^\x20-\x7F]/.test(lines.join("")));
      if (ascii) asciiCount++;
      expect(layoutFlatLines(lines, ascii), spec.name).toBe(expected);
      if (expected !== undefined) laidOut++;
      wide += code.split("\n").filter((line) => line.length > 100).length;
    }
    expect(wide).toBeGreaterThan(100); // the long lines are exercised too
    expect(laidOut).toBeGreaterThan(specs().length * 0.9); // and laid out, not left to prettier
    expect(asciiCount).toBeGreaterThan(0);
    expect(asciiCount).toBeLessThan(specs().length); // both kinds of text are exercised
  });

  it("write string literals as prettier does", () => {
    const alphabet = ['"', "'", "\\", "a", "\n", "\r", "\u2028", "\u0001", "`", "$", "{", "漢", "\ud83d\ude00", "\ud800", "/", " ", "e\u0301"];
    const texts = [...hostile, ""];
    for (let i = 0; i < 3000; i++) {
      let text = "";
      for (let j = 0; j < i % 9; j++) text += alphabet[(i * 7 + j * 13 + j * j) % alphabet.length];
      texts.push(text);
    }
    for (const text of texts) expect(stringCode(text), JSON.stringify(text)).toBe(printString(stringLiteral(text)));
  });

  it("write numbers as prettier does", () => {
    for (const n of [...oddNumbers, 1 / 3, -1e-300, 1e20, 1e22, 9007199254740993]) {
      expect(numberCode(n), String(n)).toBe(printNumber(jsonLiteral(n)));
    }
    expect(numberCode(Infinity)).toBe("Infinity");
  });

  it("write data as prettier prints it flat", () => {
    const values: unknown[] = [
      null,
      -0,
      "漢字",
      [],
      {},
      [1e21, [0.5, -1e-7], {}],
      { "a-b": 1, c: { d: [true, null] }, [hostile[1]!]: hostile[2], 1: "one", $x: "_" },
      JSON.parse('{"__proto__": {"x": 1}, "y": "\\"q\\""}'),
    ];
    for (const value of values) {
      const statement = (literal: string) => `const x = ${literal};`;
      expect(layoutFlatCode(statement(dataCode(value))), JSON.stringify(value)).toBe(layoutCode(statement(jsonLiteral(value))));
    }
  });
});
