// OAuth 2.1 end to end with a real authorization server nobody here wrote: oidc-provider
// (test/support/authorization-server.ts) issues JWT access tokens for the notes example,
// which verifies them with @mcp-gen/runtime/jwt; the generated notes client, on httpChannel
// with @mcp-gen/runtime/oauth, discovers everything from the server's 401, registers itself,
// runs the authorization code flow with PKCE (the "user" approves over HTTP), steps up
// when a tool needs a scope it lacks, and refreshes its token before it expires. In both
// eras, over real HTTP.
import { join } from "node:path";
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpChannel } from "@mcp-gen/runtime";
import { loopbackRedirect } from "@mcp-gen/runtime/node";
import { oauth } from "@mcp-gen/runtime/oauth";
import { connectNotesClient, type NotesClient } from "../../examples/notes/src/mcp/index.js";
import { startAuthorizationServer, type AuthorizationServer } from "../support/authorization-server.js";
import { repoRoot } from "../support/paths.js";
import { firstText, startHttpServer, stopAllChildren, type HttpServerProcess } from "./helpers.js";

const notesMain = join(repoRoot, "examples", "notes", "src", "main.ts");

let as: AuthorizationServer;
let notes: HttpServerProcess;

beforeAll(async () => {
  // 31 s tokens: the client refreshes tokens that expire within 30 s, so one second after
  // each token is issued the next request refreshes it first.
  as = await startAuthorizationServer({ scopes: ["notes:read", "notes:write"], accessTokenTtl: 31 });
  notes = await startHttpServer(notesMain, "--issuer", as.issuer, "--port", "0");
  as.setResource(notes.url);
});

afterAll(async () => {
  await stopAllChildren();
  await as?.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

for (const revision of ["2026-07-28", "2025-11-25"] as const) {
  describe(`the generated client against a protected server (${revision})`, () => {
    const approvals: URL[] = [];
    const grants: string[] = [];
    /** Authorization headers the client sent the MCP server. */
    const sentTokens: string[] = [];
    let client: NotesClient;
    let closeRedirect = () => {};
    const user = revision === "2026-07-28" ? "alice" : "bob";

    // Observes the client's HTTP through the fetch it is given: token grants, and what reaches the MCP server.
    const observe: typeof fetch = async (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      if (url.startsWith(as.issuer) && init?.body instanceof URLSearchParams)
        grants.push(init.body.get("grant_type") ?? "");
      else if (url.startsWith(as.issuer) && typeof init?.body === "string" && init.body.includes("grant_type="))
        grants.push(new URLSearchParams(init.body).get("grant_type") ?? "");
      if (url.startsWith(notes.url)) {
        const authorization = new Headers(init?.headers).get("authorization");
        if (authorization) sentTokens.push(authorization.replace(/^Bearer /, ""));
      }
      return fetch(input, init);
    };

    it("connects: 401, discovery, registration, authorization code with PKCE and resource, token", async () => {
      // The "browser": the user approves at the authorization server, which redirects it back.
      const browse = async (url: URL) => {
        approvals.push(url);
        // A user takes longer than the probe's timeout: time spent authorizing does not count.
        if (revision === "2026-07-28") await sleep(1_500);
        return as.approve(url, user);
      };
      // Legacy era: as a CLI host would, through the loopback redirect helper (a real listener on 127.0.0.1).
      const redirect =
        revision === "2025-11-25"
          ? await loopbackRedirect({ open: async (url) => void (await fetch(await browse(url))).body?.cancel() })
          : { redirectUri: "http://127.0.0.1:8976/callback", redirectToAuthorization: browse, close() {} };
      closeRedirect = () => redirect.close();
      const auth = oauth({
        redirectUri: redirect.redirectUri,
        clientName: `notes e2e (${revision})`,
        redirectToAuthorization: (url) => redirect.redirectToAuthorization(url),
        fetch: observe,
      });
      client = await connectNotesClient(httpChannel(notes.url, { auth, fetch: observe }), {
        revisions: [revision],
        probeTimeoutMs: 1_000,
      });
      expect(client.session.revision).toBe(revision);
      expect(approvals).toHaveLength(1);
      const first = approvals[0]!;
      expect(first.searchParams.get("resource")).toBe(notes.url);
      expect(first.searchParams.get("code_challenge_method")).toBe("S256");
      // The scope the server's challenge named (the one every request needs), and refresh tokens asked for.
      expect(first.searchParams.get("scope")?.split(" ").sort()).toEqual(["notes:read", "offline_access"]);
      expect(grants).toContain("authorization_code");
      const token = decodeJwt(sentTokens.at(-1)!);
      expect(token.aud).toBe(notes.url);
      expect(token.iss).toBe(as.issuer);
      expect(token.sub).toBe(user);
      expect(String(token.scope).split(" ")).toEqual(["notes:read"]);
    });

    it("calls a tool its token allows", async () => {
      expect(firstText((await client.tools.listNotes()).content)).toBe("No notes yet.");
    });

    it("steps up when a tool needs a scope the token lacks, and the call succeeds", async () => {
      const result = await client.tools.addNote({ text: `a note from ${user}` });
      expect(result.isError).toBeFalsy();
      expect(firstText(result.content)).toMatch(/^Added note \d+\.$/);
      expect(approvals).toHaveLength(2);
      expect(approvals[1]!.searchParams.get("scope")?.split(" ").sort()).toEqual([
        "notes:read",
        "notes:write",
        "offline_access",
      ]);
      expect(
        String(decodeJwt(sentTokens.at(-1)!).scope)
          .split(" ")
          .sort(),
      ).toEqual(["notes:read", "notes:write"]);
      // The server's handler saw who it was (ctx.auth): the note is this user's.
      expect(firstText((await client.tools.listNotes()).content)).toMatch(new RegExp(`^\\d+: a note from ${user}$`));
    });

    it("refreshes its token before it expires, without asking the user again", async () => {
      const before = sentTokens.at(-1)!;
      await sleep(1_500);
      expect(firstText((await client.tools.listNotes()).content)).toMatch(new RegExp(`a note from ${user}$`));
      expect(grants).toContain("refresh_token");
      expect(approvals).toHaveLength(2);
      const after = sentTokens.at(-1)!;
      expect(after).not.toBe(before);
      // The refreshed token keeps the stepped-up scopes and is for the same resource.
      expect(decodeJwt(after).aud).toBe(notes.url);
      expect(String(decodeJwt(after).scope).split(" ").sort()).toEqual(["notes:read", "notes:write"]);
      await client.close();
      closeRedirect();
    });
  });
}
