// The canonical layout of generated types (generator/emit/types/type-node.ts): a small
// inline schema and the exact lines it is written as, table-driven.
import { describe, expect, it } from "vitest";
import { protocolHead } from "../../generator/emit/protocol/emit.js";
import { normaliseSchema } from "../../generator/emit/types/normalise.js";
import { schemaDeclaration } from "../../generator/emit/types/schema-type.js";

const refName = (ref: string) => (ref === "#" ? "Node" : ref === "#/$defs/leaf" ? "Leaf" : undefined);
const declaration = (name: string, schema: unknown, indent = 0) =>
  schemaDeclaration(name, normaliseSchema(schema, { refName }), indent).split("\n").slice(0, -1);

const levels = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}-${i}`);

const cases: readonly { name: string; schema: unknown; indent?: number; lines: readonly string[] }[] = [
  {
    name: "Text",
    schema: { type: "string", description: "Some text", maxLength: 5, format: "email" },
    lines: ["/** Some text */", "export type Text = string;"],
  },
  {
    name: "Point",
    schema: {
      type: "object",
      description: "A point",
      properties: {
        x: { type: "number", description: "Across" },
        y: { type: "integer" },
        "z-index": { type: "number" },
      },
      required: ["x"],
    },
    lines: [
      "/** A point */",
      "export interface Point {",
      "  /** Across */",
      "  x: number;",
      "  y?: number | undefined;",
      '  "z-index"?: number | undefined;',
      "}",
    ],
  },
  { name: "Empty", schema: { type: "object", properties: {} }, lines: ["export interface Empty {}"] },
  { name: "Open", schema: { type: "object" }, lines: ["export interface Open {", "  [k: string]: unknown;", "}"] },
  {
    name: "Mixed",
    schema: {
      type: "object",
      properties: { a: { type: "string" } },
      required: ["a"],
      additionalProperties: { type: "boolean" },
    },
    lines: ["export interface Mixed {", "  a: string;", "  [k: string]: boolean | string;", "}"],
  },
  { name: "Maybe", schema: { type: ["string", "null"] }, lines: ["export type Maybe = string | null;"] },
  {
    name: "Level",
    schema: { enum: ["low", 'it\'s "high"', "\u2028", -1, null, true] },
    lines: ['export type Level = "low" | "it\'s \\"high\\"" | "\\u2028" | -1 | null | true;'],
  },
  {
    name: "Long",
    schema: { enum: levels("level", 12) },
    lines: ["export type Long =", ...levels("level", 11).map((l) => `  | "${l}"`), '  | "level-11";'],
  },
  {
    name: "List",
    schema: { type: "array", items: { anyOf: [{ type: "string" }, { type: "number" }] } },
    lines: ["export type List = (string | number)[];"],
  },
  {
    name: "Wide",
    schema: { type: "array", items: { enum: levels("value", 3).map((v) => v.repeat(9)) } },
    lines: ["export type Wide = (", ...levels("value", 3).map((v) => `  | "${v.repeat(9)}"`), ")[];"],
  },
  {
    name: "Pair",
    schema: { type: "array", prefixItems: [{ type: "string" }, { type: "number" }], minItems: 1 },
    lines: ["export type Pair = [string, number?, ...unknown[]];"],
  },
  {
    name: "Closed",
    schema: { type: "array", prefixItems: [{ type: "string" }], items: false, minItems: 1 },
    lines: ["export type Closed = [string];"],
  },
  {
    name: "Choice",
    schema: { type: "array", prefixItems: [{ type: ["string", "number"] }] },
    lines: ["export type Choice = [(string | number)?, ...unknown[]];"],
  },
  {
    name: "Shape",
    schema: { anyOf: [{ type: "object", properties: { r: { type: "number" } }, required: ["r"] }, { type: "null" }] },
    lines: ["export type Shape =", "  | {", "      r: number;", "    }", "  | null;"],
  },
  {
    name: "Both",
    schema: {
      type: "object",
      properties: { kind: { type: "string" } },
      anyOf: [{ $ref: "#/$defs/leaf" }, { type: "null" }],
    },
    lines: ["export type Both =", "  & {", "      kind?: string | undefined;", "    }", "  & (Leaf | null);"],
  },
  {
    name: "Patterned",
    schema: { type: "object", patternProperties: { "a*/b": { type: "number", description: "Ends */ here" } } },
    lines: [
      "export interface Patterned {",
      '  /** Keys matching "a*\\/b": Ends *\\/ here */',
      "  [k: string]: number;",
      "}",
    ],
  },
  {
    name: "Hostile",
    schema: {
      type: "object",
      properties: { "*/": { type: "string", description: "a\u2028b `${x}`" }, "`${x}`": { const: "`" } },
      required: ["`${x}`"],
    },
    lines: [
      "export interface Hostile {",
      "  /**",
      "   * a",
      "   * b `${x}`",
      "   */",
      '  "*/"?: string | undefined;',
      '  "`${x}`": "`";',
      "}",
    ],
  },
  {
    name: "Old",
    schema: {
      type: "object",
      description: "Old",
      deprecated: true,
      properties: { old: { type: "string", deprecated: true } },
    },
    lines: [
      "/**",
      " * Old",
      " *",
      " * @deprecated",
      " */",
      "export interface Old {",
      "  /** @deprecated */",
      "  old?: string | undefined;",
      "}",
    ],
  },
  {
    name: "Node",
    schema: { type: "object", properties: { children: { type: "array", items: { $ref: "#" } } } },
    lines: ["export interface Node {", "  children?: Node[] | undefined;", "}"],
  },
  {
    name: "Nested",
    indent: 1,
    schema: {
      type: "object",
      properties: {
        inner: {
          type: "object",
          properties: { v: { anyOf: [{ type: "object", properties: { a: { type: "string" } } }, { type: "string" }] } },
        },
      },
    },
    lines: [
      "  export interface Nested {",
      "    inner?:",
      "      | {",
      "          v?:",
      "            | {",
      "                a?: string | undefined;",
      "              }",
      "            | string",
      "            | undefined;",
      "        }",
      "      | undefined;",
      "  }",
    ],
  },
  { name: "Never", schema: false, lines: ["export type Never = never;"] },
  { name: "Anything", schema: true, lines: ["export type Anything = unknown;"] },
  {
    name: "Annotated",
    schema: { description: "Any value", examples: [1] },
    lines: ["/** Any value */", "export type Annotated = unknown;"],
  },
  {
    name: "Constant",
    schema: { const: { kind: "x", list: [1, "a"] } },
    lines: ["export interface Constant {", '  kind: "x";', '  list: [1, "a"];', "}"],
  },
  { name: "Not", schema: { not: { type: "string" } }, lines: ["export type Not = unknown;"] },
];

describe("canonical layout of types", () => {
  for (const c of cases) {
    it(c.name, () => {
      expect(declaration(c.name, c.schema, c.indent)).toEqual(c.lines);
    });
  }

  it("keeps every line within 100 columns where a break is allowed", () => {
    const text = declaration("Wide", {
      type: "object",
      properties: Object.fromEntries(levels("property", 6).map((p) => [p, { enum: levels(p, 8) }])),
    });
    expect(text.filter((line) => line.length > 100)).toEqual([]);
    expect(text.length).toBeGreaterThan(6 * 8);
  });

  it("writes the head of protocol.gen.ts", () => {
    expect(protocolHead(["2026-07-28"], "MergeMethods", ["V2026_07_28"]).split("\n").slice(0, 6)).toEqual([
      "/** The protocol revisions this code serves and speaks, preferred first. */",
      'export const revisions = ["2026-07-28"] as const;',
      "export type Revision = (typeof revisions)[number];",
      "",
      "/** Client requests of every revision above, by method; params and results are unions over the revisions that have the method. */",
      "export type ClientRequestMap = MergeMethods<V2026_07_28.ClientRequestMap>;",
    ]);
    const revisions = ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];
    const head = protocolHead(
      revisions,
      "MergeMethods",
      revisions.map((r) => `V${r.replace(/-/g, "_")}`),
    ).split("\n");
    expect(head.slice(0, 8)).toEqual([
      "/** The protocol revisions this code serves and speaks, preferred first. */",
      "export const revisions = [",
      ...revisions.map((r) => `  "${r}",`),
      "] as const;",
    ]);
    expect(head.slice(11, 18)).toEqual([
      "export type ClientRequestMap = MergeMethods<",
      "  | V2026_07_28.ClientRequestMap",
      "  | V2025_11_25.ClientRequestMap",
      "  | V2025_06_18.ClientRequestMap",
      "  | V2025_03_26.ClientRequestMap",
      "  | V2024_11_05.ClientRequestMap",
      ">;",
    ]);
  });
});
