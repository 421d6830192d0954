// The weather example deployed on a fetch platform: the module run.ts bundles (esbuild, one
// ESM file per platform) and serves on Bun (`bun run`), Deno (`deno serve`) and workerd. Its
// default export is what a Cloudflare Worker exports, and what `bun run` and `deno serve`
// serve. Nothing here may need Node: the bundle is built for the platform-neutral target,
// and workerd runs it without nodejs_compat.
//
// Routes, each its own handler and server, as separate deployments would be:
//   /mcp         createWebHandler(server), exactly as docs/scale-out.md deploys it (defaults);
//   /hosts/mcp   the weather example's fetch module (examples/weather/src/worker.ts), which
//                docs/deployment.md shows: allowedHosts naming the deployment's hostname;
//   /sweep/mcp   legacy sessions idle for 1 s are closed (sessionIdleMs), to see the sweep run.
// The built runtime, as the package exports it (runtime/dist/index.js), found through the
// workspace link in the root node_modules although this folder is its own package.
import { createWebHandler } from "@mcp-gen/runtime";
import { handlers } from "../../examples/weather/src/handlers.js";
import { createWeatherServer } from "../../examples/weather/src/mcp/index.js";
import deployed from "../../examples/weather/src/worker.js";

// Not exported: workerd takes every named export of the module for an entrypoint.
const routes: Record<string, (request: Request) => Promise<Response>> = {
  "/mcp": createWebHandler(createWeatherServer(handlers)),
  "/hosts/mcp": deployed.fetch,
  "/sweep/mcp": createWebHandler(createWeatherServer(handlers), { sessionIdleMs: 1_000 }),
};

export default {
  fetch(request: Request): Promise<Response> | Response {
    const handler = routes[new URL(request.url).pathname];
    return handler ? handler(request) : new Response("Not found", { status: 404 });
  },
};
