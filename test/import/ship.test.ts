// An imported Petstore as its user ships it. Its own test: `mcp-gen import openapi` writes
// test/server.test.ts, which the project's `npm test` runs (src/main.ts over stdio against a
// stand-in API in the test); it passes as written and fails when a generated handler breaks,
// in both modes: one tool per operation, and the catalog tools (`--tools catalog`).
// Its bundle: `mcp-gen pack` makes an .mcpb the official mcpb CLI accepts, whose user_config
// holds the base URL and the credentials (secret ones sensitive); unpacked outside the project
// and started as its manifest.json says, with the user's settings as environment variables,
// it calls a real HTTP server written from the document (support/petstore-upstream.ts).
// The project lives in test/import/.out, so it resolves @mcp-gen/runtime, tsx and esbuild from
// this repository's node_modules, as a project with them installed: nothing is downloaded.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectBundle, mcpb, type McpbLaunchManifest } from "../support/mcpb.js";
import { cliPath, repoRoot, schemaDir } from "../support/paths.js";
import { credentials, petstore3, pets } from "./support/petstore-upstream.js";

const project = join(repoRoot, "test", "import", ".out", "ship");
const catalogProject = join(repoRoot, "test", "import", ".out", "ship-catalog");
const temp = mkdtempSync(join(tmpdir(), "mcp-gen-import-ship-"));
const npm = process.platform === "win32" ? "npm.cmd" : "npm";

/** Runs a command to its end: status and output. */
function run(command: string, args: readonly string[], env: Record<string, string> = {}, cwd = project) {
  const result = spawnSync(command, args, {
    cwd,
    encoding: "utf8",
    timeout: 180_000,
    env: { ...process.env, ...env },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
const succeeded = (result: ReturnType<typeof run>, what: string) => {
  if (result.status !== 0) throw new Error(`${what} exited ${result.status}:\n${result.stdout}\n${result.stderr}`);
  return result;
};

/** `mcp-gen import openapi` of the Petstore 3.0 fixture into the project (or `out`). */
const importPetstore = (env: Record<string, string> = {}, out = project, options: readonly string[] = []) =>
  run(
    process.execPath,
    [
      cliPath,
      "import",
      "openapi",
      join(repoRoot, "test", "import", "fixtures", "petstore-3.0.yaml"),
      "--out",
      out,
      "-q",
      ...options,
    ],
    env,
    repoRoot,
  );

/** `file` with `from` replaced by `to` while `check` runs, then restored. */
function whileEdited(file: string, from: string, to: string, check: () => void) {
  const original = readFileSync(file, "utf8");
  const edited = original.replace(from, to);
  expect(edited).not.toBe(original);
  writeFileSync(file, edited);
  try {
    check();
  } finally {
    writeFileSync(file, original);
  }
}

beforeAll(() => {
  rmSync(project, { recursive: true, force: true });
  // The author comes from npm's settings, as for `mcp-gen init` (a bundle needs one).
  succeeded(
    importPetstore({ npm_config_init_author_name: "Ada Lovelace", npm_config_init_author_email: "ada@example.com" }),
    "mcp-gen import openapi",
  );
  succeeded(run(process.execPath, [cliPath, "--schema-dir", schemaDir, "-q"]), "mcp-gen");
}, 120_000);
afterAll(() => rmSync(temp, { recursive: true, force: true }));

describe("the imported project's own test", () => {
  const testFile = join(project, "test", "server.test.ts");

  it("type-checks with the project and passes under npm test", () => {
    succeeded(run(npm, ["run", "-s", "typecheck"]), "npm run typecheck");
    const tested = succeeded(run(npm, ["test", "-s"]), "npm test");
    expect(tested.stdout).toContain("ok 1 - lists a tool for each imported operation");
    expect(tested.stdout).toContain("ok 2 - listPets sends GET /v1/pets and answers with what the API answered");
    expect(tested.stdout).toContain("ok 3 - listPets with an invalid argument is refused before the API is called");
    expect(tested.stdout).toMatch(/^# fail 0$/m);
  }, 300_000);

  it("fails when the generated handler does not call the API, or calls the wrong path", () => {
    const handlers = join(project, "src", "upstream", "handlers.gen.ts");
    const operations = join(project, "src", "upstream", "operations.gen.ts");
    const original = { handlers: readFileSync(handlers, "utf8"), operations: readFileSync(operations, "utf8") };
    try {
      const canned = original.handlers.replace(
        /listPets: \(args, ctx\) => .*\n/,
        "listPets: () => ({ structuredContent: { result: [] } }),\n",
      );
      expect(canned).not.toBe(original.handlers);
      writeFileSync(handlers, canned);
      let tested = run(npm, ["test", "-s"]);
      expect(tested.status).not.toBe(0);
      expect(tested.stdout).toContain("not ok 2 - listPets sends GET /v1/pets");
      expect(tested.stdout).toMatch(/^# fail 1$/m);

      writeFileSync(handlers, original.handlers);
      const wrongPath = original.operations.replace('"path": "/pets",', '"path": "/pet",');
      expect(wrongPath).not.toBe(original.operations);
      writeFileSync(operations, wrongPath);
      tested = run(npm, ["test", "-s"]);
      expect(tested.status).not.toBe(0);
      expect(tested.stdout).toContain("not ok 2 - listPets sends GET /v1/pets");
      expect(tested.stdout).toContain("GET /v1/pet answered HTTP 404");
    } finally {
      writeFileSync(handlers, original.handlers);
      writeFileSync(operations, original.operations);
    }
  }, 300_000);

  it("is the user's: a later import keeps it as they changed it", () => {
    const mine = `${readFileSync(testFile, "utf8")}// mine\n`;
    writeFileSync(testFile, mine);
    succeeded(importPetstore(), "mcp-gen import openapi, again");
    expect(readFileSync(testFile, "utf8")).toBe(mine);
  }, 120_000);
});

describe("the imported project's own test in the catalog mode", () => {
  const upstream = join(catalogProject, "src", "upstream");
  const npmTest = () => run(npm, ["test", "-s"], {}, catalogProject);

  beforeAll(() => {
    rmSync(catalogProject, { recursive: true, force: true });
    succeeded(importPetstore({}, catalogProject, ["--tools", "catalog"]), "mcp-gen import openapi --tools catalog");
    succeeded(run(process.execPath, [cliPath, "--schema-dir", schemaDir, "-q"], {}, catalogProject), "mcp-gen");
  }, 120_000);

  it("type-checks with the project and passes under npm test", () => {
    succeeded(run(npm, ["run", "-s", "typecheck"], {}, catalogProject), "npm run typecheck");
    const tested = succeeded(npmTest(), "npm test");
    expect(tested.stdout).toContain("ok 1 - lists the three catalog tools");
    expect(tested.stdout).toContain("ok 2 - find_operations finds listPets by its id");
    expect(tested.stdout).toContain(
      "ok 3 - call_operation of listPets sends GET /v1/pets and answers with what the API answered",
    );
    expect(tested.stdout).toContain(
      "ok 4 - call_operation of listPets with an invalid argument is refused before the API is called",
    );
    expect(tested.stdout).toMatch(/^# fail 0$/m);
  }, 300_000);

  it("fails when call_operation does not call the API, calls the wrong path or skips the validator", () => {
    whileEdited(
      join(upstream, "handlers.gen.ts"),
      "callOperation: (args, ctx) => tools.call(args, ctx.signal),",
      'callOperation: () => ({ content: [{ type: "text", text: \'{"result":[]}\' }] }),',
      () => {
        const tested = npmTest();
        expect(tested.status).not.toBe(0);
        expect(tested.stdout).toContain("not ok 3 - call_operation of listPets sends GET /v1/pets");
        expect(tested.stdout).toMatch(/^# fail 2$/m); // the invalid call is no error either
      },
    );
    whileEdited(join(upstream, "operations.gen.ts"), '"path":"/pets",', '"path":"/pet",', () => {
      const tested = npmTest();
      expect(tested.status).not.toBe(0);
      expect(tested.stdout).toContain("not ok 2 - find_operations finds listPets by its id");
      expect(tested.stdout).toContain("not ok 3 - call_operation of listPets sends GET /v1/pets");
      expect(tested.stdout).toContain("GET /v1/pet answered HTTP 404");
    });
    whileEdited(
      join(upstream, "catalog.gen.ts"),
      "const issue = operation.validateInput(given);",
      "const issue = undefined;",
      () => {
        const tested = npmTest();
        expect(tested.status).not.toBe(0);
        expect(tested.stdout).toContain("not ok 4 - call_operation of listPets with an invalid argument is refused");
        expect(tested.stdout).toMatch(/^# fail 1$/m);
      },
    );
  }, 300_000);
});

describe("mcp-gen pack of the imported project", () => {
  const out = join(temp, "out");
  const unpacked = join(temp, "unpacked");
  const bundle = join(out, "petstore-1.0.0.mcpb");
  let manifest: McpbLaunchManifest & { user_config: Record<string, unknown>; tools: { name: string }[] };

  beforeAll(() => {
    const packed = succeeded(run(process.execPath, [cliPath, "pack", "--out", out]), "mcp-gen pack");
    expect(packed.stderr).toBe("");
    mkdirSync(unpacked);
    expect(mcpb("unpack", bundle, unpacked).status).toBe(0);
    manifest = JSON.parse(readFileSync(join(unpacked, "manifest.json"), "utf8")) as typeof manifest;
  }, 120_000);

  it("is accepted by the official mcpb CLI", () => {
    const validate = mcpb("validate", join(unpacked, "manifest.json"));
    expect(validate.output).toContain("Manifest schema validation passes!");
    expect(validate.output).not.toContain("ERROR");
    expect(validate.status).toBe(0);
    const info = mcpb("info", bundle);
    expect(info.output).toContain("File: petstore-1.0.0.mcpb");
    expect(info.status).toBe(0);
  });

  it("asks for the base URL and the credentials, the credentials as sensitive settings", () => {
    expect(manifest).toMatchObject({
      name: "petstore",
      version: "1.0.0",
      author: { name: "Ada Lovelace", email: "ada@example.com" },
    });
    expect(manifest.tools.map((t) => t.name)).toContain("listPets");
    expect(manifest.user_config).toEqual({
      upstream_url: {
        type: "string",
        title: "API base URL",
        description: "Base URL of the API",
        required: false,
        default: "http://petstore.example/v1",
      },
      petstore_api_key: {
        type: "string",
        title: "petstore_api_key",
        description: "API key for apiKey (sent in the header X-API-Key)",
        required: false,
        sensitive: true,
      },
      petstore_bearer: {
        type: "string",
        title: "petstore_bearer",
        description: "Bearer token for bearer",
        required: false,
        sensitive: true,
      },
    });
    expect(manifest.server.mcp_config.env).toEqual({
      MCP_UPSTREAM_URL: "${user_config.upstream_url}",
      PETSTORE_API_KEY: "${user_config.petstore_api_key}",
      PETSTORE_BEARER: "${user_config.petstore_bearer}",
    });
  });

  it("started as a host does, with the user's settings, calls the API with them", async () => {
    const upstream = await petstore3();
    // Outside the project: nothing may resolve from its (or this repository's) node_modules.
    const client = await connectBundle(
      manifest,
      unpacked,
      {
        upstream_url: `${upstream.url}/v1`,
        petstore_api_key: credentials.apiKey,
        petstore_bearer: credentials.bearer,
      },
      temp,
    );
    try {
      const listed = await client.callTool({
        name: "listPets",
        arguments: { limit: 2, tags: ["a b", "c/d"], status: "available", "X-Request-Id": "r-1" },
      });
      expect(listed.isError).toBeFalsy();
      expect(listed.structuredContent).toEqual({ result: pets });
      // The bearer token alone, as the document says for createPet.
      const created = await client.callTool({
        name: "createPet",
        arguments: { body: { name: "Fido", tag: null, secret: "s" } },
      });
      expect(created.structuredContent).toEqual({ id: "3", name: "Fido", tag: null });
      expect(upstream.unexpected).toEqual([]);
      expect(upstream.seen).toEqual(["GET /v1/pets?limit=2&tags=a%20b&tags=c%2Fd&status=available", "POST /v1/pets"]);
    } finally {
      await client.close();
      await upstream.close();
    }
  }, 60_000);

  it("packs a document whose info has a version that is not semantic and no description", () => {
    // mcp.yaml is the import's: what pack needs must be right as written.
    // In test/import/.out, beside the other project: it resolves the runtime and esbuild from here.
    const bare = join(repoRoot, "test", "import", ".out", "ship-bare");
    rmSync(bare, { recursive: true, force: true });
    mkdirSync(bare, { recursive: true });
    writeFileSync(
      join(bare, "api.yaml"),
      'openapi: 3.0.3\ninfo: { title: Bare, version: "2023-01" }\npaths:\n  /ping:\n    get:\n      operationId: ping\n      responses: { "200": { description: pong } }\n',
    );
    const project = join(bare, "project");
    const author = { npm_config_init_author_name: "Ada Lovelace" };
    succeeded(
      run(process.execPath, [cliPath, "import", "openapi", "api.yaml", "--out", "project", "-q"], author, bare),
      "mcp-gen import openapi",
    );
    succeeded(run(process.execPath, [cliPath, "--schema-dir", schemaDir, "-q"], {}, project), "mcp-gen");
    succeeded(run(process.execPath, [cliPath, "pack", "-q"], {}, project), "mcp-gen pack");
    const unpackedBare = join(bare, "unpacked");
    mkdirSync(unpackedBare);
    expect(mcpb("unpack", join(project, "dist", "bare-0.1.0.mcpb"), unpackedBare).status).toBe(0);
    expect(JSON.parse(readFileSync(join(unpackedBare, "manifest.json"), "utf8"))).toMatchObject({
      name: "bare",
      version: "0.1.0",
      description: "The Bare API as MCP tools",
    });
  }, 120_000);
});
