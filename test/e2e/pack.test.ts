// `mcp-gen pack` in a user's project (a copy of fixtures/pack-project with the runtime
// installed): the .mcpb bundle is accepted by the official mcpb CLI, and unpacked into an
// empty folder it starts exactly as its manifest.json says and serves an official SDK client
// over stdio, the settings arriving as environment variables; server.json validates against
// the MCP Registry's schema. Bad input is refused before anything is written.
import { Ajv } from "ajv";
import { createHash } from "node:crypto";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../support/generate.js";
import { connectBundle, mcpb } from "../support/mcpb.js";
import { repoRoot } from "../support/paths.js";

const bundleName = "forecaster-1.2.0.mcpb";
const mcpbUrl = `https://github.com/example/forecaster/releases/download/v1.2.0/${bundleName}`;
const temp = mkdtempSync(join(tmpdir(), "mcp-gen-pack-"));
const project = join(temp, "project");

/** Every file under `dir`, relative, sorted. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split("\\").join("/"))
    .sort();
}

/** server.json validator from the registry's schema (test/fixtures/registry); `uri` checked as a URL. */
function registryValidator() {
  const ajv = new Ajv({ strict: false, allErrors: true });
  ajv.addFormat("uri", (value: string) => URL.canParse(value));
  return ajv.compile(
    JSON.parse(readFileSync(join(repoRoot, "test", "fixtures", "registry", "server.schema.json"), "utf8")) as object,
  );
}

beforeAll(() => {
  cpSync(join(repoRoot, "test", "e2e", "fixtures", "pack-project"), project, { recursive: true });
  // The project has the runtime installed, as `npm install @mcp-gen/runtime` leaves it.
  mkdirSync(join(project, "node_modules", "@mcp-gen"), { recursive: true });
  symlinkSync(join(repoRoot, "runtime"), join(project, "node_modules", "@mcp-gen", "runtime"), "dir");
  const generated = runCli(["-q"], project);
  expect(generated.stderr).toBe("");
  expect(generated.status).toBe(0);
});
afterAll(() => rmSync(temp, { recursive: true, force: true }));

describe("mcp-gen pack: the .mcpb bundle", () => {
  const out = join(temp, "out");
  const unpacked = join(temp, "unpacked");
  let manifest: {
    server: { entry_point: string; mcp_config: { command: string; args: string[]; env: Record<string, string> } };
    user_config: Record<string, { default?: unknown }>;
    tools: { name: string }[];
    prompts: unknown[];
  };

  beforeAll(() => {
    const packed = runCli(["pack", "--out", out, "--server-json", "--mcpb-url", mcpbUrl], project);
    expect(packed.stderr).toBe("");
    expect(packed.status).toBe(0);
    expect(packed.stdout).toContain(`wrote ${relative(project, join(out, bundleName))}`);
  });

  it("is accepted by the official mcpb CLI (unpack, validate, info)", () => {
    mkdirSync(unpacked);
    const unpack = mcpb("unpack", join(out, bundleName), unpacked);
    expect(unpack.output).toContain("unpacked successfully");
    expect(unpack.status).toBe(0);
    const validate = mcpb("validate", join(unpacked, "manifest.json"));
    expect(validate.output).toContain("Manifest schema validation passes!");
    expect(validate.output).not.toContain("ERROR");
    expect(validate.status).toBe(0);
    const info = mcpb("info", join(out, bundleName));
    expect(info.output).toContain(`File: ${bundleName}`);
    expect(info.status).toBe(0);
    manifest = JSON.parse(readFileSync(join(unpacked, "manifest.json"), "utf8")) as typeof manifest;
  });

  it("holds the manifest, the icon and one JavaScript file: no node_modules", () => {
    expect(filesUnder(unpacked)).toEqual(["icons/0.png", "manifest.json", "server/index.mjs"]);
    expect(manifest.server.entry_point).toBe("server/index.mjs");
    // The PNG is what hosts display; the SVG, sized "any", has no WxH entry.
    expect(manifest).toMatchObject({ icon: "icons/0.png", icons: [{ src: "icons/0.png", size: "16x16" }] });
    expect(
      readFileSync(join(unpacked, "icons", "0.png"))
        .subarray(1, 4)
        .toString(),
    ).toBe("PNG");
    expect(manifest.tools.map((t) => t.name)).toEqual(["forecast", "show_config"]);
    expect(manifest.prompts).toEqual([
      {
        name: "plan_trip",
        description: "Ask for a packing list",
        arguments: ["city", "season"],
        text: "What should I pack for ${arguments.city} in ${arguments.season}?",
      },
    ]);
    expect(manifest.user_config).toEqual({
      api_key: {
        type: "string",
        title: "API key",
        description: "Key for the forecast service",
        required: true,
        sensitive: true,
      },
      units: {
        type: "string",
        title: "units",
        description: "Units of the forecasts",
        required: false,
        default: "metric",
      },
      max_days: {
        type: "number",
        title: "Longest forecast",
        description: "Most days a forecast covers",
        required: false,
        default: 7,
      },
    });
  });

  it("starts as its manifest.json says and serves an SDK client over stdio, settings arriving as environment variables", async () => {
    // What the host does, with what the user entered (max_days left at its default).
    // Not the project: nothing may be resolved from its node_modules.
    const client = await connectBundle(manifest, unpacked, { api_key: "sk-test-0123", units: "imperial" }, temp);
    try {
      expect(client.getServerVersion()).toMatchObject({ name: "forecaster", version: "1.2.0" });
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["forecast", "show_config"]);
      const forecast = await client.callTool({ name: "forecast", arguments: { city: "Oslo" } });
      expect(forecast.content).toEqual([{ type: "text", text: "Oslo: sunny, 21 degrees F" }]);
      const config = await client.callTool({ name: "show_config", arguments: {} });
      expect(JSON.parse((config.content as { text: string }[])[0]!.text)).toEqual({
        units: "imperial",
        maxDays: "7",
        apiKeyLength: 12,
      });
      expect((await client.getPrompt({ name: "plan_trip", arguments: { city: "Lima" } })).messages).toEqual([
        { role: "user", content: { type: "text", text: "What should I pack for Lima?" } },
      ]);
    } finally {
      await client.close();
    }
  });

  it("is byte-identical when packed again, whatever the files' timestamps", () => {
    const before = readFileSync(join(out, bundleName));
    // Same contents, new modification times.
    for (const file of ["src/main.ts", "src/handlers.ts", "mcp.yaml"])
      writeFileSync(join(project, file), readFileSync(join(project, file)));
    const again = runCli(["pack", "--out", out, "--json"], project);
    expect(again.status).toBe(0);
    const files = (JSON.parse(again.stdout) as { files: { path: string; status: string; sha256: string }[] }).files;
    expect(files).toEqual([
      expect.objectContaining({ path: relative(project, join(out, bundleName)), status: "unchanged" }),
    ]);
    expect(readFileSync(join(out, bundleName)).equals(before)).toBe(true);
  });

  it("writes a server.json the MCP Registry's schema accepts, listing the npm package and the bundle with its sha256", () => {
    const serverJson = JSON.parse(readFileSync(join(out, "server.json"), "utf8")) as Record<string, unknown>;
    const validate = registryValidator();
    expect(validate(serverJson), JSON.stringify(validate.errors)).toBe(true);
    const sha256 = createHash("sha256")
      .update(readFileSync(join(out, bundleName)))
      .digest("hex");
    const environmentVariables = [
      {
        name: "FORECAST_API_KEY",
        description: "Key for the forecast service",
        isRequired: true,
        isSecret: true,
        format: "string",
      },
      {
        name: "UNITS",
        description: "Units of the forecasts",
        isRequired: false,
        isSecret: false,
        format: "string",
        default: "metric",
      },
      {
        name: "MAX_DAYS",
        description: "Most days a forecast covers",
        isRequired: false,
        isSecret: false,
        format: "number",
        default: "7",
      },
    ];
    expect(serverJson).toMatchObject({
      $schema: "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json",
      name: "io.github.example/forecaster",
      version: "1.2.0",
      repository: { url: "https://github.com/example/forecaster", source: "github" },
      // The data: icon is in the bundle; the registry takes https icons only.
      icons: [{ src: "https://example.com/forecaster.svg", mimeType: "image/svg+xml", sizes: ["any"] }],
      packages: [
        {
          registryType: "npm",
          identifier: "@example/forecaster-mcp",
          version: "1.2.0",
          transport: { type: "stdio" },
          environmentVariables,
        },
        {
          registryType: "mcpb",
          identifier: mcpbUrl,
          fileSha256: sha256,
          transport: { type: "stdio" },
          environmentVariables,
        },
      ],
    });
  });
});

describe("mcp-gen pack: server.json for a server deployed over HTTP", () => {
  it("lists the remote endpoint, with the Authorization header a protected server takes", () => {
    // Another project: the HTTP-only entry, a private package (not on npm), a protected server.
    const remote = join(temp, "remote");
    mkdirSync(remote);
    const manifest = readFileSync(join(project, "mcp.yaml"), "utf8").replace(
      "output: ./src/mcp\n",
      "output: ./src/mcp\nauth:\n  authorizationServers: [https://auth.example.com]\n  scopesSupported: [forecast]\n",
    );
    writeFileSync(join(remote, "mcp.yaml"), manifest);
    writeFileSync(
      join(remote, "package.json"),
      JSON.stringify({ name: "forecaster-deploy", private: true, mcpName: "com.example/forecaster" }),
    );
    const out = join(remote, "dist");
    const packed = runCli(
      [
        "pack",
        "--no-mcpb",
        "--remote",
        "https://forecaster.example.com/mcp",
        "--entry",
        join(project, "src", "http.ts"),
      ],
      remote,
    );
    expect(packed.stderr).toBe("");
    expect(packed.status).toBe(0);
    expect(readdirSync(out)).toEqual(["server.json"]);
    const serverJson = JSON.parse(readFileSync(join(out, "server.json"), "utf8")) as Record<string, unknown>;
    const validate = registryValidator();
    expect(validate(serverJson), JSON.stringify(validate.errors)).toBe(true);
    expect(serverJson.packages).toBeUndefined();
    expect(serverJson.remotes).toEqual([
      {
        type: "streamable-http",
        url: "https://forecaster.example.com/mcp",
        headers: [
          {
            name: "Authorization",
            description: "OAuth 2.1 bearer access token for this server, issued by https://auth.example.com",
            isRequired: true,
            isSecret: true,
            value: "Bearer {token}",
            variables: {
              token: {
                description: "Access token issued by https://auth.example.com",
                isRequired: true,
                isSecret: true,
              },
            },
          },
        ],
      },
    ]);
  });
});

describe("mcp-gen pack: refusals, with nothing written", () => {
  it("refuses an entry that serves only HTTP as an .mcpb", () => {
    const out = join(temp, "refused-http");
    const packed = runCli(["pack", "--out", out, "--entry", "src/http.ts"], project);
    expect(packed.status).toBe(1);
    expect(packed.stderr).toMatch(
      /^mcp-gen: src\/http\.ts: never serves stdio \(serveStdio from @mcp-gen\/runtime\/node\), so it cannot be an \.mcpb bundle/,
    );
    expect(packed.stderr).toContain("--no-mcpb --remote <url>");
    expect(existsSync(out)).toBe(false);
  });

  it("names the manifest keys a bundle needs: server.description, a semantic server.version", () => {
    const bad = join(temp, "bad");
    cpSync(project, bad, { recursive: true, filter: (path) => !path.includes("node_modules") });
    const manifest = readFileSync(join(bad, "mcp.yaml"), "utf8");
    writeFileSync(
      join(bad, "mcp.yaml"),
      manifest
        .replace("  description: Forecasts for a city, in the units you choose\n", "")
        .replace("version: 1.2.0", 'version: "1.2"'),
    );
    const packed = runCli(["pack", "--out", join(bad, "out")], bad);
    expect(packed.status).toBe(1);
    expect(packed.stderr.split("\n")).toEqual([
      "mcp-gen: mcp.yaml:4:1: server.description is missing: .mcpb bundles and the MCP Registry show it to the people installing the server; add `description:` under `server:`",
      'mcp-gen: mcp.yaml:6:12: server.version "1.2" is not a semantic version (MAJOR.MINOR.PATCH, e.g. 1.0.0), which .mcpb bundles and the MCP Registry expect',
      "",
    ]);
    expect(existsSync(join(bad, "out"))).toBe(false);
  });

  it("asks for an author when the project's package.json names none", () => {
    const packed = runCli(["pack", "examples/weather/mcp.yaml", "--out", join(temp, "weather")]);
    expect(packed.status).toBe(1);
    expect(packed.stderr).toContain(
      'mcp-gen: examples/weather/package.json: the .mcpb bundle needs an author: add "author": "Your Name <you@example.com>" to a package.json beside the manifest',
    );
    expect(existsSync(join(temp, "weather"))).toBe(false);
  });
});
