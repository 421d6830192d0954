// examples/notes/src/client.ts, the client docs/authorization.md shows, runs as written: it is
// started as its own process against the notes server and a real authorization server
// (oidc-provider), signs in through its loopback redirect and steps up to notes:write to add a
// note. Its browser opener is `xdg-open` on Linux; here a stand-in of that name on PATH hands
// the sign-in URL to the "user", who approves at the authorization server and follows the
// redirect back to the client, as a browser would.
import { spawn } from "node:child_process";
import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAuthorizationServer, type AuthorizationServer } from "../support/authorization-server.js";
import { repoRoot } from "../support/paths.js";
import { startHttpServer, stopAllChildren, tsxCommand, type HttpServerProcess } from "./helpers.js";

let as: AuthorizationServer;
let notes: HttpServerProcess;
let user: Server;
let userUrl: string;
const signIns: string[] = [];

beforeAll(async () => {
  as = await startAuthorizationServer({ scopes: ["notes:read", "notes:write"] });
  notes = await startHttpServer(
    join(repoRoot, "examples", "notes", "src", "main.ts"),
    "--issuer",
    as.issuer,
    "--port",
    "0",
  );
  as.setResource(notes.url);
  // The user at the browser: approves the sign-in, then the browser follows the redirect back.
  user = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://user").searchParams.get("url") ?? "";
    signIns.push(url);
    as.approve(url, "carol")
      .then((back) => fetch(back))
      .then(() => response.writeHead(204).end())
      .catch((error: unknown) => response.writeHead(500).end(String(error)));
  });
  await new Promise<void>((resolve) => user.listen(0, "127.0.0.1", resolve));
  userUrl = `http://127.0.0.1:${(user.address() as AddressInfo).port}/`;
});

afterAll(async () => {
  await stopAllChildren();
  await as?.close();
  await new Promise<void>((resolve) => user?.close(() => resolve()));
});

/** Runs the client with an `xdg-open` on PATH that hands the URL to the user. */
function runClient(...args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const bin = mkdtempSync(join(tmpdir(), "mcp-gen-opener-"));
  const opener = join(bin, "xdg-open");
  writeFileSync(
    opener,
    `#!${process.execPath}\nfetch(${JSON.stringify(userUrl)} + "?url=" + encodeURIComponent(process.argv[2]));\n`,
  );
  chmodSync(opener, 0o755);
  const { command, args: argv, cwd } = tsxCommand(join(repoRoot, "examples", "notes", "src", "client.ts"), ...args);
  const child = spawn(command, argv, {
    cwd,
    env: { ...process.env, PATH: `${bin}${delimiter}${process.env.PATH ?? ""}` },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  return new Promise((resolve) => child.on("close", (status) => resolve({ status, stdout, stderr })));
}

describe("examples/notes/src/client.ts", () => {
  it.runIf(process.platform === "linux")(
    "signs in through the browser, adds a note (stepping up to notes:write) and lists it",
    async () => {
      const result = await runClient(notes.url, "buy milk");
      expect(result.stderr).toContain("notes client: sign in at ");
      expect(result.status, result.stderr).toBe(0);
      expect(result.stdout).toBe("1: buy milk\n");
      // Signed in for what every request needs, then again for the scope add_note needs.
      expect(signIns).toHaveLength(2);
      expect(new URL(signIns[0]!).searchParams.get("scope")).toContain("notes:read");
      expect(new URL(signIns[1]!).searchParams.get("scope")).toContain("notes:write");
    },
    120_000,
  );
});
