// The OAuth 2.1 client of MCP authorization as an HttpAuth for httpChannel: on a 401 it
// discovers the protected resource and its authorization server, gets a client id
// (pre-registered, client ID metadata document, or dynamic registration), and runs the
// authorization code flow with PKCE, the resource parameter and RFC 9207 issuer checks;
// on a 403 insufficient_scope it steps up to the union of scopes, a bounded number of
// times. oauth4webapi does the OAuth mechanics; discovery order and policy are MCP's.
import * as o from "oauth4webapi";
import type { HttpAuth } from "../../transport/http-client.js";
import { boundedFetch } from "../outbound.js";
import { bearerChallenge, scopeList } from "./challenge.js";
import {
  discoverAuthorizationServer,
  discoverResource,
  type AuthorizationServerMetadata,
  type ResourceMetadata,
} from "./discovery.js";
import { memoryStore, type OAuthClientInformation, type OAuthStore, type OAuthTokens, type TokenKey } from "./store.js";
import {
  OAuthError,
  canonicalResource,
  isInsecureLoopback,
  isLoopback,
  requireSecure,
  resourceCovers,
} from "./urls.js";

/** Client metadata sent with dynamic client registration (RFC 7591), beyond what is derived. */
export type ClientMetadata = Readonly<Record<string, unknown>>;

export interface OAuthOptions {
  /** Where the authorization server sends the user agent back (registered with the client). */
  readonly redirectUri: string | URL;
  /**
   * Sends the user agent to `authorizationUrl` (opens a browser, say) and resolves with
   * the URL it came back to at the redirect URI, query and all (code, state, iss).
   */
  redirectToAuthorization(authorizationUrl: URL): Promise<URL | string>;
  /**
   * Pre-registered client credentials: for every authorization server, or only for
   * `issuer` when given; or a function of the issuer. Used before anything else.
   */
  readonly client?:
    | (OAuthClientInformation & { readonly issuer?: string })
    | ((issuer: string) => OAuthClientInformation | undefined)
    | undefined;
  /** An https URL of this client's metadata document, used as client_id where the server supports it (SEP-991). */
  readonly clientMetadataUrl?: string | undefined;
  /** client_name for dynamic registration. */
  readonly clientName?: string | undefined;
  /** More dynamic registration metadata (client_uri, logo_uri, software_id, ...); overrides the derived fields. */
  readonly clientMetadata?: ClientMetadata | undefined;
  /** Ask for refresh tokens (refresh_token grant, offline_access when the server lists it). Default true. */
  readonly offlineAccess?: boolean | undefined;
  /** Step-up authorizations allowed for one scope set (403 insufficient_scope). Default 2. */
  readonly maxStepUps?: number | undefined;
  /** Where tokens and registrations live. Default: in memory. */
  readonly store?: OAuthStore | undefined;
  readonly fetch?: typeof fetch | undefined;
  /**
   * Seconds each request to the authorization server or the resource's metadata may take,
   * body included (bodies over 1 MiB are refused, redirects are not followed). Default 10.
   */
  readonly timeoutSeconds?: number | undefined;
}

/** Where a server's tokens come from, as discovered. */
interface Binding {
  readonly resource: string;
  readonly issuer: string;
  readonly as: AuthorizationServerMetadata;
  readonly metadata: ResourceMetadata;
}

/** Refresh this long before the access token expires. */
const EXPIRY_MARGIN_MS = 30_000;

export class OAuthClient implements HttpAuth {
  private readonly store: OAuthStore;
  private readonly fetchFn: typeof fetch;
  private binding: Binding | undefined;
  private tokens: OAuthTokens | undefined;
  /** Scopes requested so far, per resource: step-up asks for their union with the challenge's. */
  private readonly requested = new Map<string, Set<string>>();
  private readonly stepUps = new Map<string, number>();
  /** The flow under way (authorization, refresh): other requests wait for it rather than start another. */
  private pending: Promise<boolean> | undefined;

  constructor(private readonly options: OAuthOptions) {
    this.store = options.store ?? memoryStore();
    const timeoutSeconds = options.timeoutSeconds ?? 10;
    if (!Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0)
      throw new OAuthError("timeoutSeconds must be a positive number of seconds");
    this.fetchFn = boundedFetch(options.fetch ?? ((input, init) => fetch(input, init)), {
      timeoutMs: timeoutSeconds * 1000,
    });
    if (options.clientMetadataUrl !== undefined) {
      const url = new URL(options.clientMetadataUrl);
      if (url.protocol !== "https:" || url.pathname === "/")
        throw new OAuthError("clientMetadataUrl must be an https URL with a path");
    }
  }

  /** The issuer of the authorization server in use, once discovered. */
  get issuer(): string | undefined {
    return this.binding?.issuer;
  }

  async authorization(url: URL): Promise<string | undefined> {
    if (this.pending) await this.pending.catch(() => false);
    const binding = this.binding;
    // Tokens go only to the resource they were issued for.
    if (!this.tokens || !binding || !resourceCovers(binding.resource, url)) return undefined;
    const expires = this.tokens.expires_at;
    if (expires !== undefined && Date.now() > expires - EXPIRY_MARGIN_MS && this.tokens.refresh_token !== undefined) {
      await this.single(() => this.refresh(binding)).catch(() => false);
    }
    return this.tokens ? `Bearer ${this.tokens.access_token}` : undefined;
  }

  async challenged(response: Response, url: URL): Promise<boolean> {
    if (this.pending) return this.pending.catch(() => false);
    return this.single(() => this.handle(response, url));
  }

  /** Runs `flow` as the one flow under way. */
  private single(flow: () => Promise<boolean>): Promise<boolean> {
    const run = flow().finally(() => {
      if (this.pending === run) this.pending = undefined;
    });
    this.pending = run;
    return run;
  }

  private async handle(response: Response, url: URL): Promise<boolean> {
    const challenge = bearerChallenge(response);
    if (!challenge) return false;
    const server = canonicalResource(url);
    const challenged = scopeList(challenge.params.scope);
    if (response.status === 403) {
      if (challenge.params.error !== "insufficient_scope" || challenged.length === 0) return false;
      const binding = this.binding ?? (await this.bind(server, challenge.params.resource_metadata));
      const wanted = this.union(binding.resource, challenged);
      const key = JSON.stringify([binding.resource, [...wanted].sort()]);
      const attempts = this.stepUps.get(key) ?? 0;
      // The server keeps asking for scopes already asked for: give up after a few rounds.
      if (attempts >= (this.options.maxStepUps ?? 2)) return false;
      this.stepUps.set(key, attempts + 1);
      await this.authorize(binding, wanted);
      return true;
    }
    if (response.status !== 401) return false;
    // Discover afresh: the server may have moved to another authorization server.
    const binding = await this.bind(server, challenge.params.resource_metadata);
    const key: TokenKey = { issuer: binding.issuer, resource: binding.resource };
    const stored = await this.store.tokens(key);
    if (stored && stored.access_token !== this.tokens?.access_token) {
      this.tokens = stored; // Not tried yet (from a persistent store, say).
      return true;
    }
    if (this.tokens?.refresh_token !== undefined && (await this.refresh(binding))) return true;
    const scopes = challenged.length > 0 ? challenged : [...(binding.metadata.scopes_supported ?? [])];
    await this.authorize(binding, this.union(binding.resource, scopes));
    return true;
  }

  /** Discovers the resource's metadata and authorization server; tokens of another server are dropped. */
  private async bind(server: URL, resourceMetadataUrl: string | undefined): Promise<Binding> {
    const metadata = await discoverResource(this.fetchFn, server, resourceMetadataUrl);
    // RFC 9728 section 7.6 leaves the choice to the client: the first listed.
    const issuer = metadata.authorization_servers![0]!;
    const as = await discoverAuthorizationServer(this.fetchFn, issuer);
    // The resource parameter names what the metadata says the resource is (checked to cover `server`).
    const binding: Binding = { resource: metadata.resource, issuer, as, metadata };
    if (this.binding?.issuer !== issuer || this.binding.resource !== binding.resource) this.tokens = undefined;
    this.binding = binding;
    return binding;
  }

  private union(resource: string, scopes: readonly string[]): Set<string> {
    return new Set([...(this.requested.get(resource) ?? []), ...scopes]);
  }

  /** The authorization code flow with PKCE; stores the tokens it gets. */
  private async authorize(binding: Binding, scopes: Set<string>): Promise<void> {
    const { as, resource } = binding;
    if (!as.code_challenge_methods_supported?.includes("S256")) {
      // MCP: a server that does not advertise S256 cannot be trusted to enforce PKCE.
      throw new OAuthError(
        `authorization server ${binding.issuer} does not advertise PKCE S256 (code_challenge_methods_supported)`,
      );
    }
    if (as.authorization_endpoint === undefined)
      throw new OAuthError(`authorization server ${binding.issuer} has no authorization_endpoint`);
    const client = await this.clientFor(binding);
    const redirectUri = String(this.options.redirectUri);
    const verifier = o.generateRandomCodeVerifier();
    const state = o.generateRandomState();
    const url = new URL(as.authorization_endpoint);
    url.searchParams.set("response_type", "code");
    url.searchParams.set("client_id", client.client_id);
    url.searchParams.set("redirect_uri", redirectUri);
    url.searchParams.set("code_challenge", await o.calculatePKCECodeChallenge(verifier));
    url.searchParams.set("code_challenge_method", "S256");
    url.searchParams.set("state", state);
    this.requested.set(resource, scopes);
    const scope = [...scopes];
    if (this.wantsRefresh && as.scopes_supported?.includes("offline_access") && !scopes.has("offline_access"))
      scope.push("offline_access");
    if (scope.length > 0) url.searchParams.set("scope", scope.join(" "));
    url.searchParams.set("resource", resource);

    const callback = new URL(String(await this.options.redirectToAuthorization(url)));
    const asMeta = as as unknown as o.AuthorizationServer;
    const oauthClient: o.Client = { client_id: client.client_id };
    let parameters: URLSearchParams;
    try {
      // Checks iss (RFC 9207: present iss compared as a string, required when advertised) before state and error.
      parameters = o.validateAuthResponse(asMeta, oauthClient, callback, state);
    } catch (error) {
      throw this.wrap("the authorization response was rejected", error);
    }
    try {
      const response = await o.authorizationCodeGrantRequest(
        asMeta,
        oauthClient,
        this.clientAuth(client, as),
        parameters,
        redirectUri,
        verifier,
        {
          ...this.http(as.token_endpoint),
          additionalParameters: { resource },
        },
      );
      await this.save(binding, await o.processAuthorizationCodeResponse(asMeta, oauthClient, response), undefined);
    } catch (error) {
      throw this.wrap("the token request failed", error);
    }
  }

  /** Uses the refresh token; on failure forgets the tokens. Returns whether it got new ones. */
  private async refresh(binding: Binding): Promise<boolean> {
    const tokens = this.tokens;
    if (tokens?.refresh_token === undefined) return false;
    try {
      const client = await this.clientFor(binding);
      const asMeta = binding.as as unknown as o.AuthorizationServer;
      const oauthClient: o.Client = { client_id: client.client_id };
      const response = await o.refreshTokenGrantRequest(
        asMeta,
        oauthClient,
        this.clientAuth(client, binding.as),
        tokens.refresh_token,
        {
          ...this.http(binding.as.token_endpoint),
          additionalParameters: { resource: binding.resource },
        },
      );
      await this.save(
        binding,
        await o.processRefreshTokenResponse(asMeta, oauthClient, response),
        tokens.refresh_token,
      );
      return true;
    } catch {
      this.tokens = undefined;
      await this.store.saveTokens({ issuer: binding.issuer, resource: binding.resource }, undefined);
      return false;
    }
  }

  private async save(
    binding: Binding,
    result: o.TokenEndpointResponse,
    previousRefresh: string | undefined,
  ): Promise<void> {
    const tokens: OAuthTokens = {
      access_token: result.access_token,
      token_type: result.token_type,
      // A refresh response without a refresh token leaves the old one in force (RFC 6749 section 6).
      refresh_token: result.refresh_token ?? previousRefresh,
      expires_at: typeof result.expires_in === "number" ? Date.now() + result.expires_in * 1000 : undefined,
      scope: result.scope,
    };
    this.tokens = tokens;
    await this.store.saveTokens({ issuer: binding.issuer, resource: binding.resource }, tokens);
  }

  private get wantsRefresh(): boolean {
    return this.options.offlineAccess ?? true;
  }

  /** The client id for this authorization server: pre-registered, metadata document, stored or new registration. */
  private async clientFor(binding: Binding): Promise<OAuthClientInformation> {
    const { issuer, as } = binding;
    const configured = this.options.client;
    const preregistered =
      typeof configured === "function"
        ? configured(issuer)
        : configured && (configured.issuer === undefined || configured.issuer === issuer)
          ? configured
          : undefined;
    if (preregistered) return preregistered;
    if (as.client_id_metadata_document_supported === true && this.options.clientMetadataUrl !== undefined) {
      return { client_id: this.options.clientMetadataUrl, token_endpoint_auth_method: "none" };
    }
    const stored = await this.store.clientInformation(issuer);
    const expired =
      stored?.client_secret_expires_at !== undefined &&
      stored.client_secret_expires_at !== 0 &&
      stored.client_secret_expires_at * 1000 < Date.now();
    if (stored && !expired) return stored;
    if (as.registration_endpoint === undefined) {
      throw new OAuthError(
        `no client id for authorization server ${issuer}: it supports neither client ID metadata documents (or none was configured) nor dynamic client registration, and no client is pre-registered`,
      );
    }
    const client = await this.register(binding);
    await this.store.saveClientInformation(issuer, client);
    return client;
  }

  /** Dynamic client registration (RFC 7591) with the binding's authorization server. */
  private async register(binding: Binding): Promise<OAuthClientInformation> {
    const redirect = new URL(String(this.options.redirectUri));
    const supported = binding.as.token_endpoint_auth_methods_supported;
    // A public client where the server allows it (a CLI cannot keep a secret).
    const method =
      supported === undefined
        ? undefined
        : ["none", "client_secret_basic", "client_secret_post"].find((m) => supported.includes(m));
    const metadata: Record<string, unknown> = {
      redirect_uris: [redirect.href],
      client_name: this.options.clientName ?? "MCP client",
      // Loopback and private-scheme redirects are native apps (SEP-837).
      application_type:
        isLoopback(redirect) || (redirect.protocol !== "https:" && redirect.protocol !== "http:") ? "native" : "web",
      grant_types: this.wantsRefresh ? ["authorization_code", "refresh_token"] : ["authorization_code"],
      response_types: ["code"],
      ...(method !== undefined ? { token_endpoint_auth_method: method } : {}),
      ...this.options.clientMetadata,
    };
    try {
      const response = await o.dynamicClientRegistrationRequest(
        binding.as as unknown as o.AuthorizationServer,
        metadata as Partial<o.OmitSymbolProperties<o.Client>>,
        this.http(binding.as.registration_endpoint),
      );
      // Parsed here rather than by oauth4webapi, which insists on client_secret_expires_at
      // next to a secret (RFC 7591 says so, but many servers omit it).
      const body: unknown = await response.json().catch(() => undefined);
      const registered = (body !== null && typeof body === "object" ? body : {}) as Record<string, unknown>;
      if (response.status !== 201 && response.status !== 200) {
        throw new OAuthError(
          `HTTP ${response.status}${typeof registered.error === "string" ? `: ${registered.error}` : ""}`,
        );
      }
      if (typeof registered.client_id !== "string" || registered.client_id === "")
        throw new OAuthError("the response has no client_id");
      return {
        client_id: registered.client_id,
        client_secret: typeof registered.client_secret === "string" ? registered.client_secret : undefined,
        token_endpoint_auth_method:
          typeof registered.token_endpoint_auth_method === "string" ? registered.token_endpoint_auth_method : undefined,
        client_secret_expires_at:
          typeof registered.client_secret_expires_at === "number" ? registered.client_secret_expires_at : undefined,
      };
    } catch (error) {
      throw this.wrap(`dynamic client registration with ${binding.issuer} failed`, error);
    }
  }

  /** Token endpoint client authentication: what the registration says, else the best the server supports. */
  private clientAuth(client: OAuthClientInformation, as: AuthorizationServerMetadata): o.ClientAuth {
    const secret = client.client_secret;
    let method = client.token_endpoint_auth_method;
    if (method === undefined) {
      // RFC 8414: client_secret_basic when the server lists nothing.
      const supported = as.token_endpoint_auth_methods_supported ?? ["client_secret_basic"];
      method =
        secret === undefined
          ? "none"
          : supported.includes("client_secret_basic")
            ? "client_secret_basic"
            : supported.includes("client_secret_post")
              ? "client_secret_post"
              : "client_secret_basic";
    }
    switch (method) {
      case "none":
        return o.None();
      case "client_secret_basic":
      case "client_secret_post":
        if (secret === undefined)
          throw new OAuthError(`client ${client.client_id} uses ${method} but has no client_secret`);
        return method === "client_secret_basic" ? clientSecretBasic(secret) : o.ClientSecretPost(secret);
      default:
        throw new OAuthError(`unsupported token endpoint authentication method ${method}`);
    }
  }

  /** oauth4webapi request options: plain http only to loopback hosts, and our bounded fetch. */
  private http(endpoint: string | undefined): { [o.allowInsecureRequests]?: boolean; [o.customFetch]?: typeof fetch } {
    const insecure = endpoint !== undefined && isInsecureLoopback(requireSecure(endpoint, "endpoint"));
    return { [o.allowInsecureRequests]: insecure, [o.customFetch]: this.fetchFn };
  }

  /**
   * An OAuthError that says what failed without echoing tokens or secrets: oauth4webapi's
   * errors carry the response body or callback parameters as `cause` (a token response,
   * a client secret, an authorization code), so they are not kept.
   */
  private wrap(what: string, error: unknown): OAuthError {
    if (error instanceof OAuthError) return error;
    if (error instanceof o.ResponseBodyError || error instanceof o.AuthorizationResponseError) {
      return new OAuthError(`${what}: ${error.error}${error.error_description ? ` (${error.error_description})` : ""}`);
    }
    if (error instanceof o.OperationProcessingError) return new OAuthError(`${what}: ${error.message}`);
    return new OAuthError(`${what}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

/**
 * client_secret_basic (RFC 6749 section 2.3.1): id and secret form-urlencoded, then HTTP
 * Basic. The standard form encoding (URLSearchParams) leaves "-", ".", "_" and "*" as they
 * are; oauth4webapi's stricter one escapes them, which servers that skip the decoding
 * step (many do) reject.
 */
function clientSecretBasic(secret: string): o.ClientAuth {
  const encode = (value: string) => new URLSearchParams([["", value]]).toString().slice(1);
  return (_as, client, _body, headers) => {
    headers.set("authorization", `Basic ${btoa(`${encode(client.client_id)}:${encode(secret)}`)}`);
  };
}

/** An HttpAuth that authorizes a channel with OAuth, as MCP authorization prescribes. */
export function oauth(options: OAuthOptions): OAuthClient {
  return new OAuthClient(options);
}
