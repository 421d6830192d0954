// A node:http API for the test/import/upstream-*.test.ts files: each request goes to a handler
// that checks it exactly and answers; a request it did not expect (the handler calls
// `refuse`, or throws) is answered 400 and recorded in `unexpected`, which tests assert empty.
import { once } from "node:events";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export interface Exchange {
  readonly method: string;
  readonly path: string;
  /** The query as sent, without `?`. */
  readonly rawQuery: string;
  readonly headers: IncomingHttpHeaders;
  readonly bytes: Buffer;
}

export interface Answer {
  readonly status: number;
  /** JSON unless `type` says otherwise (a string or Buffer is sent as it is). */
  readonly body?: unknown;
  readonly type?: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/** What a handler calls on a request it did not expect. */
export const refuse = (why: string): never => {
  throw new Error(why);
};

export interface UpstreamServer {
  readonly url: string;
  readonly unexpected: string[];
  /** Every request's method and URL, in order. */
  readonly seen: string[];
  /** Requests whose client went away before the answer, by method and URL. */
  readonly abandoned: string[];
  close(): Promise<void>;
}

export async function startUpstream(
  handler: (exchange: Exchange) => Answer | Promise<Answer>,
): Promise<UpstreamServer> {
  const unexpected: string[] = [];
  const seen: string[] = [];
  const abandoned: string[] = [];
  const server = createServer((request, response) => {
    const what = `${request.method} ${request.url}`;
    seen.push(what);
    response.on("close", () => {
      if (!response.writableEnded) abandoned.push(what);
    });
    const send = ({ status, body, type = "application/json", headers = {} }: Answer) => {
      if (response.destroyed) return;
      if (body === undefined) return void response.writeHead(status, headers).end();
      const bytes = Buffer.isBuffer(body) ? body : Buffer.from(typeof body === "string" ? body : JSON.stringify(body));
      response.writeHead(status, { ...headers, "content-type": type, "content-length": bytes.length }).end(bytes);
    };
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const url = new URL(request.url!, "http://upstream");
      send(
        await handler({
          method: request.method!,
          path: url.pathname,
          rawQuery: url.search.slice(1),
          headers: request.headers,
          bytes: Buffer.concat(chunks),
        }),
      );
    })().catch((error: unknown) => {
      const why = error instanceof Error ? error.message : String(error);
      unexpected.push(`${what}: ${why}`);
      send({ status: 400, body: { message: why } });
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    unexpected,
    seen,
    abandoned,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
