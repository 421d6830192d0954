// Minimal echo/add server over stdio, mcp-gen: the bundle-size measure.
import { serveStdio } from "@mcp-gen/runtime/node";
import { createBenchServer } from "../../workload/mcp/index.js";

serveStdio(
  createBenchServer({
    tools: {
      echo: ({ text }) => text,
      add: ({ a, b }) => ({ structuredContent: { sum: a + b } }),
    },
  }),
);
