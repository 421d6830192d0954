// MCP servers as OAuth 2.1 resource servers (the spec's authorization chapter): the
// protected resource metadata document (RFC 9728), bearer token extraction (RFC 6750,
// header only), the WWW-Authenticate challenges of 401 and 403 replies, and the scope
// check done before any handler runs. Token verification itself is a hook
// (`verifyToken`); @mcp-gen/runtime/jwt has a ready one for JWT access tokens.
import { brand } from "../jsonrpc/brand.js";

/** The verified identity behind a request, as handlers see it in `ctx.auth`. */
export interface AuthInfo {
  /** The token's subject (`sub`): the user, or the client acting on its own behalf. */
  readonly subject: string | undefined;
  /** Granted scopes, every scope a broader one implies included (expand hierarchies in verifyToken). */
  readonly scopes: readonly string[];
  /** Expiry, in seconds since the epoch; undefined for tokens that do not expire. */
  readonly expiresAt: number | undefined;
  /** The resources the token was issued for (`aud`); one of them must be this server. */
  readonly audience: readonly string[];
  /** The OAuth client the token was issued to (`client_id` or `azp`), when the token names it. */
  readonly clientId?: string | undefined;
  /** Every claim of the token (or introspection response). */
  readonly claims: Readonly<Record<string, unknown>>;
}

/** Thrown by `verifyToken` for a token that is malformed, expired, badly signed or not for us: a 401. */
export class InvalidTokenError extends Error {
  static {
    brand(this, "InvalidTokenError");
  }

  constructor(message: string) {
    super(message);
    this.name = "InvalidTokenError";
  }
}

/** What verifyToken learns of the request besides the token. */
export interface TokenRequest {
  /** This server's resource identifier (canonical URI): the audience the token must name. */
  readonly resource: string;
  /** The HTTP method of the request. */
  readonly method: string;
  /** A request header (lower-case name), for verifiers that bind tokens to more than the header (DPoP, say). */
  header(name: string): string | undefined;
}

/**
 * Verifies a bearer token and returns who it stands for; throws InvalidTokenError for a
 * token that must be refused. Any other error is a server failure (500), never an accept.
 */
export type VerifyToken = (token: string, request: TokenRequest) => Promise<AuthInfo> | AuthInfo;

/** Scopes per entry, as the manifest's `scopes:` declare them. */
export interface EntryScopes {
  readonly tools?: Readonly<Record<string, readonly string[]>> | undefined;
  readonly prompts?: Readonly<Record<string, readonly string[]>> | undefined;
  /** Fixed resources by URI. */
  readonly resources?: Readonly<Record<string, readonly string[]>> | undefined;
  /** Resource templates by name. */
  readonly resourceTemplates?: Readonly<Record<string, readonly string[]>> | undefined;
}

/** A server's authorization as its manifest declares it (`auth:`); generated into its definition. */
export interface AuthPolicy {
  /** Issuer URLs of the authorization servers whose tokens this server accepts. */
  readonly authorizationServers: readonly string[];
  /** Scopes advertised in the protected resource metadata (`scopes_supported`). */
  readonly scopesSupported?: readonly string[] | undefined;
  /** Scopes every request needs. */
  readonly requiredScopes?: readonly string[] | undefined;
  /** The canonical URI of this server; default: derived from each request's URL. */
  readonly resource?: string | undefined;
  /** Human-readable name in the metadata document (`resource_name`). */
  readonly resourceName?: string | undefined;
  /** A page documenting this server (`resource_documentation`). */
  readonly documentation?: string | undefined;
  /** Scopes each tool, prompt, resource and resource template needs on top of `requiredScopes`. */
  readonly scopes?: EntryScopes | undefined;
}

/** The path prefix of protected resource metadata documents (RFC 9728 section 3). */
/**
 * Seconds of clock skew tolerated between this server and the authorization server when a
 * token's expiry (exp) and start (nbf) are checked: jwtVerifier's default for exp and nbf,
 * and the HTTP bindings' default for the expiry every verifier reports.
 */
export const DEFAULT_CLOCK_TOLERANCE_SECONDS = 30;

export const METADATA_PATH = "/.well-known/oauth-protected-resource";

/**
 * The well-known URL of a resource's metadata document: the resource's path is appended
 * (RFC 9728 section 3.1), so several MCP endpoints on one host each have their own.
 */
export function metadataUrl(resource: string): string {
  const url = new URL(resource);
  const path = url.pathname === "/" ? "" : url.pathname.replace(/\/$/, "");
  return `${url.origin}${METADATA_PATH}${path}`;
}

/**
 * `offline_access` is the authorization server's business (whether to issue refresh tokens):
 * a resource never asks for it, in a challenge or in its metadata (2026-07-28).
 */
const withoutOfflineAccess = (scopes: readonly string[]) => scopes.filter((s) => s !== "offline_access");

/** The RFC 9728 metadata document of `resource` under `policy`. */
export function protectedResourceMetadata(policy: AuthPolicy, resource: string): Record<string, unknown> {
  const document: Record<string, unknown> = {
    resource,
    authorization_servers: [...policy.authorizationServers],
    bearer_methods_supported: ["header"],
  };
  if (policy.scopesSupported) document.scopes_supported = withoutOfflineAccess(policy.scopesSupported);
  if (policy.resourceName !== undefined) document.resource_name = policy.resourceName;
  if (policy.documentation !== undefined) document.resource_documentation = policy.documentation;
  return document;
}

/** The token of an `Authorization: Bearer <token>` header; undefined when there is none or it is not a bearer token. */
export function bearerToken(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header);
  return match?.[1];
}

/** A quoted-string parameter value (RFC 9110 section 5.6.4): backslash and quote escaped, controls dropped. */
function quoted(value: string): string {
  return `"${value.replace(/[\u0000-\u001f\u007f]/g, "").replace(/["\\]/g, "\\$&")}"`;
}

export interface Challenge {
  /** `invalid_token` (401 for a bad token), `insufficient_scope` (403); absent when no token came. */
  readonly error?: "invalid_token" | "insufficient_scope" | undefined;
  readonly description?: string | undefined;
  readonly scopes: readonly string[];
  readonly metadataUrl: string;
}

/** The `WWW-Authenticate` value of a 401 or 403 reply (RFC 6750 section 3, RFC 9728 section 5.1). */
export function challengeHeader(challenge: Challenge): string {
  const params: string[] = [];
  if (challenge.error !== undefined) params.push(`error=${quoted(challenge.error)}`);
  if (challenge.description !== undefined) params.push(`error_description=${quoted(challenge.description)}`);
  const scopes = withoutOfflineAccess(challenge.scopes);
  if (scopes.length > 0) params.push(`scope=${quoted(scopes.join(" "))}`);
  params.push(`resource_metadata=${quoted(challenge.metadataUrl)}`);
  return `Bearer ${params.join(", ")}`;
}

/** Whether a token's audience names `resource` (a trailing slash aside: the URIs are compared as written otherwise). */
export function audienceMatches(audience: readonly string[], resource: string): boolean {
  const strip = (uri: string) => (uri.endsWith("/") ? uri.slice(0, -1) : uri);
  const wanted = strip(resource);
  return audience.some((aud) => strip(aud) === wanted);
}

/** The scopes of `needed` that `granted` lacks. */
export function missingScopes(needed: readonly string[], granted: readonly string[]): string[] {
  return needed.filter((scope) => !granted.includes(scope));
}
