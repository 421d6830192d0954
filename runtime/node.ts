// @mcp-gen/runtime/node: transports that need Node.js (stdio, node:http, spawning servers).
export { createNodeHandler, listenHttp, ListenError } from "./transport/node-http.js";
export type { HttpListener, ListenOptions, NodeHandler, ShutdownOptions } from "./transport/node-http.js";
export { closeOnSignals } from "./transport/signals.js";
export type { Closeable, CloseOnSignalsOptions } from "./transport/signals.js";
export { serveStdio } from "./transport/stdio.js";
export type { StdioConnection, StdioOptions } from "./transport/stdio.js";
export { stdioChannel } from "./transport/stdio-client.js";
export type { StdioChannel, StdioServerParameters } from "./transport/stdio-client.js";
export { loopbackRedirect, type LoopbackRedirect, type LoopbackRedirectOptions } from "./auth/loopback.js";
export { createLegacySseNodeHandler } from "./transport/node-http.js";
export type { LegacySseNodeHandler } from "./transport/node-http.js";
