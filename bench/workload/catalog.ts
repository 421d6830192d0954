// The catalog workload: a deterministic set of tools with non-trivial input schemas
// (nested objects, enums, arrays, string patterns and lengths, numeric ranges, required
// fields, a default), the same for every implementation. The SDK and floor servers build
// it in process; mcp-gen compiles it from the manifest written by `catalogManifest`.

export type JsonSchema = { [key: string]: unknown };

export interface CatalogTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
  /** Arguments the schema accepts. */
  readonly validArgs: Record<string, unknown>;
  /** Arguments the schema rejects (a required field missing, an enum value outside the set). */
  readonly invalidArgs: Record<string, unknown>;
}

export const CATALOG_SIZE = 200;

const nouns = [
  "issue",
  "file",
  "user",
  "order",
  "invoice",
  "ticket",
  "build",
  "deploy",
  "metric",
  "alert",
  "repo",
  "branch",
  "comment",
  "label",
  "project",
  "team",
  "event",
  "report",
  "quota",
  "secret",
];
const verbs = ["search", "get", "create", "update", "archive", "list", "sync", "export", "import", "audit"];
const priorities = ["lowest", "low", "normal", "high", "urgent", "blocker"];

function tool(i: number): CatalogTool {
  const noun = nouns[i % nouns.length]!;
  const verb = verbs[Math.floor(i / nouns.length) % verbs.length]!;
  const name = `${noun}_${verb}_${String(i).padStart(4, "0")}`;
  const idKey = `${noun}Id`;
  const levels = priorities.slice(0, 3 + (i % 4));
  const properties: Record<string, JsonSchema> = {
    [idKey]: {
      type: "string",
      pattern: "^[a-z]{2,4}-[0-9]{1,8}$",
      description: `Identifier of the ${noun}, e.g. ab-123`,
    },
    query: { type: "string", minLength: 1, maxLength: 128 + (i % 64), description: `Free-text query over ${noun}s` },
    limit: { type: "integer", minimum: 1, maximum: 50 + (i % 50), default: 20, description: "Page size" },
    priority: { type: "string", enum: levels, description: "Minimum priority" },
  };
  const required = [idKey, "query"];
  const validArgs: Record<string, unknown> = { [idKey]: "ab-42", query: `find ${noun} ${i}`, priority: levels[1] };

  if (i % 5 !== 0) {
    properties.tags = {
      type: "array",
      items: { type: "string", pattern: "^[a-z][a-z0-9-]{0,31}$" },
      maxItems: 8 + (i % 8),
      description: "Tags that must all match",
    };
    validArgs.tags = ["backend", "p1", `team-${i % 7}`];
  }
  if (i % 2 === 0) {
    properties.window = {
      type: "object",
      properties: {
        from: { type: "number", minimum: 0, description: "Start, seconds since the epoch" },
        to: { type: "number", minimum: 0, description: "End, seconds since the epoch" },
        unit: { type: "string", enum: ["s", "ms"] },
      },
      required: ["from", "to"],
      additionalProperties: false,
    };
    required.push("window");
    validArgs.window = { from: 1_700_000_000, to: 1_700_086_400, unit: "s" };
  }
  if (i % 3 === 0) {
    properties.filters = {
      type: "array",
      maxItems: 10,
      items: {
        type: "object",
        properties: {
          field: { type: "string", pattern: "^[a-zA-Z_][a-zA-Z0-9_.]{0,63}$" },
          op: { type: "string", enum: ["eq", "ne", "lt", "gt", "contains", "prefix"] },
          value: { type: "string", maxLength: 256 },
        },
        required: ["field", "op", "value"],
        additionalProperties: false,
      },
    };
    validArgs.filters = [
      { field: "status", op: "eq", value: "open" },
      { field: "owner.name", op: "prefix", value: "al" },
    ];
  }
  if (i % 4 < 2) {
    properties.options = {
      type: "object",
      properties: {
        dryRun: { type: "boolean" },
        score: { type: "number", minimum: 0, maximum: 1 },
        notify: {
          type: "object",
          properties: {
            channel: { type: "string", enum: ["email", "slack", "webhook"] },
            recipients: {
              type: "array",
              items: { type: "string", minLength: 3, maxLength: 254, pattern: "^[^@\\s]+@[^@\\s]+$" },
              maxItems: 5,
            },
          },
          required: ["channel"],
          additionalProperties: false,
        },
      },
      additionalProperties: false,
    };
    validArgs.options = { dryRun: true, score: 0.5, notify: { channel: "email", recipients: ["ops@example.com"] } };
  }
  const inputSchema: JsonSchema = { type: "object", properties, required, additionalProperties: false };
  const invalidArgs = i % 2 === 0 ? { ...validArgs, priority: "whenever" } : { query: "no id" };
  return {
    name,
    description: `${verb[0]!.toUpperCase()}${verb.slice(1)} ${noun}s (catalog tool ${i})`,
    inputSchema,
    validArgs,
    invalidArgs,
  };
}

let cached: CatalogTool[] | undefined;

/** The first `count` catalog tools (the same every time). */
export function catalogTools(count = CATALOG_SIZE): CatalogTool[] {
  if (!cached || cached.length < count)
    cached = Array.from({ length: Math.max(count, CATALOG_SIZE) }, (_, i) => tool(i));
  return cached.slice(0, count);
}

/** What a catalog tool answers: every implementation returns this text. */
export const catalogReply = "ok";

/** The mcp-gen manifest of a `count`-tool catalog (JSON, which is YAML); `client` also generates the typed client. */
export function catalogManifest(count: number, output = "./mcp", client = false): string {
  const tools: Record<string, unknown> = {};
  for (const t of catalogTools(count)) tools[t.name] = { description: t.description, input: t.inputSchema };
  const manifest = {
    mcpgen: 1,
    server: { name: "catalog", version: "1.0.0" },
    protocol: ["2026-07-28", "2025-11-25"],
    output,
    generate: { client },
    tools,
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/** The member name mcp-gen gives a tool (its identifier rule, for the names used here). */
export function memberName(toolName: string): string {
  const [first = "", ...rest] = toolName
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w !== "")
    .map((w) => w.toLowerCase());
  return first + rest.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join("");
}
