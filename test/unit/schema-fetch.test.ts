// `mcp-gen schema fetch` over real HTTP from a local mirror (MCP_GEN_SCHEMA_MIRROR) laid
// out like the official repository: the sha256 pinned in schema/revisions.json decides.
import { createServer, type Server } from "node:http";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, runCliAsync, tempProject } from "../support/generate.js";
import { schemaDir } from "../support/paths.js";

let server: Server;
let base = "";

beforeAll(async () => {
  server = createServer((req, res) => {
    const match = /^\/(good|bad)\/schema\/([0-9-]+)\/schema\.json$/.exec(req.url ?? "");
    const file = match ? join(schemaDir, match[2]!, "schema.json") : "";
    if (!match || !existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    const body = readFileSync(file);
    res
      .writeHead(200, { "content-type": "application/json" })
      .end(match[1] === "bad" ? Buffer.concat([body, Buffer.from(" ")]) : body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("mcp-gen schema fetch", () => {
  it("downloads, verifies the pinned sha256 and fills the cache that generate then uses", async () => {
    const cache = tempProject();
    const env = { XDG_CACHE_HOME: cache, MCP_GEN_SCHEMA_MIRROR: `${base}/good/`, MCP_GEN_SCHEMA_DIR: "" };
    const run = await runCliAsync(["schema", "fetch", "2025-06-18"], undefined, env);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    const cached = join(cache, "mcp-gen", "schemas", "2025-06-18", "schema.json");
    expect(readFileSync(cached)).toEqual(readFileSync(join(schemaDir, "2025-06-18", "schema.json")));
    expect(run.stdout).toBe(`2025-06-18: ${cached} (sha256 verified)\n`);
    const list = runCli(["schema", "list"], undefined, env);
    expect(list.stdout).toContain(`2025-06-18  legacy  draft-07  ${cached} (the schema cache)`);
  });

  it("refuses a file whose sha256 differs from the pinned one, writing nothing", async () => {
    const cache = tempProject();
    const run = await runCliAsync(["schema", "fetch", "2025-03-26"], undefined, {
      XDG_CACHE_HOME: cache,
      MCP_GEN_SCHEMA_MIRROR: `${base}/bad/`,
      MCP_GEN_SCHEMA_DIR: "",
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(
      /^mcp-gen: 2025-03-26: http:\/\/127\.0\.0\.1:\d+\/bad\/schema\/2025-03-26\/schema\.json has sha256 [0-9a-f]{64}, not the pinned e720669548c8/,
    );
    expect(existsSync(join(cache, "mcp-gen", "schemas", "2025-03-26"))).toBe(false);
  });

  it("downloads the revisions a manifest targets into its protocolSchemas folder, leaving the cache empty", async () => {
    const cache = tempProject();
    const project = tempProject({
      "mcp.yaml":
        'mcpgen: 1\nserver: { name: demo, version: "1.0.0" }\nprotocol: [2025-06-18, 2025-03-26]\nprotocolSchemas: ./mcp-schema\n',
    });
    const env = { XDG_CACHE_HOME: cache, MCP_GEN_SCHEMA_MIRROR: `${base}/good/`, MCP_GEN_SCHEMA_DIR: "" };
    const run = await runCliAsync(["schema", "fetch"], project, env);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(
      "2025-06-18: mcp-schema/2025-06-18/schema.json (sha256 verified)\n2025-03-26: mcp-schema/2025-03-26/schema.json (sha256 verified)\n",
    );
    for (const revision of ["2025-06-18", "2025-03-26"]) {
      expect(readFileSync(join(project, "mcp-schema", revision, "schema.json"))).toEqual(
        readFileSync(join(schemaDir, revision, "schema.json")),
      );
    }
    expect(existsSync(join(cache, "mcp-gen", "schemas"))).toBe(false);
    // A tampered download is refused before anything is written, even the revisions that verified.
    const fresh = tempProject({
      "mcp.yaml":
        'mcpgen: 1\nserver: { name: demo, version: "1.0.0" }\nprotocol: 2025-06-18\nprotocolSchemas: ./mcp-schema\n',
    });
    const bad = await runCliAsync(["schema", "fetch"], fresh, { ...env, MCP_GEN_SCHEMA_MIRROR: `${base}/bad/` });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/not the pinned af845e7e5b9d/);
    expect(bad.stderr).toMatch(/\nmcp-gen: nothing written to mcp-schema\n$/);
    expect(existsSync(join(fresh, "mcp-schema"))).toBe(false);
  });

  it("rejects unknown revisions as a usage error", () => {
    expect(runCli(["schema", "fetch", "2099-01-01"]).status).toBe(2);
  });
});
