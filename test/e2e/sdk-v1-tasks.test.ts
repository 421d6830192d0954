// The experimental tasks of revision 2025-11-25 from a real peer: the official SDK v1 client
// (@modelcontextprotocol/sdk, `client.experimental.tasks`) drives the generated conformance
// server (its tools declared `task:` in test/conformance/server/mcp.yaml) over Streamable HTTP:
// a task-augmented call streamed to its result, an elicitation the task asks for on the way,
// tasks/get, tasks/list and tasks/cancel reaching the handler.
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema, ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../support/paths.js";
import { firstText, startHttpServer, stopAllChildren, type HttpServerProcess } from "./helpers.js";

const conformanceMain = join(repoRoot, "test", "conformance", "server", "main.ts");

let server: HttpServerProcess;
const clients: Client[] = [];

beforeAll(async () => {
  server = await startHttpServer(conformanceMain, "--port", "0");
}, 90_000);

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
  await stopAllChildren();
});

/** An SDK v1 client that answers elicitations with `answer`. */
async function connect(
  answer: (message: string) => { action: "accept"; content: { confirm: boolean } } | { action: "decline" },
): Promise<Client> {
  const client = new Client(
    { name: "e2e-sdk-v1-tasks", version: "1.0.0" },
    { capabilities: { elicitation: { form: {} } } },
  );
  client.setRequestHandler(ElicitRequestSchema, (request) => answer(request.params.message));
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
  clients.push(client);
  return client;
}

/** Every message of a streamed task-augmented call, by type, with the final result. */
async function streamCall(client: Client, name: string, args: Record<string, unknown>) {
  const seen: string[] = [];
  let taskId: string | undefined;
  let result: unknown;
  for await (const message of client.experimental.tasks.callToolStream(
    { name, arguments: args },
    CallToolResultSchema,
    { task: { ttl: 60_000 } },
  )) {
    seen.push(message.type);
    if (message.type === "taskCreated") taskId = message.task.taskId;
    if (message.type === "result") result = message.result;
    if (message.type === "error") throw message.error;
  }
  return { seen, taskId, result: result as { content: unknown } };
}

describe("SDK v1 client, experimental tasks (2025-11-25), against the generated server", () => {
  it("negotiates 2025-11-25 and sees the tasks capability and each tool's execution.taskSupport", async () => {
    const client = await connect(() => ({ action: "decline" }));
    expect(client.getServerCapabilities()?.tasks).toMatchObject({ requests: { tools: { call: {} } } });
    const { tools } = await client.listTools();
    const support = Object.fromEntries(tools.map((tool) => [tool.name, tool.execution?.taskSupport]));
    expect(support).toMatchObject({
      greet: undefined,
      slow_compute: "optional",
      failing_job: "required",
      confirm_delete: "optional",
    });
  });

  it("streams a task-augmented call from its creation to its result", async () => {
    const client = await connect(() => ({ action: "decline" }));
    const { seen, taskId, result } = await streamCall(client, "slow_compute", { seconds: 0.5, label: "sum" });
    expect(seen[0]).toBe("taskCreated");
    expect(seen.at(-1)).toBe("result");
    expect(firstText(result.content)).toBe("Computed sum in 0.5s");
    const task = await client.experimental.tasks.getTask(taskId!);
    expect(task.status).toBe("completed");
    const listed = await client.experimental.tasks.listTasks();
    expect(listed.tasks.map((t) => t.taskId)).toContain(taskId);
  });

  it("answers the elicitation a task asks for with the client's own handler, and the task completes", async () => {
    const asked: string[] = [];
    const client = await connect((message) => {
      asked.push(message);
      return { action: "accept", content: { confirm: true } };
    });
    const { result } = await streamCall(client, "confirm_delete", { filename: "notes.txt" });
    expect(asked).toEqual(["Delete notes.txt?"]);
    expect(firstText(result.content)).toBe("Deleted notes.txt");
  });

  it("cancels a running task: tasks/get shows it cancelled", async () => {
    const client = await connect(() => ({ action: "decline" }));
    const stream = client.experimental.tasks.callToolStream(
      { name: "slow_compute", arguments: { seconds: 30 } },
      CallToolResultSchema,
      { task: { ttl: 60_000 } },
    );
    const first = await stream.next();
    expect(first.value?.type).toBe("taskCreated");
    const taskId = first.value?.type === "taskCreated" ? first.value.task.taskId : "";
    await client.experimental.tasks.cancelTask(taskId);
    const task = await client.experimental.tasks.getTask(taskId);
    expect(task.status).toBe("cancelled");
    await stream.return(undefined);
  });
});
