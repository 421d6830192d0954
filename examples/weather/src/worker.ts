// The weather server as a fetch module: its default export is what Cloudflare Workers,
// `deno serve` and `bun run` serve (docs/deployment.md). The server is created once per
// isolate, not per request.
import { createWebHandler } from "@mcp-gen/runtime";
import { handlers } from "./handlers.js";
import { createWeatherServer } from "./mcp/index.js";

const handle = createWebHandler(createWeatherServer(handlers), { allowedHosts: ["mcp.example.com"] });

export default {
  fetch: (request: Request): Promise<Response> => handle(request),
};
