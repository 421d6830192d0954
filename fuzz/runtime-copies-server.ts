// The hostile-network phase's two-runtime-copies server (fuzz/hostile-network.ts bundles this
// file with esbuild, so the bundle holds runtime/ from its sources and runtime/dist, as a
// bundler does when a project imports both, and runs the bundle with plain node).
// `--server dist` serves with dist's createTaskServer and listenHttp, its tools throwing the
// sources' RpcError; `--server source` the other way round. Prints `serving MCP at <url>`.
//
// Tools: `refuse` throws RpcError(code, message, data) from its arguments at once;
// `refuse_later` (taskSupport optional) after `delayMs`, long enough to become a task.
import * as distNode from "../runtime/dist/node.js";
import * as dist from "../runtime/dist/index.js";
import * as sourceNode from "../runtime/node.js";
import * as source from "../runtime/index.js";

const which = process.argv[process.argv.indexOf("--server") + 1] === "source" ? "source" : "dist";
const server = which === "dist" ? (dist as unknown as typeof source) : source;
const listen =
  which === "dist" ? (distNode.listenHttp as unknown as typeof sourceNode.listenHttp) : sourceNode.listenHttp;
const thrower = which === "dist" ? source : (dist as unknown as typeof source);

interface Refusal {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
  readonly delayMs?: number;
}
const refusal = (args: unknown): Refusal => args as Refusal;
const anyArgs = () => undefined;
const inputSchema = {
  type: "object",
  properties: { code: { type: "integer" }, message: { type: "string" }, data: {}, delayMs: { type: "integer" } },
  required: ["code", "message"],
};

const tools: source.ServerDefinition<Record<string, never>>["tools"] = [
  {
    name: "refuse",
    validateInput: anyArgs,
    call: (_handlers, args) => {
      const { code, message, data } = refusal(args);
      throw new thrower.RpcError(code, message, data);
    },
  },
  {
    name: "refuse_later",
    validateInput: anyArgs,
    taskSupport: "optional",
    call: async (_handlers, args) => {
      const { code, message, data, delayMs } = refusal(args);
      await new Promise((resolve) => setTimeout(resolve, delayMs ?? 50));
      throw new thrower.RpcError(code, message, data);
    },
  },
];
const revisions = ["2026-07-28", "2025-11-25"];
const listing = {
  tools: tools.map((tool) => ({ name: tool.name, inputSchema })),
  resources: [],
  resourceTemplates: [],
  prompts: [],
};
const definition: source.ServerDefinition<Record<string, never>> = {
  info: { name: `copies-${which}`, version: "1.0.0" },
  revisions,
  tools,
  resources: [],
  resourceTemplates: [],
  prompts: [],
  listings: Object.fromEntries(revisions.map((revision) => [revision, listing])),
  features: { input: thrower.inputFeature },
};
const mcp = server.createTaskServer(
  definition as never,
  {},
  { onError: () => {}, tasks: { taskAfterMs: 10, pollIntervalMs: 20 } },
);
const listener = await listen(mcp, { port: 0, handleSignals: true });
process.stderr.write(`serving MCP at ${listener.url}\n`);
