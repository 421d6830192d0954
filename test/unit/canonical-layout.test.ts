// Large parts of the generated code (validators, per-tool types and server tables) are
// written directly in prettier's layout instead of being formatted after the fact. These
// manifests push that layout to its edges — names, descriptions, patterns and messages
// that put lines just under, at and beyond 100 columns, strings hostile to code
// generators — and every generated file must come out exactly as prettier would print it.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatTypeScript } from "../../generator/emit/format.js";
import { generateManifest } from "../support/generate.js";
import { repoRoot } from "../support/paths.js";

const hostile = "*/ /* `${x}` \" ' \\ \u2028 \u2029 </script>";

/** A tool whose generated lines end near column `width` (names and patterns padded to it). */
function tool(width: number): [string, unknown] {
  const name = `tool_${"x".repeat(Math.min(110, Math.max(1, width - 40)))}_${width}`;
  const pattern = `^[a-z]{2,4}-${"[0-9]".repeat(Math.max(1, Math.floor((width - 50) / 5)))}$`;
  return [
    name,
    {
      description: `${"Described at some length ".repeat(Math.ceil(width / 25))}${hostile}`,
      input: {
        type: "object",
        properties: {
          [`identifier${"Long".repeat(Math.floor(width / 20))}`]: { type: "string", pattern, description: hostile },
          quoted: { type: "string", pattern: `^["'\`]{1,${width}}$`, maxLength: width * 10 },
          level: { type: "string", enum: ["lowest", "low", `it's "${width}"`, "\u2028", "`${x}`", "x".repeat(width % 60)] },
          count: { type: "integer", minimum: -width, maximum: width * 1e6, multipleOf: 3, default: 7 },
          ratio: { type: "number", exclusiveMinimum: 0.5, maximum: 1e21 },
          numbers: { enum: width > 100 ? [1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377, 610, 987, 1597, 2584, 4181, 6765] : [1, 2, 3] },
          mode: { const: { kind: "fixed", width } },
          window: {
            type: "object",
            description: `Window ${hostile}`,
            properties: {
              from: { type: "number", minimum: 0 },
              [`to${"o".repeat(width % 37)}`]: { type: "number", minimum: 0, description: "x".repeat(width), pattern: `^${"y".repeat(width - 30)}$` },
              unit: { type: ["string", "null"], enum: ["s", "ms", null] },
            },
            required: ["from"],
            additionalProperties: false,
          },
          tags: { type: "array", items: { type: "string", minLength: 1 }, uniqueItems: true, maxItems: width },
          nested: { anyOf: [{ type: "string" }, { type: "array", items: { $ref: "#/$defs/leaf" } }, { type: "null" }] },
          options: { type: "object", default: { dryRun: true, notify: "none" }, properties: { dryRun: { type: "boolean" } } },
          // Literals the validators write in prettier's form themselves: quotes, wide characters, odd numbers.
          wide: { type: "string", enum: ["漢字".repeat((width % 40) + 1), "かな", "e\u0301", `"${"漢".repeat(width % 7)}"`], pattern: `^[漢字]{1,${width}}$` },
          odd: { enum: [1e21, 0.5, -0.5, 1e-7, "n", `it's "${width}"`], default: { [`"${hostile}"`]: [1e21, 1e-7], "a-b": "漢字", [`k${"y".repeat(width % 50)}`]: 0.5 } },
          // Keys prettier unquotes by its own Unicode tables (identifiers) or keeps quoted.
          你好: { type: "object", properties: { ß: { type: "number" }, "漢 字": { type: "string" } }, default: { ünï: 1, "a b": 2 } },
        },
        required: ["quoted", "level"],
        $defs: { leaf: { type: "object", properties: { [`"${hostile}"`]: { type: "string" } }, required: [`"${hostile}"`] } },
      },
      output: {
        type: "object",
        properties: { total: { type: "integer" }, [`items${"X".repeat(width % 50)}`]: { type: "array", items: { type: "string" } } },
        required: ["total"],
      },
    },
  ];
}

function writeManifest(tools: [string, unknown][]): string {
  const dir = mkdtempSync(join(tmpdir(), "mcp-gen-layout-"));
  mkdirSync(join(dir, "mcp"));
  const manifest = {
    mcpgen: 1,
    server: { name: "layout-edges", version: "1.0.0", description: hostile },
    protocol: ["2026-07-28", "2025-06-18"],
    output: "./mcp",
    tools: Object.fromEntries(tools),
    // Types of prompt arguments and template variables around the line width, with keys
    // prettier unquotes or keeps quoted, and a tool without defaults (its Args alias).
    prompts: Object.fromEntries(
      [40, 90, 98, 110].map((width) => [
        `prompt_${"p".repeat(width - 40)}`,
        {
          description: hostile,
          arguments: {
            [`arg${"a".repeat(width - 10)}`]: { description: `${"Doc ".repeat(width / 4)}${hostile}`, required: true },
            "with-dash": { description: "line one\nline two  \nline three" },
            你好: {},
          },
          messages: [{ role: "user", text: "Hi" }],
        },
      ]),
    ),
    resourceTemplates: {
      [`template_${"t".repeat(70)}`]: { uriTemplate: `layout://{${"v".repeat(90)}}/{id}`, name: "edges" },
    },
  };
  (manifest.tools as Record<string, unknown>)[`plain_${"x".repeat(80)}`] = { description: "No defaults", input: { type: "object", properties: { a: { type: "string" } } } };
  const file = join(dir, "mcp.yaml");
  writeFileSync(file, JSON.stringify(manifest, null, 2));
  return file;
}

async function expectPrettierStable(manifest: string): Promise<void> {
  const result = await generateManifest(manifest);
  if (!result.ok) throw new Error(result.diagnostics.map((d) => d.message).join("\n"));
  for (const [path, text] of result.generated.files) {
    if (path === "protocol.gen.ts") continue; // covered by the golden tests
    expect(await formatTypeScript(text), path).toBe(text);
  }
}

describe("code emitted in prettier's layout", () => {
  it("stays prettier-formatted for names, patterns and messages around 100 columns", async () => {
    const widths = [40, 60, 75, 80, 85, 88, 90, 92, 94, 95, 96, 97, 98, 99, 100, 101, 102, 104, 110, 130, 200];
    await expectPrettierStable(writeManifest(widths.map(tool)));
  }, 120_000);

  it("stays prettier-formatted for the hostile-strings manifest", async () => {
    await expectPrettierStable(join(repoRoot, "test", "unit", "fixtures", "bad-manifests", "hostile", "mcp.yaml"));
  }, 120_000);
});
