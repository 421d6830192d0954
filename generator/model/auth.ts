// The `auth:` section: how the HTTP bindings protect the server (OAuth protected
// resource metadata), checked for well-formed, secure URLs and known scopes.
import { quote, type Diagnostic } from "../diagnostics.js";
import type { PositionIndex } from "../load/source.js";
import type { ManifestAuth } from "../manifest.gen.js";
import { optional, scopeProblem } from "./declarations.js";
import type { AuthModel } from "./types.js";

/** Whether `url` is an https URL, or http on a loopback host (development). */
function isSecureUrl(url: URL): boolean {
  return (
    url.protocol === "https:" ||
    (url.protocol === "http:" && ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname))
  );
}

/** Why `value` cannot be an authorization server or resource URL, if it cannot. */
function urlProblem(value: string, what: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `${what} ${quote(value)} is not an absolute URL`;
  }
  if (!isSecureUrl(url)) return `${what} ${quote(value)} must use https (http is allowed on localhost only)`;
  if (url.hash !== "" || value.includes("#")) return `${what} ${quote(value)} must not have a fragment`;
  return undefined;
}

/** The `auth:` section, checked: URLs well-formed and secure, scopes known. */
export function authOf(
  auth: ManifestAuth | undefined,
  positions: PositionIndex,
  defaultName: string,
  diagnostics: Diagnostic[],
): AuthModel | undefined {
  if (auth === undefined) return undefined;
  const listed = auth.scopesSupported;
  listed.forEach((scope, i) => {
    if (scope === "offline_access")
      diagnostics.push({
        location: positions.value(`/auth/scopesSupported/${i}`),
        message: `auth.scopesSupported: ${scopeProblem(scope, listed)!}`,
      });
  });
  const scopesSupported = listed.filter((s) => s !== "offline_access");
  const requiredScopes = auth.requiredScopes ?? [];
  requiredScopes.forEach((scope, i) => {
    const problem = scopeProblem(scope, scopesSupported);
    if (problem)
      diagnostics.push({
        location: positions.value(`/auth/requiredScopes/${i}`),
        message: `auth.requiredScopes: ${problem}`,
      });
  });
  const authorizationServers = auth.authorizationServers;
  authorizationServers.forEach((issuer, i) => {
    const problem =
      urlProblem(issuer, "authorization server") ??
      (issuer.includes("?")
        ? `authorization server ${quote(issuer)} must not have a query (an issuer identifier has none)`
        : undefined);
    if (problem) diagnostics.push({ location: positions.value(`/auth/authorizationServers/${i}`), message: problem });
  });
  const { resource, documentation } = auth;
  const resourceProblem = resource === undefined ? undefined : urlProblem(resource, "auth.resource");
  if (resourceProblem)
    diagnostics.push({
      location: positions.value("/auth/resource"),
      message: `${resourceProblem}; it is this server's canonical URI, e.g. https://mcp.example.com/mcp`,
    });
  return {
    authorizationServers,
    scopesSupported,
    requiredScopes,
    ...optional("resource", resource),
    resourceName: auth.resourceName ?? defaultName,
    ...optional("documentation", documentation),
  };
}
