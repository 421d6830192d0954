// Runs the notes workspace: over stdio by default (what MCP hosts spawn), or over
// Streamable HTTP with --http [--port N] [--allow-origin <origin>]… (browser pages that may
// call it, such as the catalog page of `mcp-gen docs` served from elsewhere).
import { closeOnSignals, listenHttp, serveStdio } from "@mcp-gen/runtime/node";
import { createHandlers } from "./handlers.js";
import { createNotesServer } from "./mcp/index.js";

// Tools that change a note tell subscribed clients through notifyResourceUpdated; the
// tools that need a note are switched off while the workspace is empty.
const server = createNotesServer(
  createHandlers({
    changed: (uri) => server.notifyResourceUpdated(uri),
    emptied: (empty) => {
      for (const tool of ["get_note", "note_media", "delete_note", "summarize_note"] as const)
        server.setEnabled("tools", tool, !empty);
    },
  }),
);
const args = process.argv.slice(2);

if (args.includes("--http")) {
  const at = args.indexOf("--port");
  const port = at >= 0 ? Number(args[at + 1]) : 3000;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`notes: --port needs a port number, got ${String(args[at + 1])}\n`);
    process.exit(2);
  }
  // CORS is opt-in: only pages on the origins named here may read the replies (loopback pages may send, not read).
  const allowedOrigins = args.flatMap((arg, i) =>
    arg === "--allow-origin" && args[i + 1] !== undefined ? [args[i + 1]!] : [],
  );
  const origins = allowedOrigins.length > 0 ? { allowedOrigins } : {};
  // handleSignals: on SIGTERM/SIGINT, requests in flight finish (10 s at most), then exit 0.
  const listener = await listenHttp(server, { port, handleSignals: true, ...origins }).catch((error: unknown) =>
    cannotListen("notes", error),
  );
  // stderr, so that stdout stays clean whatever the transport.
  process.stderr.write(`notes: serving MCP at ${listener.url}\n`);
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
