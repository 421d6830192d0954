// docs/deployment.md, "Node behind a reverse proxy", as written: the guide's nginx server block
// (its listen port, upstream port and certificate paths replaced, nothing else) terminates TLS
// for mcp.example.test in front of the notes example started with the guide's flags, and the
// test reaches it by that public name (resolved to 127.0.0.1 by the test's own HTTPS client,
// as an /etc/hosts line would). The certificate is a fixture for that name, valid until 2126:
//   openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 36500 \
//     -keyout mcp.example.test.key -out mcp.example.test.crt -subj /CN=mcp.example.test \
//     -addext subjectAltName=DNS:mcp.example.test
// Tokens come from the test authorization server through the runtime's OAuth client, which
// discovers everything from the public URL. nginx is required (CI installs nginx-light): without it this FAILS.
import { readFileSync } from "node:fs";
import { request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";
import { join } from "node:path";
import { Readable } from "node:stream";
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpChannel } from "@mcp-gen/runtime";
import { oauth } from "@mcp-gen/runtime/oauth";
import { connectNotesClient, type NotesClient } from "../../examples/notes/src/mcp/index.js";
import { startAuthorizationServer, type AuthorizationServer } from "../support/authorization-server.js";
import { repoRoot } from "../support/paths.js";
import { firstText, startHttpServer, stopAllChildren, type HttpServerProcess } from "./helpers.js";
import { freePort, startNginx, type Nginx } from "./proxy.js";

const guide = readFileSync(join(repoRoot, "docs", "deployment.md"), "utf8");
const notesMain = join(repoRoot, "examples", "notes", "src", "main.ts");
const tls = join(repoRoot, "test", "e2e", "fixtures", "tls");
const ca = readFileSync(join(tls, "mcp.example.test.crt"));
const publicName = "mcp.example.test";

/** The guide's code block after `<!-- marker -->`. */
function block(marker: string): string {
  const found = new RegExp(
    `<!-- ${marker.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} -->\\n\`\`\`[a-z]*\\n([\\s\\S]*?)\\n\`\`\``,
  ).exec(guide);
  expect(found, `docs/deployment.md has a block marked <!-- ${marker} -->`).not.toBeNull();
  return `${found![1]!}\n`;
}

/** `text` with `from` replaced by `to`, `from` occurring exactly once. */
function replaceOnce(text: string, from: string, to: string): string {
  expect(text.split(from).length - 1, `the guide's nginx block has exactly one \`${from}\``).toBe(1);
  return text.replace(from, () => to);
}

/** mcp.example.test is this machine, as an /etc/hosts line would say. */
const loopback = ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
  if (options.all) callback(null, [{ address: "127.0.0.1", family: 4 }]);
  else callback(null, "127.0.0.1", 4);
}) as unknown as LookupFunction;

interface RawInit {
  readonly method?: string | undefined;
  readonly headers?: RequestInit["headers"] | undefined;
  readonly body?: string | undefined;
  readonly signal?: AbortSignal | undefined;
}

/** HTTPS to the public name (trusting the fixture certificate); the response streams as it comes. */
function publicRequest(url: URL, init: RawInit = {}): Promise<Response> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, name) => (headers[name] = value));
    const req = httpsRequest(
      url,
      { method: init.method ?? "GET", headers, ca, servername: url.hostname, lookup: loopback, signal: init.signal },
      (res) => {
        const responseHeaders = new Headers();
        for (let i = 0; i < res.rawHeaders.length; i += 2)
          responseHeaders.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
        const status = res.statusCode ?? 0;
        const body = status === 204 || status === 304 ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>);
        resolve(new Response(body, { status, headers: responseHeaders }));
      },
    );
    req.once("error", reject);
    req.end(init.body);
  });
}

/** fetch as a client on the internet has it: the public name over HTTPS, anything else as usual. */
const publicFetch: typeof fetch = async (input, init) => {
  const url = new URL(input instanceof Request ? input.url : String(input));
  if (url.hostname !== publicName) return fetch(input, init);
  if (input instanceof Request || (init?.body !== undefined && init.body !== null && typeof init.body !== "string")) {
    throw new Error("publicFetch: only string bodies and URL inputs are expected here");
  }
  return publicRequest(url, {
    method: init?.method,
    headers: init?.headers,
    body: init?.body ?? undefined,
    signal: init?.signal ?? undefined,
  });
};

let as: AuthorizationServer;
let notes: HttpServerProcess;
let nginx: Nginx | undefined;
/** https://mcp.example.test:<port>/mcp: the port is the test's, everything else the guide's. */
let publicUrl = "";
let metadataUrl = "";

beforeAll(async () => {
  as = await startAuthorizationServer({ scopes: ["notes:read", "notes:write"] });
  const port = await freePort();
  publicUrl = `https://${publicName}:${port}/mcp`;
  metadataUrl = `https://${publicName}:${port}/.well-known/oauth-protected-resource/mcp`;
  as.setResource(publicUrl);
  // The guide's command line, on a free port.
  notes = await startHttpServer(
    notesMain,
    "--issuer",
    as.issuer,
    "--port",
    "0",
    "--resource",
    publicUrl,
    "--allowed-hosts",
    publicName,
  );
  let config = block("deploy-file: nginx/notes.conf");
  config = replaceOnce(config, "listen 443 ssl;", `listen 127.0.0.1:${port} ssl;`);
  config = replaceOnce(config, "server 127.0.0.1:3000;", `server ${new URL(notes.url).host};`);
  config = replaceOnce(config, "/etc/ssl/certs/mcp.example.test.crt", join(tls, "mcp.example.test.crt"));
  config = replaceOnce(config, "/etc/ssl/private/mcp.example.test.key", join(tls, "mcp.example.test.key"));
  nginx = await startNginx(config, `nginx on ${publicUrl}`, () =>
    publicFetch(metadataUrl).then((r) => r.status === 200),
  );
});

afterAll(async () => {
  await nginx?.stop();
  await stopAllChildren();
  await as?.close();
});

describe("docs/deployment.md: the notes example behind nginx, reached as https://mcp.example.test", () => {
  it("shows the listenHttp options main.ts passes", () => {
    const main = readFileSync(notesMain, "utf8");
    expect(main).toContain(block("excerpt-of: examples/notes/src/main.ts").trimEnd());
    expect(guide).toContain("--port 3000 --resource https://mcp.example.test/mcp --allowed-hosts mcp.example.test");
  });

  it("challenges with the public metadata URL, whose document names the public resource", async () => {
    const unauthorized = await publicFetch(publicUrl, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
      }),
    });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get("www-authenticate")).toBe(
      `Bearer scope="notes:read", resource_metadata="${metadataUrl}"`,
    );
    const metadata = await publicFetch(metadataUrl);
    expect(metadata.status).toBe(200);
    expect(await metadata.json()).toMatchObject({ resource: publicUrl, authorization_servers: [as.issuer] });
  });

  for (const revision of ["2025-11-25", "2026-07-28"] as const) {
    it(`the OAuth client discovers, authorizes and calls list_notes through the proxy (${revision})`, async () => {
      const sent: string[] = [];
      const observe: typeof fetch = (input, init) => {
        const authorization = new Headers(init?.headers).get("authorization");
        if (String(input).startsWith(publicUrl) && authorization) sent.push(authorization.replace(/^Bearer /, ""));
        return publicFetch(input, init);
      };
      const auth = oauth({
        redirectUri: "http://127.0.0.1:8976/callback",
        clientName: `deploy guide (${revision})`,
        redirectToAuthorization: (url) => as.approve(url),
        fetch: observe,
      });
      const client: NotesClient = await connectNotesClient(httpChannel(publicUrl, { auth, fetch: observe }), {
        revisions: [revision],
      });
      try {
        expect(client.session.revision).toBe(revision);
        expect(firstText((await client.tools.listNotes()).content)).toBe("No notes yet.");
        expect(decodeJwt(sent.at(-1)!).aud).toBe(publicUrl);
      } finally {
        await client.close();
      }
    });
  }

  /** A token for the public resource, as the client above got one. */
  async function token(): Promise<string> {
    const auth = oauth({
      redirectUri: "http://127.0.0.1:8976/callback",
      clientName: "deploy guide (raw)",
      redirectToAuthorization: (url) => as.approve(url),
      fetch: publicFetch,
    });
    const client = await connectNotesClient(httpChannel(publicUrl, { auth, fetch: publicFetch }), {
      revisions: ["2026-07-28"],
    });
    await client.close();
    const authorization = await auth.authorization(new URL(publicUrl));
    expect(authorization).toMatch(/^Bearer \S+$/);
    return authorization!.slice("Bearer ".length);
  }

  it("refuses a foreign Host and a foreign Origin with the server's 403", async () => {
    const foreignHost = await publicFetch(publicUrl, {
      method: "POST",
      headers: { host: "evil.example", "content-type": "application/json" },
      body: "{}",
    });
    expect(foreignHost.status).toBe(403);
    expect(await foreignHost.text()).toContain("Host 'evil.example' is not allowed");
    const foreignOrigin = await publicFetch(publicUrl, {
      method: "POST",
      headers: { origin: "https://evil.example", "content-type": "application/json" },
      body: "{}",
    });
    expect(foreignOrigin.status).toBe(403);
    expect(await foreignOrigin.text()).toContain("Origin 'https://evil.example' is not allowed");
  });

  it("streams a legacy session's GET stream through (its first event arrives while it stays open), and passes a 2 MiB body", async () => {
    const bearer = `Bearer ${await token()}`;
    const post = (body: unknown, headers: Record<string, string> = {}) =>
      publicFetch(publicUrl, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          authorization: bearer,
          ...headers,
        },
        body: JSON.stringify(body),
      });
    const init = await post({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    });
    expect(init.status).toBe(200);
    await init.text();
    const session = init.headers.get("mcp-session-id")!;
    const headers = { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" };
    expect((await post({ jsonrpc: "2.0", method: "notifications/initialized" }, headers)).status).toBe(202);

    const stream = await publicFetch(publicUrl, {
      headers: { accept: "text/event-stream", authorization: bearer, ...headers },
    });
    expect(stream.status).toBe(200);
    expect(stream.headers.get("content-type")).toBe("text/event-stream");
    const reader = stream.body!.getReader();
    const first = await reader.read();
    expect(first.done).toBe(false);
    // The priming event of a 2025-11-25 stream: an id and empty data, the stream still open.
    expect(new TextDecoder().decode(first.value)).toMatch(/^id: \S+\ndata: ?\n/m);
    await reader.cancel();

    // Beyond nginx's default limit of 1 MiB (which would answer 413), within the server's 4 MiB.
    const padding = "x".repeat(2 * 1024 * 1024);
    const big = await post(
      {
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { name: "list_notes", arguments: {}, _meta: { padding } },
      },
      headers,
    );
    expect(big.status).toBe(200);
    expect(await big.text()).toContain("No notes yet.");
  });
});
