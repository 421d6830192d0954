// How jwtVerifier keeps the authorization server's keys, against a real JWKS server on
// 127.0.0.1 that counts its requests and can be made slow or failing: a cached key set
// keeps serving while its refresh fails, a storm of unknown key ids refetches at most once
// per cooldown (and not at all while the server is failing), and a server that comes back
// is used again. Driven through createWebHandler, as a protected server runs it.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { exportJWK, generateKeyPair, SignJWT, type JWK } from "jose";
import { createWebHandler } from "@mcp-gen/runtime";
import { jwtVerifier, type JwtVerifierOptions } from "@mcp-gen/runtime/jwt";
import { handlers } from "../../examples/notes/src/handlers.js";
import { createNotesServer } from "../../examples/notes/src/mcp/index.js";

const issuer = "https://auth.example.com";
const resource = "https://notes.example.com/mcp";

type Mode = "ok" | "hang" | "fail";
interface JwksServer {
  readonly url: string;
  requests: number;
  mode: Mode;
  keys: JWK[];
}

let privateKey: Awaited<ReturnType<typeof generateKeyPair>>["privateKey"];
let publicJwk: JWK;
beforeAll(async () => {
  const pair = await generateKeyPair("RS256", { extractable: true });
  privateKey = pair.privateKey;
  publicJwk = { ...(await exportJWK(pair.publicKey)), kid: "k1", alg: "RS256", use: "sig" };
});

const servers: Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

async function jwksServer(): Promise<JwksServer> {
  const server = createServer();
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const state: JwksServer = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks`,
    requests: 0,
    mode: "ok",
    keys: [publicJwk],
  };
  server.on("request", (_request, response) => {
    state.requests++;
    if (state.mode === "hang") return;
    if (state.mode === "fail") return void response.writeHead(500).end();
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ keys: state.keys }));
  });
  return state;
}

function token(kid = "k1"): Promise<string> {
  return new SignJWT({ scope: "notes:read" })
    .setProtectedHeader({ alg: "RS256", kid })
    .setIssuer(issuer)
    .setSubject("ann")
    .setAudience(resource)
    .setIssuedAt()
    .setExpirationTime("5m")
    .sign(privateKey);
}

/** A tools/list through a protected handler; resolves with the status and the Retry-After. */
function protectedHandler(options: Partial<JwtVerifierOptions> & { jwksUri: string }) {
  const handler = createWebHandler(createNotesServer(handlers), {
    allowedHosts: ["notes.example.com"],
    auth: { resource, authorizationServers: [issuer], verifyToken: jwtVerifier({ issuer, ...options }) },
  });
  const _meta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
  };
  return async (jwt: string): Promise<{ status: number; retryAfter: string | null }> => {
    const response = await handler(
      new Request(resource, {
        method: "POST",
        headers: {
          host: "notes.example.com",
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2026-07-28",
          "mcp-method": "tools/list",
          authorization: `Bearer ${jwt}`,
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta } }),
      }),
    );
    await response.body?.cancel();
    return { status: response.status, retryAfter: response.headers.get("retry-after") };
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("jwtVerifier's key cache", () => {
  it("keeps serving a cached key set while refreshing it hangs, and uses the server again once it answers", async () => {
    const jwks = await jwksServer();
    const call = protectedHandler({ jwksUri: jwks.url, cacheMaxAgeSeconds: 1, maxStaleSeconds: 60, timeoutSeconds: 1 });
    const jwt = await token();
    expect((await call(jwt)).status).toBe(200);
    expect(jwks.requests).toBe(1);
    jwks.mode = "hang";
    await sleep(1100);
    // Stale now: served from the cache while the refresh waits for an answer that never comes.
    for (let i = 0; i < 20; i++) expect((await call(jwt)).status).toBe(200);
    expect(jwks.requests).toBe(2);
    // The server recovers with a rotated key: after the failed refresh's backoff, it is fetched again.
    const rotated = await generateKeyPair("RS256", { extractable: true });
    jwks.keys = [{ ...(await exportJWK(rotated.publicKey)), kid: "k2", alg: "RS256", use: "sig" }];
    jwks.mode = "ok";
    await sleep(2500);
    await call(jwt); // starts the refresh; the stale set answers this one
    await vi.waitFor(() => expect(jwks.requests).toBe(3));
    // Once that refresh has landed, k1 is no longer published.
    await vi.waitFor(async () => expect((await call(jwt)).status).toBe(401));
  });

  it("answers 503 with Retry-After once the stale bound has passed and the server still fails", async () => {
    const jwks = await jwksServer();
    const call = protectedHandler({ jwksUri: jwks.url, cacheMaxAgeSeconds: 1, maxStaleSeconds: 0, timeoutSeconds: 1 });
    const jwt = await token();
    expect((await call(jwt)).status).toBe(200);
    jwks.mode = "fail";
    await sleep(1100);
    const refused = await Promise.all(Array.from({ length: 50 }, () => call(jwt)));
    for (const answer of refused) {
      expect(answer.status).toBe(503);
      expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
    }
    // One refetch for the 50, and the failure is remembered.
    expect(jwks.requests).toBe(2);
    expect((await call(jwt)).status).toBe(503);
    expect(jwks.requests).toBe(2);
  });

  it("refetches at most once per cooldown for a storm of unknown key ids", async () => {
    const jwks = await jwksServer();
    const call = protectedHandler({ jwksUri: jwks.url, cooldownSeconds: 3 });
    const storm = await Promise.all(Array.from({ length: 100 }, () => token(crypto.randomUUID())));
    expect((await call(await token())).status).toBe(200);
    await sleep(3100);
    const answers = await Promise.all(storm.map((jwt) => call(jwt)));
    expect(answers.every((answer) => answer.status === 401)).toBe(true);
    expect(jwks.requests).toBe(2);
  });

  it("does not refetch for every unknown key id while the key server fails", async () => {
    const jwks = await jwksServer();
    const call = protectedHandler({ jwksUri: jwks.url, cooldownSeconds: 3 });
    const storm = await Promise.all(Array.from({ length: 100 }, () => token(crypto.randomUUID())));
    expect((await call(await token())).status).toBe(200);
    jwks.mode = "fail";
    await sleep(3100);
    for (const jwt of storm) await call(jwt);
    expect(jwks.requests).toBe(2);
    // Known keys are still served from the cache meanwhile.
    expect((await call(await token())).status).toBe(200);
  });
});
