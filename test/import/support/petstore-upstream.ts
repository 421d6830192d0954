// The Petstore APIs of test/import/fixtures as real HTTP servers (node:http), written from their
// documents: each route checks the method, path, query, headers, cookies, body and credentials
// exactly as the document says they travel, answers as the document says, and answers some
// inputs with the document's error responses. Anything it did not expect is answered 400 and
// recorded in `unexpected`, which the tests assert empty.
import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface Upstream {
  readonly url: string;
  /** Requests the server did not expect, each with why. */
  readonly unexpected: string[];
  /** Every request's method and URL, in order. */
  readonly seen: string[];
  /** Requests whose client went away before the answer (aborted), by method and URL. */
  readonly abandoned: string[];
  close(): Promise<void>;
}

export const credentials = {
  apiKey: "key-123",
  bearer: "token-456",
  swaggerKey: "swagger-key",
  user: "ada",
  password: "p@ss:word",
} as const;

/** A tiny PNG (1×1), the photo every pet has. */
export const photo = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);

export const pets = [
  { id: "1", name: "Rex", tag: "dog", category: { name: "animals", children: [{ name: "dogs" }] } },
  { id: "a/b c", name: "Tom", tag: null },
];
export const categoryTree = {
  name: "animals",
  children: [{ name: "dogs", children: [{ name: "puppies" }] }, { name: "cats" }],
};

interface Call {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly rawQuery: string;
  readonly headers: IncomingMessage["headers"];
  readonly body: string;
}

type Route = (
  call: Call,
  answer: (status: number, body?: unknown, type?: string) => void,
  refuse: (why: string) => void,
) => void | Promise<void>;

async function serve(routes: (base: string) => Route): Promise<Upstream> {
  const unexpected: string[] = [];
  const seen: string[] = [];
  const abandoned: string[] = [];
  let base = "";
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const url = new URL(request.url!, "http://upstream");
    seen.push(`${request.method} ${request.url}`);
    response.on("close", () => {
      if (!response.writableEnded) abandoned.push(`${request.method} ${request.url}`);
    });
    const call: Call = {
      method: request.method!,
      path: url.pathname,
      query: url.searchParams,
      rawQuery: url.search.slice(1),
      headers: request.headers,
      body: Buffer.concat(chunks).toString("utf8"),
    };
    const answer = (status: number, body?: unknown, type = "application/json") => {
      if (body === undefined) return void response.writeHead(status).end();
      if (response.destroyed) return;
      const bytes = Buffer.isBuffer(body) ? body : Buffer.from(typeof body === "string" ? body : JSON.stringify(body));
      response.writeHead(status, { "content-type": type, "content-length": bytes.length }).end(bytes);
    };
    const refuse = (why: string) => {
      unexpected.push(`${request.method} ${request.url}: ${why}`);
      answer(400, { code: 400, message: why });
    };
    try {
      await routes(base)(call, answer, refuse);
    } catch (error) {
      refuse(String(error));
    }
  };
  // A request that fails before its route runs (the client left mid-body) is recorded, never an unhandled rejection.
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    handle(request, response).catch((error: unknown) => {
      unexpected.push(`${request.method} ${request.url}: ${String(error)}`);
      response.destroy();
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    unexpected,
    seen,
    abandoned,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** `a` equals `b` as JSON values, keys in any order. */
const same = (a: unknown, b: unknown): boolean => JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b));
const sortKeys = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(sortKeys)
    : typeof v === "object" && v !== null
      ? Object.fromEntries(
          Object.entries(v)
            .sort(([x], [y]) => (x < y ? -1 : 1))
            .map(([k, w]) => [k, sortKeys(w)]),
        )
      : v;

/** petstore-3.0.yaml under /v1. Security: X-API-Key everywhere, bearer for createPet. */
export function petstore3(): Promise<Upstream> {
  return serve(() => (call, answer, refuse) => {
    const route = `${call.method} ${call.path}`;
    const bearer = route === "POST /v1/pets";
    if (
      bearer
        ? call.headers.authorization !== `Bearer ${credentials.bearer}`
        : call.headers["x-api-key"] !== credentials.apiKey
    ) {
      return answer(401, { code: 401, message: "bad credentials" });
    }
    if (bearer && call.headers["x-api-key"] !== undefined)
      return refuse("createPet's security is bearer alone, but an API key came too");
    if (call.headers.cookie !== undefined && route !== "GET /v1/owners/5/pets")
      return refuse(`no cookie parameter here, got ${call.headers.cookie}`);
    const json = call.headers["content-type"] === "application/json";
    switch (route) {
      case "GET /v1/pets": {
        // limit=2&tags=a%20b&tags=c&status=available (form, exploded), X-Request-Id header.
        if (call.rawQuery !== "limit=2&tags=a%20b&tags=c%2Fd&status=available") return refuse(`query ${call.rawQuery}`);
        if (call.headers["x-request-id"] !== "r-1")
          return refuse(`X-Request-Id ${String(call.headers["x-request-id"])}`);
        if (call.body !== "") return refuse("a GET with a body");
        return answer(200, pets);
      }
      case "POST /v1/pets": {
        if (!json) return refuse(`content type ${String(call.headers["content-type"])}`);
        const body = JSON.parse(call.body) as { name?: string };
        if (body.name === "taken") return answer(422, { code: 422, message: "a pet named taken exists already" });
        if (!same(body, { name: "Fido", tag: null, secret: "s" })) return refuse(`body ${call.body}`);
        return answer(201, { id: "3", name: "Fido", tag: null });
      }
      case "GET /v1/pets/search": {
        // deepObject filter, form non-exploded ids.
        if (call.rawQuery !== "filter%5Bname%5D=R%26x&filter%5Bage%5D=3&ids=1,2")
          return refuse(`query ${call.rawQuery}`);
        return answer(200, { total: 1, pets: [pets[0]] });
      }
      case "GET /v1/pets/a%2Fb%20c":
        return call.rawQuery === "" ? answer(200, pets[1]) : refuse(`query ${call.rawQuery}`);
      case "GET /v1/pets/404":
        return answer(404, { code: 404, message: "no pet 404" });
      case "GET /v1/pets/slow":
        return new Promise<void>((resolve) => setTimeout(() => resolve(answer(200, pets[0])), 4_000));
      case "PUT /v1/pets/1": {
        if (call.rawQuery !== "body=true") return refuse(`query ${call.rawQuery}`);
        if (!json || !same(JSON.parse(call.body), { name: "Rex II" })) return refuse(`body ${call.body}`);
        return answer(200, { ...pets[0], name: "Rex II" });
      }
      case "PUT /v1/pets/2":
        // An answer that breaks the document's own output schema (name missing).
        return answer(200, { id: "2" });
      case "DELETE /v1/pets/1":
        return answer(204);
      case "GET /v1/pets/1/photo":
        return answer(200, photo, "image/png");
      case "GET /v1/owners/5/pets":
        if (call.headers.cookie !== "session=s%201") return refuse(`cookie ${String(call.headers.cookie)}`);
        return answer(200, "Rex\nTom", "text/plain; charset=utf-8");
      case "GET /v1/categories":
        return answer(200, categoryTree);
      case "GET /v1/categories/all":
        return answer(200, [categoryTree, { name: "plants" }]);
      default:
        return refuse("no such route in the document");
    }
  });
}

/** petstore-2.0.json under /v2. Security: api_key in the query everywhere, HTTP basic for addPet. */
export function petstore2(): Promise<Upstream> {
  return serve(() => (call, answer, refuse) => {
    const route = `${call.method} ${call.path}`;
    const basic = route === "POST /v2/pets";
    const query = new URLSearchParams(call.query);
    if (basic) {
      if (
        call.headers.authorization !==
        `Basic ${Buffer.from(`${credentials.user}:${credentials.password}`).toString("base64")}`
      )
        return answer(401, { code: 401, message: "who are you" });
      if (query.has("api_key")) return refuse("addPet's security is basic alone, but an API key came too");
    } else {
      if (query.get("api_key") !== credentials.swaggerKey) return answer(401, { code: 401, message: "bad api_key" });
      query.delete("api_key");
    }
    switch (route) {
      case "GET /v2/pets":
        // collectionFormat: multi → tags=a&tags=b.
        if (query.toString() !== "tags=a&tags=b&limit=5") return refuse(`query ${call.rawQuery}`);
        return answer(200, [{ id: 1, name: "Rex", tag: "a" }]);
      case "POST /v2/pets":
        if (call.headers["content-type"] !== "application/json" || !same(JSON.parse(call.body), { name: "Fido" }))
          return refuse(`body ${call.body}`);
        return answer(200, { id: 2, name: "Fido" });
      case "GET /v2/pets/1":
        return answer(200, { id: 1, name: "Rex" });
      case "GET /v2/pets/9":
        return answer(404, { code: 404, message: "no pet 9" });
      case "DELETE /v2/pets/1":
        return answer(204);
      default:
        return refuse("no such route in the document");
    }
  });
}
