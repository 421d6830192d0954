// @mcp-gen/runtime/jwt: a ready verifyToken for JWT access tokens (RFC 9068), built on
// `jose` (an optional peer dependency: install it to use this entry point; the rest of the
// runtime imports nothing). Signatures are checked against the authorization server's
// JWKS (fetched once, cached, refetched for an unknown key id), with asymmetric algorithms
// only, so `alg: none` and HMAC tokens "signed" with a public key are refused.
import { createRemoteJWKSet, customFetch, errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from "jose";
import { DEFAULT_CLOCK_TOLERANCE_SECONDS, InvalidTokenError, type AuthInfo, type TokenRequest, type VerifyToken } from "./auth/resource-server.js";

export { InvalidTokenError } from "./auth/resource-server.js";
export type { AuthInfo, VerifyToken } from "./auth/resource-server.js";

/** Every asymmetric JWS algorithm jose supports: no `none`, no HS*, whatever a token's header claims. */
export const ASYMMETRIC_ALGORITHMS = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA", "Ed25519"] as const;

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
}

/** How long a failed metadata discovery is remembered (requests meanwhile get 503). */
const DISCOVERY_RETRY_MS = 10_000;

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
  for (let added = true; added; ) {
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

/** Finds `jwks_uri` in the issuer's metadata, in RFC 8414's well-known locations first. */
async function discoverJwksUri(issuer: string, doFetch: typeof fetch): Promise<URL> {
  const url = new URL(issuer);
  const path = url.pathname === "/" ? "" : url.pathname.replace(/\/$/, "");
  const candidates = [
    `${url.origin}/.well-known/oauth-authorization-server${path}`,
    `${url.origin}/.well-known/openid-configuration${path}`,
    `${url.origin}${path}/.well-known/openid-configuration`,
  ];
  for (const candidate of candidates) {
    const response = await doFetch(candidate, { headers: { accept: "application/json" } }).catch(() => undefined);
    if (!response?.ok) {
      await response?.body?.cancel().catch(() => {});
      continue;
    }
    const metadata = (await response.json().catch(() => undefined)) as { issuer?: unknown; jwks_uri?: unknown } | undefined;
    // RFC 8414 section 3.3: the document must be the issuer's own.
    if (metadata?.issuer === issuer && typeof metadata.jwks_uri === "string") return new URL(metadata.jwks_uri);
  }
  throw new Error(`jwtVerifier: no authorization server metadata with jwks_uri found for issuer ${issuer}`);
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
  if (error instanceof errors.JWKSNoMatchingKey) return "the token was signed with a key the authorization server does not publish";
  if (error instanceof errors.JOSEAlgNotAllowed) return "the token's signature algorithm is not accepted";
  if (error instanceof errors.JWSSignatureVerificationFailed) return "the token's signature is invalid";
  return "the token is malformed";
}

/** A verifyToken for JWT access tokens issued by `issuer` for this server. */
export function jwtVerifier(options: JwtVerifierOptions): VerifyToken {
  const doFetch = options.fetch ?? fetch;
  const algorithms = [...(options.algorithms ?? ASYMMETRIC_ALGORITHMS)];
  for (const algorithm of algorithms) {
    if (!(ASYMMETRIC_ALGORITHMS as readonly string[]).includes(algorithm)) throw new Error(`jwtVerifier: ${algorithm} is not an asymmetric algorithm`);
  }
  let keys: Promise<JWTVerifyGetKey> | undefined;
  const keySet = () => {
    if (!keys) {
      const attempt = (options.jwksUri !== undefined ? Promise.resolve(new URL(options.jwksUri)) : discoverJwksUri(options.issuer, doFetch)).then((uri) =>
        createRemoteJWKSet(uri, { [customFetch]: doFetch }),
      );
      keys = attempt;
      // A failed discovery is retried, but not for every request while the issuer is down.
      attempt.catch(() => setTimeout(() => keys === attempt && (keys = undefined), DISCOVERY_RETRY_MS).unref?.());
    }
    return keys;
  };
  return async (token: string, request: TokenRequest): Promise<AuthInfo> => {
    const getKey = await keySet();
    let payload: JWTPayload;
    let typ: string | undefined;
    try {
      const verified = await jwtVerify(token, getKey, {
        issuer: options.issuer,
        audience: typeof options.audience === "string" ? options.audience : options.audience ? [...options.audience] : request.resource,
        algorithms,
        clockTolerance: options.clockToleranceSeconds ?? DEFAULT_CLOCK_TOLERANCE_SECONDS,
        requiredClaims: ["exp"],
      });
      payload = verified.payload;
      typ = verified.protectedHeader.typ;
    } catch (error) {
      // The key set being unreachable is the server's problem, not the token's.
      if (!(error instanceof errors.JOSEError) || error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid) throw error;
      throw new InvalidTokenError(describe(error));
    }
    if (options.requireAccessTokenType && typ?.toLowerCase() !== "at+jwt" && typ?.toLowerCase() !== "application/at+jwt") {
      throw new InvalidTokenError("the token is not an access token (typ at+jwt)");
    }
    const audience = typeof payload.aud === "string" ? [payload.aud] : (payload.aud ?? []);
    const clientId = typeof payload.client_id === "string" ? payload.client_id : typeof payload.azp === "string" ? payload.azp : undefined;
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
