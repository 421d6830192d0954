// Runs the weather server: over stdio by default (what MCP hosts spawn), or over
// Streamable HTTP with --http [--port N].
import { listenHttp, serveStdio } from "mcp-gen/runtime/node";
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
  const listener = await listenHttp(server, { port });
  // stderr, so that stdout stays clean whatever the transport.
  process.stderr.write(`weather: serving MCP at ${listener.url}\n`);
} else {
  serveStdio(server);
}
