// The web-standard handler of a protected server (what Workers, Deno and Bun run), driven
// in-process with fetch Requests, and the verifyToken hook itself with a verifier of the
// application's own (opaque tokens looked up in a table, as an introspecting server would).
import { describe, expect, it } from "vitest";
import { createWebHandler, InvalidTokenError, type AuthInfo, type VerifyToken } from "@mcp-gen/runtime";
import { handlers } from "../../examples/notes/src/handlers.js";
import { createNotesServer } from "../../examples/notes/src/mcp/index.js";

const resource = "https://notes.example.com/mcp";
const issued: Record<string, AuthInfo> = {
  "reader-token": { subject: "ann", scopes: ["notes:read"], expiresAt: undefined, audience: [resource], claims: {} },
  "other-audience": {
    subject: "ann",
    scopes: ["notes:read"],
    expiresAt: undefined,
    audience: ["https://other.example.com/mcp"],
    claims: {},
  },
  "expired-token": { subject: "ann", scopes: ["notes:read"], expiresAt: 1_000, audience: [resource], claims: {} },
  "no-scopes": { subject: "ann", scopes: [], expiresAt: undefined, audience: [resource], claims: {} },
};
const seen: string[] = [];
const verifyToken: VerifyToken = (token, request) => {
  seen.push(`${request.method} ${request.resource} ${request.header("mcp-method") ?? ""}`);
  if (token === "explode") throw new Error("introspection endpoint unreachable");
  const info = issued[token];
  if (!info) throw new InvalidTokenError("unknown token");
  return info;
};

const handler = createWebHandler(createNotesServer(handlers), {
  allowedHosts: ["notes.example.com"],
  auth: { verifyToken, resource, authorizationServers: ["https://auth.example.com"] },
});

function listTools(authorization?: string): Promise<Response> {
  const headers: Record<string, string> = {
    host: "notes.example.com",
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": "tools/list",
  };
  if (authorization) headers.authorization = authorization;
  const _meta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
  };
  return handler(
    new Request(resource, {
      method: "POST",
      headers,
      body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/list", params: { _meta } }),
    }),
  );
}

const metadataUrl = "https://notes.example.com/.well-known/oauth-protected-resource/mcp";

describe("createWebHandler with auth", () => {
  it("serves the metadata with the configured resource and authorization servers, and answers CORS preflights", async () => {
    const response = await handler(
      new Request(metadataUrl, { headers: { host: "notes.example.com", origin: "https://app.example.org" } }),
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      resource,
      authorization_servers: ["https://auth.example.com"],
      bearer_methods_supported: ["header"],
      scopes_supported: ["notes:read", "notes:write"],
      resource_name: "Notes",
      resource_documentation: "https://github.com/mcp-gen/mcp-gen/blob/main/docs/authorization.md",
    });
    const preflight = await handler(
      new Request(metadataUrl, {
        method: "OPTIONS",
        headers: { host: "notes.example.com", origin: "https://app.example.org" },
      }),
    );
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("behind a proxy that serves /mcp under a prefix, serves the metadata at the public resource's path-based URL too", async () => {
    // https://notes.example.com/notes/mcp is proxied to /mcp; the metadata path comes as clients ask it.
    const prefixed = createWebHandler(createNotesServer(handlers), {
      path: "/mcp",
      allowedHosts: ["notes.example.com"],
      auth: {
        verifyToken,
        resource: "https://notes.example.com/notes/mcp",
        authorizationServers: ["https://auth.example.com"],
      },
    });
    const get = (path: string) =>
      prefixed(
        new Request(`https://notes.example.com/.well-known/oauth-protected-resource${path}`, {
          headers: { host: "notes.example.com" },
        }),
      );
    for (const path of ["/notes/mcp", "/mcp", ""]) {
      const response = await get(path);
      expect(response.status, path).toBe(200);
      expect(((await response.json()) as { resource: string }).resource).toBe("https://notes.example.com/notes/mcp");
    }
    expect((await get("/notes")).status).toBe(404);
    expect((await get("/other/mcp")).status).toBe(404);
  });

  it("still checks the Host of metadata requests", async () => {
    expect((await handler(new Request(metadataUrl, { headers: { host: "evil.example.com" } }))).status).toBe(403);
  });

  it("passes the resource and the request to verifyToken and serves a token it accepts", async () => {
    const response = await listTools("Bearer reader-token");
    expect(response.status).toBe(200);
    expect(seen.at(-1)).toBe(`POST ${resource} tools/list`);
  });

  it("refuses what verifyToken refuses, a token for another audience and an expired one (401)", async () => {
    const cases: [string, string][] = [
      ["Bearer nobody", "unknown token"],
      ["Bearer other-audience", `the token was not issued for ${resource}`],
      ["Bearer expired-token", "the token has expired"],
    ];
    for (const [authorization, description] of cases) {
      const response = await listTools(authorization);
      expect(response.status).toBe(401);
      expect(response.headers.get("www-authenticate")).toBe(
        `Bearer error="invalid_token", error_description="${description}", scope="notes:read", resource_metadata="${metadataUrl}"`,
      );
    }
  });

  it("asks requiredScopes of every request, whatever its method: initialize, ping, a GET stream, a DELETE", async () => {
    const headers = {
      host: "notes.example.com",
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      authorization: "Bearer no-scopes",
    };
    const initialize = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    };
    const requests = [
      new Request(resource, { method: "POST", headers, body: JSON.stringify(initialize) }),
      new Request(resource, {
        method: "POST",
        headers: { ...headers, "mcp-protocol-version": "2026-07-28", "mcp-method": "ping" },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 2,
          method: "ping",
          params: {
            _meta: {
              "io.modelcontextprotocol/protocolVersion": "2026-07-28",
              "io.modelcontextprotocol/clientCapabilities": {},
            },
          },
        }),
      }),
      new Request(resource, { method: "GET", headers: { ...headers, "mcp-session-id": "any" } }),
      new Request(resource, { method: "DELETE", headers: { ...headers, "mcp-session-id": "any" } }),
    ];
    for (const request of requests) {
      const response = await handler(request);
      expect(response.status, request.method).toBe(403);
      expect(response.headers.get("www-authenticate")).toContain('error="insufficient_scope"');
      expect(response.headers.get("www-authenticate")).toContain('scope="notes:read"');
    }
  });

  it("answers 503, never an accept, when the verifier cannot decide", async () => {
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => void errors.push(args);
    try {
      const response = await listTools("Bearer explode");
      expect(response.status).toBe(503);
    } finally {
      console.error = original;
    }
    // The reason is logged, the token is not.
    expect(JSON.stringify(errors)).toContain("introspection endpoint unreachable");
    expect(JSON.stringify(errors)).not.toContain("explode");
  });

  it("refuses to serve a server that declares auth without a verifier", () => {
    expect(() => createWebHandler(createNotesServer(handlers))).toThrow(/declares `auth:`/);
  });

  it("refuses to derive the resource from a Host header nobody checks (allowedHosts: any)", () => {
    expect(() => createWebHandler(createNotesServer(handlers), { allowedHosts: "any", auth: { verifyToken } })).toThrow(
      /set `resource`/,
    );
    expect(() =>
      createWebHandler(createNotesServer(handlers), { allowedHosts: "any", auth: { verifyToken, resource } }),
    ).not.toThrow();
  });
});
