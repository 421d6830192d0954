// A real OAuth 2.1 authorization server (oidc-provider) on 127.0.0.1 for end-to-end tests of MCP
// authorization: dynamic client registration, authorization code + PKCE (S256 only), resource
// indicators (RFC 8707) with JWT access tokens for the protected MCP resource, refresh tokens, and
// an approve() that plays the user over plain HTTP (login + consent, no browser).
//
// Layout: one node:http server. `/interaction/:uid[/login|/consent|/abort]` are our own minimal
// interaction routes (oidc-provider's devInteractions print a warning on start); the RFC 8414
// `/.well-known/oauth-authorization-server` path is rewritten to oidc-provider's
// `/.well-known/openid-configuration`; everything else goes to the provider (a Koa app).
//
// Scope policy: the AS knows `openid`, `offline_access` and `options.scopes`, the latter being the
// resource's scopes: a request with a `resource` parameter naming the configured resource gets a
// JWT access token whose `scope` claim holds the requested ones of them (openid/offline_access are
// not in it). Requested scopes the AS does not know are silently dropped (oidc-provider's
// behaviour: they are never consented to nor granted), not refused. Exception: a client that
// registered a `scope` metadata value is refused (invalid_scope) known scopes outside it; and a
// registration whose `scope` names unknown scopes is refused (invalid_client_metadata).
import { generateKeyPair, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { promisify } from "node:util";

export interface AuthorizationServerOptions {
  /** The protected MCP resource (canonical URI, e.g. http://127.0.0.1:1234/mcp); access tokens are JWTs with this audience. Can also be set later with setResource() since the MCP server port may be chosen after. */
  resource?: string;
  /** Scopes the AS knows (besides openid and offline_access). */
  scopes: string[];
  /** Access token lifetime in seconds (default 300). */
  accessTokenTtl?: number;
}

export interface AuthorizationServer {
  readonly issuer: string; // e.g. http://127.0.0.1:PORT
  readonly jwksUri: string;
  setResource(resource: string): void;
  /** Plays the user: follows an authorization URL through oidc-provider's login and consent over plain HTTP (no browser), and returns the final redirect URL (the client's redirect_uri with code, state and iss). Throws with the provider's error if it refuses. */
  approve(authorizationUrl: string | URL, user?: string): Promise<URL>;
  /** Like approve(), but the user logs in and then refuses consent; returns the client's redirect_uri with error=access_denied (does not throw for that error). */
  deny(authorizationUrl: string | URL, user?: string): Promise<URL>;
  close(): Promise<void>;
}

/** Thrown by approve()/deny() when the provider refuses the authorization request. */
export class AuthorizationRefusedError extends Error {
  constructor(
    message: string,
    readonly error: string,
    readonly errorDescription: string | undefined,
    /** The client's redirect_uri carrying the error, if the provider redirected there. */
    readonly redirect: URL | undefined,
  ) {
    super(message);
    this.name = "AuthorizationRefusedError";
  }
}

// ---- the slice of oidc-provider's (untyped) API used here ----

interface OidcClient {
  readonly clientId: string;
  grantTypeAllowed(type: string): boolean;
}
interface OidcGrant {
  addOIDCScope(scope: string): void;
  addOIDCClaims(claims: string[]): void;
  addResourceScope(resource: string, scope: string): void;
  save(): Promise<string>;
}
interface OidcGrantCtor {
  new (init: { accountId: string; clientId: string }): OidcGrant;
  find(id: string): Promise<OidcGrant | undefined>;
}
interface ConsentDetails {
  missingOIDCScope?: string[];
  missingOIDCClaims?: string[];
  missingResourceScopes?: Record<string, string[]>;
}
interface OidcInteraction {
  uid: string;
  prompt: { name: string; reasons: string[]; details: ConsentDetails };
  params: Record<string, unknown> & { client_id: string };
  session?: { accountId: string };
  grantId?: string;
}
interface KoaContext {
  body: unknown;
  type: string;
}
interface OidcProvider {
  callback(): (req: IncomingMessage, res: ServerResponse) => void;
  interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<OidcInteraction>;
  interactionFinished(
    req: IncomingMessage,
    res: ServerResponse,
    result: object,
    options?: { mergeWithLastSubmission?: boolean },
  ): Promise<void>;
  readonly Grant: OidcGrantCtor;
}
interface OidcProviderModule {
  default: new (issuer: string, configuration: object) => OidcProvider;
  errors: { InvalidTarget: new (description?: string) => Error };
}
interface MemoryAdapterModule {
  createMemoryAdapter(clockTolerance?: number): unknown;
}

// Non-literal specifiers: oidc-provider ships no type declarations, and these are typed above.
const providerSpecifier: string = "oidc-provider";
// Its in-memory adapter, used directly so that it gets a store per server (and no "development-only
// adapter" warning, which is only printed for the default MemoryAdapter).
const adapterSpecifier: string = "oidc-provider/lib/adapters/memory_adapter.js";

/**
 * oidc-provider prints notices through console.warn/console.info (e.g. "Unsupported runtime" when
 * imported on Node < 22, quick-start key/adapter warnings). Everything that would trigger one is
 * configured, but the runtime notice is printed on import: swallow lines starting with
 * "oidc-provider " while importing and constructing, nothing else.
 */
export async function quietly<T>(fn: () => Promise<T>): Promise<T> {
  const { warn, info } = console;
  const filter =
    (original: (...args: unknown[]) => void) =>
    (...args: unknown[]): void => {
      if (typeof args[0] === "string" && args[0].replace(/\x1b\[[0-9;]*m/g, "").startsWith("oidc-provider ")) return;
      original.apply(console, args);
    };
  console.warn = filter(warn);
  console.info = filter(info);
  try {
    return await fn();
  } finally {
    console.warn = warn;
    console.info = info;
  }
}

function sameResource(a: string, b: string): boolean {
  if (a === b) return true;
  const x = URL.canParse(a) ? new URL(a).href : a;
  const y = URL.canParse(b) ? new URL(b).href : b;
  return x === y;
}

async function readBody(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  if ((req.headers["content-type"] ?? "").includes("application/json")) {
    const json = (text ? JSON.parse(text) : {}) as Record<string, unknown>;
    return new URLSearchParams(Object.entries(json).map(([k, v]): [string, string] => [k, String(v)]));
  }
  return new URLSearchParams(text);
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "cache-control": "no-store",
    "content-length": Buffer.byteLength(text),
  });
  res.end(text);
}

export async function startAuthorizationServer(options: AuthorizationServerOptions): Promise<AuthorizationServer> {
  const knownScopes = [...new Set(options.scopes)];
  const accessTokenTtl = options.accessTokenTtl ?? 300;
  let resource = options.resource;

  const { default: Provider, errors } = await quietly(() => import(providerSpecifier) as Promise<OidcProviderModule>);
  const { createMemoryAdapter } = (await import(adapterSpecifier)) as MemoryAdapterModule;

  const { privateKey } = await promisify(generateKeyPair)("rsa", { modulusLength: 2048 });
  const signingKey = { ...privateKey.export({ format: "jwk" }), kid: randomUUID(), alg: "RS256", use: "sig" };

  // The port is only known once listening; the provider (which needs the issuer) is created then,
  // and requests never arrive before that.
  let handleProvider: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  let provider: OidcProvider | undefined;

  const server = createServer((req, res) => {
    void route(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: "server_error", error_description: String(error) });
      else res.destroy();
    });
  });

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (url.pathname.startsWith("/interaction/")) return interaction(req, res, url);
    if (url.pathname === "/.well-known/oauth-authorization-server")
      req.url = `/.well-known/openid-configuration${url.search}`;
    handleProvider!(req, res);
  }

  /**
   * Minimal interaction routes (JSON, not HTML): GET /interaction/:uid describes the pending prompt;
   * POST /interaction/:uid/login (login=<account>), /consent (grants everything missing) and /abort.
   */
  async function interaction(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const match = /^\/interaction\/([^/]+)(?:\/(login|consent|abort))?$/.exec(url.pathname);
    const p = provider!;
    if (!match) return sendJson(res, 404, { error: "not_found" });
    const action = match[2];
    const details = await p.interactionDetails(req, res);
    if (!action) {
      if (req.method !== "GET") return sendJson(res, 405, { error: "method_not_allowed" });
      return sendJson(res, 200, {
        uid: details.uid,
        prompt: details.prompt,
        params: details.params,
        login: `/interaction/${details.uid}/login`,
        consent: `/interaction/${details.uid}/consent`,
        abort: `/interaction/${details.uid}/abort`,
      });
    }
    if (req.method !== "POST") return sendJson(res, 405, { error: "method_not_allowed" });
    const body = await readBody(req);
    switch (action) {
      case "login": {
        if (details.prompt.name !== "login")
          return sendJson(res, 400, {
            error: "invalid_request",
            error_description: `prompt is ${details.prompt.name}, not login`,
          });
        const accountId = body.get("login");
        if (!accountId) return sendJson(res, 400, { error: "invalid_request", error_description: "login is required" });
        return p.interactionFinished(req, res, { login: { accountId } }, { mergeWithLastSubmission: false });
      }
      case "consent": {
        if (details.prompt.name !== "consent")
          return sendJson(res, 400, {
            error: "invalid_request",
            error_description: `prompt is ${details.prompt.name}, not consent`,
          });
        const existing = details.grantId ? await p.Grant.find(details.grantId) : undefined;
        const grant =
          existing ?? new p.Grant({ accountId: details.session!.accountId, clientId: details.params.client_id });
        const missing = details.prompt.details;
        if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(" "));
        if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
        for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {}))
          grant.addResourceScope(indicator, scopes.join(" "));
        const grantId = await grant.save();
        return p.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
      }
      default: // abort
        return p.interactionFinished(
          req,
          res,
          { error: "access_denied", error_description: "End-User aborted interaction" },
          { mergeWithLastSubmission: false },
        );
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const configuration = {
    adapter: createMemoryAdapter(15),
    jwks: { keys: [signingKey] },
    // The resource's scopes are listed here too: oidc-provider then advertises them in
    // scopes_supported and accepts them in a registration's `scope` metadata (MCP SDK clients send
    // one). Access tokens for the resource carry only the resource's share of the granted scopes.
    scopes: ["openid", "offline_access", ...knownScopes],
    // OAuth 2.1: no implicit or hybrid flows.
    responseTypes: ["code"],
    findAccount: (_ctx: unknown, sub: string) => ({ accountId: sub, claims: () => ({ sub }) }),
    clientBasedCORS: () => true,
    pkce: { required: () => true },
    // Refresh tokens for every client registered with the refresh_token grant, offline_access or
    // not; they (and the access tokens) outlive the user's session at the AS.
    issueRefreshToken: (_ctx: unknown, client: OidcClient) => client.grantTypeAllowed("refresh_token"),
    expiresWithSession: () => false,
    ttl: {
      AccessToken: accessTokenTtl,
      ClientCredentials: accessTokenTtl,
      AuthorizationCode: 60,
      IdToken: 3600,
      RefreshToken: 24 * 3600,
      Interaction: 3600,
      Session: 24 * 3600,
      Grant: 24 * 3600,
    },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    renderError: (ctx: KoaContext, out: Record<string, string>) => {
      ctx.type = "json";
      ctx.body = out;
    },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true, initialAccessToken: false },
      rpInitiatedLogout: { enabled: false },
      revocation: { enabled: true, allowedPolicy: () => true },
      resourceIndicators: {
        enabled: true,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, indicator: string) => {
          if (resource === undefined || !sameResource(indicator, resource)) {
            throw new errors.InvalidTarget(
              resource === undefined ? "no resource configured yet" : `unknown resource ${indicator}`,
            );
          }
          return {
            scope: knownScopes.join(" "),
            audience: resource,
            accessTokenTTL: accessTokenTtl,
            accessTokenFormat: "jwt",
            jwt: { sign: { alg: "RS256" } },
          };
        },
      },
    },
  };

  try {
    provider = await quietly(async () => new Provider(issuer, configuration));
  } catch (error) {
    server.close();
    throw error;
  }
  const p = provider;
  handleProvider = p.callback();

  // Plays one browser per user: cookies (session, interaction) are kept between approve() calls,
  // so a second authorization (step-up) reuses the login and only asks for consent.
  const jars = new Map<string, Map<string, string>>();

  async function request(
    jar: Map<string, string>,
    url: URL,
    init: { method?: string; body?: URLSearchParams } = {},
  ): Promise<Response> {
    const headers: Record<string, string> = { accept: "application/json, text/html" };
    if (jar.size) headers.cookie = [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
    if (init.body) headers["content-type"] = "application/x-www-form-urlencoded";
    const res = await fetch(url, {
      method: init.method ?? "GET",
      headers,
      redirect: "manual",
      ...(init.body ? { body: init.body } : {}),
    });
    for (const cookie of res.headers.getSetCookie()) {
      const [pair = "", ...attributes] = cookie.split(";");
      const eq = pair.indexOf("=");
      if (eq < 0) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attributes.some((a) => {
        const [key = "", val = ""] = a.trim().split("=");
        if (key.toLowerCase() === "max-age") return Number(val) <= 0;
        if (key.toLowerCase() === "expires") return Date.parse(val) <= Date.now();
        return false;
      });
      if (expired || value === "") jar.delete(name);
      else jar.set(name, value);
    }
    return res;
  }

  async function refusal(res: Response, what: string): Promise<AuthorizationRefusedError> {
    const text = await res.text();
    let error = "unexpected_response";
    let description: string | undefined = `${what}: HTTP ${res.status} ${text.slice(0, 500)}`;
    try {
      const body = JSON.parse(text) as { error?: string; error_description?: string };
      if (body.error) {
        error = body.error;
        description = body.error_description;
      }
    } catch {
      // not JSON: keep the raw text
    }
    return new AuthorizationRefusedError(
      `authorization server refused (${what}): ${error}${description ? `: ${description}` : ""}`,
      error,
      description,
      undefined,
    );
  }

  function location(res: Response, base: URL): URL {
    const value = res.headers.get("location");
    if (!value) throw new Error(`expected a redirect from ${base.href}, got HTTP ${res.status}`);
    return new URL(value, base);
  }

  async function play(authorizationUrl: string | URL, user: string, decision: "approve" | "deny"): Promise<URL> {
    let jar = jars.get(user);
    if (!jar) jars.set(user, (jar = new Map()));
    const origin = new URL(issuer).origin;
    let next = new URL(authorizationUrl);
    for (let hop = 0; hop < 20; hop++) {
      if (next.origin !== origin) {
        // The client's redirect_uri: hand it back, never request it.
        const error = next.searchParams.get("error");
        if (error && !(decision === "deny" && error === "access_denied")) {
          const description = next.searchParams.get("error_description") ?? undefined;
          throw new AuthorizationRefusedError(
            `authorization server refused: ${error}${description ? `: ${description}` : ""}`,
            error,
            description,
            next,
          );
        }
        return next;
      }
      const page = /^\/interaction\/([^/]+)$/.exec(next.pathname);
      if (page) {
        const res = await request(jar, next);
        if (!res.ok) throw await refusal(res, "interaction");
        const { prompt } = (await res.json()) as { prompt: { name: string } };
        const form = new URLSearchParams();
        let action: string;
        if (prompt.name === "login") {
          action = "login";
          form.set("login", user);
        } else if (prompt.name === "consent") {
          action = decision === "approve" ? "consent" : "abort";
        } else {
          throw new Error(`unsupported interaction prompt ${prompt.name}`);
        }
        const submitted = await request(jar, new URL(`${next.pathname}/${action}`, next), {
          method: "POST",
          body: form,
        });
        if (submitted.status < 300 || submitted.status >= 400)
          throw await refusal(submitted, `${prompt.name} ${action}`);
        await submitted.body?.cancel();
        next = location(submitted, next);
        continue;
      }
      const res = await request(jar, next);
      if (res.status >= 300 && res.status < 400) {
        await res.body?.cancel();
        next = location(res, next);
        continue;
      }
      throw await refusal(res, next.pathname);
    }
    throw new Error("too many redirects while approving the authorization request");
  }

  let closed = false;
  return {
    issuer,
    jwksUri: `${issuer}/jwks`,
    setResource(value: string) {
      resource = value;
    },
    approve: (authorizationUrl, user = "alice") => play(authorizationUrl, user, "approve"),
    deny: (authorizationUrl, user = "alice") => play(authorizationUrl, user, "deny"),
    async close() {
      if (closed) return;
      closed = true;
      await new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}
