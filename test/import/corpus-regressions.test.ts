// What the APIs.guru corpus run (bench/openapi-corpus.ts) found `mcp-gen import openapi` doing
// wrong, each as a few lines of test/import/fixtures/corpus-extracts.yaml: the import must write a
// project that `mcp-gen` generates, saying at a JSON pointer what it changed.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import YAML from "yaml";
import { beforeAll, describe, expect, it } from "vitest";
import { cliPath, repoRoot, schemaDir } from "../support/paths.js";

const outRoot = join(repoRoot, "test", "import", ".out", "corpus");
const fixture = join(repoRoot, "test", "import", "fixtures", "corpus-extracts.yaml");
const at = "corpus-extracts.yaml#/paths/~1places/get";

const node = (args: readonly string[], cwd: string) =>
  spawnSync(process.execPath, args, { cwd, encoding: "utf8", timeout: 120_000 });

interface Manifest {
  settings: Record<string, { env?: string }>;
  tools: Record<string, { input: { properties: Record<string, Record<string, unknown>> }; output?: unknown }>;
}

describe("import openapi: what the corpus run found", () => {
  const project = join(outRoot, "extracts");
  let imported: ReturnType<typeof node>;
  let manifest: Manifest;

  beforeAll(() => {
    rmSync(project, { recursive: true, force: true });
    imported = node([cliPath, "import", "openapi", fixture, "--out", project], repoRoot);
    manifest = YAML.parse(readFileSync(join(project, "mcp.yaml"), "utf8")) as Manifest;
  }, 60_000);

  it("writes a project that mcp-gen generates", () => {
    expect(imported.status).toBe(0);
    const generated = node([cliPath, "--schema-dir", schemaDir, "-q"], project);
    expect(generated.stderr).toBe("");
    expect(generated.status).toBe(0);
  }, 120_000);

  it("turns patterns into ECMAScript regular expressions with the u flag, or leaves them out with a warning", () => {
    const input = manifest.tools.findPlaces!.input.properties;
    // Escapes the u flag refuses mean the character itself: dropped without a word.
    expect(input.near!.pattern).toBe("^(-?\\d+(\\.\\d+)?),\\s*(-?\\d+)$");
    expect(input.code!.pattern).toBe("[\\.\\-_#A-Za-z0-9\\$]+");
    expect(input.kana!.pattern).toBe("^[A-Za-z \\p{Script=Han}\\p{Script=Katakana}-]*$");
    expect(input.printable!.pattern).toBe("[^\\p{C}]*");
    expect(input.caseless).toEqual({ type: "string" });
    expect(imported.stderr).toContain(
      `${at}/parameters/2/schema/pattern: warning: pattern "^[A-Za-z \\\\p{Han}\\\\p{Katakana}-]*$" rewritten for ECMAScript: "^[A-Za-z \\\\p{Script=Han}\\\\p{Script=Katakana}-]*$"`,
    );
    expect(imported.stderr).toContain(
      `${at}/parameters/4/schema/pattern: warning: pattern "(?i)^abc$" is not a valid ECMAScript regular expression with the u flag, as JSON Schema requires; it is left out`,
    );
    expect(imported.stderr).not.toContain("parameters/0/schema/pattern");
  });

  it("converts a default its schema rejects when a plain conversion fits, else leaves it out", () => {
    const input = manifest.tools.findPlaces!.input.properties;
    expect(input.resume!.default).toBe(true);
    expect(input.prefix!.default).toBe(false);
    expect(input.limit!.default).toBe(20);
    expect(input.kinds!.default).toEqual(["recent"]);
    expect(input.tags).not.toHaveProperty("default");
    // Items by reference: judged by the type alone.
    expect(input.levels).toEqual({ type: "array", items: { $ref: "#/$defs/Level" } });
    expect(manifest.tools.findPlaces!.output).toEqual({ type: "object", properties: { name: { type: "string" } } });
    expect(imported.stderr).toContain(
      `${at}/parameters/5/schema/default: warning: default "true" does not match its own schema; true instead`,
    );
    expect(imported.stderr).toContain(
      `${at}/responses/200/content/application~1json/schema/properties/name/default: warning: default false does not match its own schema; it is left out`,
    );
  });

  it("keeps method-and-path tool names and credential settings within MCP's and the manifest's lengths", () => {
    const long = Object.keys(manifest.tools).find((name) => name.startsWith("get_api_logistics"))!;
    expect(long).toMatch(/^get_api_logistics_capacity_resources_carriers_by_carrier_id_.*_[0-9a-f]{8}$/);
    expect(long).toHaveLength(128);
    const settings = Object.keys(manifest.settings);
    expect(settings).toContain("directorate_of_information_technology_client_id");
    expect(settings).toContain("directorate_of_information_technology_gove_basic_password");
    for (const name of settings) expect(name.length).toBeLessThanOrEqual(64);
  });

  it("names the server after the file when the title gives no name", () => {
    mkdirSync(outRoot, { recursive: true });
    const untitled = join(outRoot, "certificates.yaml");
    writeFileSync(
      untitled,
      'openapi: 3.0.3\ninfo: { title: "", version: "1" }\npaths:\n  /x:\n    get:\n      operationId: getX\n      responses: { "204": { description: none } }\n',
    );
    const out = join(outRoot, "untitled");
    rmSync(out, { recursive: true, force: true });
    const result = node([cliPath, "import", "openapi", untitled, "--out", out], repoRoot);
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect((YAML.parse(readFileSync(join(out, "mcp.yaml"), "utf8")) as { server: { name: string } }).server.name).toBe(
      "certificates",
    );
  });
});
