// Minimal echo/add server over stdio, official SDK v1: the bundle-size measure.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const server = new McpServer({ name: "bench-sdk-v1", version: "1.0.0" });
server.registerTool(
  "echo",
  { description: "Returns its text", inputSchema: z.object({ text: z.string() }).strict() },
  ({ text }) => ({
    content: [{ type: "text", text }],
  }),
);
server.registerTool(
  "add",
  {
    description: "Adds two numbers",
    inputSchema: z.object({ a: z.number(), b: z.number() }).strict(),
    outputSchema: z.object({ sum: z.number() }).strict(),
  },
  ({ a, b }) => ({
    content: [{ type: "text", text: JSON.stringify({ sum: a + b }) }],
    structuredContent: { sum: a + b },
  }),
);
await server.connect(new StdioServerTransport());
