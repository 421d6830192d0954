// Clock tolerance of token checks, at its boundary: jwtVerifier (jose) tolerates 30 s of skew
// on exp and nbf, and the HTTP binding, which checks the expiry of whatever verifyToken returns
// again, tolerates the same 30 s (its `clockToleranceSeconds`), so a JWT 25 s past exp is
// served and one 35 s past is refused, by both. Driven through createWebHandler with real
// RS256 tokens; the key set is served by the verifier's own `fetch` hook.
import { beforeAll, describe, expect, it } from "vitest";
import { exportJWK, generateKeyPair, SignJWT, type JWK } from "jose";
import { createWebHandler, type AuthInfo, type HttpAuthOptions } from "@mcp-gen/runtime";
import { jwtVerifier } from "@mcp-gen/runtime/jwt";
import { handlers } from "../../examples/notes/src/handlers.js";
import { createNotesServer } from "../../examples/notes/src/mcp/index.js";

const issuer = "https://auth.example.com";
const resource = "https://notes.example.com/mcp";
const now = () => Math.floor(Date.now() / 1000);

let privateKey: Awaited<ReturnType<typeof generateKeyPair>>["privateKey"];
let publicJwk: JWK;
beforeAll(async () => {
  const keys = await generateKeyPair("RS256", { extractable: true });
  privateKey = keys.privateKey;
  publicJwk = { ...(await exportJWK(keys.publicKey)), kid: "k1", alg: "RS256", use: "sig" };
});

const jwks: typeof fetch = async () =>
  new Response(JSON.stringify({ keys: [publicJwk] }), { headers: { "content-type": "application/json" } });

function token(claims: { exp: number; nbf?: number }): Promise<string> {
  const jwt = new SignJWT({ scope: "notes:read", ...(claims.nbf === undefined ? {} : { nbf: claims.nbf }) })
    .setProtectedHeader({ alg: "RS256", kid: "k1" })
    .setIssuer(issuer)
    .setSubject("ann")
    .setAudience(resource)
    .setIssuedAt(now() - 60)
    .setExpirationTime(claims.exp);
  return jwt.sign(privateKey);
}

/** A 2026-07-28 tools/list with `authorization`, through a handler with these auth options. */
async function listTools(
  auth: HttpAuthOptions,
  authorization: string,
): Promise<{ status: number; challenge: string | null }> {
  const handler = createWebHandler(createNotesServer(handlers), {
    allowedHosts: ["notes.example.com"],
    auth: { resource, authorizationServers: [issuer], ...auth },
  });
  const _meta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
  };
  const response = await handler(
    new Request(resource, {
      method: "POST",
      headers: {
        host: "notes.example.com",
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/list",
        authorization,
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta } }),
    }),
  );
  return { status: response.status, challenge: response.headers.get("www-authenticate") };
}

const verifier = () => jwtVerifier({ issuer, jwksUri: `${issuer}/jwks`, fetch: jwks });

describe("jwtVerifier behind an HTTP binding: 30 s of clock tolerance on exp and nbf", () => {
  it("serves a token 25 s past exp and refuses one 35 s past", async () => {
    expect((await listTools({ verifyToken: verifier() }, `Bearer ${await token({ exp: now() - 25 })}`)).status).toBe(
      200,
    );
    const refused = await listTools({ verifyToken: verifier() }, `Bearer ${await token({ exp: now() - 35 })}`);
    expect(refused.status).toBe(401);
    expect(refused.challenge).toContain('error_description="the token has expired"');
  });

  it("serves a token whose nbf is 25 s ahead and refuses one 35 s ahead", async () => {
    expect(
      (await listTools({ verifyToken: verifier() }, `Bearer ${await token({ exp: now() + 300, nbf: now() + 25 })}`))
        .status,
    ).toBe(200);
    const refused = await listTools(
      { verifyToken: verifier() },
      `Bearer ${await token({ exp: now() + 300, nbf: now() + 35 })}`,
    );
    expect(refused.status).toBe(401);
    expect(refused.challenge).toContain('error_description="the token is not valid yet"');
  });
});

describe("the binding's own expiry check (any verifyToken)", () => {
  const verifyingExpiry = (secondsAgo: number) => (): AuthInfo => ({
    subject: "ann",
    scopes: ["notes:read"],
    expiresAt: now() - secondsAgo,
    audience: [resource],
    claims: {},
  });

  it("tolerates 30 s by default: 25 s past expiresAt is served, 35 s past is refused", async () => {
    expect((await listTools({ verifyToken: verifyingExpiry(25) }, "Bearer t")).status).toBe(200);
    const refused = await listTools({ verifyToken: verifyingExpiry(35) }, "Bearer t");
    expect(refused.status).toBe(401);
    expect(refused.challenge).toContain('error_description="the token has expired"');
  });

  it("takes clockToleranceSeconds: with 0, 5 s past expiresAt is refused and 5 s before is served", async () => {
    expect((await listTools({ verifyToken: verifyingExpiry(5), clockToleranceSeconds: 0 }, "Bearer t")).status).toBe(
      401,
    );
    expect((await listTools({ verifyToken: verifyingExpiry(-5), clockToleranceSeconds: 0 }, "Bearer t")).status).toBe(
      200,
    );
  });
});
