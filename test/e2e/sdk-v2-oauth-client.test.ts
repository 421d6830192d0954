// The official SDK v2 client (@modelcontextprotocol/client) with its own OAuth machinery
// against the notes example, a protected MCP server, and a real authorization server
// (oidc-provider, test/support/authorization-server.ts): 401 → RFC 9728 discovery → RFC 8414
// metadata → dynamic client registration → authorization code + PKCE S256 with a resource
// indicator → token, then tools; then a 403 insufficient_scope on add_note and the SDK's
// step-up. Both eras: 2026-07-28 (versionNegotiation "auto": server/discover, no handshake)
// and 2025-11-25 (the SDK's default: initialize).
//
// The OAuthClientProvider is an in-memory host: redirectToAuthorization plays the user with
// approve() and keeps the callback URL (the client's redirect_uri, never requested) as the
// browser would deliver it; the host checks `state` itself (the SDK does not) and hands the
// callback's parameters to transport.finishAuth(), the SDK's documented pattern.
//
// Step-up finding (see the last test of each era): the SDK registers the client with
// `scope` = the scope it first selected ("notes:read offline_access", from the 401 challenge),
// and on the 403 asks for "notes:read notes:write offline_access" under that same
// registration. RFC 7591 §2 defines a registration's `scope` as the scopes the client can use
// when requesting tokens, and this AS enforces it: the step-up authorization request comes
// back with error=invalid_scope. The SDK has no recovery for that (the refusal arrives on the
// redirect, not through the SDK), so the host drops the stored registration (as
// invalidateCredentials("client") would) and the SDK's next step-up registers anew with the
// union scope and succeeds. The test asserts both halves so that a change in the SDK's
// behaviour shows up here. In the legacy era the session survives the new
// registration: the server binds a session to the subject (user) of the token that opened it.
import {
  Client,
  StreamableHTTPClientTransport,
  UnauthorizedError,
  type FetchLike,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
} from "@modelcontextprotocol/client";
import { decodeJwt, decodeProtectedHeader } from "jose";
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AuthorizationRefusedError,
  startAuthorizationServer,
  type AuthorizationServer,
} from "../support/authorization-server.js";
import { repoRoot } from "../support/paths.js";
import { firstText, startHttpServer, stopAllChildren, type HttpServerProcess } from "./helpers.js";

const notesMain = join(repoRoot, "examples", "notes", "src", "main.ts");
/** Nothing listens there: approve() returns the redirect instead of following it. */
const redirectUri = "http://127.0.0.1:33418/callback";

let as: AuthorizationServer;
let notes: HttpServerProcess;
/** The notes server's URL, which is its resource identifier. */
let resource: string;
let metadataUrl: string;

beforeAll(async () => {
  as = await startAuthorizationServer({ scopes: ["notes:read", "notes:write"] });
  notes = await startHttpServer(notesMain, "--issuer", as.issuer, "--port", "0");
  resource = notes.url;
  metadataUrl = `${new URL(resource).origin}/.well-known/oauth-protected-resource/mcp`;
  as.setResource(resource);
}, 60_000);
afterAll(async () => {
  await stopAllChildren();
  await as?.close();
});

/** One HTTP exchange the SDK made (MCP server and authorization server alike). */
interface Exchange {
  readonly method: string;
  readonly url: URL;
  readonly requestBody: string | undefined;
  readonly authorization: string | null;
  readonly sessionId: string | null;
  readonly status: number;
  readonly wwwAuthenticate: string | null;
}

/** The transport's fetch (it is used for the MCP requests and the SDK's OAuth requests). */
function recordingFetch(log: Exchange[]): FetchLike {
  return async (input, init) => {
    const response = await fetch(input, init);
    const headers = new Headers(init?.headers);
    log.push({
      method: init?.method ?? "GET",
      url: new URL(input),
      requestBody:
        typeof init?.body === "string"
          ? init.body
          : init?.body instanceof URLSearchParams
            ? init.body.toString()
            : undefined,
      authorization: headers.get("authorization"),
      sessionId: headers.get("mcp-session-id"),
      status: response.status,
      wwwAuthenticate: response.headers.get("www-authenticate"),
    });
    return response;
  };
}

/** An in-memory OAuth host for one user: everything the SDK asks it to keep, plus what the "browser" saw. */
class InMemoryOAuthHost implements OAuthClientProvider {
  registration: StoredOAuthClientInformation | undefined;
  saved: StoredOAuthTokens | undefined;
  private verifier: string | undefined;
  private discovery: OAuthDiscoveryState | undefined;
  /** Every authorization URL the SDK sent the user to, and the callback URL each one ended at. */
  readonly authorizations: { url: URL; state: string | undefined; callback: URL }[] = [];
  private readonly states: string[] = [];

  constructor(readonly user: string) {}

  get redirectUrl(): string {
    return redirectUri;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "sdk-v2-oauth-e2e",
      redirect_uris: [redirectUri],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }
  state(): string {
    const state = randomUUID();
    this.states.push(state);
    return state;
  }
  clientInformation(): StoredOAuthClientInformation | undefined {
    return this.registration;
  }
  saveClientInformation(information: StoredOAuthClientInformation): void {
    this.registration = information;
  }
  tokens(): StoredOAuthTokens | undefined {
    return this.saved;
  }
  saveTokens(tokens: StoredOAuthTokens): void {
    this.saved = tokens;
  }
  async redirectToAuthorization(url: URL): Promise<void> {
    let callback: URL;
    try {
      callback = await as.approve(url, this.user);
    } catch (error) {
      // A refusal the AS redirects back with reaches the host's callback, like a code would.
      if (error instanceof AuthorizationRefusedError && error.redirect) callback = error.redirect;
      else throw error;
    }
    this.authorizations.push({ url, state: this.states.at(-1), callback });
  }
  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }
  codeVerifier(): string {
    if (this.verifier === undefined) throw new Error("no PKCE code verifier saved");
    return this.verifier;
  }
  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.discovery = state;
  }
  discoveryState(): OAuthDiscoveryState | undefined {
    return this.discovery;
  }
  invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): void {
    if (scope === "all" || scope === "client") this.registration = undefined;
    if (scope === "all" || scope === "tokens") this.saved = undefined;
    if (scope === "all" || scope === "verifier") this.verifier = undefined;
    if (scope === "all" || scope === "discovery") this.discovery = undefined;
  }

  /** The callback of the latest authorization, after checking its state (the SDK leaves that to the host). */
  lastCallback(): URLSearchParams {
    const last = this.authorizations.at(-1);
    if (!last) throw new Error("no authorization happened");
    expect(last.callback.origin + last.callback.pathname).toBe(redirectUri);
    expect(last.callback.searchParams.get("state")).toBe(last.state);
    expect(last.callback.searchParams.get("iss")).toBe(as.issuer);
    return last.callback.searchParams;
  }
}

const scopesOf = (value: unknown) => (typeof value === "string" ? value.split(" ").filter(Boolean).sort() : []);
const accessTokenClaims = (host: InMemoryOAuthHost) => {
  if (!host.saved) throw new Error("the SDK saved no tokens");
  return decodeJwt(host.saved.access_token);
};
const formOf = (exchange: Exchange | undefined) => new URLSearchParams(exchange?.requestBody ?? "");
const jsonOf = (exchange: Exchange | undefined) =>
  JSON.parse(exchange?.requestBody ?? "null") as Record<string, unknown>;

type Mode = "auto" | "legacy";

describe.each<[Mode, string]>([
  ["auto", "alice"],
  ["legacy", "bob"],
])("SDK v2 client with its OAuth provider → protected notes server, versionNegotiation %s", (mode, user) => {
  const modern = mode === "auto";
  const log: Exchange[] = [];
  const host = new InMemoryOAuthHost(user);
  const newTransport = () =>
    new StreamableHTTPClientTransport(new URL(resource), { authProvider: host, fetch: recordingFetch(log) });
  const newClient = () => new Client({ name: "e2e-sdk-v2-oauth", version: "2.0.0" }, { versionNegotiation: { mode } });
  let client: Client | undefined;
  const connected = () => {
    if (!client) throw new Error("not connected");
    return client;
  };
  const exchangesTo = (path: string, from = 0) => log.slice(from).filter((e) => e.url.pathname === path);

  afterAll(async () => {
    await client?.close().catch(() => {});
  });

  it("connect needs authorization: UnauthorizedError, then finishAuth and a new transport connect, with an RS256 JWT for this server", async () => {
    const first = newClient();
    const transport = newTransport();
    await expect(first.connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
    await first.close().catch(() => {});

    // What led there: 401 with the challenge, RFC 9728 then RFC 8414 discovery, registration, one authorization.
    expect(log[0]).toMatchObject({
      method: "POST",
      status: 401,
      authorization: null,
      wwwAuthenticate: `Bearer scope="notes:read", resource_metadata="${metadataUrl}"`,
    });
    expect(jsonOf(log[0]).method).toBe(modern ? "server/discover" : "initialize");
    expect(log.slice(1, 4).map((e) => `${e.method} ${e.url.href} ${e.status}`)).toEqual([
      `GET ${metadataUrl} 200`,
      `GET ${as.issuer}/.well-known/oauth-authorization-server 200`,
      `POST ${as.issuer}/reg 201`,
    ]);
    expect(jsonOf(log[3])).toMatchObject({
      redirect_uris: [redirectUri],
      grant_types: ["authorization_code", "refresh_token"],
      token_endpoint_auth_method: "none",
      // The scope selected from the 401 challenge, plus offline_access (the AS supports it and the client registers refresh_token).
      scope: "notes:read offline_access",
    });
    expect(host.authorizations).toHaveLength(1);
    const authorization = host.authorizations[0]!.url;
    expect(Object.fromEntries(authorization.searchParams)).toMatchObject({
      response_type: "code",
      client_id: host.registration?.client_id,
      code_challenge_method: "S256",
      redirect_uri: redirectUri,
      scope: "notes:read offline_access",
      resource,
    });
    expect(authorization.searchParams.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(host.saved).toBeUndefined();

    const beforeToken = log.length;
    await transport.finishAuth(host.lastCallback());
    const [tokenRequest, ...others] = log.slice(beforeToken);
    expect(others).toEqual([]);
    expect(tokenRequest).toMatchObject({ method: "POST", status: 200 });
    expect(tokenRequest!.url.href).toBe(`${as.issuer}/token`);
    expect(Object.fromEntries(formOf(tokenRequest))).toMatchObject({
      grant_type: "authorization_code",
      redirect_uri: redirectUri,
      resource,
      client_id: host.registration?.client_id,
    });
    expect(formOf(tokenRequest).get("code_verifier")).toMatch(/^[A-Za-z0-9._~-]{43,128}$/);

    expect(decodeProtectedHeader(host.saved!.access_token)).toMatchObject({ alg: "RS256", typ: "at+jwt" });
    const claims = accessTokenClaims(host);
    expect(claims).toMatchObject({ iss: as.issuer, aud: resource, sub: user, client_id: host.registration?.client_id });
    expect(scopesOf(claims.scope)).toEqual(["notes:read"]);
    expect(scopesOf(host.saved?.scope)).toEqual(["notes:read"]);
    expect(host.saved?.refresh_token).toEqual(expect.any(String));

    const beforeConnect = log.length;
    client = newClient();
    await client.connect(newTransport());
    expect(client.getProtocolEra()).toBe(modern ? "modern" : "legacy");
    expect(client.getNegotiatedProtocolVersion()).toBe(modern ? "2026-07-28" : "2025-11-25");
    expect(client.getServerVersion()).toMatchObject({ name: "notes", version: "1.0.0" });
    // Every request now carries the token, and nothing is refused.
    const mcp = exchangesTo("/mcp", beforeConnect);
    expect(mcp.length).toBeGreaterThan(0);
    for (const exchange of mcp) {
      expect(exchange.authorization).toBe(`Bearer ${host.saved!.access_token}`);
      expect(exchange.status).toBeLessThan(300);
    }
  });

  it("lists the tools", async () => {
    const { tools } = await connected().listTools();
    expect(tools.map((t) => t.name)).toEqual(["list_notes", "add_note", "delete_note"]);
  });

  it("calls list_notes with the notes:read token", async () => {
    const result = await connected().callTool({ name: "list_notes", arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(firstText(result.content)).toBe("No notes yet.");
  });

  it("steps up on add_note's 403 insufficient_scope: refused under the first registration's scope, then granted notes:read + notes:write", async () => {
    const c = connected();
    const firstRegistration = host.registration!.client_id;
    const firstToken = host.saved!.access_token;
    const start = log.length;

    // 1. The SDK gets the 403 and re-runs authorization with the union of scopes, forcing a new
    //    authorization request (a refresh cannot widen scope) under the same registration.
    await expect(c.callTool({ name: "add_note", arguments: { text: `milk (${mode})` } })).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
    const refused = log.slice(start);
    expect(refused[0]).toMatchObject({ method: "POST", status: 403, authorization: `Bearer ${firstToken}` });
    expect(refused[0]!.wwwAuthenticate).toBe(
      `Bearer error="insufficient_scope", error_description="this call needs scope notes:read notes:write", scope="notes:read notes:write", resource_metadata="${metadataUrl}"`,
    );
    expect(jsonOf(refused[0])).toMatchObject({ method: "tools/call", params: { name: "add_note" } });
    // No refresh-token request and no new registration: discovery state came from the host.
    expect(refused.slice(1).filter((e) => e.url.origin === as.issuer && e.method === "POST")).toEqual([]);
    expect(host.authorizations).toHaveLength(2);
    const stepUp = host.authorizations[1]!;
    expect(Object.fromEntries(stepUp.url.searchParams)).toMatchObject({
      client_id: firstRegistration,
      scope: "notes:read notes:write offline_access",
      resource,
      code_challenge_method: "S256",
    });
    // ...which this AS refuses, since the client registered scope "notes:read offline_access" (RFC 7591 §2).
    const refusal = host.lastCallback();
    expect(refusal.get("error")).toBe("invalid_scope");
    expect(refusal.get("code")).toBeNull();
    expect(host.saved?.access_token).toBe(firstToken);

    // 2. The host drops the registration that no longer fits; the SDK's next step-up registers
    //    again, with the union scope, and the authorization goes through.
    host.invalidateCredentials("client");
    const retry = log.length;
    await expect(c.callTool({ name: "add_note", arguments: { text: `milk (${mode})` } })).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
    expect(log[retry]).toMatchObject({ status: 403, authorization: `Bearer ${firstToken}` });
    const registrations = exchangesTo("/reg", retry);
    expect(registrations).toHaveLength(1);
    expect(jsonOf(registrations[0])).toMatchObject({
      scope: "notes:read notes:write offline_access",
      grant_types: ["authorization_code", "refresh_token"],
      token_endpoint_auth_method: "none",
    });
    expect(host.registration?.client_id).not.toBe(firstRegistration);
    expect(host.authorizations).toHaveLength(3);
    expect(Object.fromEntries(host.authorizations[2]!.url.searchParams)).toMatchObject({
      client_id: host.registration?.client_id,
      scope: "notes:read notes:write offline_access",
      resource,
    });
    await (c.transport as StreamableHTTPClientTransport).finishAuth(host.lastCallback());

    const claims = accessTokenClaims(host);
    expect(host.saved?.access_token).not.toBe(firstToken);
    expect(claims).toMatchObject({ iss: as.issuer, aud: resource, sub: user });
    expect(scopesOf(claims.scope)).toEqual(["notes:read", "notes:write"]);

    // 3. The call again, with the new token: in the legacy era on the same session, which
    //    belongs to the user (subject), whichever of the user's clients holds the token.
    const session = c;
    const added = await session.callTool({ name: "add_note", arguments: { text: `milk (${mode})` } });
    expect(added.isError).toBeFalsy();
    expect(firstText(added.content)).toMatch(/^Added note \d+\.$/);
    expect(log.at(-1)).toMatchObject({ status: 200, authorization: `Bearer ${host.saved!.access_token}` });
    const listed = await session.callTool({ name: "list_notes", arguments: {} });
    const id = /^Added note (\d+)\.$/.exec(firstText(added.content))![1]!;
    expect(firstText(listed.content)).toBe(`${id}: milk (${mode})`);

    // delete_note (notes:write too) needs no further authorization.
    const deleted = await session.callTool({ name: "delete_note", arguments: { id: Number(id) } });
    expect(firstText(deleted.content)).toBe(`Deleted note ${id}.`);
    expect(host.authorizations).toHaveLength(3);
  });
});
