// `mcp-gen pull` pieces that need no real server: the manifest model (identifiers, key
// order), the command splitter, and the CLI against a hand-written raw stdio server
// (test/unit/fixtures/pull-raw-server.mjs) for paging, schema reports and bad sources.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { parse, stringify } from "yaml";
import type { JsonObject } from "@mcp-gen/runtime";
import { splitCommand, type ServerListing } from "../../generator/pull/listing.js";
import { buildManifest, renderManifest } from "../../generator/pull/manifest.js";
import { generateManifest, runCli } from "../support/generate.js";
import { repoRoot, schemaDir } from "../support/paths.js";

const work = mkdtempSync(join(tmpdir(), "mcp-gen-pull-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const rawServer = (mode: string) =>
  `"${process.execPath}" "${join(repoRoot, "test", "unit", "fixtures", "pull-raw-server.mjs")}" ${mode}`;

function listing(tools: JsonObject[], extra: Partial<ServerListing> = {}): ServerListing {
  return {
    era: "legacy",
    revision: "2025-11-25",
    info: { name: "demo", version: "1.0.0" },
    instructions: undefined,
    tools,
    resources: [],
    resourceTemplates: [],
    prompts: [],
    ...extra,
  };
}

/**
 * The same object with its keys (recursively) in reverse order, except the names under
 * `properties`: their order is the server's meaningful field order, and is kept.
 */
function reversed(value: unknown, names = false): unknown {
  if (Array.isArray(value)) return value.map((v) => reversed(v));
  if (typeof value !== "object" || value === null) return value;
  const entries = Object.entries(value).map(([k, v]) => [k, reversed(v, k === "properties")] as const);
  return Object.fromEntries(names ? entries : entries.reverse());
}

describe("the pulled manifest model", () => {
  it("gives names that make no usable identifier an identifier:, and the result generates", async () => {
    const pulled = buildManifest(
      listing(
        ["1st-tool", "delete", "get.sum", "get-sum", "!!!", "constructor"].map((name) => ({
          name,
          inputSchema: { type: "object" },
        })),
      ),
    );
    const tools = pulled.document.tools as Record<string, { identifier?: string }>;
    expect(Object.fromEntries(Object.entries(tools).map(([k, v]) => [k, v.identifier]))).toEqual({
      "1st-tool": "tool1stTool",
      delete: "deleteTool",
      "get.sum": undefined,
      "get-sum": "getSum2",
      "!!!": "tool",
      constructor: "constructorTool",
    });
    const file = join(work, "identifiers.yaml");
    writeFileSync(file, renderManifest(pulled, "test", "2025-11-25"));
    const result = await generateManifest(file);
    expect(result.ok ? [] : result.diagnostics.map((d) => d.message)).toEqual([]);
  });

  it("writes the same YAML whatever order the server's JSON keys came in", () => {
    const tool = {
      name: "t",
      title: "T",
      description: "d",
      inputSchema: {
        type: "object",
        properties: { b: { type: "number" }, a: { type: "string", "x-mcp-header": "A" } },
        required: ["a"],
      },
      outputSchema: { type: "object", properties: { ok: { type: "boolean" } } },
      annotations: { readOnlyHint: true, title: "T" },
      icons: [{ src: "https://example.com/i.png", mimeType: "image/png" }],
      execution: { taskSupport: "optional" },
    };
    const extra = {
      resources: [
        {
          uri: "file:///a",
          name: "a",
          mimeType: "text/plain",
          size: 3,
          annotations: { audience: ["user"], priority: 0.5 },
        },
      ],
      resourceTemplates: [{ uriTemplate: "file:///{p}", name: "files" }],
      prompts: [{ name: "p", arguments: [{ name: "x", required: true }, { name: "y" }] }],
    };
    const once = renderManifest(buildManifest(listing([tool], extra)), "s", "r");
    const again = renderManifest(
      buildManifest(listing([reversed(tool) as JsonObject], reversed(extra) as Partial<ServerListing>)),
      "s",
      "r",
    );
    expect(again).toBe(once);
    const document = parse(once) as { tools: { t: Record<string, unknown> }; prompts: { p: { arguments: unknown } } };
    expect(Object.keys(document.tools.t)).toEqual([
      "title",
      "description",
      "input",
      "output",
      "annotations",
      "icons",
      "task",
    ]);
    expect(document.tools.t.input).toEqual(tool.inputSchema);
    // Keywords in a fixed order; property names in the server's order.
    expect(Object.keys(document.tools.t.input as object)).toEqual(["type", "properties", "required"]);
    expect(Object.keys((document.tools.t.input as { properties: object }).properties)).toEqual(["b", "a"]);
    expect(document.prompts.p.arguments).toEqual({ x: { required: true }, y: {} });
  });

  it("notes what the manifest cannot hold instead of writing an invalid manifest", () => {
    const pulled = buildManifest(
      listing([
        { name: "t", annotations: { readOnlyHint: true, vendorHint: "x" }, icons: [{ mimeType: "image/png" }] },
      ]),
    );
    expect(pulled.notes).toEqual([
      "tool t: annotations vendorHint not kept (the manifest has no place for them, or their value is invalid)",
      "tool t: an icon without src; dropped",
    ]);
    expect(pulled.document.tools).toEqual({ t: { annotations: { readOnlyHint: true } } });
  });

  it("copies each entry's _meta, leaving out reserved, malformed and MCP Apps keys with a note, and the result generates", async () => {
    const _meta = {
      "example.com/tier": "gold",
      owner: { team: "a" },
      "mcp.dev/x": 1,
      "bad key": 2,
      ui: { resourceUri: "ui://w" },
      "ui/resourceUri": "ui://w",
    };
    const pulled = buildManifest(
      listing([{ name: "t", inputSchema: { type: "object" }, _meta }], {
        resources: [{ name: "r", uri: "file:///r", _meta: { "example.com/r": true } }],
        resourceTemplates: [{ name: "rt", uriTemplate: "file:///{x}", _meta: { "example.com/rt": 1 } }],
        prompts: [{ name: "p", _meta: { "example.com/p": "x", "modelcontextprotocol.io/y": 0 } }],
      }),
    );
    const kept = { "example.com/tier": "gold", owner: { team: "a" } };
    expect((pulled.document.tools as Record<string, JsonObject>).t!._meta).toEqual(kept);
    expect(Object.values(pulled.document.resources as Record<string, JsonObject>).map((r) => r._meta)).toEqual([
      { "example.com/r": true },
    ]);
    expect(Object.values(pulled.document.resourceTemplates as Record<string, JsonObject>).map((r) => r._meta)).toEqual([
      { "example.com/rt": 1 },
    ]);
    expect(Object.values(pulled.document.prompts as Record<string, JsonObject>).map((p) => p._meta)).toEqual([
      { "example.com/p": "x" },
    ]);
    expect(pulled.notes.filter((note) => note.includes("_meta key"))).toEqual([
      'tool t: _meta key "mcp.dev/x" uses a prefix reserved for MCP itself; use a prefix of your own, such as your domain (`example.com/`); dropped',
      'tool t: _meta key "bad key" is not a valid name: it must start and end with a letter or digit, with only letters, digits, `-`, `_` and `.` between; dropped',
      'tool t: _meta key "ui" is MCP Apps\' (a manifest sets it with `ui:`); dropped',
      'tool t: _meta key "ui/resourceUri" is MCP Apps\' (a manifest sets it with `ui:`); dropped',
      'prompt p: _meta key "modelcontextprotocol.io/y" uses a prefix reserved for MCP itself; use a prefix of your own, such as your domain (`example.com/`); dropped',
    ]);
    const file = join(work, "meta.yaml");
    writeFileSync(file, renderManifest(pulled, "test", "2025-11-25"));
    const result = await generateManifest(file);
    expect(result.ok ? [] : result.diagnostics.map((d) => d.message)).toEqual([]);
    expect(parse(readFileSync(file, "utf8")).tools.t._meta).toEqual(kept);
  });
});

describe("splitCommand", () => {
  it("splits on whitespace, groups quotes, honours backslashes", () => {
    expect(splitCommand(`node "my server.js" --name 'a b' x\\ y ""`)).toEqual([
      "node",
      "my server.js",
      "--name",
      "a b",
      "x y",
      "",
    ]);
    expect(() => splitCommand(`node "open`)).toThrow(/unterminated " quote/);
  });
});

describe("mcp-gen pull against a raw stdio server", () => {
  it("reads every page and reports a schema the generator rejects, pointing into the written manifest", () => {
    const output = join(work, "raw.yaml");
    const run = runCli(["pull", "--stdio", rawServer("awkward"), "-o", output]);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(
      `raw.yaml:36:17: input schema of tool "broken": $ref "#/$defs/missing" does not resolve: this schema has nothing at "/$defs/missing"`,
    );
    expect(run.stderr).toContain("cannot generate a client from it yet");
    const written = parse(readFileSync(output, "utf8")) as { tools: object; lenientSchemas: unknown };
    expect(Object.keys(written.tools)).toEqual(["1st-tool", "delete", "get.sum", "get-sum", "broken"]);
    // The server's schemas are not the user's to fix: keys that look like slips in them are warnings.
    expect(written.lenientSchemas).toBe(true);
  });

  it("stops on a repeated cursor, a missing command, a bad URL or a missing source, without a crash", () => {
    const output = join(work, "never.yaml");
    const loop = runCli(["pull", "--stdio", rawServer("loop"), "-o", output]);
    expect(loop.stderr).toContain('tools/list: the server repeated cursor "again"');
    expect(loop.status).toBe(1);
    const missing = runCli(["pull", "--stdio", "mcp-gen-no-such-command", "-o", output]);
    expect(missing.stderr).toMatch(/could not connect: .*ENOENT/);
    expect(missing.status).toBe(1);
    const badUrl = runCli(["pull", "--url", "ftp://example.com/mcp", "-o", output]);
    expect(badUrl.stderr).toContain("only http: and https: are supported");
    expect(badUrl.status).toBe(1);
    const none = runCli(["pull", "-o", output]);
    expect(none.stderr).toContain("give exactly one of --stdio and --url");
    expect(none.status).toBe(2);
    expect(() => readFileSync(output)).toThrow();
  });

  it("--check --json gives the differences as data; a terminal sees each page being read", () => {
    const output = join(work, "drift.yaml");
    expect(runCli(["pull", "--stdio", rawServer("awkward"), "-o", output, "-q"]).status).toBe(1);
    const pulled = parse(readFileSync(output, "utf8")) as { tools: Record<string, unknown> };
    delete pulled.tools["delete"];
    writeFileSync(output, stringify(pulled));
    const check = runCli(["pull", "--stdio", rawServer("awkward"), "-o", output, "--check", "--json"]);
    expect(check.status).toBe(1);
    expect(JSON.parse(check.stdout)).toEqual({
      manifest: output,
      matches: false,
      revision: expect.any(String),
      differences: ["tools.delete: new on the server"],
    });

    const command = `"${process.execPath}" "${join(repoRoot, "dist", "generator", "cli.js")}" pull --stdio '${rawServer("awkward")}' -o ${output} --check`;
    const tty = spawnSync("script", ["-qfec", command, "/dev/null"], { encoding: "utf8" });
    expect(tty.stdout).toMatch(/\r\x1b\[2Kmcp-gen: pull: tools\/list: \d+ tools so far \(page 2\) \(stdio: /);
    expect(tty.stdout).toContain("tools.delete: new on the server");
  });

  it("keeps the replaced manifest's protocolSchemas, so its generate step reads the pinned schemas (no env, empty cache)", () => {
    const project = mkdtempSync(join(work, "pinned-"));
    cpSync(schemaDir, join(project, "mcp-schema"), { recursive: true, filter: (from) => !from.includes("examples") });
    writeFileSync(
      join(project, "mcp.yaml"),
      "mcpgen: 1\nserver: { name: old, version: 0.0.1 }\nprotocolSchemas: ./mcp-schema\n",
    );
    const env = { MCP_GEN_SCHEMA_DIR: "", XDG_CACHE_HOME: mkdtempSync(join(work, "cache-")) };
    const run = runCli(["pull", "--stdio", rawServer("plain"), "-q"], project, env);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    const written = parse(readFileSync(join(project, "mcp.yaml"), "utf8")) as Record<string, unknown>;
    expect(Object.keys(written).slice(0, 4)).toEqual(["mcpgen", "server", "output", "protocolSchemas"]);
    expect(written.protocolSchemas).toBe("./mcp-schema");
  });

  it("--check reports a missing manifest", () => {
    const run = runCli(["pull", "--stdio", rawServer("awkward"), "-o", join(work, "absent.yaml"), "--check"]);
    expect(run.stderr).toContain("absent.yaml does not exist");
    expect(run.status).toBe(1);
  });
});
