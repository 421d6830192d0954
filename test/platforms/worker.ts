// The weather example deployed on a fetch platform: the module run.ts bundles (esbuild, one
// ESM file per platform) and serves on Bun, Deno and workerd. Its default export is what a
// Cloudflare Worker exports, and what server-bun.ts and server-deno.ts hand to Bun.serve
// and Deno.serve. Nothing here may need Node: the bundle is built for the platform-neutral
// target, and workerd runs it without nodejs_compat.
//
// Routes, each its own handler and server, as separate deployments would be:
//   /mcp         createWebHandler(server), exactly as docs/scale-out.md deploys it (defaults);
//   /hosts/mcp   the same, with allowedHosts naming the deployment's hostname;
//   /sweep/mcp   legacy sessions idle for 1 s are closed (sessionIdleMs), to see the sweep run.
// The built runtime, as the package exports it (runtime/dist/index.js), found through the
// workspace link in the root node_modules although this folder is its own package.
import { createWebHandler, type WebHandler } from "@mcp-gen/runtime";
import { handlers } from "../../examples/weather/src/handlers.js";
import { createWeatherServer } from "../../examples/weather/src/mcp/index.js";

/**
 * The hostname a deployment would be reached under (never resolved: only sent as Host).
 * Not exported: workerd takes every named export of the module for an entrypoint.
 */
const deployedHost = "mcp.example.com";

const routes: Record<string, WebHandler> = {
  "/mcp": createWebHandler(createWeatherServer(handlers)),
  "/hosts/mcp": createWebHandler(createWeatherServer(handlers), { allowedHosts: [deployedHost] }),
  "/sweep/mcp": createWebHandler(createWeatherServer(handlers), { sessionIdleMs: 1_000 }),
};

export default {
  fetch(request: Request): Promise<Response> | Response {
    const handler = routes[new URL(request.url).pathname];
    return handler ? handler(request) : new Response("Not found", { status: 404 });
  },
};
