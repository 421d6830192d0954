// Runs the notes server over Streamable HTTP, protected by OAuth 2.1:
//   main.ts --issuer <authorization server URL> [--port N] [--host <address>]
//           [--resource <public URL>] [--allowed-hosts <name,name>]
// Access tokens must be JWTs from that issuer for this server (audience = the resource: by
// default derived from each request, http://<Host name>:<port>/mcp, e.g.
// http://127.0.0.1:3000/mcp or http://localhost:3000/mcp). Behind a reverse proxy, --resource
// is the public URL and --allowed-hosts the public host name (docs/deployment.md). The port
// defaults to $PORT, else 3000. Over stdio (--stdio) there is no token: the spec has stdio
// servers take credentials from their environment instead.
import { jwtVerifier } from "@mcp-gen/runtime/jwt";
import { closeOnSignals, listenHttp, serveStdio } from "@mcp-gen/runtime/node";
import { handlers } from "./handlers.js";
import { createNotesServer } from "./mcp/index.js";

const server = createNotesServer(handlers);
const args = process.argv.slice(2);
const option = (name: string) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};

// Serving the process's own stdin/stdout, SIGTERM/SIGINT close gracefully by default.
if (args.includes("--stdio")) closeOnSignals(serveStdio(server));
else {
  const issuer = option("--issuer");
  if (issuer === undefined) {
    process.stderr.write("notes: --issuer <authorization server URL> is required (or --stdio)\n");
    process.exit(2);
  }
  const port = Number(option("--port") ?? (process.env.PORT || 3000));
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`notes: --port needs a port number, got ${String(option("--port"))}\n`);
    process.exit(2);
  }
  const resource = option("--resource");
  const allowedHosts = option("--allowed-hosts")?.split(",");
  const listener = await listenHttp(server, {
    host: option("--host") ?? "127.0.0.1", // 0.0.0.0 in a container
    port,
    allowedHosts, // the public name(s) in the Host header; default: localhost names
    auth: {
      verifyToken: jwtVerifier({ issuer }),
      authorizationServers: [issuer],
      resource, // the public URL, e.g. https://mcp.example.test/mcp
    },
    // On SIGTERM/SIGINT, requests in flight finish (10 s at most), then exit 0.
    handleSignals: true,
  }).catch((error: unknown) => cannotListen("notes", error));
  process.stderr.write(`notes: serving MCP at ${listener.url} (tokens from ${issuer})\n`);
}

/** A port that cannot be used is reported in one line (no stack trace), exit code 1. */
function cannotListen(name: string, error: unknown): never {
  const message = error instanceof Error ? error.message : String(error);
  const hint = (error as { code?: unknown }).code === "EADDRINUSE" ? ": choose another with --port" : "";
  process.stderr.write(`${name}: ${message}${hint}\n`);
  process.exit(1);
}
