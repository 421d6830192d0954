// Writes generator/manifest.gen.ts, the TypeScript types of the manifest, from
// schema/manifest.schema.json with the type emitter that writes the types of tools'
// schemas (generator/emit/types), so the types the model reads and the schema the shape
// check validates against cannot drift. A repository tool, not a user command:
// `npm run generate:manifest-types` rewrites the file (`--check`: exit 1 when it is stale);
// test/docs/manifest-types.test.ts fails while it is.
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { namedSchemas } from "../generator/emit/types/emit.js";
import { schemaDeclaration } from "../generator/emit/types/schema-type.js";
import type { JsonValue } from "../generator/load/source.js";
import { isJsonObject } from "../generator/validate/schema-check.js";
import { generatedMarker } from "../generator/generated.js";
import { repoRoot, schemaPath } from "./manifest-reference.js";

export const typesPath = join(repoRoot, "generator", "manifest.gen.ts");

/** A `$ref` to a definition itself, which becomes a named type (`#/definitions/tool` → ManifestTool). */
const definitionRef = /^#\/definitions\/[^/]+$/;

/**
 * The schema with every `$ref` into a definition's inside (`#/definitions/app/properties/html`)
 * replaced by what it points at: only whole definitions are named types, and the type
 * emitter reads any other reference as `unknown`.
 */
function withInnerRefsInlined(root: JsonValue): JsonValue {
  const resolve = (ref: string): JsonValue => {
    let node: JsonValue | undefined = root;
    for (const token of ref.slice(2).split("/")) node = isJsonObject(node) ? node[token] : undefined;
    if (node === undefined) throw new Error(`manifest schema: ${ref} resolves to nothing`);
    return node;
  };
  const inline = (node: JsonValue): JsonValue => {
    if (Array.isArray(node)) return node.map(inline);
    if (!isJsonObject(node)) return node;
    if (typeof node.$ref === "string" && !definitionRef.test(node.$ref)) return inline(resolve(node.$ref));
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, inline(value)]));
  };
  return inline(root);
}

/** The text of generator/manifest.gen.ts for the manifest schema's text. */
export function manifestTypes(schemaText: string): string {
  const schema = JSON.parse(schemaText) as JsonValue;
  const sha256 = createHash("sha256").update(schemaText).digest("hex");
  const banner = [
    `${generatedMarker}. DO NOT EDIT.`,
    `// Source: schema/manifest.schema.json sha256 ${sha256}`,
    "// Regenerate: npm run generate:manifest-types",
    "",
    "// The manifest's types: `Manifest` is the whole file, each definition of the schema is Manifest<Definition>.",
    "",
    "",
  ];
  const doc = "A manifest (mcp.yaml) as it is once the shape check has accepted it.";
  const declarations = namedSchemas("Manifest", withInnerRefsInlined(schema), doc).map((named) =>
    schemaDeclaration(named.name, named.schema, 0, named.doc),
  );
  return banner.join("\n") + declarations.join("\n");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const updated = manifestTypes(readFileSync(schemaPath, "utf8"));
  let current: string | undefined;
  try {
    current = readFileSync(typesPath, "utf8");
  } catch {
    current = undefined;
  }
  if (process.argv.includes("--check")) {
    if (updated !== current) {
      process.stderr.write("generator/manifest.gen.ts is stale: run npm run generate:manifest-types\n");
      process.exit(1);
    }
  } else if (updated !== current) writeFileSync(typesPath, updated);
}
