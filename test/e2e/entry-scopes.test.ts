// Per-entry scopes (`scopes:` on tools, prompts, resources and resource templates) from
// manifest to 403: a server generated into a temporary project, served by the web-standard
// handler with a verifier of fixed tokens, asked for each kind of entry with tokens that have
// and lack its scope. Also completion/complete, which needs what using the entry needs.
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import {
  createWebHandler,
  InvalidTokenError,
  type AuthInfo,
  type McpEndpoint,
  type WebHandler,
} from "@mcp-gen/runtime";
import { runCliAsync, tempProject } from "../support/generate.js";

const manifest = `mcpgen: 1
server: { name: scoped, version: "1.0.0" }
protocol: [2026-07-28, 2025-11-25]
output: ./mcp
auth:
  authorizationServers: [https://auth.example.com]
  scopesSupported: [base, tools:x, prompts:x, res:x, tpl:x]
  requiredScopes: [base]
  resource: https://scoped.example.com/mcp
tools:
  open_tool: {}
  closed_tool: { scopes: [tools:x] }
prompts:
  closed_prompt:
    scopes: [prompts:x]
    arguments: { topic: { complete: true } }
    messages: [{ role: user, text: "About {{topic}}" }]
resources:
  closed_resource: { uri: "res://one", scopes: [res:x] }
resourceTemplates:
  closed_template:
    uriTemplate: "tpl://{id}"
    scopes: [tpl:x]
    variables: { id: { complete: true } }
`;

const handlers = `export const handlers = {
  tools: { openTool: () => "open", closedTool: () => "closed" },
  resources: { closedResource: () => "one" },
  resourceTemplates: { closedTemplate: ({ id }: { id: string }) => "tpl " + id },
  completions: { prompts: { closedPrompt: { topic: () => ["a"] } }, resourceTemplates: { closedTemplate: { id: () => ["1"] } } },
};
`;

let handler: WebHandler;
const resource = "https://scoped.example.com/mcp";

beforeAll(async () => {
  const project = tempProject({ "mcp.yaml": manifest, "handlers.ts": handlers });
  const run = await runCliAsync(["mcp.yaml", "-q"], project);
  expect(run.stderr).toBe("");
  const generated = (await import(pathToFileURL(join(project, "mcp", "index.ts")).href)) as {
    createScopedServer(handlers: unknown): McpEndpoint;
  };
  const { handlers: implementation } = (await import(pathToFileURL(join(project, "handlers.ts")).href)) as {
    handlers: unknown;
  };
  const verifyToken = (token: string): AuthInfo => {
    // Test tokens: the granted scopes, base64url-encoded.
    const scopes = Buffer.from(token, "base64url").toString("utf8").split(" ");
    if (!scopes.includes("base") && !scopes.some((s) => s.includes(":"))) throw new InvalidTokenError("unknown token");
    return { subject: "s", scopes, expiresAt: undefined, audience: [resource], claims: {} };
  };
  handler = createWebHandler(generated.createScopedServer(implementation), {
    allowedHosts: ["scoped.example.com"],
    auth: { verifyToken },
  });
});

/** A legacy-free modern request as a token holding `scopes` would send it; resolves with status and challenge. */
async function ask(
  method: string,
  params: Record<string, unknown>,
  scopes: string[],
  name?: string,
): Promise<{ status: number; scope: string | undefined }> {
  const _meta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
  };
  const headers: Record<string, string> = {
    host: "scoped.example.com",
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    authorization: `Bearer ${Buffer.from(scopes.join(" ")).toString("base64url")}`,
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": method,
  };
  if (name !== undefined) headers["mcp-name"] = name;
  const response = await handler(
    new Request(resource, {
      method: "POST",
      headers,
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: { ...params, _meta } }),
    }),
  );
  await response.body?.cancel();
  const challenge = response.headers.get("www-authenticate") ?? undefined;
  return {
    status: response.status,
    scope: challenge === undefined ? undefined : /scope="([^"]*)"/.exec(challenge)?.[1],
  };
}

describe("per-entry scopes", () => {
  const cases: [string, string, Record<string, unknown>, string | undefined, string][] = [
    ["a tool", "tools/call", { name: "closed_tool", arguments: {} }, "closed_tool", "tools:x"],
    ["a prompt", "prompts/get", { name: "closed_prompt", arguments: { topic: "t" } }, "closed_prompt", "prompts:x"],
    ["a fixed resource", "resources/read", { uri: "res://one" }, "res://one", "res:x"],
    ["a resource template", "resources/read", { uri: "tpl://7" }, "tpl://7", "tpl:x"],
    [
      "completing a prompt's argument",
      "completion/complete",
      { ref: { type: "ref/prompt", name: "closed_prompt" }, argument: { name: "topic", value: "" } },
      undefined,
      "prompts:x",
    ],
    [
      "completing a template's variable",
      "completion/complete",
      { ref: { type: "ref/resource", uri: "tpl://{id}" }, argument: { name: "id", value: "" } },
      undefined,
      "tpl:x",
    ],
  ];
  for (const [what, method, params, name, scope] of cases) {
    it(`${what} needs its scope besides the required one`, async () => {
      expect(await ask(method, params, ["base"], name)).toEqual({ status: 403, scope: `base ${scope}` });
      expect((await ask(method, params, ["base", scope], name)).status).toBe(200);
      // The required scope is still needed.
      expect(await ask(method, params, [scope], name)).toEqual({ status: 403, scope: `base ${scope}` });
    });
  }

  it("entries without scopes need only the required ones", async () => {
    expect((await ask("tools/call", { name: "open_tool", arguments: {} }, ["base"], "open_tool")).status).toBe(200);
    expect((await ask("tools/list", {}, ["base"])).status).toBe(200);
  });
});
