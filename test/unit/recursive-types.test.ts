// Recursive schemas become named recursive types (never an endless expansion): a schema
// file referenced as a tool's whole input that refers to itself ("#") and whose $defs
// refer to themselves, next to hostile text in keys and descriptions; the generated
// types.gen.ts compiles under the strict settings.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { generateManifest, tempProject } from "../support/generate.js";
import { formatTypeErrors, typecheck } from "../support/typecheck.js";

const tree = {
  type: "object",
  description: "A tree */ node",
  properties: {
    name: { type: "string" },
    children: { type: "array", items: { $ref: "#" } },
    meta: { $ref: "#/$defs/meta" },
  },
  required: ["name"],
  $defs: {
    meta: {
      type: "object",
      properties: { parent: { $ref: "#" }, self: { $ref: "#/$defs/meta" } },
      patternProperties: { "a*/b": { type: "string", description: "Ends */ here `${x}`" } },
    },
  },
};

const manifest = `mcpgen: 1
server: { name: tree, version: 1.0.0 }
protocol: [2026-07-28]
output: ./mcp
tools:
  walk:
    description: Walks a tree
    input: { $ref: ./tree.json }
    output: { $ref: ./tree.json }
`;

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe("recursive schemas", () => {
  it("become named recursive types that compile", async () => {
    const dir = tempProject({ "mcp.yaml": manifest, "tree.json": JSON.stringify(tree) });
    dirs.push(dir);
    const result = await generateManifest(join(dir, "mcp.yaml"));
    if (!result.ok) throw new Error(result.diagnostics.map((d) => d.message).join("\n"));
    const types = result.generated.files.get("types.gen.ts")!;
    const lines = types.split("\n");
    for (const line of [
      "export interface WalkInput {",
      "  children?: WalkInput[] | undefined;",
      "  meta?: WalkInputMeta | undefined;",
      "export interface WalkInputMeta {",
      "  parent?: WalkInput | undefined;",
      "  self?: WalkInputMeta | undefined;",
      '  /** Keys matching "a*\\/b": Ends *\\/ here `${x}` */',
      "  children?: WalkOutput[] | undefined;",
    ]) {
      expect(lines).toContain(line);
    }
    // no text from the schema leaves its comment: every `*/` in a doc line ends that doc
    for (const line of lines.filter((l) => l.trimStart().startsWith("/**") || l.trimStart().startsWith("*"))) {
      expect(line.replace(/\*\/$/, "")).not.toContain("*/");
    }
    const out = join(dir, "mcp");
    mkdirSync(out, { recursive: true });
    for (const [path, text] of result.generated.files) writeFileSync(join(out, path), text);
    const files = readdirSync(out).map((name) => join(out, name));
    expect(formatTypeErrors(typecheck(files))).toBe("");
  }, 60_000);
});
