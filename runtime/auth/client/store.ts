// What an OAuth client keeps between requests (and, with a persistent store, between
// runs). Client registrations are keyed by the authorization server's issuer and tokens
// by issuer and resource: credentials are never presented to another authorization server.

export interface OAuthTokens {
  readonly access_token: string;
  readonly token_type?: string | undefined;
  readonly refresh_token?: string | undefined;
  /** Expiry of the access token, milliseconds since the epoch. */
  readonly expires_at?: number | undefined;
  /** The scope granted, when the authorization server said. */
  readonly scope?: string | undefined;
}

export interface OAuthClientInformation {
  readonly client_id: string;
  readonly client_secret?: string | undefined;
  /** client_secret_basic, client_secret_post or none; when absent, chosen from the server's metadata. */
  readonly token_endpoint_auth_method?: string | undefined;
  /** Seconds since the epoch; 0 or absent: never. */
  readonly client_secret_expires_at?: number | undefined;
}

export interface TokenKey {
  /** The issuer of the authorization server that issued the tokens. */
  readonly issuer: string;
  /** The protected resource (the MCP server) the tokens are for. */
  readonly resource: string;
}

type Awaitable<T> = T | Promise<T>;

export interface OAuthStore {
  tokens(key: TokenKey): Awaitable<OAuthTokens | undefined>;
  /** `undefined` forgets them. */
  saveTokens(key: TokenKey, tokens: OAuthTokens | undefined): Awaitable<void>;
  /** A registration (dynamic client registration) with the authorization server `issuer`. */
  clientInformation(issuer: string): Awaitable<OAuthClientInformation | undefined>;
  saveClientInformation(issuer: string, client: OAuthClientInformation | undefined): Awaitable<void>;
}

/** A store that lives as long as the process. */
export function memoryStore(): OAuthStore {
  const tokens = new Map<string, OAuthTokens>();
  const clients = new Map<string, OAuthClientInformation>();
  const key = (k: TokenKey) => JSON.stringify([k.issuer, k.resource]);
  return {
    tokens: (k) => tokens.get(key(k)),
    saveTokens: (k, value) => {
      if (value === undefined) tokens.delete(key(k));
      else tokens.set(key(k), value);
    },
    clientInformation: (issuer) => clients.get(issuer),
    saveClientInformation: (issuer, value) => {
      if (value === undefined) clients.delete(issuer);
      else clients.set(issuer, value);
    },
  };
}
