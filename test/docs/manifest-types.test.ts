// generator/manifest.gen.ts, the manifest's types the model reads, is generated from
// schema/manifest.schema.json by mcp-gen's own type emitter (scripts/manifest-types.ts):
// it fails here while stale, and every key of the schema has a type, none `unknown`.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { manifestTypes, typesPath } from "../../scripts/manifest-types.js";
import { schemaPath } from "../../scripts/manifest-reference.js";

const generated = manifestTypes(readFileSync(schemaPath, "utf8"));

describe("the manifest's types", () => {
  it("in generator/manifest.gen.ts are the ones the schema gives (run `npm run generate:manifest-types` after changing the schema)", () => {
    expect(readFileSync(typesPath, "utf8")).toBe(generated);
  });

  it("type every key, references into a definition included", () => {
    expect(generated).not.toMatch(/\bunknown\b/);
    // toolUi borrows the app's keys by `$ref: #/definitions/app/properties/…`.
    const toolUi = generated.slice(generated.indexOf("export type ManifestToolUi"));
    expect(toolUi).toMatch(/^\s+html\?: string \| undefined;$/m);
    expect(toolUi).toMatch(/^\s+csp\?: ManifestAppCsp \| undefined;$/m);
  });
});
