// The HTTP binding's deadline around verifyToken: a verifier that never settles (any
// verifier, not only jwtVerifier) cannot hold a request; it is answered 503 with Retry-After
// once verifyTimeoutSeconds have passed, and a verifier's own retry hint is passed on.
import { describe, expect, it } from "vitest";
import { createWebHandler, type HttpAuthOptions } from "@mcp-gen/runtime";
import { handlers } from "../../examples/notes/src/handlers.js";
import { createNotesServer } from "../../examples/notes/src/mcp/index.js";

const issuer = "https://auth.example.com";
const resource = "https://notes.example.com/mcp";

async function listTools(auth: Omit<HttpAuthOptions, "resource">): Promise<Response> {
  const handler = createWebHandler(createNotesServer(handlers), {
    allowedHosts: ["notes.example.com"],
    auth: { resource, authorizationServers: [issuer], ...auth },
  });
  const _meta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
  };
  return handler(
    new Request(resource, {
      method: "POST",
      headers: {
        host: "notes.example.com",
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/list",
        authorization: "Bearer t",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta } }),
    }),
  );
}

/** `promise`, or "hung" if it has not settled after `ms`. */
const within = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([promise, new Promise<"hung">((resolve) => setTimeout(() => resolve("hung"), ms))]);

describe("the deadline around verifyToken", () => {
  it("answers 503 with Retry-After when the verifier never settles", async () => {
    const answer = await within(
      listTools({ verifyToken: () => new Promise(() => {}), verifyTimeoutSeconds: 1 }),
      10_000,
    );
    expect(answer).not.toBe("hung");
    const response = answer as Response;
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("5");
  });

  it("passes on the retryAfterSeconds of a verifier's error", async () => {
    const failing = () => Promise.reject(Object.assign(new Error("keys unavailable"), { retryAfterSeconds: 42 }));
    const response = await listTools({ verifyToken: failing });
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("42");
  });
});
