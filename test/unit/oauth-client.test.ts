// The OAuth client of @mcp-gen/runtime/oauth, through httpChannel's `auth` option, against a
// small protected resource and authorization server on 127.0.0.1: discovery order and
// issuer checks, PKCE refusal, scope selection, step-up, refresh, RFC 9207 iss checks.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { httpChannel, type HttpAuth } from "../../runtime/index.js";
import { loopbackRedirect } from "../../runtime/node.js";
import { oauth, OAuthError, type OAuthOptions } from "../../runtime/oauth.js";

interface World {
  readonly base: string;
  readonly mcp: string;
  /** "GET /path" for every request but MCP POSTs. */
  readonly log: string[];
  readonly authorizations: URLSearchParams[];
  readonly tokenRequests: { body: URLSearchParams; authorization: string | undefined }[];
  readonly registrations: Record<string, unknown>[];
  /** Bearer tokens the MCP endpoint saw, in order. */
  readonly bearer: (string | undefined)[];
}

interface WorldOptions {
  /** Where the protected resource metadata is served (null: nowhere). */
  prmPath?: string | null;
  /** resource_metadata in the challenge. */
  prmInChallenge?: boolean;
  /** The resource the metadata claims (default: the MCP endpoint). */
  resource?: (base: string) => string;
  scopesSupported?: string[];
  /** The issuer path of the authorization server ("" or "/tenant"). */
  issuerPath?: string;
  /** Where its metadata is served (default RFC 8414 for the issuer). */
  asMetadataPath?: string;
  /** Overrides of metadata fields (undefined removes one). */
  asMetadata?: Record<string, unknown>;
  /** The iss the authorization endpoint sends: the right one, none, or this value. */
  iss?: "correct" | "omit" | ((issuer: string) => string) | undefined;
  /** The MCP endpoint's answer to a request with `token` (undefined: none sent). */
  mcp?: (
    token: string | undefined,
    scopes: string[] | undefined,
    count: number,
  ) => { status: number; challenge?: string };
  refreshTokens?: boolean;
  /** Prefixes the ids it issues (tokens, clients), to tell two servers apart. */
  name?: string;
  /** A token endpoint that accepts the request and never answers. */
  tokenNeverAnswers?: boolean;
}

const servers: { close(): void; closeAllConnections(): void }[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

async function readBody(request: IncomingMessage): Promise<string> {
  let body = "";
  for await (const chunk of request) body += String(chunk);
  return body;
}

async function world(options: WorldOptions = {}): Promise<World> {
  const log: string[] = [];
  const authorizations: URLSearchParams[] = [];
  const tokenRequests: World["tokenRequests"] = [];
  const registrations: Record<string, unknown>[] = [];
  const bearer: (string | undefined)[] = [];
  const tokens = new Map<string, string[]>();
  let issued = 0;
  let mcpCount = 0;
  const server = createServer();
  servers.push(server);
  await new Promise<void>((resolveListen) => server.listen(0, "127.0.0.1", resolveListen));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const issuerPath = options.issuerPath ?? "";
  const prefix = options.name ? `${options.name}-` : "";
  const issuer = `${base}${issuerPath}`;
  const prmPath = options.prmPath === undefined ? "/.well-known/oauth-protected-resource/mcp" : options.prmPath;
  const asMetadataPath = options.asMetadataPath ?? `/.well-known/oauth-authorization-server${issuerPath}`;
  const mcp = `${base}/mcp`;
  const challenge = (extra: string) =>
    `Bearer ${extra}${options.prmInChallenge && prmPath ? `${extra ? ", " : ""}resource_metadata="${base}${prmPath}"` : ""}`;

  const json = (response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    response.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));
  };

  const answer = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? "/", base);
    const body = await readBody(request);
    if (request.method === "POST" && url.pathname === "/mcp") {
      const header = request.headers.authorization;
      const token = header?.startsWith("Bearer ") ? header.slice(7) : undefined;
      bearer.push(token);
      const message = JSON.parse(body) as { id?: number };
      const policy =
        options.mcp ??
        ((t: string | undefined, scopes: string[] | undefined) =>
          t === undefined || scopes === undefined ? { status: 401, challenge: challenge("") } : { status: 200 });
      const verdict = policy(token, token === undefined ? undefined : tokens.get(token), mcpCount++);
      if (verdict.status === 200) return json(response, 200, { jsonrpc: "2.0", id: message.id, result: { ok: true } });
      return json(
        response,
        verdict.status,
        { error: verdict.status === 403 ? "insufficient_scope" : "invalid_token" },
        verdict.challenge ? { "www-authenticate": verdict.challenge } : {},
      );
    }
    log.push(`${request.method} ${url.pathname}`);
    if (request.method === "GET" && prmPath !== null && url.pathname === prmPath) {
      return json(response, 200, {
        resource: options.resource ? options.resource(base) : mcp,
        authorization_servers: [issuer],
        ...(options.scopesSupported ? { scopes_supported: options.scopesSupported } : {}),
      });
    }
    if (request.method === "GET" && url.pathname === asMetadataPath) {
      const metadata: Record<string, unknown> = {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        registration_endpoint: `${issuer}/register`,
        response_types_supported: ["code"],
        code_challenge_methods_supported: ["S256"],
        token_endpoint_auth_methods_supported: ["none"],
        authorization_response_iss_parameter_supported: true,
        ...options.asMetadata,
      };
      for (const [key, value] of Object.entries(metadata)) if (value === undefined) delete metadata[key];
      return json(response, 200, metadata);
    }
    if (request.method === "GET" && url.pathname === `${issuerPath}/authorize`) {
      authorizations.push(url.searchParams);
      const back = new URL(url.searchParams.get("redirect_uri")!);
      back.searchParams.set("code", `code-${authorizations.length}`);
      back.searchParams.set("state", url.searchParams.get("state") ?? "");
      const iss = options.iss ?? "correct";
      if (iss === "correct") back.searchParams.set("iss", issuer);
      else if (iss !== "omit") back.searchParams.set("iss", iss(issuer));
      response.writeHead(302, { location: back.href }).end();
      return;
    }
    if (request.method === "POST" && url.pathname === `${issuerPath}/token`) {
      if (options.tokenNeverAnswers) return;
      const form = new URLSearchParams(body);
      tokenRequests.push({ body: form, authorization: request.headers.authorization });
      const index = Number(form.get("code")?.slice(5));
      const scope =
        form.get("grant_type") === "refresh_token"
          ? (tokens.get(form.get("refresh_token")!) ?? [])
          : (authorizations[index - 1]?.get("scope")?.split(" ") ?? []);
      const access = `${prefix}access-${++issued}`;
      tokens.set(access, scope);
      const refresh = options.refreshTokens ? `${prefix}refresh-${issued}` : undefined;
      if (refresh) tokens.set(refresh, scope);
      return json(response, 200, {
        access_token: access,
        token_type: "Bearer",
        expires_in: 3600,
        ...(refresh ? { refresh_token: refresh } : {}),
      });
    }
    if (request.method === "POST" && url.pathname === `${issuerPath}/register`) {
      registrations.push(JSON.parse(body) as Record<string, unknown>);
      return json(response, 201, { client_id: `${prefix}client-${registrations.length}`, redirect_uris: [] });
    }
    json(response, 404, { error: "not_found" });
  };
  // A throw in the fake servers is an unhandled rejection, which fails the run with its stack.
  server.on("request", (request: IncomingMessage, response: ServerResponse) => void answer(request, response));
  return { base, mcp, log, authorizations, tokenRequests, registrations, bearer };
}

/** A user agent that approves at once: fetches the authorization URL and reads the redirect. */
const approve = async (url: URL): Promise<URL> => {
  const response = await fetch(url, { redirect: "manual" });
  await response.body?.cancel();
  return new URL(response.headers.get("location")!);
};

function client(overrides: Partial<OAuthOptions> = {}) {
  const calls: URL[] = [];
  const auth = oauth({
    redirectUri: "http://127.0.0.1:9/callback",
    redirectToAuthorization: (url) => {
      calls.push(url);
      return approve(url);
    },
    ...overrides,
  });
  return { auth, calls };
}

let nextId = 1;
/** Sends one JSON-RPC request over httpChannel with `auth`; resolves with its result, rejects with its failure. */
async function request(url: string, auth: HttpAuth): Promise<unknown> {
  const channel = httpChannel(url, { auth });
  const id = nextId++;
  const answer = new Promise<unknown>((resolveAnswer, reject) => {
    void channel.start({
      receive: (value) => {
        const message = value as { result?: unknown; error?: unknown };
        if (message.error) reject(new Error(JSON.stringify(message.error)));
        else resolveAnswer(message.result);
      },
      fail: (_id, error) => reject(error),
      closed: () => {},
    });
  });
  channel.send({ jsonrpc: "2.0", id, method: "tools/list", params: {} });
  try {
    return await answer;
  } finally {
    await channel.close();
  }
}

describe("bounded requests to the authorization server", () => {
  it("rejects the call within its timeout when the token endpoint never answers", async () => {
    const w = await world({ tokenNeverAnswers: true });
    const { auth } = client({ timeoutSeconds: 1 });
    await expect(request(w.mcp, auth)).rejects.toThrow(/token.*did not answer within 1000 ms/);
  });

  it("refuses an oversized authorization server metadata document", async () => {
    const w = await world({ asMetadata: { padding: "x".repeat(2 * 1024 * 1024) } });
    const { auth, calls } = client();
    await expect(request(w.mcp, auth)).rejects.toThrow(/answered more than 1048576 bytes/);
    expect(calls).toEqual([]);
  });
});

describe("oauth discovery", () => {
  it("falls back from path-based to root resource metadata, and tries RFC 8414 then OIDC locations for an issuer with a path", async () => {
    const w = await world({
      prmPath: "/.well-known/oauth-protected-resource",
      resource: (base) => base,
      issuerPath: "/tenant",
      asMetadataPath: "/tenant/.well-known/openid-configuration",
    });
    const { auth } = client();
    await expect(request(w.mcp, auth)).resolves.toEqual({ ok: true });
    expect(w.log.filter((l) => l.includes(".well-known"))).toEqual([
      "GET /.well-known/oauth-protected-resource/mcp",
      "GET /.well-known/oauth-protected-resource",
      "GET /.well-known/oauth-authorization-server/tenant",
      "GET /.well-known/openid-configuration/tenant",
      "GET /tenant/.well-known/openid-configuration",
    ]);
    // The resource parameter names the resource the metadata declared, in both requests.
    expect(w.authorizations[0]!.get("resource")).toBe(w.base);
    expect(w.tokenRequests[0]!.body.get("resource")).toBe(w.base);
    expect(w.bearer).toEqual([undefined, "access-1"]);
  });

  it("uses resource_metadata from the challenge and tries RFC 8414 before OIDC for an issuer without a path", async () => {
    const w = await world({
      prmPath: "/custom/prm.json",
      prmInChallenge: true,
      asMetadataPath: "/.well-known/openid-configuration",
    });
    const { auth } = client();
    await expect(request(w.mcp, auth)).resolves.toEqual({ ok: true });
    expect(w.log.filter((l) => l.startsWith("GET"))).toEqual([
      "GET /custom/prm.json",
      "GET /.well-known/oauth-authorization-server",
      "GET /.well-known/openid-configuration",
      "GET /authorize",
    ]);
  });

  it("refuses authorization server metadata whose issuer differs from the one it was looked up for", async () => {
    const w = await world({ asMetadata: { issuer: "https://attacker.example" } });
    const { auth, calls } = client();
    await expect(request(w.mcp, auth)).rejects.toThrow(/names issuer https:\/\/attacker\.example/);
    expect(calls).toEqual([]);
    expect(w.registrations).toEqual([]);
  });

  it("refuses protected resource metadata for another resource", async () => {
    const w = await world({ resource: () => "https://evil.example/mcp" });
    const { auth, calls } = client();
    await expect(request(w.mcp, auth)).rejects.toBeInstanceOf(OAuthError);
    expect(calls).toEqual([]);
  });

  it("refuses plain http to an authorization server that is not on a loopback host", async () => {
    const w = await world({ asMetadata: { token_endpoint: "http://as.example/token" } });
    const { auth, calls } = client();
    await expect(request(w.mcp, auth)).rejects.toThrow(/must use https/);
    expect(calls).toEqual([]);
  });
});

describe("oauth authorization", () => {
  it("sends PKCE S256, state and resource, registers a native client that asks for refresh tokens", async () => {
    const w = await world();
    const { auth } = client();
    await request(w.mcp, auth);
    const params = w.authorizations[0]!;
    expect(params.get("code_challenge_method")).toBe("S256");
    expect(params.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(params.get("state")).toBeTruthy();
    expect(params.get("resource")).toBe(w.mcp);
    expect(w.tokenRequests[0]!.body.get("code_verifier")).toBeTruthy();
    expect(w.registrations[0]).toMatchObject({
      application_type: "native",
      grant_types: ["authorization_code", "refresh_token"],
      redirect_uris: ["http://127.0.0.1:9/callback"],
    });
  });

  it("refuses to authorize when the server does not advertise S256", async () => {
    for (const methods of [undefined, ["plain"]]) {
      const w = await world({ asMetadata: { code_challenge_methods_supported: methods } });
      const { auth, calls } = client();
      await expect(request(w.mcp, auth)).rejects.toThrow(/PKCE S256/);
      expect(calls).toEqual([]);
    }
  });

  it("uses pre-registered credentials with client_secret_basic when the server lists only that", async () => {
    const w = await world({
      asMetadata: { registration_endpoint: undefined, token_endpoint_auth_methods_supported: ["client_secret_basic"] },
    });
    const { auth } = client({ client: { client_id: "my-app.cli", client_secret: "s3cret" } });
    await request(w.mcp, auth);
    expect(w.registrations).toEqual([]);
    expect(w.authorizations[0]!.get("client_id")).toBe("my-app.cli");
    expect(w.tokenRequests[0]!.authorization).toBe(`Basic ${btoa("my-app.cli:s3cret")}`);
    expect(w.tokenRequests[0]!.body.get("client_secret")).toBeNull();
  });

  it("uses the client ID metadata document URL as client_id where the server supports it", async () => {
    const w = await world({ asMetadata: { client_id_metadata_document_supported: true } });
    const { auth } = client({ clientMetadataUrl: "https://app.example/client.json" });
    await request(w.mcp, auth);
    expect(w.registrations).toEqual([]);
    expect(w.authorizations[0]!.get("client_id")).toBe("https://app.example/client.json");
  });
});

describe("oauth scope selection", () => {
  const scopeOf = async (options: WorldOptions) => {
    const w = await world(options);
    await request(w.mcp, client().auth);
    return w.authorizations[0]!.get("scope");
  };

  it("takes the challenge's scope first, then the resource's scopes_supported, else omits scope", async () => {
    await expect(
      scopeOf({
        scopesSupported: ["a", "b"],
        mcp: (t, s) => (s ? { status: 200 } : { status: 401, challenge: 'Bearer scope="c"' }),
      }),
    ).resolves.toBe("c");
    await expect(scopeOf({ scopesSupported: ["a", "b"] })).resolves.toBe("a b");
    await expect(scopeOf({})).resolves.toBeNull();
  });

  it("adds offline_access only when the authorization server lists it", async () => {
    await expect(
      scopeOf({ scopesSupported: ["a"], asMetadata: { scopes_supported: ["a", "offline_access"] } }),
    ).resolves.toBe("a offline_access");
    await expect(scopeOf({ scopesSupported: ["a"], asMetadata: { scopes_supported: ["a"] } })).resolves.toBe("a");
  });

  it("steps up on 403 insufficient_scope with the union of the scopes asked for so far", async () => {
    const w = await world({
      mcp: (token, scopes) => {
        if (!scopes) return { status: 401, challenge: 'Bearer scope="read"' };
        if (!scopes.includes("write"))
          return { status: 403, challenge: 'Bearer error="insufficient_scope", scope="write"' };
        return { status: 200 };
      },
    });
    await expect(request(w.mcp, client().auth)).resolves.toEqual({ ok: true });
    expect(w.authorizations.map((a) => a.get("scope"))).toEqual(["read", "read write"]);
    expect(w.bearer).toEqual([undefined, "access-1", "access-2"]);
  });

  it("gives up stepping up when the server keeps refusing the same scopes", async () => {
    const w = await world({
      mcp: (token) =>
        token === undefined
          ? { status: 401, challenge: 'Bearer scope="admin"' }
          : { status: 403, challenge: 'Bearer error="insufficient_scope", scope="admin"' },
    });
    const { auth } = client({ maxStepUps: 1 });
    await expect(request(w.mcp, auth)).rejects.toThrow(/HTTP 403/);
    // One authorization for the 401, one step-up, then the 403 is the answer.
    expect(w.authorizations).toHaveLength(2);
  });

  it("does not step up on a 403 that is not about scope", async () => {
    const w = await world({
      mcp: (token) =>
        token === undefined
          ? { status: 401, challenge: "Bearer" }
          : { status: 403, challenge: 'Bearer error="invalid_token"' },
    });
    await expect(request(w.mcp, client().auth)).rejects.toThrow(/HTTP 403/);
    expect(w.authorizations).toHaveLength(1);
  });
});

describe("oauth tokens", () => {
  it("refreshes a rejected access token with the refresh token (and the resource) instead of authorizing again", async () => {
    const w = await world({
      refreshTokens: true,
      mcp: (token) => (token === "access-2" ? { status: 200 } : { status: 401, challenge: "Bearer" }),
    });
    const { auth, calls } = client();
    await expect(request(w.mcp, auth)).resolves.toEqual({ ok: true });
    expect(calls).toHaveLength(1);
    expect(w.tokenRequests.map((r) => r.body.get("grant_type"))).toEqual(["authorization_code", "refresh_token"]);
    expect(w.tokenRequests[1]!.body.get("refresh_token")).toBe("refresh-1");
    expect(w.tokenRequests[1]!.body.get("resource")).toBe(w.mcp);
    expect(w.bearer).toEqual([undefined, "access-1", "access-2"]);
  });

  it("sends no token to a URL outside the resource it was issued for", async () => {
    const w = await world();
    const { auth } = client();
    await request(w.mcp, auth);
    expect(await auth.authorization(new URL(w.mcp))).toBe("Bearer access-1");
    expect(await auth.authorization(new URL(`${w.base}/other`))).toBeUndefined();
    expect(await auth.authorization(new URL("https://elsewhere.example/mcp"))).toBeUndefined();
  });
});

describe("oauth authorization response (RFC 9207)", () => {
  const outcome = async (iss: WorldOptions["iss"], advertised: boolean) => {
    const w = await world({
      iss,
      asMetadata: { authorization_response_iss_parameter_supported: advertised ? true : undefined },
    });
    const result = await request(w.mcp, client().auth).then(
      () => "accepted",
      (error: Error) => error.message,
    );
    return { result, tokenRequests: w.tokenRequests.length };
  };

  it("accepts a matching iss, and no iss when the server does not advertise it", async () => {
    await expect(outcome("correct", true)).resolves.toEqual({ result: "accepted", tokenRequests: 1 });
    await expect(outcome("omit", false)).resolves.toEqual({ result: "accepted", tokenRequests: 1 });
  });

  it("rejects a missing iss when advertised, and a different one whether advertised or not, before any token request", async () => {
    for (const [iss, advertised] of [
      ["omit", true],
      [() => "https://evil.example", true],
      [() => "https://evil.example", false],
      // Equal after URL normalization only: compared as strings, it differs.
      [(issuer: string) => `${issuer}/`, true],
    ] as const) {
      const { result, tokenRequests } = await outcome(iss, advertised);
      expect(result).toMatch(/authorization response was rejected/);
      expect(tokenRequests).toBe(0);
    }
  });
});

describe("oauth authorization server binding", () => {
  it("registers again and presents no old credentials when the resource moves to another authorization server", async () => {
    // With refresh tokens: the old server's refresh token must not go to the new one either.
    const first = await world({ name: "as1", refreshTokens: true });
    const second = await world({ name: "as2", refreshTokens: true });
    let moved = false;
    // One MCP endpoint whose metadata points at `first`, then at `second`.
    const relay = async (request: IncomingMessage, response: ServerResponse) => {
      const url = new URL(request.url ?? "/", "http://x");
      const target = moved ? second : first;
      if (url.pathname === "/mcp" && request.headers.authorization === "Bearer as1-access-1" && !moved) moved = true;
      const forwarded = await fetch(`${target.base}${url.pathname}`, {
        method: request.method!,
        headers: {
          ...(request.headers.authorization ? { authorization: request.headers.authorization } : {}),
          "content-type": "application/json",
        },
        ...(request.method === "POST" ? { body: await readBody(request) } : {}),
      });
      const text = (await forwarded.text()).replaceAll(target.base + "/mcp", frontUrl);
      const headers: Record<string, string> = { "content-type": "application/json" };
      const challenge = forwarded.headers.get("www-authenticate");
      if (challenge) headers["www-authenticate"] = challenge;
      response.writeHead(forwarded.status, headers).end(text);
    };
    const front = createServer((request, response) => void relay(request, response));
    servers.push(front);
    await new Promise<void>((resolveListen) => front.listen(0, "127.0.0.1", resolveListen));
    const frontUrl = `http://127.0.0.1:${(front.address() as AddressInfo).port}/mcp`;
    const { auth } = client();
    await expect(request(frontUrl, auth)).resolves.toEqual({ ok: true });
    // Now `second` rejects access-1 (not its token); the client must start over there.
    await expect(request(frontUrl, auth)).resolves.toEqual({ ok: true });
    expect(first.registrations).toHaveLength(1);
    expect(second.registrations).toHaveLength(1);
    expect(second.authorizations[0]!.get("client_id")).toBe("as2-client-1");
    expect(second.tokenRequests.map((r) => [r.body.get("grant_type"), r.body.get("client_id")])).toEqual([
      ["authorization_code", "as2-client-1"],
    ]);
    expect(second.bearer).toEqual(["as1-access-1", "as2-access-1"]);
    expect(auth.issuer).toBe(second.base);
  });
});

describe("httpChannel auth", () => {
  it("sends one message again at most a few times, whatever the provider says", async () => {
    const w = await world({ mcp: () => ({ status: 401, challenge: "Bearer" }) });
    let challenges = 0;
    const stubborn: HttpAuth = {
      authorization: () => "Bearer nope",
      challenged: async () => {
        challenges++;
        return true;
      },
    };
    await expect(request(w.mcp, stubborn)).rejects.toThrow(/HTTP 401/);
    expect(challenges).toBe(3);
    expect(w.bearer).toEqual(["nope", "nope", "nope", "nope"]);
  });
});

describe("loopbackRedirect", () => {
  it("gives a 127.0.0.1 redirect URI and resolves with the callback URL, then stops listening", async () => {
    const opened: URL[] = [];
    const loopback = await loopbackRedirect({
      open: async (url) => {
        opened.push(url);
        const back = new URL(loopback.redirectUri);
        back.search = "?code=abc&state=xyz";
        await fetch(new URL("/favicon.ico", back)).then((r) => r.body?.cancel());
        await fetch(back).then((r) => r.text());
      },
    });
    expect(loopback.redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    const callback = await loopback.redirectToAuthorization(new URL("https://as.example/authorize?x=1"));
    expect(callback.searchParams.get("code")).toBe("abc");
    expect(opened.map(String)).toEqual(["https://as.example/authorize?x=1"]);
    await expect(fetch(loopback.redirectUri)).rejects.toThrow();
    loopback.close();
  });

  it("fails after its timeout", async () => {
    const loopback = await loopbackRedirect({ open: () => {}, timeoutMs: 50 });
    await expect(loopback.redirectToAuthorization(new URL("https://as.example/authorize"))).rejects.toThrow(
      /no authorization redirect/,
    );
  });
});
