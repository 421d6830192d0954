// Where an imported project's requests go: the document's server URL, or MCP_UPSTREAM_URL when
// it is set. An empty MCP_UPSTREAM_URL is unset: a host passes one for a bundle's upstream_url
// setting left empty (`mcp-gen pack`), and the server must then call the document's URL rather
// than refuse to start. Tested on project/request.ts, which imported projects run as it is
// (src/upstream/request.gen.ts), against a real node:http server.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callJson, upstreamFromEnv, type OperationSpec } from "../../generator/import/openapi/project/request.js";
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

  it("is refused when neither is an absolute URL, an empty MCP_UPSTREAM_URL included", () => {
    expect(() => upstreamFromEnv(undefined, {}, { MCP_UPSTREAM_URL: "" })).toThrow(
      "the API's base URL is not in its document: set MCP_UPSTREAM_URL to an absolute http(s) URL",
    );
    expect(() => upstreamFromEnv("/v1", {}, {})).toThrow("the API's base URL is relative (/v1)");
  });
});
