// Serving a generated mcp-gen server the way an application does: serveStdio, or
// listenHttp (Streamable HTTP at /mcp, both eras: modern requests statelessly, legacy
// clients through initialize and Mcp-Session-Id). Shared by the basic workload's entry
// (mcp-gen.ts) and the generated catalog entry the harness writes into bench/.out/.
import type { McpEndpoint } from "@mcp-gen/runtime";
import { closeOnSignals, listenHttp, serveStdio } from "@mcp-gen/runtime/node";
import { announce, type ServerArgs } from "./args.js";

export async function serveMcpGen(name: string, server: McpEndpoint, args: ServerArgs): Promise<void> {
  if (args.transport === "stdio") {
    closeOnSignals(serveStdio(server));
    return;
  }
  const listener = await listenHttp(server, { port: args.port });
  announce(name, listener.url);
}

/** `--page-size N` (lists are paged; the runtime's default is 100 items a page). */
export function pageSizeOption(args: ServerArgs): { pageSize?: number } {
  const value = args.extra.get("page-size");
  return value === undefined ? {} : { pageSize: Number(value) };
}
