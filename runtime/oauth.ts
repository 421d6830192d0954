// @mcp-gen/runtime/oauth: the OAuth 2.1 client side of MCP authorization, for httpChannel's
// `auth` option. Optional entry point: it needs the `oauth4webapi` peer dependency, which
// the core runtime does not.
//
//   const channel = httpChannel(url, { auth: oauth({ redirectUri, redirectToAuthorization }) });
export { OAuthClient, oauth } from "./auth/client/provider.js";
export type { ClientMetadata, OAuthOptions } from "./auth/client/provider.js";
export { memoryStore } from "./auth/client/store.js";
export type { OAuthClientInformation, OAuthStore, OAuthTokens, TokenKey } from "./auth/client/store.js";
export { OAuthError } from "./auth/client/urls.js";
export { parseWwwAuthenticate } from "./auth/client/challenge.js";
export type { Challenge } from "./auth/client/challenge.js";
export type { AuthorizationServerMetadata, ResourceMetadata } from "./auth/client/discovery.js";
export type { HttpAuth } from "./transport/http-client.js";
