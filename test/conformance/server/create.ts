// The conformance server as main.ts serves it (and as tests that compare against it build it):
// the generated definition with the handlers of handlers.ts.
import { createTaskServer, type JsonObject, type Listing, type ServerDefinition, type ServerOptions, type ToolEntry, type ValidationIssue } from "../../../runtime/index.js";
import { handlers, taskHandlers } from "./handlers.js";
import { conformanceServerDefinition, type ConformanceHandlers, type ConformanceNames } from "./mcp/index.js";

// The tools of the tasks scenarios, wired by hand until the generator knows `task:` in
// the manifest: entries and list items as the generator would emit them for tools declared
// `task: optional | required`, served by createTaskServer.
type Properties = Readonly<Record<string, { readonly type: "string" | "number" }>>;
interface TaskTool {
  readonly name: string;
  readonly description: string;
  readonly properties: Properties;
  readonly required: readonly string[];
  readonly taskSupport?: "optional" | "required";
  readonly call: ToolEntry<ConformanceHandlers>["call"];
}
const taskTools: readonly TaskTool[] = [
  { name: "greet", description: "Greets someone (never a task)", properties: { name: { type: "string" } }, required: ["name"], call: (_h, args, _ctx) => taskHandlers.greet(args as { name: string }) },
  {
    name: "slow_compute",
    description: "Sleeps `seconds` seconds, then answers",
    properties: { seconds: { type: "number" }, label: { type: "string" } },
    required: ["seconds"],
    taskSupport: "optional",
    call: (_h, args, ctx) => taskHandlers.slowCompute(args as { seconds: number; label?: string }, ctx),
  },
  { name: "failing_job", description: "Fails with a tool error after a second", properties: {}, required: [], taskSupport: "required", call: (_h, args, ctx) => taskHandlers.failingJob(args as object, ctx) },
  { name: "protocol_error_job", description: "Fails with a protocol error after a second", properties: {}, required: [], taskSupport: "optional", call: (_h, args, ctx) => taskHandlers.protocolErrorJob(args as object, ctx) },
  {
    name: "confirm_delete",
    description: "Asks for a confirmation, then deletes a file",
    properties: { filename: { type: "string" } },
    required: ["filename"],
    taskSupport: "optional",
    call: (_h, args, ctx) => taskHandlers.confirmDelete(args as { filename: string }, ctx),
  },
  { name: "multi_input", description: "Asks two questions at once", properties: {}, required: [], taskSupport: "optional", call: (_h, args, ctx) => taskHandlers.multiInput(args as object, ctx) },
  { name: "test_tool_with_task", description: "Asks for a name, then works on as a task", properties: {}, required: [], taskSupport: "required", call: (_h, args, ctx) => taskHandlers.testToolWithTask(args as object, ctx) },
];

/** A check of flat argument objects: required keys present, values of their declared types. */
function validator(properties: Properties, required: readonly string[]) {
  return (value: unknown): ValidationIssue | undefined => {
    if (typeof value !== "object" || value === null || Array.isArray(value)) return { path: "", message: "must be object" };
    const args = value as Record<string, unknown>;
    for (const key of required) if (!(key in args)) return { path: "", message: `must have required property '${key}'` };
    for (const [key, schema] of Object.entries(properties)) {
      if (key in args && typeof args[key] !== schema.type) return { path: `/${key}`, message: `must be ${schema.type}` };
    }
    return undefined;
  };
}

function withTaskTools(base: ServerDefinition<ConformanceHandlers>): ServerDefinition<ConformanceHandlers> {
  const listings: Record<string, Listing> = {};
  for (const [revision, listing] of Object.entries(base.listings)) {
    const items: JsonObject[] = taskTools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: { type: "object", properties: tool.properties, ...(tool.required.length > 0 ? { required: tool.required } : {}) },
      // `execution.taskSupport` exists in 2025-11-25 only (2026-07-28 negotiates the extension instead).
      ...(revision === "2025-11-25" && tool.taskSupport ? { execution: { taskSupport: tool.taskSupport } } : {}),
    }));
    listings[revision] = { ...listing, tools: [...listing.tools, ...items] };
  }
  const entries: ToolEntry<ConformanceHandlers>[] = taskTools.map((tool) => ({
    name: tool.name,
    validateInput: validator(tool.properties, tool.required),
    call: tool.call,
    ...(tool.taskSupport ? { taskSupport: tool.taskSupport } : {}),
  }));
  return { ...base, tools: [...base.tools, ...entries], listings };
}

/** The server the conformance suite talks to. */
export function createServerUnderTest(options?: ServerOptions) {
  return createTaskServer<ConformanceHandlers, ConformanceNames>(withTaskTools(conformanceServerDefinition), handlers, options);
}
