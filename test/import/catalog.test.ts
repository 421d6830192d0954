// `mcp-gen import openapi --tools catalog` end to end on Petstore 3.0: import → generate →
// strict tsc → the project's own src/main.ts over stdio → the official SDK v1 client finds,
// describes and calls operations through the three catalog tools, against the real HTTP server
// of test/import/support/petstore-upstream.ts, which checks every request exactly. Arguments
// the operation's validator (compiled ahead of time) rejects never reach the upstream.
import { spawnSync } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { cliPath, repoRoot, schemaDir } from "../support/paths.js";
import { credentials, pets, petstore3, type Upstream } from "./support/petstore-upstream.js";

const project = join(repoRoot, "test", "import", ".out", "catalog");

function run(command: string, args: readonly string[], cwd: string): string {
  const result = spawnSync(command, args, { cwd, encoding: "utf8", timeout: 180_000 });
  if (result.status !== 0)
    throw new Error(`${[command, ...args].join(" ")} exited ${result.status}:\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

interface CallResult {
  readonly isError?: boolean;
  readonly structuredContent?: Record<string, unknown>;
  readonly content: readonly { type: string; text?: string }[];
}
type Validator = (value: unknown) => { path: string; message: string } | undefined;

describe("import openapi --tools catalog: Petstore 3.0", () => {
  let upstream: Upstream;
  let client: Client;
  let operationValidators: Record<string, Validator>;
  const call = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as CallResult;
  const text = (result: CallResult) => result.content.map((c) => c.text ?? "").join("\n");

  beforeAll(async () => {
    rmSync(project, { recursive: true, force: true });
    const source = join(repoRoot, "test", "import", "fixtures", "petstore-3.0.yaml");
    run(process.execPath, [cliPath, "import", "openapi", source, "--out", project, "--tools", "catalog"], repoRoot);
    run(process.execPath, [cliPath, "--schema-dir", schemaDir, "-q"], project);
    // init's tsconfig: strict, exactOptionalPropertyTypes, noUncheckedIndexedAccess.
    run(
      process.execPath,
      [join(repoRoot, "node_modules", "typescript", "bin", "tsc"), "--noEmit", "-p", project],
      project,
    );
    upstream = await petstore3();
    client = new Client({ name: "catalog-e2e", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ["--import", "tsx", join(project, "src", "main.ts")],
        cwd: project,
        env: {
          PATH: process.env.PATH ?? "",
          MCP_UPSTREAM_URL: `${upstream.url}/v1`,
          PETSTORE_API_KEY: credentials.apiKey,
          PETSTORE_BEARER: credentials.bearer,
        },
        stderr: "pipe",
      }),
    );
    operationValidators = (await import(
      pathToFileURL(join(project, "src", "upstream", "validators.gen.ts")).href
    )) as Record<string, Validator>;
  }, 300_000);
  afterAll(async () => {
    await client?.close();
    await upstream?.close();
  });
  beforeEach(() => void upstream.unexpected.splice(0));

  it("lists three tools, whatever the number of operations, and no tool per operation", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["find_operations", "describe_operation", "call_operation"]);
    expect(tools.find((t) => t.name === "describe_operation")!.annotations).toEqual({
      readOnlyHint: true,
      openWorldHint: false,
    });
    expect(existsSync(join(project, "src", "upstream", "catalog.gen.ts"))).toBe(true);
  });

  it("finds operations by words of their id, summary, tags and path, best first, a page at a time", async () => {
    const deleting = await call("find_operations", { query: "delete pet" });
    const first = (deleting.structuredContent!.operations as { id: string }[])[0];
    // deletePet has neither summary nor description: no summary line.
    expect(first).toEqual({ id: "deletePet", method: "DELETE", path: "/pets/{petId}" });
    const listing = await call("find_operations", { query: "list pets" });
    expect((listing.structuredContent!.operations as unknown[])[0]).toEqual({
      id: "listPets",
      method: "GET",
      path: "/pets",
      summary: "List pets",
    });

    const page1 = await call("find_operations", { query: "pets", limit: 2 });
    expect(page1.isError).toBeFalsy();
    const { operations, total, nextCursor } = page1.structuredContent as {
      operations: { id: string }[];
      total: number;
      nextCursor?: string;
    };
    expect(operations).toHaveLength(2);
    expect(total).toBeGreaterThan(2);
    expect(nextCursor).toBe("2");
    const page2 = await call("find_operations", { query: "pets", limit: 2, cursor: nextCursor });
    const ids2 = (page2.structuredContent!.operations as { id: string }[]).map((o) => o.id);
    expect(ids2).not.toContain(operations[0]!.id);
    expect(ids2).not.toContain(operations[1]!.id);

    const none = await call("find_operations", { query: "zebra" });
    expect(none.structuredContent).toEqual({ operations: [], total: 0 });
    const everything = await call("find_operations", { limit: 50 });
    expect(everything.structuredContent!.total).toBe(10);
    const badCursor = await call("find_operations", { query: "pets", cursor: "x" });
    expect(badCursor.isError).toBe(true);
  });

  it("describes one operation: method, path, input schema with the $defs it uses, output schema", async () => {
    const described = await call("describe_operation", { id: "createPet" });
    const d = described.structuredContent as {
      method: string;
      path: string;
      inputSchema: { properties: Record<string, unknown>; $defs: Record<string, { properties: object }> };
      outputSchema: { properties: object };
    };
    expect(d.method).toBe("POST");
    expect(d.path).toBe("/pets");
    expect(d.inputSchema.properties.body).toEqual({ $ref: "#/$defs/NewPet" });
    expect(Object.keys(d.inputSchema.$defs)).toEqual(["NewPet"]);
    expect(Object.keys(d.inputSchema.$defs.NewPet!.properties)).toEqual(["name", "tag", "secret"]);
    expect(Object.keys(d.outputSchema.properties)).toEqual(["id", "name", "tag", "category"]);
    // A recursive output keeps its reference into the shared table.
    const tree = (await call("describe_operation", { id: "list-categories" })).structuredContent as {
      outputSchema: { $defs: Record<string, unknown> };
    };
    expect(Object.keys(tree.outputSchema.$defs)).toEqual(["Category"]);
  });

  it("calls an operation by id: the upstream checks the request, the answer passes the operation's output validator", async () => {
    const listed = await call("call_operation", {
      id: "listPets",
      arguments: { limit: 2, tags: ["a b", "c/d"], status: "available", "X-Request-Id": "r-1" },
    });
    expect(upstream.unexpected).toEqual([]);
    expect(listed.isError).toBeFalsy();
    expect(JSON.parse(text(listed))).toEqual({ result: pets });
    const created = await call("call_operation", {
      id: "createPet",
      arguments: { body: { name: "Fido", tag: null, secret: "s" } },
    });
    expect(upstream.unexpected).toEqual([]);
    const answer: unknown = JSON.parse(text(created));
    expect(answer).toEqual({ id: "3", name: "Fido", tag: null });
    expect(operationValidators.validateCreatePetOutput!(answer)).toBeUndefined();
    // An error answer is a tool error with the status and the body, as a tool's.
    const refused = await call("call_operation", { id: "createPet", arguments: { body: { name: "taken" } } });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toBe(
      'POST /v1/pets answered HTTP 422 Unprocessable Entity: {"code":422,"message":"a pet named taken exists already"}',
    );
  });

  it("checks a JSON answer with the operation's output validator: one that breaks its schema is an internal error", async () => {
    await expect(
      client.callTool({
        name: "call_operation",
        arguments: { id: "updatePet", arguments: { petId: "2", body: { name: "x" } } },
      }),
    ).rejects.toThrow(/-32603.*Operation updatePet answered structured content that does not match its output schema/);
    expect(upstream.unexpected).toEqual([]);
  });

  it("refuses arguments the operation's validator rejects, saying what is wrong, and sends nothing", async () => {
    const before = upstream.seen.length;
    const empty = await call("call_operation", { id: "createPet", arguments: { body: { name: "" } } });
    expect(empty.isError).toBe(true);
    expect(text(empty)).toContain(
      "Invalid arguments for operation createPet: /body/name must NOT have fewer than 1 characters",
    );
    const missing = await call("call_operation", { id: "showPetById", arguments: {} });
    expect(text(missing)).toContain("Invalid arguments for operation showPetById: must have required property 'petId'");
    const extra = await call("call_operation", { id: "listPets", arguments: { colour: "red" } });
    expect(text(extra)).toContain(
      "Invalid arguments for operation listPets: must NOT have additional property 'colour'",
    );
    expect(upstream.seen.length).toBe(before);
  });

  it("answers an unknown id with a tool error pointing at find_operations", async () => {
    const before = upstream.seen.length;
    for (const tool of ["call_operation", "describe_operation"]) {
      const result = await call(tool, { id: "adoptDragon" });
      expect(result.isError).toBe(true);
      expect(text(result)).toBe(
        'Unknown operation id "adoptDragon": find_operations lists the operations and their ids',
      );
    }
    expect(upstream.seen.length).toBe(before);
  });
});
