// Serves a bundled fetch module on Bun, as a Bun deployment would: `bun run server-bun.ts
// <bundle.js>` hands the module's default export to Bun.serve with Bun's defaults (among
// them its 10 s idle timeout) on 127.0.0.1 and a free port, and prints
// `serving MCP at <url>` on stderr once it listens. Started by run.ts.
import { pathToFileURL } from "node:url";

interface FetchModule {
  fetch(request: Request): Response | Promise<Response>;
}

/** The little of Bun's API used here (the project has no Bun types). */
declare const Bun: {
  serve(options: { hostname: string; port: number; fetch: FetchModule["fetch"] }): { readonly port: number };
};

const bundle = process.argv[2];
if (bundle === undefined) throw new Error("usage: bun run server-bun.ts <bundle.js>");
const app = ((await import(pathToFileURL(bundle).href)) as { default: FetchModule }).default;
const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (request) => app.fetch(request) });
process.stderr.write(`serving MCP at http://127.0.0.1:${server.port}/mcp\n`);
