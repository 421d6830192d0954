// Where an imported project's requests go: the document's server URL, or MCP_UPSTREAM_URL when
// it is set. An empty MCP_UPSTREAM_URL is unset: a host passes one for a bundle's upstream_url
// setting left empty (`mcp-gen pack`), and the server must then call the document's URL rather
// than refuse to start. With neither, the server starts (hosts list tools before anyone configures
// it) and each call is a tool error naming MCP_UPSTREAM_URL. Tested on project/request.ts, which imported projects run as it is
// (src/upstream/request.gen.ts), against a real node:http server.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callJson, upstreamFromEnv, type OperationSpec } from "../../generator/import/openapi/project/request.js";
import { repoRoot } from "../support/paths.js";
import { call, importProject, serve, text } from "./support/imported-project.js";
import { startUpstream, type UpstreamServer } from "./support/upstream-server.js";

const listPets: OperationSpec = {
  tool: "listPets",
  method: "get",
  path: "/pets",
  parameters: [],
  output: {},
  security: [],
};

let upstream: UpstreamServer;
beforeAll(async () => {
  upstream = await startUpstream(({ path }) => ({ status: 200, body: { path } }));
});
afterAll(() => upstream.close());

/** The path the upstream saw for listPets, sent as `env` says. */
async function pathSent(documentUrl: string | undefined, env: Record<string, string>): Promise<unknown> {
  const answer = await callJson(upstreamFromEnv(documentUrl, {}, env), listPets, {}, AbortSignal.timeout(5000));
  expect(answer).not.toHaveProperty("isError");
  return (answer as { structuredContent: { path: string } }).structuredContent.path;
}

describe("the upstream base URL of an imported project", () => {
  it("is the document's server URL when MCP_UPSTREAM_URL is unset or empty", async () => {
    expect(await pathSent(`${upstream.url}/v1`, {})).toBe("/v1/pets");
    expect(await pathSent(`${upstream.url}/v1`, { MCP_UPSTREAM_URL: "" })).toBe("/v1/pets");
  });

  it("is MCP_UPSTREAM_URL when it is set", async () => {
    expect(await pathSent("http://petstore.example/v1", { MCP_UPSTREAM_URL: `${upstream.url}/v2` })).toBe("/v2/pets");
  });

  it("is missing when neither is an absolute URL: each call says to set MCP_UPSTREAM_URL and sends nothing", async () => {
    const before = upstream.seen.length;
    for (const [documentUrl, env, said] of [
      [undefined, {}, "its document names none"],
      [undefined, { MCP_UPSTREAM_URL: "" }, "its document names none"],
      ["/v1", {}, "its document gives a relative one (/v1)"],
    ] as const) {
      const answer = await callJson(upstreamFromEnv(documentUrl, {}, env), listPets, {}, AbortSignal.timeout(5000));
      expect(answer).toMatchObject({ isError: true });
      expect(JSON.stringify(answer)).toContain(`listPets: no base URL for the API: ${said}; set MCP_UPSTREAM_URL`);
    }
    expect(upstream.seen.length).toBe(before);
  });

  it("is refused at start when MCP_UPSTREAM_URL is given but not an absolute http(s) URL", () => {
    for (const given of ["/v1", "petstore.example/v1", "ftp://petstore.example/", "http://"])
      expect(() => upstreamFromEnv("http://petstore.example/v1", {}, { MCP_UPSTREAM_URL: given })).toThrow(
        `MCP_UPSTREAM_URL must be an absolute http(s) URL, not ${JSON.stringify(given)}`,
      );
  });
});

describe("an imported project whose document gives no base URL", () => {
  const document = join(repoRoot, "test", "import", ".out", "no-servers.json");
  beforeAll(() => {
    mkdirSync(join(document, ".."), { recursive: true });
    writeFileSync(
      document,
      JSON.stringify({
        openapi: "3.0.3",
        info: { title: "No servers", version: "1.0.0" },
        paths: {
          "/pets": {
            get: {
              operationId: "listPets",
              responses: {
                "200": { description: "ok", content: { "application/json": { schema: { type: "array" } } } },
              },
            },
          },
        },
      }),
    );
  });

  for (const mode of ["operations", "catalog"] as const)
    it(`starts, lists its tools and answers each call with what to set (--tools ${mode})`, async () => {
      const { project } = importProject(`no-servers-${mode}`, document, "--tools", mode, "-q");
      const client = await serve(project, {});
      try {
        const { tools } = await client.listTools();
        expect(tools.map((t) => t.name)).toEqual(
          mode === "operations" ? ["listPets"] : ["find_operations", "describe_operation", "call_operation"],
        );
        const answer =
          mode === "operations"
            ? await call(client, "listPets", {})
            : await call(client, "call_operation", { id: "listPets", arguments: {} });
        expect(answer.isError).toBe(true);
        expect(text(answer)).toContain(
          "no base URL for the API: its document names none; set MCP_UPSTREAM_URL (the upstream_url setting)",
        );
      } finally {
        await client.close();
      }
    }, 300_000);
});
