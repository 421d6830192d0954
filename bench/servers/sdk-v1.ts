// The benchmark workload served by the official SDK v1 (`McpServer` from
// @modelcontextprotocol/sdk, zod schemas). stdio: StdioServerTransport (legacy era, the
// only one SDK v1 speaks). HTTP: stateless Streamable HTTP as the SDK documents it — a
// fresh server and transport per request, `sessionIdGenerator: undefined`,
// `enableJsonResponse: true` — so clients send legacy requests without a session.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";
import { catalogReply, catalogTools } from "../workload/catalog.js";
import { listen, parseServerArgs, readBody } from "./args.js";

const args = parseServerArgs("sdk-v1");

const echoInput = z.object({ text: z.string() }).strict();
const addInput = z.object({ a: z.number(), b: z.number() }).strict();
const addOutput = z.object({ sum: z.number() }).strict();
// Schemas are built once per process; servers (one per HTTP request) only register them.
const catalog =
  args.workload === "catalog"
    ? catalogTools().map((tool) => ({ tool, input: z.fromJSONSchema(tool.inputSchema) }))
    : [];

function buildServer(): McpServer {
  const server = new McpServer({ name: "bench-sdk-v1", version: "1.0.0" });
  if (args.workload === "basic") {
    server.registerTool("echo", { description: "Returns its text", inputSchema: echoInput }, ({ text }) => ({
      content: [{ type: "text", text }],
    }));
    server.registerTool(
      "add",
      { description: "Adds two numbers", inputSchema: addInput, outputSchema: addOutput },
      ({ a, b }) => {
        const structuredContent = { sum: a + b };
        return { content: [{ type: "text", text: JSON.stringify(structuredContent) }], structuredContent };
      },
    );
  } else {
    for (const { tool, input } of catalog) {
      server.registerTool(tool.name, { description: tool.description, inputSchema: input }, () => ({
        content: [{ type: "text", text: catalogReply }],
      }));
    }
  }
  return server;
}

if (args.transport === "stdio") {
  await buildServer().connect(new StdioServerTransport());
} else {
  // Answers every error itself (500), so the listener below may leave its promise alone.
  const answer = async (req: IncomingMessage, res: ServerResponse) => {
    try {
      if (req.method !== "POST") {
        res.writeHead(405, { allow: "POST" }).end();
        return;
      }
      const body: unknown = JSON.parse(await readBody(req));
      const server = buildServer();
      // Stateless: no sessionIdGenerator (the docs' `sessionIdGenerator: undefined`, which
      // exactOptionalPropertyTypes only lets us write by leaving it out).
      const transport = new StreamableHTTPServerTransport({ enableJsonResponse: true });
      res.on("close", () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
    } catch (error) {
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
      res.end(String(error));
    }
  };
  const httpServer = createServer((req, res) => void answer(req, res));
  await listen("sdk-v1", httpServer, args.port);
}
