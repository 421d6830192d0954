// A loopback redirect for OAuth in CLI hosts (RFC 8252 section 7.3): a node:http listener on
// 127.0.0.1 that takes the authorization server's redirect back. Each authorization listens
// for one callback and then closes (or gives up after a timeout); the port picked first is
// kept, since dynamic registration records the redirect URI with it. Opening the browser
// is the caller's: pass `open`.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface LoopbackRedirectOptions {
  /** Sends the user's browser to the authorization URL. */
  open(url: URL): void | Promise<void>;
  /** Default 0: a free port, chosen once. */
  readonly port?: number | undefined;
  /** Default "/callback". */
  readonly path?: string | undefined;
  /** How long one authorization may take. Default 5 minutes. */
  readonly timeoutMs?: number | undefined;
  /** The page the browser shows after the redirect. */
  readonly html?: string | undefined;
}

export interface LoopbackRedirect {
  /** http://127.0.0.1:<port><path>, for OAuthOptions.redirectUri. */
  readonly redirectUri: string;
  /** For OAuthOptions.redirectToAuthorization: opens `url`, resolves with the URL the browser came back to. */
  redirectToAuthorization(url: URL): Promise<URL>;
  /** Stops listening (an authorization waiting fails). */
  close(): void;
}

const PAGE = "<!doctype html><title>Authorized</title><p>Authorization complete. You can close this window.</p>";

function listen(port: number): Promise<Server> {
  return new Promise((resolveListen, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      server.off("error", reject);
      resolveListen(server);
    });
  });
}

/** Starts listening on 127.0.0.1 (so the redirect URI and its port are known before any authorization). */
export async function loopbackRedirect(options: LoopbackRedirectOptions): Promise<LoopbackRedirect> {
  const path = options.path ?? "/callback";
  const timeoutMs = options.timeoutMs ?? 300_000;
  let server: Server | undefined = await listen(options.port ?? 0);
  const port = (server.address() as AddressInfo).port;
  const redirectUri = `http://127.0.0.1:${port}${path}`;
  let abort: ((error: Error) => void) | undefined;

  const stop = () => {
    const closing = server;
    server = undefined;
    closing?.close();
    // The callback's own response has "connection: close"; idle browser sockets are dropped.
    closing?.closeIdleConnections();
  };

  return {
    redirectUri,
    async redirectToAuthorization(url) {
      if (abort) throw new Error("an authorization is already waiting for its redirect");
      const listening = server ?? (await listen(port));
      server = listening;
      const callback = new Promise<URL>((resolveCallback, reject) => {
        const timer = setTimeout(
          () => finish(new Error(`no authorization redirect within ${timeoutMs} ms`)),
          timeoutMs,
        );
        const finish = (error: Error | undefined, value?: URL) => {
          clearTimeout(timer);
          listening.off("request", onRequest);
          abort = undefined;
          stop();
          if (error) reject(error);
          else resolveCallback(value!);
        };
        const onRequest = (request: IncomingMessage, response: ServerResponse) => {
          const target = new URL(request.url ?? "/", redirectUri);
          if (request.method !== "GET" || target.pathname !== path) {
            response.writeHead(404).end();
            return;
          }
          response
            .writeHead(200, { "content-type": "text/html; charset=utf-8", connection: "close" })
            .end(options.html ?? PAGE);
          finish(undefined, target);
        };
        listening.on("request", onRequest);
        abort = (error) => finish(error);
      });
      const cancel = abort as ((error: Error) => void) | undefined;
      try {
        await options.open(url);
      } catch (error) {
        cancel?.(error instanceof Error ? error : new Error(String(error)));
      }
      return callback;
    },
    close() {
      if (abort) abort(new Error("the loopback redirect listener was closed"));
      else stop();
    },
  };
}
