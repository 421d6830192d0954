// @mcp-gen/runtime/jwt: a ready verifyToken for JWT access tokens (RFC 9068), built on
// `jose` (an optional peer dependency: install it to use this entry point; the rest of the
// runtime imports nothing). Signatures are checked against the authorization server's
// JWKS (cached; refetched when stale or, at most once per cooldown, for an unknown key id;
// a stale set serves on while the server is down), with asymmetric algorithms only, so
// `alg: none` and HMAC tokens "signed" with a public key are refused. Every request to the
// authorization server is bounded (auth/outbound.ts) and a malformed token is refused
// before any is made.
import {
  createLocalJWKSet,
  decodeProtectedHeader,
  errors,
  jwtVerify,
  type JSONWebKeySet,
  type JWTPayload,
  type JWTVerifyGetKey,
} from "jose";
import { boundedFetch } from "./auth/outbound.js";
import { Refresher } from "./auth/refresher.js";
import {
  DEFAULT_CLOCK_TOLERANCE_SECONDS,
  InvalidTokenError,
  type AuthInfo,
  type TokenRequest,
  type VerifyToken,
} from "./auth/resource-server.js";

export { InvalidTokenError } from "./auth/resource-server.js";
export type { AuthInfo, VerifyToken } from "./auth/resource-server.js";

/** Every asymmetric JWS algorithm jose supports: no `none`, no HS*, whatever a token's header claims. */
export const ASYMMETRIC_ALGORITHMS = [
  "RS256",
  "RS384",
  "RS512",
  "PS256",
  "PS384",
  "PS512",
  "ES256",
  "ES384",
  "ES512",
  "EdDSA",
  "Ed25519",
] as const;

export interface JwtVerifierOptions {
  /** The issuer the tokens must name (`iss`), exactly as the authorization server's metadata gives it. */
  readonly issuer: string;
  /**
   * The issuer's JWKS URL. Default: `jwks_uri` from its metadata (RFC 8414
   * `/.well-known/oauth-authorization-server`, else OpenID `/.well-known/openid-configuration`).
   */
  readonly jwksUri?: string | URL | undefined;
  /** Audience(s) the token must name. Default: this server's resource identifier. */
  readonly audience?: string | readonly string[] | undefined;
  /** Accepted algorithms, a subset of ASYMMETRIC_ALGORITHMS. Default: all of them. */
  readonly algorithms?: readonly (typeof ASYMMETRIC_ALGORITHMS)[number][] | undefined;
  /**
   * Seconds of clock skew tolerated for exp, nbf and iat. Default 30, the HTTP bindings'
   * `clockToleranceSeconds` default too (they check the expiry again).
   */
  readonly clockToleranceSeconds?: number | undefined;
  /** Require the RFC 9068 header `typ: at+jwt` (refuses ID tokens used as access tokens). Default false. */
  readonly requireAccessTokenType?: boolean | undefined;
  /** Scopes implied by others (`{ "notes:admin": ["notes:read", "notes:write"] }`): added to AuthInfo.scopes. */
  readonly impliedScopes?: Readonly<Record<string, readonly string[]>> | undefined;
  /** For the JWKS and metadata requests (tests, proxies). */
  readonly fetch?: typeof fetch | undefined;
  /** Seconds a metadata or JWKS request may take, body included. Default 5. */
  readonly timeoutSeconds?: number | undefined;
  /** Seconds a fetched key set is used before it is refetched. Default 600. */
  readonly cacheMaxAgeSeconds?: number | undefined;
  /**
   * Seconds past cacheMaxAgeSeconds the key set is still used while refetching it fails
   * (the authorization server down). Default 3600; 0 refuses tokens once it is stale.
   */
  readonly maxStaleSeconds?: number | undefined;
  /** Seconds between refetches for a token whose key id the key set lacks (a key rotation). Default 30. */
  readonly cooldownSeconds?: number | undefined;
}

/** Defaults of the key and metadata caches (seconds). */
const DEFAULTS = { timeoutSeconds: 5, cacheMaxAgeSeconds: 600, maxStaleSeconds: 3600, cooldownSeconds: 30 } as const;
/** Backoff after a failed fetch: 1 s, doubled per further failure, at most 60 s. */
const BACKOFF_MS = 1000;
const MAX_BACKOFF_MS = 60_000;
/** Metadata and key sets are small; anything larger is not one. */
const MAX_DOCUMENT_BYTES = 256 * 1024;

/** A non-negative duration option in seconds, or its default. */
function seconds(value: number | undefined, option: keyof typeof DEFAULTS): number {
  if (value === undefined) return DEFAULTS[option];
  if (!Number.isFinite(value) || value < 0)
    throw new Error(`jwtVerifier: ${option} must be a non-negative number of seconds`);
  return value;
}

/** `scope` (space-separated, RFC 9068) or `scp` (an array, some providers) as a list. */
function scopesOf(payload: JWTPayload): string[] {
  if (typeof payload.scope === "string") return payload.scope.split(" ").filter(Boolean);
  if (Array.isArray(payload.scp)) return payload.scp.filter((s): s is string => typeof s === "string");
  if (typeof payload.scp === "string") return payload.scp.split(" ").filter(Boolean);
  return [];
}

function expand(scopes: string[], implied: Readonly<Record<string, readonly string[]>> | undefined): string[] {
  if (!implied) return scopes;
  const all = new Set(scopes);
  for (let added = true; added;) {
    added = false;
    for (const scope of [...all]) {
      for (const narrower of Object.hasOwn(implied, scope) ? implied[scope]! : []) {
        if (!all.has(narrower)) {
          all.add(narrower);
          added = true;
        }
      }
    }
  }
  return [...all];
}

/**
 * Finds `jwks_uri` in the issuer's metadata, in RFC 8414's well-known locations first. A
 * location that answers with an error is skipped; one that does not answer (a timeout, a
 * refused connection) ends the search: the other locations are on the same host.
 */
async function discoverJwksUri(issuer: string, doFetch: typeof fetch): Promise<URL> {
  const url = new URL(issuer);
  const path = url.pathname === "/" ? "" : url.pathname.replace(/\/$/, "");
  const candidates = [
    `${url.origin}/.well-known/oauth-authorization-server${path}`,
    `${url.origin}/.well-known/openid-configuration${path}`,
    `${url.origin}${path}/.well-known/openid-configuration`,
  ];
  for (const candidate of candidates) {
    const response = await doFetch(candidate, { headers: { accept: "application/json" } });
    if (!response.ok) continue;
    const metadata = (await response.json().catch(() => undefined)) as
      { issuer?: unknown; jwks_uri?: unknown } | undefined;
    // RFC 8414 section 3.3: the document must be the issuer's own.
    if (metadata?.issuer === issuer && typeof metadata.jwks_uri === "string") return new URL(metadata.jwks_uri);
  }
  throw new Error(`no authorization server metadata with jwks_uri found for issuer ${issuer}`);
}

/** The key set at `uri`, checked to be a JWKS. */
async function fetchKeySet(uri: URL, doFetch: typeof fetch): Promise<JWTVerifyGetKey> {
  const response = await doFetch(uri, { headers: { accept: "application/json, application/jwk-set+json" } });
  if (response.status !== 200) throw new Error(`${uri.href} answered HTTP ${response.status}, not a key set`);
  const body: unknown = await response.json().catch(() => undefined);
  try {
    return createLocalJWKSet(body as JSONWebKeySet);
  } catch {
    throw new Error(`${uri.href} did not answer a JSON Web Key Set`);
  }
}

const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/** Refuses, before any key is fetched, a token that is not a JWS this verifier could accept. */
function checkShape(token: string, algorithms: readonly string[]): void {
  if (!COMPACT_JWS.test(token)) throw new InvalidTokenError("the token is malformed");
  let alg: unknown;
  try {
    alg = decodeProtectedHeader(token).alg;
  } catch {
    throw new InvalidTokenError("the token is malformed");
  }
  if (typeof alg !== "string" || !algorithms.includes(alg))
    throw new InvalidTokenError("the token's signature algorithm is not accepted");
  if (token.endsWith(".")) throw new InvalidTokenError("the token is malformed");
}

/** What a verification failure tells the client (never the token itself). */
function describe(error: unknown): string {
  if (error instanceof errors.JWTExpired) return "the token has expired";
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === "nbf") return "the token is not valid yet";
    if (error.claim === "iss") return "the token was issued by another authorization server";
    if (error.claim === "aud") return "the token was not issued for this server";
    return `the token's ${error.claim} claim is invalid`;
  }
  if (error instanceof errors.JWKSNoMatchingKey)
    return "the token was signed with a key the authorization server does not publish";
  if (error instanceof errors.JOSEAlgNotAllowed) return "the token's signature algorithm is not accepted";
  if (error instanceof errors.JWSSignatureVerificationFailed) return "the token's signature is invalid";
  return "the token is malformed";
}

/** A verifyToken for JWT access tokens issued by `issuer` for this server. */
export function jwtVerifier(options: JwtVerifierOptions): VerifyToken {
  const algorithms = [...(options.algorithms ?? ASYMMETRIC_ALGORITHMS)];
  for (const algorithm of algorithms) {
    if (!(ASYMMETRIC_ALGORITHMS as readonly string[]).includes(algorithm))
      throw new Error(`jwtVerifier: ${algorithm} is not an asymmetric algorithm`);
  }
  const doFetch = boundedFetch(options.fetch ?? fetch, {
    timeoutMs: seconds(options.timeoutSeconds, "timeoutSeconds") * 1000,
    maxBytes: MAX_DOCUMENT_BYTES,
  });
  const cache = {
    maxAgeMs: seconds(options.cacheMaxAgeSeconds, "cacheMaxAgeSeconds") * 1000,
    staleMs: seconds(options.maxStaleSeconds, "maxStaleSeconds") * 1000,
    cooldownMs: seconds(options.cooldownSeconds, "cooldownSeconds") * 1000,
    backoffMs: BACKOFF_MS,
    maxBackoffMs: MAX_BACKOFF_MS,
  };
  // The JWKS URL rarely changes: discovered once, rediscovered only after a day.
  const configured = options.jwksUri;
  const jwksUri =
    configured !== undefined
      ? undefined
      : new Refresher(`the metadata of ${options.issuer}`, () => discoverJwksUri(options.issuer, doFetch), {
          ...cache,
          maxAgeMs: 86_400_000,
          staleMs: 86_400_000,
        });
  const keys = new Refresher(
    `the key set of ${options.issuer}`,
    async () => fetchKeySet(configured !== undefined ? new URL(configured) : await jwksUri!.get(), doFetch),
    cache,
  );
  const verify = (token: string, getKey: JWTVerifyGetKey, request: TokenRequest) =>
    jwtVerify(token, getKey, {
      issuer: options.issuer,
      audience:
        typeof options.audience === "string"
          ? options.audience
          : options.audience
            ? [...options.audience]
            : request.resource,
      algorithms,
      clockTolerance: options.clockToleranceSeconds ?? DEFAULT_CLOCK_TOLERANCE_SECONDS,
      requiredClaims: ["exp"],
    });
  return async (token: string, request: TokenRequest): Promise<AuthInfo> => {
    checkShape(token, algorithms);
    const getKey = await keys.get();
    let payload: JWTPayload;
    let typ: string | undefined;
    try {
      let verified;
      try {
        verified = await verify(token, getKey, request);
      } catch (error) {
        if (!(error instanceof errors.JWKSNoMatchingKey)) throw error;
        // A key id the set lacks: perhaps a rotation; the set is refetched at most once per cooldown.
        const newer = await keys.forceRefresh(getKey);
        if (newer === getKey) throw error;
        verified = await verify(token, newer, request);
      }
      payload = verified.payload;
      typ = verified.protectedHeader.typ;
    } catch (error) {
      if (!(error instanceof errors.JOSEError)) throw error;
      throw new InvalidTokenError(describe(error));
    }
    if (
      options.requireAccessTokenType &&
      typ?.toLowerCase() !== "at+jwt" &&
      typ?.toLowerCase() !== "application/at+jwt"
    ) {
      throw new InvalidTokenError("the token is not an access token (typ at+jwt)");
    }
    const audience = typeof payload.aud === "string" ? [payload.aud] : (payload.aud ?? []);
    const clientId =
      typeof payload.client_id === "string"
        ? payload.client_id
        : typeof payload.azp === "string"
          ? payload.azp
          : undefined;
    return {
      subject: payload.sub,
      scopes: expand(scopesOf(payload), options.impliedScopes),
      expiresAt: payload.exp,
      audience,
      clientId,
      claims: payload,
    };
  };
}
