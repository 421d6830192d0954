// URL rules of MCP authorization: https everywhere except loopback hosts, the well-known
// locations of protected resource and authorization server metadata, and whether a
// protected resource identifier covers an MCP endpoint.
import { brand } from "../../jsonrpc/brand.js";

export class OAuthError extends Error {
  static {
    brand(this, "OAuthError");
  }

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "OAuthError";
  }
}

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

export function isLoopback(url: URL): boolean {
  return LOOPBACK_HOSTS.has(url.hostname.toLowerCase());
}

/** Plain http is allowed only to loopback hosts (local development, tests). */
export function isInsecureLoopback(url: URL): boolean {
  return url.protocol === "http:" && isLoopback(url);
}

export function requireSecure(value: string | URL, what: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new OAuthError(`${what} is not a URL: ${String(value)}`);
  }
  if (url.protocol !== "https:" && !isInsecureLoopback(url))
    throw new OAuthError(`${what} must use https (plain http only for loopback hosts): ${url.href}`);
  return url;
}

/** The resource identifier of an MCP endpoint (RFC 8707): no fragment. */
export function canonicalResource(url: URL): URL {
  const canonical = new URL(url.href);
  canonical.hash = "";
  return canonical;
}

/**
 * RFC 9728 well-known locations for an MCP endpoint, in the order MCP clients try them:
 * path-based (when the endpoint has a path), then the root.
 */
export function resourceMetadataUrls(server: URL): URL[] {
  const path = server.pathname.replace(/\/+$/, "");
  const urls = [new URL("/.well-known/oauth-protected-resource", server.origin)];
  if (path !== "") urls.unshift(new URL(`/.well-known/oauth-protected-resource${path}`, server.origin));
  return urls;
}

/**
 * Authorization server metadata locations for an issuer (RFC 8414 section 3.1 and its
 * section 5 OpenID Connect compatibility), in the order MCP prescribes.
 */
export function authorizationServerMetadataUrls(issuer: URL): URL[] {
  const path = issuer.pathname.replace(/\/+$/, "");
  const origin = issuer.origin;
  if (path === "")
    return [
      new URL(`${origin}/.well-known/oauth-authorization-server`),
      new URL(`${origin}/.well-known/openid-configuration`),
    ];
  return [
    new URL(`${origin}/.well-known/oauth-authorization-server${path}`),
    new URL(`${origin}/.well-known/openid-configuration${path}`),
    new URL(`${origin}${path}/.well-known/openid-configuration`),
  ];
}

/** Whether protected resource `resource` covers the MCP endpoint `server`: same origin, and the endpoint's path is at or under the resource's. */
export function resourceCovers(resource: string, server: URL): boolean {
  let url: URL;
  try {
    url = new URL(resource);
  } catch {
    return false;
  }
  if (url.origin !== server.origin) return false;
  const base = url.pathname.endsWith("/") ? url.pathname : `${url.pathname}/`;
  const path = server.pathname.endsWith("/") ? server.pathname : `${server.pathname}/`;
  return path.startsWith(base);
}
