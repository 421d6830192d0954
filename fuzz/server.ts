// The fuzz job's server: the conformance server (test/conformance/server: every tool,
// resource, template, prompt and completion it has) served over stdio (`--stdio`) or
// Streamable HTTP (`--http --port N`, 0 picks a free port), from the runtime's sources.
//
// One extra, for the driver only: a prototype-pollution probe. At start it records the own
// property names of the built-in prototypes; on SIGUSR2 (and when stdin ends under --stdio)
// it writes one line on stderr:
//   FUZZ-PROBE {"changed":[...],"inherited":[...],"handlerErrors":N,"rss":N}
// `changed` lists prototypes whose own keys differ from the start, `inherited` the keys a
// fresh `{}` enumerates (must be none). Nothing else of the server changes.
import { closeOnSignals, listenHttp, serveStdio } from "../runtime/node.js";
import { handlers } from "../test/conformance/server/handlers.js";
import { createConformanceServer } from "../test/conformance/server/mcp/index.js";

const prototypes: Record<string, object> = {
  Object: Object.prototype,
  Array: Array.prototype,
  Function: Function.prototype,
  String: String.prototype,
  Number: Number.prototype,
  Boolean: Boolean.prototype,
  Promise: Promise.prototype,
  Map: Map.prototype,
  Error: Error.prototype,
  RegExp: RegExp.prototype,
};
const keysOf = (o: object) =>
  [...Object.getOwnPropertyNames(o), ...Object.getOwnPropertySymbols(o).map(String)].sort().join("\u0000");
const baseline = Object.fromEntries(Object.entries(prototypes).map(([name, o]) => [name, keysOf(o)]));
const baselineObjectProto = Object.getPrototypeOf(Object.prototype) as unknown;

let handlerErrors = 0;
function probe(): void {
  const changed: string[] = [];
  for (const [name, o] of Object.entries(prototypes)) {
    if (keysOf(o) !== baseline[name]) {
      const before = new Set(baseline[name]!.split("\u0000"));
      const added = [...Object.getOwnPropertyNames(o)].filter((k) => !before.has(k));
      changed.push(`${name}.prototype${added.length ? ` +${added.join(",")}` : " (keys removed)"}`);
    }
  }
  if (Object.getPrototypeOf(Object.prototype) !== baselineObjectProto) changed.push("Object.prototype's prototype");
  const inherited: string[] = [];
  for (const key in {}) inherited.push(key);
  for (const key in []) inherited.push(`[]:${key}`);
  const line = JSON.stringify({ changed, inherited, handlerErrors, rss: process.memoryUsage().rss });
  process.stderr.write(`FUZZ-PROBE ${line}\n`);
}
process.on("SIGUSR2", probe);

const args = process.argv.slice(2);
const server = createConformanceServer(handlers, {
  onError: () => {
    handlerErrors++;
  },
});

if (args.includes("--stdio")) {
  const connection = serveStdio(server);
  closeOnSignals(connection);
  process.stdin.once("end", probe);
  // test://watched-resource changes now and then, so subscribers have something to hear.
  const timer = setInterval(() => server.notifyResourceUpdated("test://watched-resource"), 2_000);
  timer.unref();
  await connection.closed;
  process.exit(0);
} else {
  const at = args.indexOf("--port");
  const port = at >= 0 ? Number(args[at + 1]) : 0;
  const listener = await listenHttp(server, { port });
  process.stderr.write(`FUZZ-LISTENING ${listener.url}\n`);
  setInterval(() => server.notifyResourceUpdated("test://watched-resource"), 2_000).unref();
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      void listener.close().finally(() => process.exit(0));
    });
  }
}
