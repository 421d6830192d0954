// An imported project calling an API protected by OAuth 2 client credentials, end to end:
// import → generate → strict tsc → src/main.ts over stdio (SDK v1 client) → a real
// authorization server (oidc-provider, test/import/support/client-credentials-server.ts) issues
// JWT access tokens to the project's client, and a node:http API checks every token against
// the server's JWKS (jose: signature, issuer, audience, expiry, scope). Also: security
// alternatives are tried in order, an optional `{}` only when no credentials are set.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { createRemoteJWKSet, jwtVerify } from "jose";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startClientCredentialsServer, type ClientCredentialsServer } from "./support/client-credentials-server.js";
import { call, importProject, serve, text } from "./support/imported-project.js";
import { refuse, startUpstream, type Exchange, type UpstreamServer } from "./support/upstream-server.js";

const apiKey = "key-of-ada";
const steady = { id: "reports-mcp", secret: "s3cret: +/&%~", ttl: 3600 };
const brief = { id: "reports-brief", secret: "another secret", ttl: 2 };

/** The Reports API of fixtures/upstream-oauth.yaml: every report operation needs a valid token with its scope. */
function reportsApi(auth: ClientCredentialsServer) {
  const jwks = createRemoteJWKSet(new URL(auth.jwksUrl));
  /** Tokens the API stopped accepting (as if revoked), and every token it accepted. */
  const revoked = new Set<string>();
  const accepted: string[] = [];
  const state = { refuseEveryToken: false };
  const busyFor = new Set<string>();
  const authorized = async ({ headers }: Exchange, scope: string) => {
    const token = /^Bearer (.+)$/.exec(headers.authorization ?? "")?.[1] ?? refuse("no bearer token");
    if (revoked.has(token) || state.refuseEveryToken) return false;
    const { payload } = await jwtVerify(token, jwks, { issuer: auth.issuer, audience: auth.resource });
    if (!String(payload.scope).split(" ").includes(scope)) refuse(`the token's scope ${payload.scope} lacks ${scope}`);
    accepted.push(token);
    return true;
  };
  const unauthorized = { status: 401, body: { message: "token revoked" }, headers: { "www-authenticate": "Bearer" } };
  return {
    revoked,
    accepted,
    state,
    handler: async (exchange: Exchange) => {
      const { method, path, headers } = exchange;
      const report = /^\/api\/reports\/([^/]+)$/.exec(path);
      if (method === "GET" && report) {
        if (!(await authorized(exchange, "reports:read"))) return unauthorized;
        // "busy" is busy once for every token.
        if (report[1] === "busy" && !busyFor.has(accepted.at(-1)!)) {
          busyFor.add(accepted.at(-1)!);
          return { status: 503, body: { message: "busy" }, headers: { "retry-after": "0" } };
        }
        return { status: 200, body: { id: report[1], title: `Report ${report[1]}` } };
      }
      if (method === "POST" && path === "/api/reports") {
        const { title } = JSON.parse(exchange.bytes.toString()) as { title: string };
        return (await authorized(exchange, "reports:write"))
          ? { status: 201, body: { id: "r-9", title } }
          : unauthorized;
      }
      if (method === "GET" && path === "/api/greeting") {
        if (headers.authorization !== undefined) refuse("a greeting needs no token");
        const key = headers["x-api-key"];
        if (key !== undefined && key !== apiKey) refuse(`wrong API key ${key}`);
        return { status: 200, body: { greeting: key === undefined ? "Hello, stranger" : "Hello, Ada" } };
      }
      return refuse("no such operation");
    },
  };
}

describe("import openapi: OAuth 2 client credentials against a real authorization server", () => {
  let auth: ClientCredentialsServer;
  let api: ReturnType<typeof reportsApi>;
  let upstream: UpstreamServer;
  let project: string;
  const clients: Client[] = [];
  /** The project's server, as this client, with the API key when asked. */
  const start = async (client: { id: string; secret: string }, env: Record<string, string> = {}) => {
    const started = await serve(project, {
      MCP_UPSTREAM_URL: `${upstream.url}/api`,
      MCP_UPSTREAM_TIMEOUT_MS: "10000",
      REPORTS_MACHINE_CLIENT_ID: client.id,
      REPORTS_MACHINE_CLIENT_SECRET: client.secret,
      REPORTS_MACHINE_TOKEN_URL: auth.tokenUrl,
      ...env,
    });
    clients.push(started);
    return started;
  };
  const tokensOf = (id: string) => auth.tokenRequests.filter((client) => client === id).length;

  beforeAll(async () => {
    ({ project } = importProject("upstream-oauth", "upstream-oauth.yaml", "--name", "reports"));
    auth = await startClientCredentialsServer({
      clients: [steady, brief],
      scopes: ["reports:read", "reports:write"],
      resource: "https://reports.example.com/api",
    });
    api = reportsApi(auth);
    upstream = await startUpstream(api.handler);
  }, 300_000);
  afterAll(async () => {
    for (const client of clients) await client.close();
    await upstream?.close();
    await auth?.close();
  });
  beforeEach(() => void upstream.unexpected.splice(0));

  it("fetches one token for concurrent calls, with the operation's scopes, and reuses it until it expires", async () => {
    const client = await start(steady);
    const reports = await Promise.all(["1", "2", "3"].map((id) => call(client, "getReport", { id })));
    expect(reports.map((r) => r.structuredContent)).toEqual(
      ["1", "2", "3"].map((id) => ({ id, title: `Report ${id}` })),
    );
    expect(upstream.unexpected).toEqual([]);
    expect(tokensOf(steady.id)).toBe(1);
    expect((await call(client, "getReport", { id: "4" })).isError).toBeFalsy();
    expect(tokensOf(steady.id)).toBe(1);
    // Another scope is another token (reports:write), then cached too.
    expect((await call(client, "createReport", { body: { title: "Q3" } })).structuredContent).toEqual({
      id: "r-9",
      title: "Q3",
    });
    expect((await call(client, "createReport", { body: { title: "Q4" } })).structuredContent).toEqual({
      id: "r-9",
      title: "Q4",
    });
    expect(tokensOf(steady.id)).toBe(2);
    expect(upstream.unexpected).toEqual([]);
  });

  it("a 401 from the API fetches a new token once and sends the request again", async () => {
    const client = await start(steady);
    expect((await call(client, "getReport", { id: "5" })).isError).toBeFalsy();
    const before = tokensOf(steady.id);
    for (const token of api.accepted) api.revoked.add(token);
    const seen = upstream.seen.length;
    const again = await call(client, "getReport", { id: "5" });
    expect(again.structuredContent).toEqual({ id: "5", title: "Report 5" });
    expect(tokensOf(steady.id)).toBe(before + 1);
    expect(upstream.seen.slice(seen)).toEqual(["GET /api/reports/5", "GET /api/reports/5"]);
    // Refused again with the new token: that 401 is the answer, not a loop.
    api.state.refuseEveryToken = true;
    try {
      const refused = await call(client, "getReport", { id: "6" });
      expect(refused.isError).toBe(true);
      expect(text(refused)).toBe('GET /api/reports/6 answered HTTP 401 Unauthorized: {"message":"token revoked"}');
      expect(tokensOf(steady.id)).toBe(before + 2);
      expect(upstream.seen.slice(seen + 2)).toEqual(["GET /api/reports/6", "GET /api/reports/6"]);
    } finally {
      api.state.refuseEveryToken = false;
    }
    expect(upstream.unexpected).toEqual([]);
  });

  it("a retry after a refreshed token (401, then 503) sends the new token without fetching another", async () => {
    const client = await start(steady);
    expect((await call(client, "getReport", { id: "5" })).isError).toBeFalsy();
    for (const token of api.accepted) api.revoked.add(token);
    const before = tokensOf(steady.id);
    const seen = upstream.seen.length;
    expect((await call(client, "getReport", { id: "busy" })).structuredContent).toEqual({
      id: "busy",
      title: "Report busy",
    });
    expect(upstream.seen.slice(seen)).toEqual(Array(3).fill("GET /api/reports/busy"));
    expect(tokensOf(steady.id)).toBe(before + 1);
    expect(upstream.unexpected).toEqual([]);
  });

  it("fetches a new token shortly before the cached one expires", async () => {
    const client = await start(brief);
    expect((await call(client, "getReport", { id: "7" })).isError).toBeFalsy();
    expect((await call(client, "getReport", { id: "7" })).isError).toBeFalsy();
    expect(tokensOf(brief.id)).toBe(1);
    // Its token lives 2 s and is replaced a tenth of that before.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect((await call(client, "getReport", { id: "7" })).isError).toBeFalsy();
    expect(tokensOf(brief.id)).toBe(2);
    expect(upstream.unexpected).toEqual([]);
  });

  it("a refused token request is a tool error naming the scheme and status, never the secret; nothing reaches the API", async () => {
    const client = await start({ id: steady.id, secret: "not-the-secret" });
    const seen = upstream.seen.length;
    const result = await call(client, "getReport", { id: "8" });
    expect(result.isError).toBe(true);
    expect(text(result)).toBe(
      `the token endpoint of OAuth 2 scheme machine (${auth.tokenUrl}) answered HTTP 401 Unauthorized: invalid_client (client authentication failed)`,
    );
    expect(text(result)).not.toContain("not-the-secret");
    expect(upstream.seen.length).toBe(seen);
  });

  it("without client credentials, the tool error names the variables to set", async () => {
    const client = await serve(project, { MCP_UPSTREAM_URL: `${upstream.url}/api` });
    clients.push(client);
    const result = await call(client, "getReport", { id: "9" });
    expect(text(result)).toBe(
      "getReport needs credentials: set REPORTS_MACHINE_CLIENT_ID and REPORTS_MACHINE_CLIENT_SECRET",
    );
  });

  it("security alternatives in order: a configured key is sent even though `{}` is listed first", async () => {
    const withKey = await start(steady, { REPORTS_KEY: apiKey });
    expect((await call(withKey, "getGreeting", {})).structuredContent).toEqual({ greeting: "Hello, Ada" });
    const withoutKey = await start(steady);
    expect((await call(withoutKey, "getGreeting", {})).structuredContent).toEqual({ greeting: "Hello, stranger" });
    expect(upstream.unexpected).toEqual([]);
  });
});
