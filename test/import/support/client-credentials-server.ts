// A real OAuth 2 authorization server (oidc-provider) for the client credentials grant
// (RFC 6749 §4.4), on 127.0.0.1: confidential clients registered up front, authenticated with
// client_secret_basic; access tokens are JWTs (RS256, published at /jwks) for one resource
// server, carrying the granted scopes. It counts the token requests it receives.
import { generateKeyPair, randomUUID } from "node:crypto";
import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { promisify } from "node:util";
import { quietly } from "../../support/authorization-server.js";

export interface ClientCredentialsClient {
  readonly id: string;
  readonly secret: string;
  /** Seconds its access tokens live. */
  readonly ttl: number;
}

export interface ClientCredentialsServer {
  readonly issuer: string;
  readonly tokenUrl: string;
  readonly jwksUrl: string;
  /** The audience of every access token. */
  readonly resource: string;
  /** Token requests received, by client id (from the Basic credentials), in order. */
  readonly tokenRequests: string[];
  close(): Promise<void>;
}

interface OidcProviderModule {
  default: new (
    issuer: string,
    configuration: object,
  ) => {
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
  };
}
// Non-literal: oidc-provider ships no type declarations; the slice used is typed above.
const providerSpecifier: string = "oidc-provider";

export async function startClientCredentialsServer(options: {
  clients: readonly ClientCredentialsClient[];
  scopes: readonly string[];
  resource: string;
}): Promise<ClientCredentialsServer> {
  const { default: Provider } = await quietly(() => import(providerSpecifier) as Promise<OidcProviderModule>);
  const { privateKey } = await promisify(generateKeyPair)("rsa", { modulusLength: 2048 });
  const signingKey = { ...privateKey.export({ format: "jwk" }), kid: randomUUID(), alg: "RS256", use: "sig" };
  const ttl = new Map(options.clients.map((c) => [c.id, c.ttl]));
  const tokenRequests: string[] = [];
  let handle: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  const server = createServer((req, res) => {
    if (req.url?.startsWith("/token")) {
      const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? "")?.[1];
      const id = basic === undefined ? "" : decodeURIComponent(Buffer.from(basic, "base64").toString().split(":")[0]!);
      tokenRequests.push(id);
    }
    handle!(req, res);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const scope = options.scopes.join(" ");
  const provider = await quietly(
    async () =>
      new Provider(issuer, {
        jwks: { keys: [signingKey] },
        clients: options.clients.map((c) => ({
          client_id: c.id,
          client_secret: c.secret,
          grant_types: ["client_credentials"],
          response_types: [],
          redirect_uris: [],
          token_endpoint_auth_method: "client_secret_basic",
          scope,
        })),
        scopes: [...options.scopes],
        responseTypes: ["code"],
        ttl: {
          ClientCredentials: (_ctx: unknown, _token: unknown, client: { clientId: string }) => ttl.get(client.clientId),
        },
        findAccount: (_ctx: unknown, sub: string) => ({ accountId: sub, claims: () => ({ sub }) }),
        renderError: (ctx: { type: string; body: unknown }, out: unknown) => {
          ctx.type = "json";
          ctx.body = out;
        },
        features: {
          devInteractions: { enabled: false },
          clientCredentials: { enabled: true },
          resourceIndicators: {
            enabled: true,
            // The API's documents name no resource: every token is for it.
            defaultResource: () => options.resource,
            useGrantedResource: () => true,
            getResourceServerInfo: (_ctx: unknown, _indicator: string, client: { clientId: string }) => ({
              scope,
              audience: options.resource,
              accessTokenTTL: ttl.get(client.clientId) ?? 300,
              accessTokenFormat: "jwt",
              jwt: { sign: { alg: "RS256" } },
            }),
          },
        },
      }),
  );
  handle = provider.callback();
  return {
    issuer,
    tokenUrl: `${issuer}/token`,
    jwksUrl: `${issuer}/jwks`,
    resource: options.resource,
    tokenRequests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
