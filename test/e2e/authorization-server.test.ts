// Self-test of the test harness in test/support/authorization-server.ts: a real oidc-provider on
// loopback, driven over HTTP the way an MCP client would (DCR, authorization code + PKCE S256,
// resource indicators, refresh), with the access tokens verified by jose against the AS's JWKS.
import { createHash, randomBytes } from "node:crypto";
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AuthorizationRefusedError,
  startAuthorizationServer,
  type AuthorizationServer,
} from "../support/authorization-server.js";

const resource = "http://127.0.0.1:9/mcp";
const redirectUri = "http://127.0.0.1:33418/callback";

interface Metadata {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  registration_endpoint: string;
  jwks_uri: string;
  scopes_supported: string[];
  code_challenge_methods_supported: string[];
  authorization_response_iss_parameter_supported: boolean;
  token_endpoint_auth_methods_supported: string[];
}
interface TokenResponse {
  access_token: string;
  token_type: string;
  expires_in: number;
  scope?: string;
  refresh_token?: string;
}
interface Registered {
  client_id: string;
  client_secret?: string;
}

const base64url = (bytes: Buffer) => bytes.toString("base64url");
function pkce(): { verifier: string; challenge: string } {
  const verifier = base64url(randomBytes(32));
  return { verifier, challenge: base64url(createHash("sha256").update(verifier).digest()) };
}

let as: AuthorizationServer;
let metadata: Metadata;

beforeAll(async () => {
  as = await startAuthorizationServer({ scopes: ["notes:read", "notes:write"], accessTokenTtl: 120 });
  // The MCP server's port is usually known only after the AS started.
  as.setResource(resource);
  metadata = (await (await fetch(`${as.issuer}/.well-known/oauth-authorization-server`)).json()) as Metadata;
});
afterAll(async () => {
  await as?.close();
});

async function register(body: Record<string, unknown>): Promise<Registered> {
  const res = await fetch(metadata.registration_endpoint, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as Registered;
}

const registerPublic = () =>
  register({
    client_name: "self-test",
    redirect_uris: [redirectUri],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
  });

function authorizationUrl(clientId: string, scope: string, challenge: string, state: string): URL {
  const url = new URL(metadata.authorization_endpoint);
  url.search = new URLSearchParams({
    response_type: "code",
    client_id: clientId,
    redirect_uri: redirectUri,
    scope,
    state,
    code_challenge: challenge,
    code_challenge_method: "S256",
    resource,
  }).toString();
  return url;
}

async function token(params: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(metadata.token_endpoint, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(params),
  });
}

async function verify(accessToken: string): Promise<JWTPayload> {
  const { payload } = await jwtVerify(accessToken, createRemoteJWKSet(new URL(as.jwksUri)), {
    issuer: as.issuer,
    audience: resource,
  });
  return payload;
}

/** Approves `scope` for the client and exchanges the code. */
async function authorize(clientId: string, scope: string): Promise<TokenResponse> {
  const { verifier, challenge } = pkce();
  const state = base64url(randomBytes(8));
  const redirect = await as.approve(authorizationUrl(clientId, scope, challenge, state));
  expect(`${redirect.origin}${redirect.pathname}`).toBe(redirectUri);
  expect(redirect.searchParams.get("state")).toBe(state);
  expect(redirect.searchParams.get("iss")).toBe(as.issuer);
  const code = redirect.searchParams.get("code");
  expect(code).toBeTruthy();
  const res = await token({
    grant_type: "authorization_code",
    code: code!,
    redirect_uri: redirectUri,
    client_id: clientId,
    code_verifier: verifier,
    resource,
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as TokenResponse;
}

describe("authorization server harness (oidc-provider)", () => {
  it("serves RFC 8414 metadata (and the OpenID discovery document) with what MCP clients need", async () => {
    expect(metadata.issuer).toBe(as.issuer);
    expect(as.issuer).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(metadata.jwks_uri).toBe(as.jwksUri);
    expect(metadata.code_challenge_methods_supported).toEqual(["S256"]);
    expect(metadata.authorization_response_iss_parameter_supported).toBe(true);
    expect(metadata.registration_endpoint).toBe(`${as.issuer}/reg`);
    expect(metadata.scopes_supported).toEqual(
      expect.arrayContaining(["openid", "offline_access", "notes:read", "notes:write"]),
    );
    expect(metadata.token_endpoint_auth_methods_supported).toEqual(
      expect.arrayContaining(["none", "client_secret_basic", "client_secret_post"]),
    );
    const openid = (await (await fetch(`${as.issuer}/.well-known/openid-configuration`)).json()) as Metadata;
    expect(openid).toEqual(metadata);
  });

  it("registers a public client, approves, exchanges the code with PKCE and resource, and refreshes", async () => {
    const client = await registerPublic();
    expect(client.client_secret).toBeUndefined();

    const tokens = await authorize(client.client_id, "notes:read unknown:scope");
    expect(tokens.token_type).toBe("Bearer");
    expect(tokens.refresh_token).toBeTruthy();
    // Unknown scopes are dropped, not refused.
    expect(tokens.scope).toBe("notes:read");

    const claims = await verify(tokens.access_token);
    expect(claims.scope).toBe("notes:read");
    expect(claims.sub).toBe("alice");
    expect(claims.aud).toBe(resource);
    expect(claims.client_id).toBe(client.client_id);
    expect(typeof claims.iat).toBe("number");
    expect(claims.exp! - claims.iat!).toBe(120);

    const refreshed = await token({
      grant_type: "refresh_token",
      refresh_token: tokens.refresh_token!,
      client_id: client.client_id,
      resource,
    });
    expect(refreshed.status, await refreshed.clone().text()).toBe(200);
    const again = (await refreshed.json()) as TokenResponse;
    expect(again.access_token).not.toBe(tokens.access_token);
    // Public clients get a rotated refresh token.
    expect(again.refresh_token).toBeTruthy();
    expect(again.refresh_token).not.toBe(tokens.refresh_token);
    const refreshedClaims = await verify(again.access_token);
    expect(refreshedClaims.scope).toBe("notes:read");
    expect(refreshedClaims.sub).toBe("alice");

    // Without the resource parameter, the refresh keeps the granted resource.
    const implicit = await token({
      grant_type: "refresh_token",
      refresh_token: again.refresh_token!,
      client_id: client.client_id,
    });
    expect(implicit.status, await implicit.clone().text()).toBe(200);
    expect((await verify(((await implicit.json()) as TokenResponse).access_token)).aud).toBe(resource);
  });

  it("refuses a token request with the wrong code_verifier", async () => {
    const client = await registerPublic();
    const { challenge } = pkce();
    const redirect = await as.approve(authorizationUrl(client.client_id, "notes:read", challenge, "s"));
    const res = await token({
      grant_type: "authorization_code",
      code: redirect.searchParams.get("code")!,
      redirect_uri: redirectUri,
      client_id: client.client_id,
      code_verifier: pkce().verifier,
      resource,
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe("invalid_grant");
  });

  it("steps up: a second authorization asking for more scopes is consented to", async () => {
    const client = await registerPublic();
    const first = await authorize(client.client_id, "notes:read");
    expect((await verify(first.access_token)).scope).toBe("notes:read");
    const second = await authorize(client.client_id, "notes:read notes:write");
    expect((await verify(second.access_token)).scope).toBe("notes:read notes:write");
  });

  it("supports confidential clients (client_secret_basic) and other users", async () => {
    const client = await register({
      redirect_uris: [redirectUri],
      grant_types: ["authorization_code", "refresh_token"],
      token_endpoint_auth_method: "client_secret_basic",
      application_type: "web",
    });
    expect(client.client_secret).toBeTruthy();
    const { verifier, challenge } = pkce();
    const redirect = await as.approve(authorizationUrl(client.client_id, "notes:write", challenge, "c"), "bob");
    const basic = `Basic ${Buffer.from(`${encodeURIComponent(client.client_id)}:${encodeURIComponent(client.client_secret!)}`).toString("base64")}`;
    const res = await token(
      {
        grant_type: "authorization_code",
        code: redirect.searchParams.get("code")!,
        redirect_uri: redirectUri,
        code_verifier: verifier,
        resource,
      },
      { authorization: basic },
    );
    expect(res.status, await res.clone().text()).toBe(200);
    const claims = await verify(((await res.json()) as TokenResponse).access_token);
    expect(claims.sub).toBe("bob");
    expect(claims.scope).toBe("notes:write");
  });

  it("accepts scope metadata at registration like MCP SDK clients send, and openid alongside the resource", async () => {
    const client = await register({
      redirect_uris: ["http://localhost:33418/callback", redirectUri],
      grant_types: ["authorization_code", "refresh_token"],
      token_endpoint_auth_method: "none",
      scope: "openid notes:read notes:write",
    });
    const tokens = (await authorize(client.client_id, "openid notes:read")) as TokenResponse & { id_token?: string };
    expect(tokens.id_token).toBeTruthy();
    expect((await verify(tokens.access_token)).scope).toBe("notes:read");

    const bogus = await fetch(metadata.registration_endpoint, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        redirect_uris: [redirectUri],
        token_endpoint_auth_method: "none",
        scope: "notes:read bogus",
      }),
    });
    expect(bogus.status).toBe(400);
    expect(((await bogus.json()) as { error: string }).error).toBe("invalid_client_metadata");
  });

  it("throws the provider's error when it refuses, and deny() returns access_denied", async () => {
    const client = await registerPublic();
    const { challenge } = pkce();
    const unknownResource = authorizationUrl(client.client_id, "notes:read", challenge, "x");
    unknownResource.searchParams.set("resource", "http://127.0.0.1:9/other");
    await expect(as.approve(unknownResource)).rejects.toThrow(/invalid_target/);

    const noPkce = authorizationUrl(client.client_id, "notes:read", challenge, "y");
    noPkce.searchParams.delete("code_challenge");
    noPkce.searchParams.delete("code_challenge_method");
    const error = await as.approve(noPkce).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthorizationRefusedError);
    expect((error as AuthorizationRefusedError).error).toBe("invalid_request");

    const denied = await as.deny(authorizationUrl(client.client_id, "notes:read", challenge, "z"), "carol");
    expect(denied.searchParams.get("error")).toBe("access_denied");
    expect(denied.searchParams.get("state")).toBe("z");
  });
});
