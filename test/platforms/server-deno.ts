// Serves a bundled fetch module on Deno, as a Deno deployment would: `deno run --allow-net
// --allow-read=<dir> server-deno.ts <bundle.js>` hands the module's default export to
// Deno.serve with Deno's defaults on 127.0.0.1 and a free port, and prints
// `serving MCP at <url>` on stderr once it listens. Started by run.ts.
interface FetchModule {
  fetch(request: Request): Response | Promise<Response>;
}

/** The little of Deno's API used here (the project has no Deno types). */
declare const Deno: {
  readonly args: readonly string[];
  serve(
    options: { hostname: string; port: number; onListen(address: { port: number }): void },
    handler: (request: Request) => Response | Promise<Response>,
  ): unknown;
};

const bundle = Deno.args[0];
if (bundle === undefined) throw new Error("usage: deno run server-deno.ts <bundle.js>");
if (!bundle.startsWith("/")) throw new Error("server-deno.ts: the bundle's path must be absolute");
const app = ((await import(`file://${bundle}`)) as { default: FetchModule }).default;
Deno.serve(
  {
    hostname: "127.0.0.1",
    port: 0,
    // console.error: Deno's stderr (Deno has no `process` unless node compatibility is asked for).
    onListen: ({ port }) => console.error(`serving MCP at http://127.0.0.1:${port}/mcp`),
  },
  (request) => app.fetch(request),
);
