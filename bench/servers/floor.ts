// The floor: the workload served with nothing but the work itself — newline-delimited
// JSON in, JSON.parse, a switch, hand-written argument checks, JSON.stringify, one write
// per input chunk; node:http for HTTP. No framework can do less, so every other
// implementation is reported as a ratio to this one. It answers the legacy handshake and
// modern (2026-07-28) requests (adding the fields modern results must carry) but checks
// nothing else a real server must (headers, versions, sessions).
import { createServer } from "node:http";
import { catalogReply, catalogTools, type JsonSchema } from "../workload/catalog.js";
import { listen, parseServerArgs, readBody } from "./args.js";

const args = parseServerArgs("floor");

type Id = string | number | null;
interface Message {
  id?: Id;
  method?: string;
  params?: { name?: unknown; arguments?: unknown; _meta?: Record<string, unknown> };
}
type Result = Record<string, unknown>;

const PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";
const serverInfo = { name: "bench-floor", version: "1.0.0" };
const initializeResult = JSON.stringify({ protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo });

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** True when `value` has exactly `count` keys (the ones just checked: no others). */
function onlyKeys(value: Record<string, unknown>, count: number): boolean {
  let n = 0;
  for (const _ in value) n++;
  return n === count;
}

// --- the basic workload ------------------------------------------------------------

const basicTools = [
  {
    name: "echo",
    description: "Returns its text",
    inputSchema: {
      type: "object",
      properties: { text: { type: "string" } },
      required: ["text"],
      additionalProperties: false,
    },
  },
  {
    name: "add",
    description: "Adds two numbers",
    inputSchema: {
      type: "object",
      properties: { a: { type: "number" }, b: { type: "number" } },
      required: ["a", "b"],
      additionalProperties: false,
    },
    outputSchema: {
      type: "object",
      properties: { sum: { type: "number" } },
      required: ["sum"],
      additionalProperties: false,
    },
  },
];

const invalid = (tool: string): Result => ({
  content: [{ type: "text", text: `Invalid arguments for tool ${tool}` }],
  isError: true,
});

function echo(args: unknown): Result {
  if (!isObject(args) || typeof args.text !== "string" || !onlyKeys(args, 1)) return invalid("echo");
  return { content: [{ type: "text", text: args.text }] };
}

function add(args: unknown): Result {
  if (!isObject(args) || typeof args.a !== "number" || typeof args.b !== "number" || !onlyKeys(args, 2))
    return invalid("add");
  const structuredContent = { sum: args.a + args.b };
  return { content: [{ type: "text", text: JSON.stringify(structuredContent) }], structuredContent };
}

// --- the catalog workload: one small interpreter for the schema subset it uses ----------

const patterns = new WeakMap<JsonSchema, RegExp>();
function patternOf(schema: JsonSchema): RegExp {
  let regex = patterns.get(schema);
  if (!regex) patterns.set(schema, (regex = new RegExp(schema.pattern as string, "u")));
  return regex;
}

function conforms(schema: JsonSchema, value: unknown): boolean {
  if (schema.enum && !(schema.enum as unknown[]).includes(value)) return false;
  switch (schema.type) {
    case "object": {
      if (!isObject(value)) return false;
      const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
      for (const key of (schema.required ?? []) as string[]) if (value[key] === undefined) return false;
      for (const key in value) {
        const property = properties[key];
        if (!property) {
          if (schema.additionalProperties === false) return false;
        } else if (!conforms(property, value[key])) return false;
      }
      for (const key in properties)
        if (value[key] === undefined && properties[key]!.default !== undefined) value[key] = properties[key]!.default;
      return true;
    }
    case "array":
      if (!Array.isArray(value) || (schema.maxItems !== undefined && value.length > (schema.maxItems as number)))
        return false;
      return value.every((item) => conforms(schema.items as JsonSchema, item));
    case "string":
      if (typeof value !== "string") return false;
      if (schema.minLength !== undefined && value.length < (schema.minLength as number)) return false;
      if (schema.maxLength !== undefined && value.length > (schema.maxLength as number)) return false;
      return schema.pattern === undefined || patternOf(schema).test(value);
    case "integer":
    case "number":
      if (typeof value !== "number" || (schema.type === "integer" && !Number.isInteger(value))) return false;
      return (
        !(schema.minimum !== undefined && value < (schema.minimum as number)) &&
        !(schema.maximum !== undefined && value > (schema.maximum as number))
      );
    case "boolean":
      return typeof value === "boolean";
    default:
      return true;
  }
}

const catalog = new Map(catalogTools().map((tool) => [tool.name, tool.inputSchema]));

// --- dispatch ------------------------------------------------------------------------

function listResult(modern: boolean): string {
  const tools =
    args.workload === "basic"
      ? basicTools
      : catalogTools().map(({ name, description, inputSchema }) => ({ name, description, inputSchema }));
  return JSON.stringify(modern ? { tools, resultType: "complete", ttlMs: 0, cacheScope: "public" } : { tools });
}
// The list never changes: serialised once, spliced into each response.
const lists = { legacy: listResult(false), modern: listResult(true) };

function callTool(name: unknown, toolArgs: unknown): Result | undefined {
  if (args.workload === "basic") {
    switch (name) {
      case "echo":
        return echo(toolArgs);
      case "add":
        return add(toolArgs);
      default:
        return undefined;
    }
  }
  const schema = typeof name === "string" ? catalog.get(name) : undefined;
  if (!schema) return undefined;
  return conforms(schema, toolArgs ?? {})
    ? { content: [{ type: "text", text: catalogReply }] }
    : invalid(name as string);
}

const response = (id: Id, result: string) => `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${result}}`;
const error = (id: Id, code: number, message: string) =>
  JSON.stringify({ jsonrpc: "2.0", id, error: { code, message } });

/** The response line to one message, or undefined for a notification. */
function handle(text: string): string | undefined {
  let message: Message;
  try {
    message = JSON.parse(text) as Message;
  } catch {
    return error(null, -32700, "Parse error");
  }
  const id = message.id;
  if (id === undefined) return undefined;
  const modern = message.params?._meta?.[PROTOCOL_VERSION] !== undefined;
  switch (message.method) {
    case "initialize":
      return response(id, initializeResult);
    case "ping":
      return response(id, "{}");
    case "tools/list":
      return response(id, modern ? lists.modern : lists.legacy);
    case "tools/call": {
      const result = callTool(message.params?.name, message.params?.arguments);
      if (!result) return error(id, -32602, `Unknown tool: ${String(message.params?.name)}`);
      if (modern) result.resultType = "complete";
      return JSON.stringify({ jsonrpc: "2.0", id, result });
    }
    default:
      return error(id, -32601, `Method not found: ${String(message.method)}`);
  }
}

if (args.transport === "stdio") {
  let pending = "";
  process.stdin.setEncoding("utf8");
  process.stdin.on("data", (chunk: string) => {
    pending += chunk;
    let out = "";
    let start = 0;
    for (let end = pending.indexOf("\n"); end >= 0; end = pending.indexOf("\n", start)) {
      const line = pending.slice(start, end);
      start = end + 1;
      const reply = line.length > 1 ? handle(line) : undefined;
      if (reply !== undefined) out += `${reply}\n`;
    }
    pending = pending.slice(start);
    if (out !== "") process.stdout.write(out);
  });
} else {
  const httpServer = createServer((req, res) => {
    if (req.method !== "POST" || req.url !== "/mcp") {
      res.writeHead(404).end();
      return;
    }
    readBody(req).then(
      (body) => {
        const reply = handle(body);
        if (reply === undefined) res.writeHead(202).end();
        else res.writeHead(200, { "content-type": "application/json" }).end(reply);
      },
      () => res.destroy(),
    );
  });
  await listen("floor", httpServer, args.port);
}
