// What `npm run fuzz:openapi` found, through the built CLI: documents that crashed the import,
// were refused without a location, or were imported into a project that `mcp-gen` (generate)
// then refused. Each case is the smallest document that showed it.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import YAML from "yaml";
import { describe, expect, it } from "vitest";
import { cliPath, repoRoot, schemaDir } from "../support/paths.js";

const outRoot = join(repoRoot, "test", "import", ".out", "hostile");

/** Writes the document (an object as YAML, or text as it is), imports it, and generates what was imported. */
function importDocument(name: string, document: unknown, file = `${name}.yaml`) {
  const dir = join(outRoot, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, file), typeof document === "string" ? document : YAML.stringify(document));
  const imported = spawnSync(process.execPath, [cliPath, "import", "openapi", file, "--out", "out", "-q"], {
    cwd: dir,
    encoding: "utf8",
    timeout: 60_000,
  });
  const out = join(dir, "out");
  const generate = () =>
    spawnSync(process.execPath, [cliPath, "--schema-dir", schemaDir, "-q"], {
      cwd: out,
      encoding: "utf8",
      timeout: 60_000,
    });
  const tools = () => Object.keys((YAML.parse(readFileSync(join(out, "mcp.yaml"), "utf8")) as { tools: object }).tools);
  return { status: imported.status, stderr: imported.stderr, out, generate, tools };
}

const info = { title: "Hostile", version: "1" };
const json = (schema: unknown) => ({
  description: "ok",
  content: { "application/json": { schema } },
});

describe("import openapi on hostile documents", () => {
  it("warns at a $ref whose fragment is no valid percent-encoding instead of crashing", () => {
    const result = importDocument("malformed-ref", {
      openapi: "3.1.0",
      info,
      paths: {
        "/x": { get: { operationId: "getX", responses: { "200": json({ $ref: "#/components/schemas/%ZZ" }) } } },
      },
    });
    expect(result.stderr).not.toContain("internal error");
    expect(result.status).toBe(0);
    expect(result.stderr).toContain(
      'malformed-ref.yaml#/paths/~1x/get/responses/200/content/application~1json/schema/$ref: warning: $ref "#/components/schemas/%ZZ" points to nothing',
    );
  });

  it("refuses a document nesting too deeply at its deepest point, without a stack overflow", () => {
    let schema: unknown = { type: "string" };
    for (let i = 0; i < 1000; i++) schema = { type: "array", items: schema };
    const result = importDocument(
      "deep",
      JSON.stringify({ openapi: "3.1.0", info, paths: { "/x": { get: { responses: { "200": json(schema) } } } } }),
      "deep.json",
    );
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(
      /deep\.json(?::\d+:\d+|#\/paths\/~1x\/get\/responses\/200\/content\/application~1json\/schema(?:\/items)+): values nest more than 128 levels deep here/,
    );
    expect(result.stderr).not.toMatch(/call stack/i);
    expect(existsSync(result.out)).toBe(false);
  });

  it("locates the refusal of a version it does not read, and of a document that is no object", () => {
    const version = importDocument("version", "info: { title: x, version: '1' }\nopenapi: 4.0.0\npaths: {}\n");
    expect(version.status).toBe(1);
    expect(version.stderr).toContain(
      'version.yaml:2:10: neither "openapi: 3.0.x/3.1.x" nor "swagger: 2.0" at its top (found "4.0.0")',
    );
    const list = importDocument("list", "- openapi: 3.1.0\n");
    expect(list.stderr).toContain("list.yaml:1:1: not an OpenAPI document (its top level is not an object)");
  });

  it("reads the document once: a YAML slip is a located parse error, not a bundler failure", () => {
    const result = importDocument(
      "merge",
      'openapi: 3.1.0\ninfo: { title: x, version: "1" }\npaths:\n  /x:\n    get:\n      summary: &m hello\n      <<: *m\n      responses: { "200": { description: ok } }\n',
    );
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/merge\.yaml:\d+:\d+: not JSON or YAML: Merge sources must be maps/);
    expect(existsSync(result.out)).toBe(false);
  });

  it("says where the operations are when none is left to import", () => {
    const result = importDocument("none", { openapi: "3.1.0", info, paths: {} });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("none.yaml#/paths: no operation selected (0 in the document");
  });

  it("leaves out an operation whose input generate would refuse, and drops an output schema it would refuse", () => {
    const result = importDocument("refused-schemas", {
      openapi: "3.0.3",
      info,
      paths: {
        "/bad-input": {
          get: {
            operationId: "badInput",
            parameters: [{ name: "q", in: "query", schema: { type: "string", minLength: -1 } }],
            responses: { "200": json({ type: "object" }) },
          },
        },
        "/bad-output": {
          get: { operationId: "badOutput", responses: { "200": json({ type: "string", minLength: -1 }) } },
        },
        "/good": { get: { operationId: "good", responses: { "200": json({ type: "object" }) } } },
      },
    });
    expect(result.status).toBe(0);
    expect(result.stderr).toMatch(
      /refused-schemas\.yaml#\/paths\/~1bad-input\/get: warning: operation left out: its input schema .*minLength/,
    );
    expect(result.stderr).toMatch(
      /refused-schemas\.yaml#\/paths\/~1bad-output\/get\/responses: warning: its output schema is not a valid JSON Schema 2020-12: .*minLength.*; the tool is imported without an output schema/,
    );
    expect(result.tools()).toEqual(["badOutput", "good"]);
    const generated = result.generate();
    expect(generated.stderr).toBe("");
    expect(generated.status).toBe(0);
  });

  it("keeps a tool name made of a long path within the name limit", () => {
    const path = `/${"segment".repeat(30)}/{id}`;
    const result = importDocument("long-path", {
      openapi: "3.1.0",
      info,
      paths: {
        [path]: {
          get: {
            parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
            responses: { "200": json({ type: "object" }) },
          },
        },
      },
    });
    expect(result.status).toBe(0);
    const [name] = result.tools();
    expect(name!.length).toBeLessThanOrEqual(128); // MCP's limit, and the manifest's
    expect(result.generate().status).toBe(0);
  });
});
