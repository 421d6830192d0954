// Minimal echo/add server over stdio, official SDK v2: the bundle-size measure.
import { McpServer } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { z } from "zod";

serveStdio(() => {
  const server = new McpServer({ name: "bench-sdk-v2", version: "1.0.0" });
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
  return server;
});
