// Two copies of the runtime in one program (a bundle holding the sources and runtime/dist,
// or two installed versions): errors thrown by a handler built against one copy must keep
// their meaning in a server of the other, inline and from a task. `source` is runtime/
// compiled on the fly, `dist` the built package (npm run -s build).
import { describe, expect, it } from "vitest";
import * as dist from "../../runtime/dist/index.js";
import * as source from "../../runtime/index.js";

const CODE = -32042;

/** A server of `server`'s copy whose tools throw errors of `thrower`'s copy. */
function serve(server: typeof source, thrower: typeof source) {
  const objectArgs = () => undefined;
  const tools: source.ServerDefinition<Record<string, never>>["tools"] = [
    {
      name: "refuse",
      validateInput: objectArgs,
      call: () => {
        throw new thrower.RpcError(CODE, "refused by the other copy");
      },
    },
    {
      name: "refuse_later",
      validateInput: objectArgs,
      taskSupport: "optional",
      call: async () => {
        await new Promise((resolve) => setTimeout(resolve, 100));
        throw new thrower.RpcError(CODE, "refused later by the other copy");
      },
    },
  ];
  const listing = {
    tools: tools.map((tool) => ({ name: tool.name, inputSchema: { type: "object" } })),
    resources: [],
    resourceTemplates: [],
    prompts: [],
  };
  const definition: source.ServerDefinition<Record<string, never>> = {
    info: { name: "copies", version: "1.0.0" },
    revisions: ["2026-07-28"],
    tools,
    resources: [],
    resourceTemplates: [],
    prompts: [],
    listings: { "2026-07-28": listing },
    features: { input: thrower.inputFeature },
  };
  return server.createTaskServer(
    definition as never,
    {},
    { onError: () => {}, tasks: { taskAfterMs: 10, pollIntervalMs: 20 } },
  );
}

describe.each([
  { name: "source handler, dist server", server: dist as unknown as typeof source, thrower: source },
  { name: "dist handler, source server", server: source, thrower: dist as unknown as typeof source },
])("$name", ({ server, thrower }) => {
  it("an RpcError of the other copy is recognised", () => {
    expect(new thrower.RpcError(CODE, "x")).toBeInstanceOf(server.RpcError);
    expect(new Error("x")).not.toBeInstanceOf(server.RpcError);
  });

  it("keeps its code inline and from a task", async () => {
    const session = await source.connectSession(server.memoryChannel(serve(server, thrower)) as source.ClientChannel, {
      revisions: ["2026-07-28"],
    });
    await expect(session.rawRequest("tools/call", { name: "refuse", arguments: {} })).rejects.toMatchObject({
      code: CODE,
      message: "refused by the other copy",
    });
    const task = await source.callToolAsTask(session, "refuse_later", {});
    await expect(task.wait()).rejects.toMatchObject({
      error: { code: CODE, message: "refused later by the other copy" },
    });
    await session.close();
  });
});
