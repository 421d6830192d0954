// Interop, OAuth: our client (httpChannel + @mcp-gen/runtime/oauth) against a server built with
// the official SDK v2 (@modelcontextprotocol/server) and protected by the SDK's own bearer gate
// (requireBearerAuth, requiredScopes notes:read, audience = the server's URL) and per-tool scope
// challenge (requireScopes("notes:write") on write_note), with its RFC 9728 metadata served by
// the SDK's helper; tokens come from a real authorization server (oidc-provider,
// test/support/authorization-server.ts). Everything the client needs it discovers from the
// SDK server's 401; the only manual step is the user's approval. In both eras the SDK serves:
// 2026-07-28 (stateless) and 2025-11-25 (initialize, through its stateless legacy fallback).
import { join } from "node:path";
import { decodeJwt, decodeProtectedHeader } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ClientSession, httpChannel } from "@mcp-gen/runtime";
import { memoryStore, oauth, OAuthError } from "@mcp-gen/runtime/oauth";
import { startAuthorizationServer, type AuthorizationServer } from "../support/authorization-server.js";
import { repoRoot } from "../support/paths.js";
import { firstText, startHttpServer, stopAllChildren, type HttpServerProcess } from "./helpers.js";

const sdkV2ProtectedServer = join(repoRoot, "test", "e2e", "fixtures", "sdk-v2-protected-server.ts");
const redirectUri = "http://127.0.0.1:8977/callback";

let as: AuthorizationServer;
let mcp: HttpServerProcess;

beforeAll(async () => {
  as = await startAuthorizationServer({ scopes: ["notes:read", "notes:write"] });
  mcp = await startHttpServer(sdkV2ProtectedServer, "--issuer", as.issuer, "--port", "0");
  as.setResource(mcp.url);
}, 60_000);

afterAll(async () => {
  await stopAllChildren();
  await as?.close();
});

/** One HTTP exchange the client made (MCP server or authorization server). */
interface Exchange {
  readonly method: string;
  readonly url: string;
  /** The Authorization header the client sent, if any. */
  readonly authorization: string | null;
  /** grant_type of a token request. */
  readonly grant: string | undefined;
  readonly status: number;
  readonly wwwAuthenticate: string | null;
}

/** A fetch that records every exchange, for both httpChannel and the OAuth client. */
function recorder(): { fetch: typeof fetch; log: Exchange[] } {
  const log: Exchange[] = [];
  const recording: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const body = init?.body;
    const text = body instanceof URLSearchParams ? body.toString() : typeof body === "string" ? body : "";
    const grant = text.includes("grant_type=") ? (new URLSearchParams(text).get("grant_type") ?? undefined) : undefined;
    const response = await fetch(input, init);
    log.push({
      method: request.method,
      url: request.url,
      authorization: request.headers.get("authorization"),
      grant,
      status: response.status,
      wwwAuthenticate: response.headers.get("www-authenticate"),
    });
    return response;
  };
  return { fetch: recording, log };
}

/** The bearer tokens the client sent the MCP server, in order. */
const bearers = (log: readonly Exchange[]) =>
  log
    .filter((e) => e.url.startsWith(mcp.url) && e.authorization !== null)
    .map((e) => e.authorization!.replace(/^Bearer /, ""));

const whoami = async (session: ClientSession) => {
  const result = await session.rawRequest("tools/call", { name: "whoami", arguments: {} });
  return JSON.parse(firstText(result.content)) as {
    subject: string;
    clientId: string;
    scopes: string[];
    resource: string;
  };
};

for (const revision of ["2026-07-28", "2025-11-25"] as const) {
  describe(`our OAuth client → SDK v2 server behind requireBearerAuth (${revision})`, () => {
    const { fetch: observed, log } = recorder();
    const approvals: URL[] = [];
    const store = memoryStore();
    let session: ClientSession;

    afterAll(() => session?.close());

    it("connects: the SDK's 401, RFC 9728 + RFC 8414 discovery, registration, code + PKCE + resource, token", async () => {
      const auth = oauth({
        redirectUri,
        clientName: `interop with SDK v2 (${revision})`,
        redirectToAuthorization: async (url) => {
          approvals.push(url);
          return as.approve(url, "alice");
        },
        store,
        fetch: observed,
      });
      session = await ClientSession.connect(httpChannel(mcp.url, { auth, fetch: observed }), {
        revisions: [revision],
        timeoutMs: 10_000,
      });
      expect(session.revision).toBe(revision);
      expect(session.era).toBe(revision === "2026-07-28" ? "modern" : "legacy");

      // The order of the flow, as MCP authorization prescribes it.
      const resourceMetadataUrl = `${new URL(mcp.url).origin}/.well-known/oauth-protected-resource/mcp`;
      const first = log[0]!;
      expect(first).toMatchObject({ method: "POST", url: mcp.url, authorization: null, status: 401 });
      // The SDK gate's challenge: the scope every request needs, and where its metadata is.
      expect(first.wwwAuthenticate).toContain(`resource_metadata="${resourceMetadataUrl}"`);
      expect(first.wwwAuthenticate).toContain(`scope="notes:read"`);
      const steps = log.map(
        (e) =>
          `${e.method} ${e.url.replace(mcp.url, "<mcp>").replace(new URL(mcp.url).origin, "<rs>").replace(as.issuer, "<as>")} ${e.status}`,
      );
      const index = (prefix: string) => steps.findIndex((s) => s.startsWith(prefix));
      expect(index("GET <rs>/.well-known/oauth-protected-resource/mcp 200")).toBe(1);
      expect(index("GET <as>/.well-known/oauth-authorization-server 200")).toBe(2);
      expect(index("POST <as>/reg 201")).toBe(3);
      const tokenRequest = log.findIndex((e) => e.grant === "authorization_code");
      expect(tokenRequest).toBe(4);
      expect(log[tokenRequest]!.status).toBe(200);
      // Then the MCP request again, with the token, and it goes through.
      expect(log[5]).toMatchObject({ method: "POST", url: mcp.url, status: 200 });
      expect(log[5]!.authorization).toMatch(/^Bearer /);

      expect(approvals).toHaveLength(1);
      const authorization = approvals[0]!;
      expect(authorization.origin).toBe(as.issuer);
      expect(authorization.searchParams.get("resource")).toBe(mcp.url);
      expect(authorization.searchParams.get("response_type")).toBe("code");
      expect(authorization.searchParams.get("code_challenge_method")).toBe("S256");
      expect(authorization.searchParams.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(authorization.searchParams.get("redirect_uri")).toBe(redirectUri);
      expect(authorization.searchParams.get("scope")?.split(" ").sort()).toEqual(["notes:read", "offline_access"]);

      // The access token: an RFC 9068 JWT for exactly the SDK server's URL.
      const token = bearers(log).at(-1)!;
      expect(decodeProtectedHeader(token).typ).toBe("at+jwt");
      const claims = decodeJwt(token);
      expect(claims.aud).toBe(mcp.url);
      expect(claims.iss).toBe(as.issuer);
      expect(claims.sub).toBe("alice");
      expect(String(claims.scope).split(" ")).toEqual(["notes:read"]);
      const stored = await store.tokens({ issuer: as.issuer, resource: mcp.url });
      expect(stored?.access_token).toBe(token);
    });

    it("calls whoami: the SDK handler's authInfo is alice's token, as the SDK gate verified it", async () => {
      const me = await whoami(session);
      expect(me.subject).toBe("alice");
      const token = decodeJwt(bearers(log).at(-1)!);
      expect(me.clientId).toBe(token.client_id);
      expect(me.clientId).toBeTruthy();
      expect(me.scopes).toEqual(["notes:read"]);
      expect(me.resource).toBe(mcp.url);
      expect((await session.listAll("tools/list", "tools")).map((t) => t.name).sort()).toEqual([
        "whoami",
        "write_note",
      ]);
    });

    it("steps up on the SDK's per-tool 403 insufficient_scope, and write_note succeeds", async () => {
      const before = log.length;
      const result = await session.rawRequest("tools/call", {
        name: "write_note",
        arguments: { text: "hello from mcp-gen" },
      });
      expect(result.isError).toBeFalsy();
      expect(firstText(result.content)).toMatch(/^Note \d+ written by alice\.$/);

      const challenge = log.slice(before).find((e) => e.status === 403);
      expect(challenge?.wwwAuthenticate).toContain(`error="insufficient_scope"`);
      expect(challenge?.wwwAuthenticate).toContain(`scope="notes:write"`);
      expect(approvals).toHaveLength(2);
      // The SDK challenges with notes:write only; the client asks for it on top of what it had.
      expect(approvals[1]!.searchParams.get("scope")?.split(" ").sort()).toEqual([
        "notes:read",
        "notes:write",
        "offline_access",
      ]);
      expect(approvals[1]!.searchParams.get("resource")).toBe(mcp.url);
      const token = decodeJwt(bearers(log).at(-1)!);
      expect(token.aud).toBe(mcp.url);
      expect(String(token.scope).split(" ").sort()).toEqual(["notes:read", "notes:write"]);
      // The stepped-up token still passes the endpoint's notes:read gate.
      expect((await whoami(session)).scopes.sort()).toEqual(["notes:read", "notes:write"]);
      expect(approvals).toHaveLength(2);
      // No registration again: one client per authorization server.
      expect(log.filter((e) => e.url === `${as.issuer}/reg`)).toHaveLength(1);
    });
  });
}

describe("our OAuth client → SDK v2 server, the user denies", () => {
  for (const revision of ["2026-07-28", "2025-11-25"] as const) {
    it(`fails to connect with a clear error and sends no token (${revision})`, async () => {
      const { fetch: observed, log } = recorder();
      const denials: URL[] = [];
      const auth = oauth({
        redirectUri,
        redirectToAuthorization: async (url) => {
          denials.push(url);
          return as.deny(url, "carol");
        },
        fetch: observed,
      });
      const error = await ClientSession.connect(httpChannel(mcp.url, { auth, fetch: observed }), {
        revisions: [revision],
        timeoutMs: 10_000,
      }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(OAuthError);
      expect(String((error as Error).message)).toMatch(/access_denied/);
      expect(denials).toHaveLength(1);
      // No token request, and nothing with a token reached the MCP server.
      expect(log.some((e) => e.grant !== undefined)).toBe(false);
      expect(log.filter((e) => e.url.startsWith(mcp.url)).every((e) => e.authorization === null)).toBe(true);
      expect(log.filter((e) => e.url.startsWith(mcp.url) && e.method === "POST")).toHaveLength(1);
    });
  }
});
