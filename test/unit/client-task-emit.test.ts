// The client emitter for tools declared `task:`: such a tool's method is callable as any
// other and also has `.task(args)`, typed to return a ToolTask of the tool's own result;
// the tools that may run as tasks are one table handed to toolMethods with callToolAsTask,
// and a client without task tools imports neither. The tree compiles strictly, with a
// file of type checks (wrong arguments, `.task` on a tool that has none).
import { readFileSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCliAsync, tempProject } from "../support/generate.js";
import { formatTypeErrors, typecheck } from "../support/typecheck.js";

const manifest = (...tools: string[]) =>
  [
    "mcpgen: 1",
    'server: { name: jobs, version: "1.0.0" }',
    "protocol: [2026-07-28, 2025-11-25]",
    "generate: { server: false }",
    "tools:",
    ...tools,
    "",
  ].join("\n");

const taskTools = manifest(
  "  slow_compute:",
  "    description: Computes slowly.",
  "    task: optional",
  "    input:",
  "      type: object",
  "      properties: { ms: { type: number } }",
  "      required: [ms]",
  "    output:",
  "      type: object",
  "      properties: { slept: { type: number } }",
  "      required: [slept]",
  "  report:",
  "    task: required",
  "  plain: {}",
);

const usage = `import type { TaskCallOptions, ToolCallResult, ToolTask, PlainToolCallResult } from "@mcp-gen/runtime";
import type { JobsClient, SlowComputeOutput, ToolResultContent } from "./mcp/index.js";

export async function use(client: JobsClient, options: TaskCallOptions): Promise<number> {
  const task: ToolTask<ToolCallResult<SlowComputeOutput, ToolResultContent>> = await client.tools.slowCompute.task({ ms: 5 }, options);
  const result = await task.wait();
  const slept: number = result.isError ? 0 : result.structuredContent.slept;
  const inline: ToolCallResult<SlowComputeOutput, ToolResultContent> = await client.tools.slowCompute({ ms: 5 });
  const report: ToolTask<PlainToolCallResult<ToolResultContent>> = await client.tools.report.task();
  // @ts-expect-error ms is required
  await client.tools.slowCompute.task({});
  // @ts-expect-error plain does not run as a task
  void client.tools.plain.task;
  return slept + inline.content.length + (report.id?.length ?? 0);
}
`;

const projects: string[] = [];
afterAll(() => {
  for (const dir of projects) rmSync(dir, { recursive: true, force: true });
});

async function generateClient(
  yaml: string,
  files: Record<string, string> = {},
): Promise<{ project: string; client: string }> {
  const project = tempProject({ "mcp.yaml": yaml, ...files });
  projects.push(project);
  const run = await runCliAsync(["mcp.yaml", "-q"], project);
  expect(run.stderr).toBe("");
  expect(run.status).toBe(0);
  return { project, client: readFileSync(join(project, "mcp", "client.gen.ts"), "utf8") };
}

describe("client.gen.ts for tools declared task:", () => {
  it("gives them .task(args) returning a ToolTask of their result, and hands the task table to toolMethods", async () => {
    const { project, client } = await generateClient(taskTools, { "usage.ts": usage });
    const lines = client.split("\n");
    const at = (text: string) => lines.findIndex((line) => line === text);
    const slow = at("    readonly slowCompute: {");
    expect(slow).toBeGreaterThan(0);
    expect(lines[slow - 1]).toBe(
      '    /** Calls tool "slow_compute". Computes slowly. Structured content is validated against the tool\'s output schema. It may run as a task */',
    );
    expect(lines.slice(slow + 1, slow + 10)).toEqual([
      "      (",
      "        args: SlowComputeInput,",
      "        options?: CallOptions,",
      "      ): Promise<ToolCallResult<SlowComputeOutput, ToolResultContent>>;",
      '      /** Calls tool "slow_compute" as a task: resolves with the task\'s handle once the server has created it (`wait()` for the result, `cancel()`) */',
      "      task(",
      "        args: SlowComputeInput,",
      "        options?: TaskCallOptions,",
      "      ): Promise<ToolTask<ToolCallResult<SlowComputeOutput, ToolResultContent>>>;",
    ]);
    expect(lines[at("    readonly report: {") - 1]).toBe(
      '    /** Calls tool "report". It runs as a task (required): the call waits for the task\'s result */',
    );
    expect(client).toContain("    plain(\n");
    expect(client).toContain('const jobsToolTasks: ToolTaskTable = { slowCompute: "optional", report: "required" };');
    expect(client).toContain(
      'tools: toolMethods<JobsClient["tools"]>(session, jobsToolCalls, { tools: jobsToolTasks, callAsTask: callToolAsTask }),',
    );
    const generated = readdirSync(join(project, "mcp")).map((f) => join(project, "mcp", f));
    const errors = typecheck([...generated, join(project, "usage.ts")]);
    expect(errors, formatTypeErrors(errors)).toEqual([]);
  });

  it("leaves the task machinery out of a client without task tools", async () => {
    const { client } = await generateClient(manifest("  plain: {}"));
    for (const name of ["callToolAsTask", "TaskCallOptions", "ToolTask", "ToolTaskTable", "ToolTasks"])
      expect(client).not.toContain(name);
    expect(client).toContain('tools: toolMethods<JobsClient["tools"]>(session, jobsToolCalls),');
  });
});
