// A protected server whose authorization server does not answer: the notes example started
// with --issuer pointing at a TCP server that accepts connections and never replies. Every
// request with a bearer token is still answered in bounded time: 503 with Retry-After for a
// well-formed token whose keys cannot be had, 401 for a malformed one without a single
// request to the issuer; and the refusals leave a bounded number of lines on stderr.
import { createServer, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateKeyPair, SignJWT } from "jose";
import { join } from "node:path";
import { repoRoot } from "../support/paths.js";
import { startHttpServer, stopAllChildren, type HttpServerProcess } from "./helpers.js";

const notesMain = join(repoRoot, "examples", "notes", "src", "main.ts");
/** Client-side bound on each answer: a hang fails the test instead of stalling it. */
const ANSWER_BOUND_MS = 20_000;

let blackHole: Server;
/** Requests the black hole received (an HTTP client may open a spare connection it sends nothing on). */
let requests = 0;
const sockets: Socket[] = [];
let issuer: string;
let notes: HttpServerProcess;

beforeAll(async () => {
  blackHole = createServer((socket) => {
    sockets.push(socket);
    socket.on("data", (data) => {
      requests += String(data).match(/^[A-Z]+ \S+ HTTP\/1\.1\r$/gm)?.length ?? 0;
    });
    socket.on("error", () => {});
  });
  await new Promise<void>((resolve) => blackHole.listen(0, "127.0.0.1", resolve));
  issuer = `http://127.0.0.1:${(blackHole.address() as AddressInfo).port}`;
  notes = await startHttpServer(notesMain, "--issuer", issuer, "--port", "0");
}, 60_000);

afterAll(async () => {
  await stopAllChildren();
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => blackHole.close(() => resolve()));
});

function initialize(authorization: string): Promise<Response> {
  return fetch(notes.url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    }),
    signal: AbortSignal.timeout(ANSWER_BOUND_MS),
  });
}

/** A well-formed RS256 JWT from `issuer` for the notes server, signed with a key nobody publishes. */
async function unverifiableToken(): Promise<string> {
  const { privateKey } = await generateKeyPair("RS256");
  return new SignJWT({ scope: "notes:read" })
    .setProtectedHeader({ alg: "RS256", kid: "k1" })
    .setIssuer(issuer)
    .setSubject("ann")
    .setAudience(notes.url)
    .setIssuedAt()
    .setExpirationTime("5m")
    .sign(privateKey);
}

describe("the notes example with an authorization server that never answers", () => {
  it("answers 60 concurrent requests with a well-formed token 503 with Retry-After", async () => {
    const token = await unverifiableToken();
    const responses = await Promise.all(Array.from({ length: 60 }, () => initialize(`Bearer ${token}`)));
    for (const response of responses) {
      expect(response.status).toBe(503);
      expect(Number(response.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      await response.body?.cancel();
    }
    // One discovery for all of them, not one per request.
    expect(requests).toBe(1);
  }, 60_000);

  it("answers a malformed token 401 invalid_token at once, without a request to the issuer", async () => {
    const before = requests;
    for (const token of ["x", "a.b", "a.b.c.d.e", "eyJhbGciOiJSUzI1NiJ9.e30.", "bm90IGpzb24.e30.c2ln"]) {
      const response = await initialize(`Bearer ${token}`);
      expect(response.status, token).toBe(401);
      expect(response.headers.get("www-authenticate"), token).toMatch(
        /^Bearer error="invalid_token", error_description="the token is malformed", scope="notes:read", resource_metadata="/,
      );
      await response.body?.cancel();
    }
    expect(requests).toBe(before);
  });

  it("logs the failures in a bounded number of lines that do not carry the token", async () => {
    const token = await unverifiableToken();
    for (let round = 0; round < 3; round++) {
      const responses = await Promise.all(Array.from({ length: 20 }, () => initialize(`Bearer ${token}`)));
      for (const response of responses) {
        expect(response.status).toBe(503);
        await response.body?.cancel();
      }
    }
    const lines = notes
      .stderr()
      .split("\n")
      .filter((line) => line.includes("verifyToken failed"));
    // 120 refusals so far; at most one line per kind a minute.
    expect(lines.length).toBeGreaterThanOrEqual(1);
    expect(lines.length).toBeLessThanOrEqual(2);
    expect(notes.stderr()).not.toContain(token);
  }, 60_000);
});
