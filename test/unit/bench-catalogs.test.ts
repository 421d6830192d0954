// The generator benchmark's extra catalogs (bench/workload/catalogs.ts): the same seed gives
// the same manifest, each shape has what it is meant to exercise, and a small one of each
// generates code that compiles under the strictest settings (hostile text included).
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { catalogShapes, shapedCatalogManifest } from "../../bench/workload/catalogs.js";
import { runCli, tempProject } from "../support/generate.js";
import { typecheck } from "../support/typecheck.js";

describe("bench catalogs of other shapes", () => {
  it("are deterministic for a seed and differ between seeds", () => {
    for (const shape of catalogShapes) {
      expect(shapedCatalogManifest(shape, 50)).toBe(shapedCatalogManifest(shape, 50));
      expect(shapedCatalogManifest(shape, 50, 1)).not.toBe(shapedCatalogManifest(shape, 50, 2));
    }
  });

  it("have the features of their shape", () => {
    const nullable = shapedCatalogManifest("nullable", 200);
    expect(nullable).toMatch(/"type": \[\s*"string",\s*"null"\s*\]/);
    expect(nullable).toContain('"exclusiveMinimum"');
    expect(nullable).toContain('"multipleOf"');
    expect(nullable).toContain('"minItems"');
    expect(nullable).toMatch(/"pattern": "[^"]*`/);
    expect(nullable).toMatch(/"pattern": "[^"]*\$/);
    const composed = shapedCatalogManifest("composed", 200);
    for (const key of ['"$defs"', '"$ref"', '"anyOf"', '"oneOf"', '"allOf"', '"patternProperties"', '"output"'])
      expect(composed).toContain(key);
    const surface = JSON.parse(shapedCatalogManifest("surface", 100)) as Record<string, Record<string, unknown>>;
    expect(Object.keys(surface.tools!)).toHaveLength(100);
    expect(Object.keys(surface.prompts!)).toHaveLength(30);
    expect(Object.keys(surface.resources!)).toHaveLength(30);
    expect(Object.keys(surface.resourceTemplates!)).toHaveLength(30);
    const text = JSON.stringify(surface);
    for (const hostile of ["*/", "`", "${", "\u2028", "日本語"]) expect(text).toContain(hostile);
  });

  it("written as YAML hold the same manifest as written as JSON, in the block style people write", () => {
    for (const shape of catalogShapes) {
      const yaml = shapedCatalogManifest(shape, 40, 16, "yaml");
      expect(parse(yaml)).toEqual(JSON.parse(shapedCatalogManifest(shape, 40)));
      expect(yaml).not.toMatch(/^\s*[{[]/);
      expect(yaml).not.toMatch(/[&*]a\d/); // no anchors or aliases: every schema written out
    }
  });

  for (const shape of catalogShapes) {
    it(`a small ${shape} catalog generates code that compiles strictly`, () => {
      const dir = tempProject({ "mcp.yaml": "" });
      writeFileSync(join(dir, "mcp.yaml"), shapedCatalogManifest(shape, 12));
      const run = runCli(["generate", "mcp.yaml", "-q"], dir);
      expect(run.stderr).toBe("");
      expect(run.status).toBe(0);
      const out = join(dir, "mcp");
      const files = readdirSync(out)
        .filter((f) => f.endsWith(".ts"))
        .map((f) => join(out, f));
      expect(files.length).toBeGreaterThan(3);
      expect(typecheck(files)).toEqual([]);
    });
  }
});
