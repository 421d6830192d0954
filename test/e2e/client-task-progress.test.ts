// What a task's onProgress and onStatus see, end to end: a server and a client generated
// from one manifest (into a temporary folder), the server a real child process over stdio;
// and the same client against the official SDK v1 server's task tool (2025-11-25).
// Its `build` tool may run as a task; the handler reports progress, asks the user a
// question (the task is input_required meanwhile), reports again and completes:
// - 2025-11-25: the call's progress token stays valid for the task's lifetime (the
//   specification's "Task Progress Notifications"), so every report reaches onProgress;
//   notifications/tasks/status tell onStatus each transition.
// - 2026-07-28: the tasks extension supports progress only while the call is an ordinary
//   request ("notifications/progress … are not supported on tasks"): reports made before
//   the call became a task arrive, later ones are not sent. onStatus sees what polling
//   tasks/get (and, with `listen`, notifications/tasks) shows.
import { readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { stdioChannel } from "@mcp-gen/runtime/node";
import type { Params, TaskCallOptions, TaskInfo, ToolTask } from "@mcp-gen/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCliAsync, tempProject } from "../support/generate.js";
import { formatTypeErrors, typecheck } from "../support/typecheck.js";
import { repoRoot } from "../support/paths.js";
import { stopAllChildren, tsxCommand } from "./helpers.js";

const manifest = `mcpgen: 1
server: { name: steps, version: 1.0.0 }
protocol: [2026-07-28, 2025-11-25]
output: ./mcp
tools:
  build:
    description: Builds a target in three steps, asking which flavour half-way
    task: optional
    pollIntervalMs: 20
    asks: [elicitation]
    input:
      type: object
      properties:
        target: { type: string }
      required: [target]
`;

// Each phase lasts well beyond the poll interval (20 ms) and the time after which a
// 2026-07-28 call becomes a task (50 ms), so every status is there for a poll to see.
const server = `import { serveStdio } from "@mcp-gen/runtime/node";
import { createStepsServer } from "./mcp/index.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
serveStdio(
  createStepsServer(
    {
      tools: {
        async build({ target }, ctx) {
          ctx.progress(1, 3, "fetched");
          await sleep(400);
          const { flavour } = await ctx.input({
            flavour: {
              method: "elicitation/create",
              params: { message: "Which flavour?", requestedSchema: { type: "object", properties: { flavour: { type: "string" } }, required: ["flavour"] } },
            },
          });
          ctx.progress(2, 3, "compiled");
          await sleep(400);
          ctx.progress(3, 3, "linked");
          await sleep(100);
          return \`built \${target} (\${String(flavour.content?.flavour)})\`;
        },
      },
    },
    { tasks: { taskAfterMs: 50 } },
  ),
);
`;

interface Client {
  readonly tools: {
    build: ((args: { target: string }) => Promise<Params>) & {
      task(args: { target: string }, options?: TaskCallOptions): Promise<ToolTask<Params>>;
    };
  };
  readonly session: { readonly revision: string };
  close(): Promise<void>;
}

let project = "";
let connect: (revision: string, script?: string) => Promise<Client>;
const open: Client[] = [];

beforeAll(async () => {
  project = tempProject({ "mcp.yaml": manifest, "server.ts": server });
  const run = await runCliAsync([join(project, "mcp.yaml"), "-q"]);
  expect(run.stderr).toBe("");
  expect(run.status).toBe(0);
  const files = [...readdirSync(join(project, "mcp")).map((f) => join(project, "mcp", f)), join(project, "server.ts")];
  const errors = typecheck(files);
  expect(errors, formatTypeErrors(errors)).toEqual([]);
  const generated = (await import(pathToFileURL(join(project, "mcp", "index.ts")).href)) as {
    connectStepsClient(channel: unknown, options: unknown): Promise<Client>;
  };
  connect = async (revision, script = join(project, "server.ts")) => {
    const client = await generated.connectStepsClient(stdioChannel({ ...tsxCommand(script), stderr: "ignore" }), {
      revisions: [revision],
      requests: { "elicitation/create": () => ({ action: "accept", content: { flavour: "vanilla" } }) },
    });
    open.push(client);
    expect(client.session.revision).toBe(revision);
    return client;
  };
});

afterAll(async () => {
  await Promise.all(open.splice(0).map((c) => c.close().catch(() => {})));
  await stopAllChildren();
  if (project) rmSync(project, { recursive: true, force: true });
});

const textOf = (result: Params) => (result.content as { type: string; text?: string }[])[0]?.text;

/** Runs `build` as a task and records what the callbacks saw. */
async function follow(client: Client, options: TaskCallOptions = {}) {
  const progress: string[] = [];
  const statuses: string[] = [];
  const task = await client.tools.build.task(
    { target: "app" },
    { ...options, onProgress: (p) => progress.push(`${p.progress}/${p.total} ${p.message}`) },
  );
  expect(task.id).toMatch(/\S/);
  const result = await task.wait({ onStatus: (info: TaskInfo) => statuses.push(info.status) });
  expect(textOf(result)).toBe("built app (vanilla)");
  return { progress, statuses };
}

const transitions = ["working", "input_required", "working", "completed"];

describe("generated client → generated task server over stdio", () => {
  it("2025-11-25: onProgress gets every report of the task, onStatus every transition", async () => {
    const { progress, statuses } = await follow(await connect("2025-11-25"));
    expect(progress).toEqual(["1/3 fetched", "2/3 compiled", "3/3 linked"]);
    expect(statuses).toEqual(transitions);
  });

  it("2026-07-28: onProgress gets the reports made before the call became a task; onStatus every transition, by polling", async () => {
    const { progress, statuses } = await follow(await connect("2026-07-28"));
    expect(progress).toEqual(["1/3 fetched"]);
    expect(statuses).toEqual(transitions);
  });

  it("2026-07-28 with listen: the same transitions, from notifications/tasks (polling once a minute would not end in time)", async () => {
    const { progress, statuses } = await follow(await connect("2026-07-28"), {
      listen: true,
      minPollIntervalMs: 60_000,
    });
    expect(progress).toEqual(["1/3 fetched"]);
    expect(statuses).toEqual(transitions);
  });

  it("2025-11-25 against the official SDK v1 server: its progress after CreateTaskResult reaches onProgress, and onStatus sees each transition", async () => {
    const client = await connect(
      "2025-11-25",
      join(repoRoot, "test", "e2e", "fixtures", "sdk-v1-task-progress-server.ts"),
    );
    const { progress, statuses } = await follow(client);
    expect(progress).toEqual(["1/3 fetched", "2/3 compiled", "3/3 linked"]);
    expect(statuses).toEqual(transitions);
  });
});
