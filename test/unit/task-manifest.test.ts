// `task:` in the manifest: a tool declared `task: optional | required` (with its tasks'
// `ttlMs` and `pollIntervalMs`) is generated into a server built with createTaskServer,
// whose entries carry the task support and timings and whose 2025-11-25 tools/list says
// `execution.taskSupport`; the generated tree compiles strictly and serves tasks over HTTP.
// Wrong declarations are errors with their position.
import { rmSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCliAsync, tempProject } from "../support/generate.js";
import { formatTypeErrors, typecheck } from "../support/typecheck.js";
import { httpClient, modernMeta } from "../e2e/raw-mcp.js";

const manifest = (protocol: string, ...tools: string[]) =>
  ["mcpgen: 1", 'server: { name: jobs, version: "1.0.0" }', `protocol: ${protocol}`, "tools:", ...tools, ""].join("\n");

const jobs = manifest(
  "[2026-07-28, 2025-11-25, 2025-06-18]",
  "  slow_compute:",
  "    task: optional",
  "    ttlMs: 60000",
  "    pollIntervalMs: 500",
  "    input:",
  "      type: object",
  "      properties: { ms: { type: number } }",
  "      required: [ms]",
  "  report:",
  "    task: required",
  "  plain: {}",
);

const handlers = `import type { JobsHandlers } from "./mcp/index.js";
const sleep = (ms: number, signal: AbortSignal) => new Promise<void>((resolve) => {
  const timer = setTimeout(resolve, ms);
  signal.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
});
export const handlers: JobsHandlers = {
  tools: {
    async slowCompute({ ms }, ctx) {
      await sleep(ms, ctx.signal);
      return \`slept \${ms} ms\`;
    },
    report() {
      return "report ready";
    },
    plain() {
      return "plain";
    },
  },
};
`;

const projects: string[] = [];
afterAll(() => {
  for (const dir of projects) rmSync(dir, { recursive: true, force: true });
});

describe("task: in the manifest", () => {
  it("generates a task server that compiles strictly and runs the tool as a task", async () => {
    const project = tempProject({ "mcp.yaml": jobs, "handlers.ts": handlers });
    projects.push(project);
    const run = await runCliAsync(["mcp.yaml", "--out", "mcp", "-q"], project);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    const server = await readFile(join(project, "mcp", "server.gen.ts"), "utf8");
    expect(server).toContain(
      "return createTaskServer<JobsHandlers, JobsNames>(jobsServerDefinition, handlers, options);",
    );
    expect(server).toMatch(/taskSupport: "optional",\n\s+ttlMs: 60000,\n\s+pollIntervalMs: 500,/);
    expect(server).toContain('taskSupport: "required",');
    const files = ["index.ts", "server.gen.ts", "types.gen.ts", "validators.gen.ts", "protocol.gen.ts"].map((f) =>
      join(project, "mcp", f),
    );
    const errors = typecheck([...files, join(project, "handlers.ts")]);
    expect(errors, formatTypeErrors(errors)).toEqual([]);

    const { createJobsServer } = (await import(join(project, "mcp", "index.ts"))) as {
      createJobsServer: (h: unknown, o: unknown) => unknown;
    };
    const { handlers: implemented } = (await import(join(project, "handlers.ts"))) as { handlers: unknown };
    const { listenHttp } = await import("@mcp-gen/runtime/node");
    const listener = await listenHttp(
      createJobsServer(implemented, { tasks: { taskAfterMs: 20 } }) as Parameters<typeof listenHttp>[0],
      { port: 0 },
    );
    try {
      const modern = httpClient(listener.url, "modern", () => ({}));
      const created = await modern.request("tools/call", {
        name: "slow_compute",
        arguments: { ms: 300 },
        _meta: modernMeta(true),
      });
      expect(created.result).toMatchObject({
        resultType: "task",
        status: "working",
        ttlMs: 60000,
        pollIntervalMs: 500,
      });
      const taskId = created.result!.taskId as string;
      let task = (await modern.request("tasks/get", { taskId, _meta: modernMeta(true) })).result!;
      for (let i = 0; i < 50 && task.status === "working"; i++) {
        await new Promise((r) => setTimeout(r, 50));
        task = (await modern.request("tasks/get", { taskId, _meta: modernMeta(true) })).result!;
      }
      expect(task).toMatchObject({
        status: "completed",
        result: { content: [{ type: "text", text: "slept 300 ms" }] },
      });
      const refused = await modern.request("tools/call", { name: "report", arguments: {}, _meta: modernMeta(false) });
      expect(refused.error?.code).toBe(-32021);

      const legacy = httpClient(listener.url, "legacy", () => ({}));
      const init = await legacy.request("initialize", {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "t", version: "1" },
      });
      expect((init.result!.capabilities as Record<string, unknown>).tasks).toBeDefined();
      const tools = (await legacy.request("tools/list")).result!.tools as { name: string; execution?: unknown }[];
      expect(Object.fromEntries(tools.map((t) => [t.name, t.execution]))).toEqual({
        slow_compute: { taskSupport: "optional" },
        report: { taskSupport: "required" },
        plain: undefined,
      });
      await legacy.close();
    } finally {
      await listener.close();
    }
  });

  it("generates an ordinary server when no tool declares task:", async () => {
    const project = tempProject({ "mcp.yaml": manifest("[2026-07-28, 2025-11-25]", "  plain: {}") });
    projects.push(project);
    expect((await runCliAsync(["mcp.yaml", "--out", "mcp", "-q"], project)).status).toBe(0);
    const server = await readFile(join(project, "mcp", "server.gen.ts"), "utf8");
    expect(server).toContain("return createServer<");
    expect(server).not.toMatch(/createTaskServer|taskSupport|execution/);
  });

  it.each([
    {
      name: "timings without task:",
      tools: ["  slow:", "    ttlMs: 1000"],
      protocol: "2026-07-28",
      stderr:
        'mcp-gen: mcp.yaml:6:5: ttlMs of tool "slow" applies to its tasks: declare `task: optional` or `task: required` too',
    },
    {
      name: "task: where no revision has tasks",
      tools: ["  slow:", "    task: optional"],
      protocol: "[2025-06-18, 2025-03-26]",
      stderr:
        'mcp-gen: mcp.yaml:6:5: tool "slow" declares task: but no generated protocol revision has tasks; add 2026-07-28 (the tasks extension) or 2025-11-25 (experimental tasks) to `protocol`',
    },
  ])("refuses $name", async ({ tools, protocol, stderr }) => {
    const project = tempProject({ "mcp.yaml": manifest(protocol, ...tools) });
    projects.push(project);
    const run = await runCliAsync(["mcp.yaml", "--out", "mcp"], project);
    expect(run.status).toBe(1);
    expect(run.stderr.trim()).toBe(stderr);
  });

  it("refuses a task: value other than optional or required", async () => {
    const project = tempProject({ "mcp.yaml": manifest("2026-07-28", "  slow:", "    task: always") });
    projects.push(project);
    const run = await runCliAsync(["mcp.yaml", "--out", "mcp"], project);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/mcp\.yaml:6:11: .*"task".*optional, required/);
  });
});
