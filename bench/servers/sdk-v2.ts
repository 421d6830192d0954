// The benchmark workload served by the official SDK v2 (`McpServer` from
// @modelcontextprotocol/server, zod schemas), from one server factory as its docs
// prescribe. stdio: serveStdio (legacy handshake → one pinned instance; modern requests
// are served too). HTTP: createMcpHandler (modern 2026-07-28 requests statelessly, one
// instance per request; JSON responses) behind a node:http → fetch adapter equivalent to
// toNodeHandler from @modelcontextprotocol/node, which is not installed here.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { z } from "zod";
import { catalogReply, catalogTools } from "../workload/catalog.js";
import { listen, parseServerArgs, readBody } from "./args.js";

const args = parseServerArgs("sdk-v2");

const echoInput = z.object({ text: z.string() }).strict();
const addInput = z.object({ a: z.number(), b: z.number() }).strict();
const addOutput = z.object({ sum: z.number() }).strict();
// Schemas are built once per process; instances (one per HTTP request) only register them.
const catalog =
  args.workload === "catalog"
    ? catalogTools().map((tool) => ({ tool, input: z.fromJSONSchema(tool.inputSchema) }))
    : [];

function buildServer(): McpServer {
  const server = new McpServer({ name: "bench-sdk-v2", version: "1.0.0" });
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

/** node:http → web Request → the SDK's fetch-shaped handler → node:http. */
function toNodeListener(fetch: (request: Request) => Promise<Response>) {
  // Answers every error itself (500), so node:http may leave the promise alone.
  const relay = async (req: IncomingMessage, res: ServerResponse) => {
    try {
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        if (value === undefined) continue;
        if (Array.isArray(value)) for (const item of value) headers.append(name, item);
        else headers.set(name, value);
      }
      const method = req.method ?? "GET";
      const body = method === "GET" || method === "HEAD" ? undefined : await readBody(req);
      const abort = new AbortController();
      res.on("close", () => abort.abort());
      const request = new Request(`http://${req.headers.host ?? "127.0.0.1"}${req.url ?? "/"}`, {
        method,
        headers,
        signal: abort.signal,
        ...(body === undefined ? {} : { body }),
      });
      const response = await fetch(request);
      res.writeHead(response.status, Object.fromEntries(response.headers));
      if (!response.body) {
        res.end();
        return;
      }
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) res.write(chunk);
      res.end();
    } catch (error) {
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
      res.end(String(error));
    }
  };
  return (req: IncomingMessage, res: ServerResponse) => void relay(req, res);
}

if (args.transport === "stdio") {
  serveStdio(() => buildServer());
} else {
  const handler = createMcpHandler(() => buildServer(), { responseMode: "json" });
  await listen("sdk-v2", createServer(toNodeListener((request) => handler.fetch(request))), args.port);
}
