// The resource-server layer in front of the Streamable HTTP binding: serves the protected
// resource metadata, turns away requests without a valid bearer token (401) and calls
// whose scopes the token lacks (403), and hands the verified identity on. It sees HTTP
// requests and method names only; what each call needs comes from the server's policy.
import { ErrorCode, errorResponse, type RequestId } from "../jsonrpc/messages.js";
import { serializeMessage } from "../jsonrpc/serialize.js";
import {
  audienceMatches,
  bearerToken,
  challengeHeader,
  DEFAULT_CLOCK_TOLERANCE_SECONDS,
  InvalidTokenError,
  METADATA_PATH,
  metadataUrl,
  missingScopes,
  protectedResourceMetadata,
  type AuthInfo,
  type AuthPolicy,
  type VerifyToken,
} from "./resource-server.js";

/** A reply the guard gives instead of letting the request through. */
export interface GuardReply {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body?: string | undefined;
}

/** The `auth` option of the HTTP bindings. */
export interface HttpAuthOptions {
  /** Verifies a bearer token; see jwtVerifier in @mcp-gen/runtime/jwt for JWT access tokens. */
  readonly verifyToken: VerifyToken;
  /**
   * This server's canonical URI (the audience its tokens must name). Default: the manifest's
   * `auth.resource`, else derived from each request's URL (scheme, Host and path): set it
   * behind a proxy that changes them.
   */
  readonly resource?: string | undefined;
  /** Overrides the manifest's `auth.authorizationServers` (e.g. per deployment). */
  readonly authorizationServers?: readonly string[] | undefined;
  /**
   * Seconds of clock skew tolerated when the binding checks the expiry verifyToken reports
   * (`expiresAt`): a token is refused once `expiresAt` plus this has passed. Default 30, as
   * jwtVerifier tolerates for exp and nbf; keep the two equal if you change either.
   */
  readonly clockToleranceSeconds?: number | undefined;
  /**
   * Seconds verifyToken may take (fetching the authorization server's keys, say) before the
   * request is answered 503 with Retry-After. Default 10.
   */
  readonly verifyTimeoutSeconds?: number | undefined;
}

/** What the guard needs of a request. */
export interface GuardRequest {
  readonly method: string;
  readonly url?: string | undefined;
  header(name: string): string | undefined;
}

const jsonHeaders = { "content-type": "application/json" };

const DEFAULT_VERIFY_TIMEOUT_SECONDS = 10;
/** Seconds a client is told to wait when no error says how long. */
const DEFAULT_RETRY_AFTER_SECONDS = 5;

/** verifyToken did not settle within the guard's deadline. */
class VerifyTimeout extends Error {
  constructor(seconds: number) {
    super(`verifyToken did not settle within ${seconds} s`);
  }
}

/** `verification`, or a VerifyTimeout once `seconds` have passed. */
function withDeadline<T>(verification: Promise<T>, seconds: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new VerifyTimeout(seconds)), seconds * 1000);
  });
  return Promise.race([verification, deadline]).finally(() => clearTimeout(timer));
}

function rpcError(status: number, id: RequestId | null, message: string, headers: Record<string, string>): GuardReply {
  const body = serializeMessage(errorResponse(id, ErrorCode.InvalidRequest, message));
  return { status, headers: { ...jsonHeaders, ...headers }, body };
}

/** A verified token, or the reply that refuses the request. */
export type Authentication = { readonly auth: AuthInfo; readonly resource: string } | { readonly reply: GuardReply };

export class ResourceGuard {
  private readonly policy: AuthPolicy;
  private readonly endpointPath: string;
  /** Paths after METADATA_PATH that serve the document ("" for the root one). */
  private readonly metadataSuffixes: ReadonlySet<string>;
  /** Verifier failures are logged at most once a minute per kind: anyone can send a token. */
  private readonly log = rateLimitedLog(60_000);

  constructor(
    policy: AuthPolicy | undefined,
    private readonly options: HttpAuthOptions,
    endpointPath: string | undefined,
  ) {
    const authorizationServers = options.authorizationServers ?? policy?.authorizationServers ?? [];
    if (authorizationServers.length === 0) {
      throw new Error(
        "auth: name the authorization server(s) whose tokens this server accepts (manifest `auth.authorizationServers` or the `authorizationServers` option)",
      );
    }
    this.policy = { ...policy, authorizationServers };
    const resource = options.resource ?? policy?.resource;
    this.endpointPath = endpointPath ?? (resource !== undefined ? new URL(resource).pathname : "/mcp");
    // The endpoint's own path, and the public one of a configured resource: a proxy that serves
    // the endpoint under a prefix (/notes/mcp to /mcp) passes the metadata path as clients ask it.
    const suffix = (path: string) => (path === "/" ? "" : path.replace(/\/$/, ""));
    this.metadataSuffixes = new Set([
      "",
      suffix(this.endpointPath),
      ...(resource !== undefined ? [suffix(new URL(resource).pathname)] : []),
    ]);
  }

  /** This server's resource identifier for a request that came to `url` on `path`. */
  private resourceFor(url: URL | undefined, path: string): string | undefined {
    const configured = this.options.resource ?? this.policy.resource;
    if (configured !== undefined) return configured;
    return url === undefined ? undefined : `${url.origin}${path}`;
  }

  /** Whether `request` asks for a protected resource metadata document. */
  isMetadataRequest(request: GuardRequest): boolean {
    const path = pathOf(request.url);
    return path !== undefined && (path === METADATA_PATH || path.startsWith(`${METADATA_PATH}/`));
  }

  /**
   * The metadata document: at the root well-known URL, and at the path-based one of this
   * endpoint (`/.well-known/oauth-protected-resource/mcp`). Readable from any origin.
   */
  metadata(request: GuardRequest): GuardReply {
    const cors = { "access-control-allow-origin": "*", "access-control-allow-methods": "GET, OPTIONS" };
    if (request.method === "OPTIONS")
      return { status: 204, headers: { ...cors, "access-control-allow-headers": "mcp-protocol-version" } };
    if (request.method !== "GET" && request.method !== "HEAD")
      return { status: 405, headers: { ...cors, allow: "GET, OPTIONS" } };
    const url = parseUrl(request.url);
    const suffix = url === undefined ? "" : url.pathname.slice(METADATA_PATH.length);
    if (!this.metadataSuffixes.has(suffix.replace(/\/$/, ""))) {
      return {
        status: 404,
        headers: { ...cors, "content-type": "text/plain" },
        body: "Not found: no protected resource here\n",
      };
    }
    const resource = this.resourceFor(url, this.endpointPath);
    if (resource === undefined)
      return {
        status: 500,
        headers: { "content-type": "text/plain" },
        body: "auth: set `resource`: the request URL is unknown\n",
      };
    const body = JSON.stringify(protectedResourceMetadata(this.policy, resource));
    return { status: 200, headers: { ...jsonHeaders, ...cors, "cache-control": "max-age=3600" }, body };
  }

  /** Verifies the request's bearer token (never one in the query string). */
  async authenticate(request: GuardRequest): Promise<Authentication> {
    const url = parseUrl(request.url);
    const resource = this.resourceFor(url, url?.pathname ?? this.endpointPath);
    if (resource === undefined)
      return { reply: rpcError(500, null, "Internal error: auth needs the request URL or a configured resource", {}) };
    const challenge = metadataUrl(resource);
    const refuse = (description: string | undefined): Authentication => {
      const header = challengeHeader({
        error: description === undefined ? undefined : "invalid_token",
        description,
        scopes: this.policy.requiredScopes ?? [],
        metadataUrl: challenge,
      });
      return {
        reply: rpcError(401, null, `Unauthorized: ${description ?? "this server needs a bearer token"}`, {
          "www-authenticate": header,
        }),
      };
    };
    const header = request.header("authorization");
    const token = bearerToken(header);
    if (token === undefined)
      return refuse(header === undefined ? undefined : "the Authorization header must be 'Bearer <token>'");
    let auth: AuthInfo;
    const timeout = this.options.verifyTimeoutSeconds ?? DEFAULT_VERIFY_TIMEOUT_SECONDS;
    try {
      const verification = (async () =>
        this.options.verifyToken(token, {
          resource,
          method: request.method,
          header: (name) => request.header(name),
        }))();
      auth = await withDeadline(verification, timeout);
    } catch (error) {
      if (error instanceof InvalidTokenError) return refuse(error.message);
      // A verifier that cannot decide (its key set unreachable, say) refuses nothing it should accept.
      this.log(
        error instanceof VerifyTimeout ? "timeout" : "failure",
        `mcp http: verifyToken failed: ${error instanceof Error ? error.message : String(error)}`,
      );
      const hinted = (error as { retryAfterSeconds?: unknown } | undefined)?.retryAfterSeconds;
      const retryAfter = typeof hinted === "number" && hinted >= 1 ? Math.ceil(hinted) : DEFAULT_RETRY_AFTER_SECONDS;
      return {
        reply: rpcError(503, null, "Service unavailable: the token could not be verified now", {
          "retry-after": String(retryAfter),
        }),
      };
    }
    // Checked here as well as by the verifier: a token for another resource is never accepted.
    if (!audienceMatches(auth.audience, resource)) return refuse(`the token was not issued for ${resource}`);
    const tolerance = this.options.clockToleranceSeconds ?? DEFAULT_CLOCK_TOLERANCE_SECONDS;
    if (auth.expiresAt !== undefined && (auth.expiresAt + tolerance) * 1000 <= Date.now())
      return refuse("the token has expired");
    return { auth, resource };
  }

  /**
   * The 403 for a call that needs scopes the token lacks: the challenge names every scope
   * the call needs, so one re-authorization is enough. Undefined when the token suffices.
   */
  insufficientScope(
    auth: AuthInfo,
    resource: string,
    needed: readonly string[],
    id: RequestId | null,
  ): GuardReply | undefined {
    const missing = missingScopes(needed, auth.scopes);
    if (missing.length === 0) return undefined;
    const description = `this call needs scope ${needed.join(" ")}`;
    const header = challengeHeader({
      error: "insufficient_scope",
      description,
      scopes: needed,
      metadataUrl: metadataUrl(resource),
    });
    return rpcError(403, id, `Forbidden: insufficient_scope: ${description} (missing ${missing.join(" ")})`, {
      "www-authenticate": header,
    });
  }

  /** Scopes every request needs. */
  get requiredScopes(): readonly string[] {
    return this.policy.requiredScopes ?? [];
  }
}

/**
 * A logger that writes at most one line per `intervalMs` for each kind, and says how many
 * of that kind it left out since.
 */
function rateLimitedLog(intervalMs: number): (kind: string, line: string) => void {
  const last = new Map<string, { at: number; suppressed: number }>();
  return (kind, line) => {
    const now = Date.now();
    const seen = last.get(kind);
    if (seen && now - seen.at < intervalMs) {
      seen.suppressed++;
      return;
    }
    const more = seen && seen.suppressed > 0 ? ` (${seen.suppressed} more like it since the last report)` : "";
    last.set(kind, { at: now, suppressed: 0 });
    console.error(`${line}${more}`);
  };
}

function parseUrl(url: string | undefined): URL | undefined {
  if (url === undefined) return undefined;
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

function pathOf(url: string | undefined): string | undefined {
  return parseUrl(url)?.pathname;
}
