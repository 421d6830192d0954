// The notes example as an OAuth 2.1 resource server, probed over real HTTP with raw
// requests: the protected resource metadata documents, the exact 401 and 403 challenges,
// and every kind of bad token the JWT verifier must refuse. Tokens come from an issuer
// this test runs itself (its own RSA key, published as a JWKS with RFC 8414 metadata), so
// that each claim and signature can be broken on purpose.
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exportJWK, generateKeyPair, SignJWT, type JWK, type JWTPayload } from "jose";
import { repoRoot } from "../support/paths.js";
import { startHttpServer, stopAllChildren, type HttpServerProcess } from "./helpers.js";

const notesMain = join(repoRoot, "examples", "notes", "src", "main.ts");

let issuerServer: Server;
let issuer: string;
let privateKey: Awaited<ReturnType<typeof generateKeyPair>>["privateKey"];
let publicJwk: JWK;
let notes: HttpServerProcess;
/** The server's resource identifier, derived from its URL. */
let resource: string;
let metadataUrl: string;

beforeAll(async () => {
  const keys = await generateKeyPair("RS256", { extractable: true });
  privateKey = keys.privateKey;
  publicJwk = { ...(await exportJWK(keys.publicKey)), kid: "k1", alg: "RS256", use: "sig" };
  issuerServer = createServer((req, res) => {
    const documents: Record<string, unknown> = {
      "/.well-known/oauth-authorization-server": {
        issuer,
        jwks_uri: `${issuer}/jwks`,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
      },
      "/jwks": { keys: [publicJwk] },
    };
    const document = documents[req.url ?? ""];
    res.writeHead(document ? 200 : 404, { "content-type": "application/json" });
    res.end(JSON.stringify(document ?? {}));
  });
  await new Promise<void>((resolve) => issuerServer.listen(0, "127.0.0.1", resolve));
  issuer = `http://127.0.0.1:${(issuerServer.address() as AddressInfo).port}`;
  notes = await startHttpServer(notesMain, "--issuer", issuer, "--port", "0");
  resource = notes.url;
  metadataUrl = `${new URL(notes.url).origin}/.well-known/oauth-protected-resource/mcp`;
});

afterAll(async () => {
  await stopAllChildren();
  await new Promise<void>((resolve) => issuerServer.close(() => resolve()));
});

const now = () => Math.floor(Date.now() / 1000);

/** A token as the authorization server would issue it for the notes server, with `change` applied. */
function token(claims: JWTPayload = {}, header: Record<string, unknown> = {}): Promise<string> {
  return new SignJWT({ scope: "notes:read", client_id: "test-client", ...claims })
    .setProtectedHeader({ alg: "RS256", kid: "k1", typ: "at+jwt", ...header })
    .setIssuer(typeof claims.iss === "string" ? claims.iss : issuer)
    .setSubject(typeof claims.sub === "string" ? claims.sub : "alice")
    .setAudience((claims.aud as string | undefined) ?? resource)
    .setIssuedAt()
    .setExpirationTime(typeof claims.exp === "number" ? claims.exp : now() + 300)
    .sign(privateKey);
}

const base64url = (value: string | Uint8Array) => Buffer.from(value).toString("base64url");

/** A modern (2026-07-28) request with its mirrored headers. */
function modern(method: string, params: Record<string, unknown>, authorization?: string, name?: string) {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": method,
  };
  if (name !== undefined) headers["mcp-name"] = name;
  if (authorization !== undefined) headers.authorization = authorization;
  const meta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
  };
  return fetch(resource, {
    method: "POST",
    headers,
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: meta } }),
  });
}

const callTool = (name: string, args: Record<string, unknown>, authorization?: string) =>
  modern("tools/call", { name, arguments: args }, authorization, name);

describe("protected resource metadata (RFC 9728)", () => {
  const expected = () => ({
    resource,
    authorization_servers: [issuer],
    bearer_methods_supported: ["header"],
    scopes_supported: ["notes:read", "notes:write"],
    resource_name: "Notes",
    resource_documentation: "https://github.com/mcp-gen/mcp-gen/blob/main/docs/authorization.md",
  });

  it("is served at the path-based well-known URL of the endpoint, without a token", async () => {
    const response = await fetch(metadataUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(await response.json()).toEqual(expected());
  });

  it("is served at the root well-known URL too", async () => {
    const response = await fetch(`${new URL(resource).origin}/.well-known/oauth-protected-resource`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(expected());
  });

  it("is not served for other paths", async () => {
    expect((await fetch(`${new URL(resource).origin}/.well-known/oauth-protected-resource/other`)).status).toBe(404);
  });
});

describe("401: no token, or one that must be refused", () => {
  const challenge = (description?: string) =>
    description === undefined
      ? `Bearer scope="notes:read", resource_metadata="${metadataUrl}"`
      : `Bearer error="invalid_token", error_description="${description}", scope="notes:read", resource_metadata="${metadataUrl}"`;

  it("asks for a token when none came, naming the metadata and the scope every call needs", async () => {
    const response = await modern("tools/list", {});
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe(challenge());
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe(
      "Unauthorized: this server needs a bearer token",
    );
  });

  it("ignores a token in the query string", async () => {
    const url = `${resource}?access_token=${await token()}`;
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
      }),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe(challenge());
  });

  it("refuses a non-bearer Authorization header", async () => {
    const response = await modern("tools/list", {}, "Basic YWxpY2U6c2VjcmV0");
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe(
      challenge("the Authorization header must be 'Bearer <token>'"),
    );
  });

  const refused: [string, () => Promise<string>, string][] = [
    ["an expired token", () => token({ exp: now() - 120 }), "the token has expired"],
    ["a token not valid yet", () => token({ nbf: now() + 600 }), "the token is not valid yet"],
    [
      "a token from another issuer",
      () => token({ iss: "https://evil.example.com" }),
      "the token was issued by another authorization server",
    ],
    [
      "a token for another resource",
      () => token({ aud: "https://other.example.com/mcp" }),
      "the token was not issued for this server",
    ],
    [
      "a token with an unknown key id",
      () => token({}, { kid: "k2" }),
      "the token was signed with a key the authorization server does not publish",
    ],
    [
      "an unsigned token (alg none)",
      async () =>
        `${base64url(JSON.stringify({ alg: "none", typ: "JWT" }))}.${base64url(JSON.stringify({ iss: issuer, aud: resource, sub: "alice", scope: "notes:read notes:write", exp: now() + 300 }))}.`,
      "the token's signature algorithm is not accepted",
    ],
    [
      "an HS256 token keyed with the public key (algorithm confusion)",
      async () => {
        const { createHmac } = await import("node:crypto");
        const head = base64url(JSON.stringify({ alg: "HS256", kid: "k1", typ: "at+jwt" }));
        const body = base64url(
          JSON.stringify({
            iss: issuer,
            aud: resource,
            sub: "alice",
            scope: "notes:read notes:write",
            exp: now() + 300,
          }),
        );
        const secret = JSON.stringify(publicJwk);
        return `${head}.${body}.${createHmac("sha256", secret).update(`${head}.${body}`).digest("base64url")}`;
      },
      "the token's signature algorithm is not accepted",
    ],
    [
      "a token whose payload was changed after signing",
      async () => {
        const [head, , signature] = (await token()).split(".");
        const body = base64url(
          JSON.stringify({
            iss: issuer,
            aud: resource,
            sub: "mallory",
            scope: "notes:read notes:write",
            exp: now() + 300,
          }),
        );
        return `${head}.${body}.${signature}`;
      },
      "the token's signature is invalid",
    ],
    ["garbage", async () => "not-a-jwt", "the token is malformed"],
  ];

  for (const [what, make, description] of refused) {
    it(`refuses ${what}`, async () => {
      const response = await modern("tools/list", {}, `Bearer ${await make()}`);
      expect(response.status).toBe(401);
      expect(response.headers.get("www-authenticate")).toBe(challenge(description));
    });
  }
});

describe("scopes and identity", () => {
  it("answers a valid token; lists are private to the caller (cacheScope)", async () => {
    const response = await modern("tools/list", {}, `Bearer ${await token()}`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { result: { tools: { name: string }[]; cacheScope: string } };
    expect(body.result.tools.map((t) => t.name)).toEqual(["list_notes", "add_note", "delete_note"]);
    expect(body.result.cacheScope).toBe("private");
  });

  it("403 names every scope a call needs when the token lacks one, before the handler runs", async () => {
    const readOnly = `Bearer ${await token({ sub: "carol" })}`;
    const response = await callTool("add_note", { text: "should not be stored" }, readOnly);
    expect(response.status).toBe(403);
    expect(response.headers.get("www-authenticate")).toBe(
      `Bearer error="insufficient_scope", error_description="this call needs scope notes:read notes:write", scope="notes:read notes:write", resource_metadata="${metadataUrl}"`,
    );
    const error = (await response.json()) as { id: unknown; error: { message: string } };
    expect(error.id).toBe(1);
    // Nothing was stored for carol.
    const listed = (await (await callTool("list_notes", {}, readOnly)).json()) as {
      result: { content: { text: string }[] };
    };
    expect(listed.result.content[0]!.text).toBe("No notes yet.");
  });

  it("a token without the scope every call needs is refused even for a list", async () => {
    const response = await modern("tools/list", {}, `Bearer ${await token({ scope: "notes:write" })}`);
    expect(response.status).toBe(403);
    expect(response.headers.get("www-authenticate")).toContain('scope="notes:read"');
  });

  it("handlers see who called (ctx.auth): each subject has its own notes", async () => {
    const alice = `Bearer ${await token({ sub: "alice", scope: "notes:read notes:write" })}`;
    const bob = `Bearer ${await token({ sub: "bob", scope: "notes:read notes:write" })}`;
    expect((await callTool("add_note", { text: "alice's note" }, alice)).status).toBe(200);
    const text = async (authorization: string) =>
      ((await (await callTool("list_notes", {}, authorization)).json()) as { result: { content: { text: string }[] } })
        .result.content[0]!.text;
    expect(await text(alice)).toMatch(/^\d+: alice's note$/);
    expect(await text(bob)).toBe("No notes yet.");
  });

  it("the audience is this server's own port, whatever port the Host header names", async () => {
    // Another local server (port 1) shares the authorization server: its tokens must not work here.
    const elsewhere = `http://127.0.0.1:1/mcp`;
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    });
    const authorization = `Bearer ${await token({ aud: elsewhere })}`;
    // node:http, since fetch would not let the Host header differ from the URL.
    const { status, challenge } = await new Promise<{ status: number; challenge: string | undefined }>(
      (resolve, reject) => {
        const url = new URL(resource);
        const request = httpRequest(
          {
            host: url.hostname,
            port: url.port,
            path: url.pathname,
            method: "POST",
            headers: {
              host: "127.0.0.1:1",
              "content-type": "application/json",
              accept: "application/json, text/event-stream",
              authorization,
            },
          },
          (response) => {
            response.resume();
            resolve({ status: response.statusCode ?? 0, challenge: response.headers["www-authenticate"] });
          },
        );
        request.on("error", reject);
        request.end(body);
      },
    );
    expect(status).toBe(401);
    expect(challenge).toContain(`error_description="the token was not issued for this server"`);
    expect(challenge).toContain(`resource_metadata="${metadataUrl}"`);
  });

  it("a legacy session belongs to the subject that opened it", async () => {
    const post = (body: unknown, authorization: string, session?: string) =>
      fetch(resource, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          authorization,
          ...(session ? { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" } : {}),
        },
        body: JSON.stringify(body),
      });
    const alice = `Bearer ${await token({ sub: "alice" })}`;
    const opened = await post(
      {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
      },
      alice,
    );
    expect(opened.status).toBe(200);
    const session = opened.headers.get("mcp-session-id")!;
    await opened.body?.cancel();
    await (await post({ jsonrpc: "2.0", method: "notifications/initialized" }, alice, session)).body?.cancel();
    const list = { jsonrpc: "2.0", id: 2, method: "tools/list" };
    expect((await post(list, alice, session)).status).toBe(200);
    const mallory = `Bearer ${await token({ sub: "mallory" })}`;
    const stolen = await post(list, mallory, session);
    expect(stolen.status).toBe(404);
  });
});

describe("the weather example's protected mode (--issuer): protection decided at deployment", () => {
  it("refuses requests without a token, serves metadata without scopes, and answers a token for it", async () => {
    const weather = await startHttpServer(
      join(repoRoot, "examples", "weather", "src", "main.ts"),
      "--http",
      "--port",
      "0",
      "--issuer",
      issuer,
    );
    try {
      const origin = new URL(weather.url).origin;
      expect(await (await fetch(`${origin}/.well-known/oauth-protected-resource/mcp`)).json()).toEqual({
        resource: weather.url,
        authorization_servers: [issuer],
        bearer_methods_supported: ["header"],
      });
      const ask = async (authorization?: string) =>
        fetch(weather.url, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            ...(authorization ? { authorization } : {}),
          },
          body: JSON.stringify({
            jsonrpc: "2.0",
            id: 1,
            method: "initialize",
            params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
          }),
        });
      const refused = await ask();
      expect(refused.status).toBe(401);
      expect(refused.headers.get("www-authenticate")).toBe(
        `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`,
      );
      // A notes token is not a weather token.
      expect((await ask(`Bearer ${await token()}`)).status).toBe(401);
      const answered = await ask(`Bearer ${await token({ aud: weather.url })}`);
      expect(answered.status).toBe(200);
      expect(((await answered.json()) as { result: { serverInfo: { name: string } } }).result.serverInfo.name).toBe(
        "weather",
      );
    } finally {
      await weather.stop();
    }
  });
});
