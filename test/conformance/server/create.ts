// The conformance server as main.ts serves it (and as tests that compare against it build it):
// the generated definition with the handlers of handlers.ts.
import type { ServerOptions } from "../../../runtime/index.js";
import { handlers } from "./handlers.js";
import { createConformanceServer } from "./mcp/index.js";

/** The server the conformance suite talks to. */
export function createServerUnderTest(options?: ServerOptions) {
  return createConformanceServer(handlers, options);
}
