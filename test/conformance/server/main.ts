// Serves the conformance server over Streamable HTTP: `--port N` (default 3000; 0 picks
// a free port). Prints `serving MCP at <url>` on stderr once it listens.
// Configuration shared by several instances behind one endpoint comes from the environment:
// MCP_REQUEST_STATE_SECRET (the requestState HMAC key; random per process when unset) and
// MCP_PAGE_SIZE (list page size; the runtime's default when unset).
import { listenHttp } from "../../../runtime/node.js";
import { createServerUnderTest } from "./create.js";

const args = process.argv.slice(2);
const at = args.indexOf("--port");
const port = at >= 0 ? Number(args[at + 1]) : 3000;
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  process.stderr.write(`conformance server: --port needs a port number, got ${String(args[at + 1])}\n`);
  process.exit(2);
}

const secret = process.env.MCP_REQUEST_STATE_SECRET;
const pageSizeText = process.env.MCP_PAGE_SIZE;
const pageSize = pageSizeText ? Number(pageSizeText) : undefined;
if (pageSize !== undefined && !(Number.isInteger(pageSize) && pageSize > 0)) {
  process.stderr.write(`conformance server: MCP_PAGE_SIZE needs a positive integer, got ${pageSizeText}\n`);
  process.exit(2);
}

const server = createServerUnderTest({
  onError: () => {},
  ...(pageSize === undefined ? {} : { pageSize }),
  ...(secret ? { requestState: { secret } } : {}),
});
const listener = await listenHttp(server, { port });
process.stderr.write(`conformance server: serving MCP at ${listener.url}\n`);

// test://watched-resource changes every few seconds, so subscribers have something to hear.
setInterval(() => server.notifyResourceUpdated("test://watched-resource"), 5_000).unref();

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void listener.close().finally(() => process.exit(0));
  });
}
