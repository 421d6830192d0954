// `mcp-gen import openapi` through the built CLI, without serving: located refusals and
// warnings, external and recursive $refs, and selection by --include/--exclude.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import YAML from "yaml";
import { describe, expect, it } from "vitest";
import { cliPath, repoRoot } from "../support/paths.js";

const fixtures = join(repoRoot, "test", "import", "fixtures");
const outRoot = join(repoRoot, "test", "import", ".out", "cli");

function importOpenApi(name: string, source: string, ...flags: string[]) {
  const out = join(outRoot, name);
  rmSync(out, { recursive: true, force: true });
  const result = spawnSync(process.execPath, [cliPath, "import", "openapi", source, "--out", out, ...flags], {
    cwd: repoRoot,
    encoding: "utf8",
    timeout: 60_000,
  });
  const manifest = () =>
    YAML.parse(readFileSync(join(out, "mcp.yaml"), "utf8")) as {
      tools: Record<string, { input: unknown; output?: unknown }>;
    };
  return { status: result.status, stdout: result.stdout, stderr: result.stderr, out, manifest };
}

describe("mcp-gen import openapi", () => {
  it("warns at the JSON pointer of a $ref that points to nothing", () => {
    const result = importOpenApi("broken", join(fixtures, "broken.yaml"));
    expect(result.status).toBe(0);
    expect(result.stderr).toContain(
      'broken.yaml#/paths/~1x/get/responses/200/content/application~1json/schema/$ref: warning: $ref "#/components/schemas/Missing" points to nothing in the document; it is left out (any value accepted)',
    );
  });

  it("refuses a document that does not parse with its line and column, and writes nothing", () => {
    mkdirSync(outRoot, { recursive: true });
    const bad = join(outRoot, "bad.yaml");
    writeFileSync(bad, 'openapi: 3.1.0\ninfo: { title: x, version: "1" }\npaths:\n  /x: [unclosed\n');
    const result = importOpenApi("bad", bad);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/bad\.yaml:\d+:\d+: not JSON or YAML: /);
    expect(() => readFileSync(join(result.out, "mcp.yaml"))).toThrow();
    writeFileSync(bad, "openapi: 4.0.0\n");
    expect(importOpenApi("bad", bad).stderr).toContain(
      'neither "openapi: 3.0.x/3.1.x" nor "swagger: 2.0" at its top (found "4.0.0")',
    );
  });

  it("bundles external $refs and keeps a recursive schema as a reference into $defs", () => {
    const result = importOpenApi("external", join(fixtures, "external", "api.yaml"));
    expect(result.status).toBe(0);
    const tool = result.manifest().tools.getNode!;
    expect(tool.input).toEqual({
      type: "object",
      properties: { id: { type: "string" } },
      required: ["id"],
      additionalProperties: false,
    });
    expect(tool.output).toEqual({
      type: "object",
      properties: { label: { type: "string" }, next: { $ref: "#/$defs/Node" } },
      $defs: { Node: { type: "object", properties: { label: { type: "string" }, next: { $ref: "#/$defs/Node" } } } },
    });
  });

  it("selects by tag, operationId glob and path glob; deprecated only when asked", () => {
    const petstore = join(fixtures, "petstore-3.0.yaml");
    const tools = (...flags: string[]) =>
      Object.keys(importOpenApi("select", petstore, "-q", ...flags).manifest().tools);
    expect(tools("--include", "tag:categories")).toEqual(["list-categories", "get_categories_all"]);
    expect(tools("--include", "path:/pets/*", "--exclude", "operation:*Pet")).toEqual(["searchPets", "showPetById"]);
    expect(tools("--include", "path:/pets/**", "--exclude", "tag:pets")).toEqual(["getPetPhoto"]);
    expect(tools("--include", "operation:listPets*", "--include-deprecated")).toEqual(["listPets", "listPetsLegacy"]);
    const none = importOpenApi("select", petstore, "--include", "tag:nothing");
    expect(none.status).toBe(1);
    expect(none.stderr).toContain(
      "no operation selected (11 in the document; deprecated ones need --include-deprecated); nothing written",
    );
    const usage = importOpenApi("select", petstore, "--include", "pets");
    expect(usage.status).toBe(2);
    expect(usage.stderr).toContain('"pets" is not tag:<name>, operation:<glob> or path:<glob>');
  });

  it("never overwrites a file an import did not write", () => {
    const out = join(outRoot, "foreign");
    rmSync(out, { recursive: true, force: true });
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, "mcp.yaml"), "mcpgen: 1\n");
    const result = spawnSync(
      process.execPath,
      [cliPath, "import", "openapi", join(fixtures, "petstore-2.0.json"), "--out", out],
      { cwd: repoRoot, encoding: "utf8" },
    );
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      "mcp.yaml: exists and was not written by mcp-gen import; move it away or choose another --out",
    );
    expect(readFileSync(join(out, "mcp.yaml"), "utf8")).toBe("mcpgen: 1\n");
  });
});
