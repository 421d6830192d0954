// Runs the weather server: over stdio by default (what MCP hosts spawn), or over
// Streamable HTTP with --http [--port N]. With --issuer <authorization server URL> as well,
// the HTTP endpoint is protected by OAuth 2.1: every request needs a JWT access token from
// that issuer for this server (its URL), and the protected resource metadata is served.
import { jwtVerifier } from "@mcp-gen/runtime/jwt";
import { closeOnSignals, listenHttp, serveStdio } from "@mcp-gen/runtime/node";
import { handlers } from "./handlers.js";
import { createWeatherServer } from "./mcp/index.js";

const server = createWeatherServer(handlers);
const args = process.argv.slice(2);

if (args.includes("--http")) {
  const at = args.indexOf("--port");
  const port = at >= 0 ? Number(args[at + 1]) : 3000;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`weather: --port needs a port number, got ${String(args[at + 1])}\n`);
    process.exit(2);
  }
  const issuer = args.includes("--issuer") ? args[args.indexOf("--issuer") + 1] : undefined;
  // Protection decided at deployment: the manifest declares no scopes, so a valid token suffices.
  const auth =
    issuer === undefined ? undefined : { verifyToken: jwtVerifier({ issuer }), authorizationServers: [issuer] };
  // handleSignals: on SIGTERM/SIGINT, requests in flight finish (10 s at most), then exit 0.
  const listener = await listenHttp(server, { port, auth, handleSignals: true }).catch((error: unknown) =>
    cannotListen("weather", error),
  );
  // stderr, so that stdout stays clean whatever the transport.
  process.stderr.write(`weather: serving MCP at ${listener.url}\n`);
} else {
  // On SIGTERM/SIGINT, requests in flight finish (10 s at most), then exit 0.
  closeOnSignals(serveStdio(server));
}

/** A port that cannot be used is reported in one line (no stack trace), exit code 1. */
function cannotListen(name: string, error: unknown): never {
  const message = error instanceof Error ? error.message : String(error);
  const hint = (error as { code?: unknown }).code === "EADDRINUSE" ? ": choose another with --port" : "";
  process.stderr.write(`${name}: ${message}${hint}\n`);
  process.exit(1);
}
