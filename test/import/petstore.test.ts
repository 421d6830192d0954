// `mcp-gen import openapi` end to end on the two Petstore documents (OpenAPI 3.0 YAML and
// Swagger 2.0 JSON): import → generate → strict tsc → the project's own src/main.ts served
// over stdio → the official SDK v1 client calls every tool against a real HTTP server written
// from the same document (test/import/support/petstore-upstream.ts), which checks what each
// request carries exactly. Structured results are checked again by the generated output
// validators; error answers must come back as tool errors with their status and body.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { cliPath, repoRoot } from "../support/paths.js";
import { call, importProject, run, serve, text } from "./support/imported-project.js";
import {
  credentials,
  categoryTree,
  petstore2,
  petstore3,
  pets,
  photo,
  type Upstream,
} from "./support/petstore-upstream.js";

const fixtures = join(repoRoot, "test", "import", "fixtures");

type Validator = (value: unknown) => { path: string; message: string } | undefined;
const validators = async (project: string) =>
  (await import(pathToFileURL(join(project, "src", "mcp", "index.ts")).href)) as Record<string, Validator>;

describe("import openapi: Petstore 3.0 (YAML)", () => {
  let upstream: Upstream;
  let client: Client;
  let project: string;
  let warnings: string;
  let validate: Record<string, Validator>;

  beforeAll(async () => {
    ({ project, warnings } = importProject("petstore-3.0", "petstore-3.0.yaml"));
    upstream = await petstore3();
    client = await serve(project, {
      MCP_UPSTREAM_URL: `${upstream.url}/v1`,
      MCP_UPSTREAM_TIMEOUT_MS: "1500",
      PETSTORE_API_KEY: credentials.apiKey,
      PETSTORE_BEARER: credentials.bearer,
    });
    validate = await validators(project);
  }, 300_000);
  afterAll(async () => {
    await client?.close();
    await upstream?.close();
  });
  // Each test answers for the requests it made.
  beforeEach(() => void upstream.unexpected.splice(0));
  const expectNothingUnexpected = () => expect(upstream.unexpected).toEqual([]);

  it("reports what it changed, each at a JSON pointer of the document", () => {
    expect(warnings).toContain(
      'petstore-3.0.yaml#/paths/~1pets~1{petId}/put/parameters/0: warning: parameter "body" (in query) clashes with another argument of the same name; its argument is "query_body"',
    );
    expect(warnings).toContain(
      'petstore-3.0.yaml#/paths/~1categories~1all/get/operationId: warning: tool "listCategories" has the identifier of tool "list-categories" (listCategories): named "get_categories_all" (method and path) instead',
    );
  });

  it("lists one tool per operation, deprecated ones left out, with annotations and schemas", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      "listPets",
      "createPet",
      "searchPets",
      "showPetById",
      "updatePet",
      "deletePet",
      "getPetPhoto",
      "get_owners_by_owner_id_pets",
      "list-categories",
      "get_categories_all",
    ]);
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect(byName.get("listPets")!.annotations).toEqual({ readOnlyHint: true, openWorldHint: true });
    expect(byName.get("deletePet")!.annotations).toEqual({
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: true,
    });
    expect(byName.get("updatePet")!.annotations).toEqual({ idempotentHint: true, openWorldHint: true });
    expect(byName.get("createPet")!.annotations).toEqual({ openWorldHint: true });
    expect(byName.get("listPets")!.title).toBe("List pets");
    expect(byName.get("listPets")!.description).toBe("Pets in the store, filtered by tag and status.");
    // readOnly out of inputs, writeOnly out of outputs, 3.0 nullable as a null type, example as examples.
    const input = byName.get("createPet")!.inputSchema as unknown as {
      $defs: { NewPet: { properties: Record<string, unknown> } };
    };
    expect(Object.keys(input.$defs.NewPet.properties)).toEqual(["name", "tag", "secret"]);
    expect(input.$defs.NewPet.properties.tag).toEqual({ type: ["string", "null"] });
    const output = byName.get("createPet")!.outputSchema as { properties: Record<string, { examples?: unknown }> };
    expect(Object.keys(output.properties)).toEqual(["id", "name", "tag", "category"]);
    expect(output.properties.name!.examples).toEqual(["Rex"]);
    // A recursive schema stays a reference.
    const tree = byName.get("list-categories")!.outputSchema as unknown as {
      properties: { children: { items: unknown } };
      $defs: Record<string, unknown>;
    };
    expect(tree.properties.children.items).toEqual({ $ref: "#/$defs/Category" });
    expect(Object.keys(tree.$defs)).toEqual(["Category"]);
  });

  it("sends query arrays (form, exploded) and headers as the document says; wraps a list answer", async () => {
    const result = await call(client, "listPets", {
      limit: 2,
      tags: ["a b", "c/d"],
      status: "available",
      "X-Request-Id": "r-1",
    });
    expectNothingUnexpected();
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ result: pets });
    expect(validate.validateListPetsOutput!(result.structuredContent)).toBeUndefined();
  });

  it("sends a JSON body with the bearer token alone; an upstream 422 is a tool error with status and body", async () => {
    const created = await call(client, "createPet", { body: { name: "Fido", tag: null, secret: "s" } });
    expectNothingUnexpected();
    expect(created.structuredContent).toEqual({ id: "3", name: "Fido", tag: null });
    expect(validate.validateCreatePetOutput!(created.structuredContent)).toBeUndefined();
    const refused = await call(client, "createPet", { body: { name: "taken" } });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toBe(
      'POST /v1/pets answered HTTP 422 Unprocessable Entity: {"code":422,"message":"a pet named taken exists already"}',
    );
  });

  it("refuses arguments its schema rejects before calling the API", async () => {
    const before = upstream.seen.length;
    const result = await call(client, "createPet", { body: { name: "" } });
    expect(result.isError).toBe(true);
    expect(upstream.seen.length).toBe(before);
  });

  it("serializes deepObject and non-exploded form query parameters", async () => {
    const result = await call(client, "searchPets", { filter: { name: "R&x", age: 3 }, ids: [1, 2] });
    expectNothingUnexpected();
    expect(result.structuredContent).toEqual({ total: 1, pets: [pets[0]] });
    expect(validate.validateSearchPetsOutput!(result.structuredContent)).toBeUndefined();
  });

  it("percent-encodes path parameters; a 404 is a tool error", async () => {
    const found = await call(client, "showPetById", { petId: "a/b c" });
    expectNothingUnexpected();
    expect(found.structuredContent).toEqual(pets[1]);
    const missing = await call(client, "showPetById", { petId: "404" });
    expect(missing.isError).toBe(true);
    expect(text(missing)).toContain("GET /v1/pets/404 answered HTTP 404");
    expect(text(missing)).toContain('"message":"no pet 404"');
  });

  it("keeps a clashing query parameter apart from the body", async () => {
    const result = await call(client, "updatePet", { petId: "1", query_body: true, body: { name: "Rex II" } });
    expectNothingUnexpected();
    expect(result.structuredContent).toEqual({ ...pets[0], name: "Rex II" });
  });

  it("an answer that breaks the document's own output schema is an error, never an invalid result", async () => {
    // The runtime checks structuredContent against the output schema before sending it: -32603.
    await expect(
      client.callTool({ name: "updatePet", arguments: { petId: "2", body: { name: "x" } } }),
    ).rejects.toThrow(/-32603/);
  });

  it("answers without JSON as content: no body as text, an image as an image, text as text, cookies sent", async () => {
    const deleted = await call(client, "deletePet", { petId: "1" });
    expect(deleted.isError).toBeFalsy();
    expect(text(deleted)).toBe("DELETE /v1/pets/1: HTTP 204, no content");
    const image = await call(client, "getPetPhoto", { petId: "1" });
    expect(image.content).toEqual([{ type: "image", data: photo.toString("base64"), mimeType: "image/png" }]);
    const names = await call(client, "get_owners_by_owner_id_pets", { ownerId: 5, session: "s 1" });
    expect(text(names)).toBe("Rex\nTom");
    expectNothingUnexpected();
  });

  it("recursive outputs pass the generated validators", async () => {
    const tree = await call(client, "list-categories", {});
    expect(tree.structuredContent).toEqual(categoryTree);
    expect(validate.validateListCategoriesOutput!(tree.structuredContent)).toBeUndefined();
    const all = await call(client, "get_categories_all", {});
    expect(all.structuredContent).toEqual({ result: [categoryTree, { name: "plants" }] });
    expect(validate.validateGetCategoriesAllOutput!(all.structuredContent)).toBeUndefined();
    expectNothingUnexpected();
  });

  it("a slow API is a tool error after the timeout", async () => {
    const result = await call(client, "showPetById", { petId: "slow" });
    expect(result.isError).toBe(true);
    expect(text(result)).toBe("GET /v1/pets/slow: no answer within 1500 ms");
  });

  it("cancelling the call aborts the upstream request (before the 1500 ms timeout would)", async () => {
    const count = (list: readonly string[]) => list.filter((s) => s === "GET /v1/pets/slow").length;
    const [seenBefore, abandonedBefore] = [count(upstream.seen), count(upstream.abandoned)];
    const cancel = new AbortController();
    const pending = client.callTool({ name: "showPetById", arguments: { petId: "slow" } }, undefined, {
      signal: cancel.signal,
    });
    const waitFor = async (done: () => boolean, ms: number, what: string) => {
      const started = Date.now();
      while (!done()) {
        if (Date.now() - started > ms) throw new Error(what);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    };
    await waitFor(() => count(upstream.seen) > seenBefore, 10_000, "the request never reached the API");
    cancel.abort();
    await expect(pending).rejects.toThrow();
    await waitFor(
      () => count(upstream.abandoned) > abandonedBefore,
      700,
      `the upstream request was not aborted on cancellation: ${JSON.stringify(upstream.abandoned)}`,
    );
  });

  it("a later import rewrites its own files and keeps the user's handlers", () => {
    const handlers = join(project, "src", "handlers.ts");
    const mine = readFileSync(handlers, "utf8").replace(
      "// listPets: async (args, ctx) => …,",
      'deletePet: () => ({ isError: true, content: [{ type: "text", text: "not here" }] }),',
    );
    writeFileSync(handlers, mine);
    run(
      process.execPath,
      [cliPath, "import", "openapi", join(fixtures, "petstore-3.0.yaml"), "--out", project, "-q"],
      repoRoot,
    );
    expect(readFileSync(handlers, "utf8")).toBe(mine);
  });
});

describe("import openapi: Petstore Swagger 2.0 (JSON)", () => {
  let upstream: Upstream;
  let project: string;

  beforeAll(async () => {
    ({ project } = importProject("petstore-2.0", "petstore-2.0.json", "--name", "petstore2"));
    upstream = await petstore2();
  }, 300_000);
  afterAll(async () => {
    await upstream?.close();
  });

  it("calls the API with an API key in the query and HTTP basic where the document says", async () => {
    const client = await serve(project, {
      MCP_UPSTREAM_URL: `${upstream.url}/v2`,
      PETSTORE2_API_KEY: credentials.swaggerKey,
      PETSTORE2_BASIC_USERNAME: credentials.user,
      PETSTORE2_BASIC_PASSWORD: credentials.password,
    });
    try {
      const validate = await validators(project);
      const found = await call(client, "findPets", { tags: ["a", "b"], limit: 5 });
      expect(found.structuredContent).toEqual({ result: [{ id: 1, name: "Rex", tag: "a" }] });
      expect(validate.validateFindPetsOutput!(found.structuredContent)).toBeUndefined();
      const added = await call(client, "addPet", { body: { name: "Fido" } });
      expect(added.structuredContent).toEqual({ id: 2, name: "Fido" });
      expect((await call(client, "findPetById", { id: 1 })).structuredContent).toEqual({ id: 1, name: "Rex" });
      const missing = await call(client, "findPetById", { id: 9 });
      expect(missing.isError).toBe(true);
      expect(text(missing)).toBe('GET /v2/pets/9 answered HTTP 404 Not Found: {"code":404,"message":"no pet 9"}');
      expect(text(await call(client, "deletePet", { id: 1 }))).toBe("DELETE /v2/pets/1: HTTP 204, no content");
      expect(upstream.unexpected).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it("without the credentials an operation needs, nothing is sent and the tool error names the variables", async () => {
    const client = await serve(project, {
      MCP_UPSTREAM_URL: `${upstream.url}/v2`,
      PETSTORE2_API_KEY: credentials.swaggerKey,
    });
    try {
      const before = upstream.seen.length;
      const result = await call(client, "addPet", { body: { name: "Fido" } });
      expect(result.isError).toBe(true);
      expect(text(result)).toBe("addPet needs credentials: set PETSTORE2_BASIC_USERNAME and PETSTORE2_BASIC_PASSWORD");
      expect(upstream.seen.length).toBe(before);
    } finally {
      await client.close();
    }
  });
});
