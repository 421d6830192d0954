// docs/manifest.md's reference part is generated from schema/manifest.schema.json by
// scripts/manifest-reference.ts: it fails here while stale, every key sits in the table of
// the object it belongs to, and the schema stays documented (a key without a description,
// or text Markdown would hide, stops the script).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  documentPath,
  END,
  manifestReference,
  schemaPath,
  START,
  withReference,
} from "../../scripts/manifest-reference.js";

const schema = JSON.parse(readFileSync(schemaPath, "utf8")) as Parameters<typeof manifestReference>[0];
const reference = manifestReference(schema);

/** The rows' keys of the table under `heading`. */
function keysOf(heading: string): string[] {
  const start = reference.indexOf(`\n### ${heading}\n`);
  expect(start, heading).toBeGreaterThanOrEqual(0);
  const table = reference.slice(start + 1).split("\n### ")[0]!;
  return [...table.matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1]!);
}

describe("the manifest reference", () => {
  it("in docs/manifest.md is the one the schema gives (run `npx tsx scripts/manifest-reference.ts` after changing the schema)", () => {
    const document = readFileSync(documentPath, "utf8");
    expect(document).toContain(START);
    expect(document).toContain(END);
    expect(withReference(document, schema)).toBe(document);
  });

  it("puts every key in the table of the object it belongs to", () => {
    expect(keysOf("`auth`")).toEqual([
      "authorizationServers",
      "scopesSupported",
      "requiredScopes",
      "resource",
      "resourceName",
      "documentation",
    ]);
    expect(keysOf("`tools.<tool>`")).toContain("scopes");
    expect(keysOf("`prompts.<prompt>`")).toEqual(expect.arrayContaining(["scopes", "arguments", "messages"]));
    expect(keysOf("`prompts.<prompt>.arguments.<argument>`")).toContain("complete");
    expect(keysOf("`resourceTemplates.<template>.variables.<variable>`")).toEqual(["complete"]);
    // Every object of the schema has its table: the top level and each definition with properties.
    const objects = Object.values(
      (schema as { definitions: Record<string, { properties?: unknown }> }).definitions,
    ).filter((d) => d.properties).length;
    expect(reference.match(/^### /gm)).toHaveLength(objects + 1);
  });

  it("refuses a key without a description, and text Markdown would hide", () => {
    const bare = { description: "A manifest.", type: "object", properties: { name: { type: "string" } } };
    expect(() => manifestReference(bare)).toThrow("manifest schema: name has no description");
    const tag = {
      description: "A manifest.",
      type: "object",
      properties: { name: { type: "string", description: "Calls <name>." } },
    };
    expect(() => manifestReference(tag)).toThrow("<name> outside backticks");
    expect(
      manifestReference({ ...tag, properties: { name: { type: "string", description: "Calls `<name>`." } } }),
    ).toContain("| `name` | string | Calls `<name>`. |");
  });
});
