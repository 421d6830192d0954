// Minimal echo/add server over stdio, hand-written (the floor): the bundle-size measure.
const info = { name: "bench-floor", version: "1.0.0" };
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const keys = (v: object) => Object.keys(v).length;
const tools = [
  {
    name: "echo",
    inputSchema: {
      type: "object",
      properties: { text: { type: "string" } },
      required: ["text"],
      additionalProperties: false,
    },
  },
  {
    name: "add",
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

function call(name: unknown, args: unknown): Record<string, unknown> | undefined {
  const bad = { content: [{ type: "text", text: `Invalid arguments for tool ${String(name)}` }], isError: true };
  if (name === "echo")
    return isObject(args) && typeof args.text === "string" && keys(args) === 1
      ? { content: [{ type: "text", text: args.text }] }
      : bad;
  if (name !== "add") return undefined;
  if (!isObject(args) || typeof args.a !== "number" || typeof args.b !== "number" || keys(args) !== 2) return bad;
  const structuredContent = { sum: args.a + args.b };
  return { content: [{ type: "text", text: JSON.stringify(structuredContent) }], structuredContent };
}

function handle(line: string): unknown {
  const { id, method, params } = JSON.parse(line) as {
    id?: number | string;
    method?: string;
    params?: { name?: unknown; arguments?: unknown };
  };
  if (id === undefined) return undefined;
  if (method === "initialize")
    return {
      jsonrpc: "2.0",
      id,
      result: { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: info },
    };
  if (method === "tools/list") return { jsonrpc: "2.0", id, result: { tools } };
  if (method === "tools/call") {
    const result = call(params?.name, params?.arguments);
    return result
      ? { jsonrpc: "2.0", id, result }
      : { jsonrpc: "2.0", id, error: { code: -32602, message: "Unknown tool" } };
  }
  return { jsonrpc: "2.0", id, error: { code: -32601, message: "Method not found" } };
}

let pending = "";
process.stdin.setEncoding("utf8").on("data", (chunk: string) => {
  const lines = (pending + chunk).split("\n");
  pending = lines.pop()!;
  let out = "";
  for (const line of lines) {
    const reply = line.trim() && handle(line);
    if (reply) out += `${JSON.stringify(reply)}\n`;
  }
  if (out) process.stdout.write(out);
});
