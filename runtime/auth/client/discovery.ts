// Discovery, MCP's order: protected resource metadata (RFC 9728) from the challenge's
// resource_metadata, else the well-known locations; then the metadata of the authorization
// server it names (RFC 8414 / OpenID Connect Discovery), whose issuer must be identical
// to the one the well-known URL was built from (mix-up defence).
import {
  OAuthError,
  authorizationServerMetadataUrls,
  requireSecure,
  resourceCovers,
  resourceMetadataUrls,
} from "./urls.js";

export interface ResourceMetadata {
  readonly resource: string;
  readonly authorization_servers?: readonly string[];
  readonly scopes_supported?: readonly string[];
  readonly [field: string]: unknown;
}

/** Authorization server metadata, as RFC 8414 names its fields (a subset is typed). */
export interface AuthorizationServerMetadata {
  readonly issuer: string;
  readonly authorization_endpoint?: string;
  readonly token_endpoint?: string;
  readonly registration_endpoint?: string;
  readonly scopes_supported?: readonly string[];
  readonly code_challenge_methods_supported?: readonly string[];
  readonly token_endpoint_auth_methods_supported?: readonly string[];
  readonly authorization_response_iss_parameter_supported?: boolean;
  readonly client_id_metadata_document_supported?: boolean;
  readonly [field: string]: unknown;
}

type Fetch = typeof fetch;

async function getJson(fetchFn: Fetch, url: URL): Promise<{ status: number; body: unknown }> {
  const response = await fetchFn(url, { headers: { accept: "application/json" } });
  if (!response.ok) {
    await response.body?.cancel().catch(() => {});
    return { status: response.status, body: undefined };
  }
  try {
    return { status: response.status, body: await response.json() };
  } catch (error) {
    throw new OAuthError(`${url.href} did not answer JSON`, { cause: error });
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/**
 * The protected resource metadata of MCP endpoint `server`: from `fromChallenge` (the
 * challenge's resource_metadata) when given, else path-based then root well-known URL.
 * Its `resource` must cover `server`, or the metadata is refused.
 */
export async function discoverResource(
  fetchFn: Fetch,
  server: URL,
  fromChallenge: string | undefined,
): Promise<ResourceMetadata> {
  const candidates =
    fromChallenge !== undefined ? [requireSecure(fromChallenge, "resource_metadata")] : resourceMetadataUrls(server);
  const statuses: string[] = [];
  for (const url of candidates) {
    const { status, body } = await getJson(fetchFn, url);
    if (body === undefined) {
      statuses.push(`${url.href}: HTTP ${status}`);
      continue;
    }
    if (!isObject(body) || typeof body.resource !== "string")
      throw new OAuthError(`${url.href} is not protected resource metadata (no resource)`);
    if (!resourceCovers(body.resource, server)) {
      throw new OAuthError(
        `the protected resource metadata at ${url.href} is for ${body.resource}, not for ${server.href}`,
      );
    }
    const servers = body.authorization_servers;
    if (!Array.isArray(servers) || servers.length === 0 || !servers.every((s) => typeof s === "string")) {
      throw new OAuthError(`the protected resource metadata at ${url.href} names no authorization server`);
    }
    return body as ResourceMetadata;
  }
  throw new OAuthError(`no protected resource metadata for ${server.href} (${statuses.join("; ")})`);
}

/** The metadata of the authorization server `issuer`, tried at each well-known location in order. */
export async function discoverAuthorizationServer(
  fetchFn: Fetch,
  issuer: string,
): Promise<AuthorizationServerMetadata> {
  const issuerUrl = requireSecure(issuer, "the authorization server issuer");
  if (issuerUrl.search !== "" || issuerUrl.hash !== "")
    throw new OAuthError(`issuer ${issuer} has a query or fragment`);
  const statuses: string[] = [];
  for (const url of authorizationServerMetadataUrls(issuerUrl)) {
    const { status, body } = await getJson(fetchFn, url);
    if (body === undefined) {
      statuses.push(`${url.href}: HTTP ${status}`);
      continue;
    }
    if (!isObject(body)) throw new OAuthError(`${url.href} is not authorization server metadata`);
    // RFC 8414 section 3.3: identical, compared as strings; a differing document is not used.
    if (body.issuer !== issuer)
      throw new OAuthError(
        `the authorization server metadata at ${url.href} names issuer ${String(body.issuer)}, expected ${issuer}`,
      );
    const metadata = body as AuthorizationServerMetadata;
    for (const field of ["authorization_endpoint", "token_endpoint", "registration_endpoint"] as const) {
      const value = metadata[field];
      if (value !== undefined) requireSecure(value, `${field} of ${issuer}`);
    }
    return metadata;
  }
  throw new OAuthError(`no authorization server metadata for ${issuer} (${statuses.join("; ")})`);
}
