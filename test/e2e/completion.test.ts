// completion/complete on both eras: the conformance server's completers (declared
// `complete: true` in test/conformance/server/mcp.yaml) driven in-process by the
// runtime's client session, plus the protocol edges: capability advertisement per
// revision, unknown references, the 100-value limit, servers without completers.
import { afterEach, describe, expect, it } from "vitest";
import {
  completionFeature,
  connectSession,
  createServer,
  memoryChannel,
  RpcError,
  type ClientSession,
  type McpEndpoint,
  type ServerDefinition,
} from "../../runtime/index.js";
import { completionResult } from "../../runtime/mcp/completion.js";
import { handlers as weatherHandlers } from "../../examples/weather/src/handlers.js";
import { createWeatherServer } from "../../examples/weather/src/mcp/index.js";
// The example is served by the built runtime (@mcp-gen/runtime), as users get it.
import * as built from "@mcp-gen/runtime";
import { handlers } from "../conformance/server/handlers.js";
import { createConformanceServer } from "../conformance/server/mcp/index.js";
import { runCli } from "../support/generate.js";

const sessions: ClientSession[] = [];
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.close()));
});

async function connect(
  revision: string,
  server: McpEndpoint = createConformanceServer(handlers),
): Promise<ClientSession> {
  const session = await connectSession(memoryChannel(server), {
    revisions: [revision],
    info: { name: "completion-test", version: "1.0.0" },
  });
  sessions.push(session);
  return session;
}

const promptRef = { type: "ref/prompt", name: "test_prompt_with_arguments" };
const templateRef = { type: "ref/resource", uri: "test://template/{id}/data" };

async function rpcError(promise: Promise<unknown>): Promise<RpcError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RpcError);
  return error as RpcError;
}

describe.each(["2026-07-28", "2025-11-25"])("completion/complete (%s)", (revision) => {
  it("advertises the completions capability", async () => {
    const session = await connect(revision);
    expect(session.era).toBe(revision === "2026-07-28" ? "modern" : "legacy");
    expect(session.server.capabilities.completions).toEqual({});
  });

  it("completes a prompt argument", async () => {
    const session = await connect(revision);
    const result = await session.rawRequest("completion/complete", {
      ref: promptRef,
      argument: { name: "arg1", value: "pa" },
    });
    expect(result.completion).toEqual({ values: ["paris", "park", "party"], total: 3, hasMore: false });
    if (revision === "2026-07-28") expect(result.resultType).toBe("complete");
  });

  it("passes the arguments the client already chose (context.arguments) to the completer", async () => {
    const session = await connect(revision);
    const result = await session.rawRequest("completion/complete", {
      ref: promptRef,
      argument: { name: "arg2", value: "te" },
      context: { arguments: { arg1: "test", unknown: "ignored" } },
    });
    expect(result.completion).toEqual({ values: ["testing", "template"], total: 2, hasMore: false });
  });

  it("completes a resource template variable, passing total and hasMore through", async () => {
    const session = await connect(revision);
    const result = await session.rawRequest("completion/complete", {
      ref: templateRef,
      argument: { name: "id", value: "12" },
    });
    expect(result.completion).toEqual({ values: ["12", "123", "1234"], hasMore: false });
  });

  it("an argument without a completer completes to nothing", async () => {
    const session = await connect(revision);
    const result = await session.rawRequest("completion/complete", {
      ref: { type: "ref/prompt", name: "test_prompt_with_embedded_resource" },
      argument: { name: "resourceUri", value: "test://" },
    });
    expect(result.completion).toEqual({ values: [], total: 0, hasMore: false });
  });

  it("unknown prompts, templates and arguments are invalid params", async () => {
    const session = await connect(revision);
    const cases = [
      { ref: { type: "ref/prompt", name: "nope" }, argument: { name: "arg1", value: "" } },
      { ref: { type: "ref/resource", uri: "test://nope/{id}" }, argument: { name: "id", value: "" } },
      { ref: promptRef, argument: { name: "arg3", value: "" } },
      { ref: { type: "ref/tool", name: "test_simple_text" }, argument: { name: "x", value: "" } },
      { ref: promptRef, argument: { name: "arg1" } },
    ];
    for (const params of cases)
      expect((await rpcError(session.rawRequest("completion/complete", params))).code).toBe(-32602);
  });
});

describe("completion/complete in the oldest revision", () => {
  it("2024-11-05 has no completions capability, but the method answers", async () => {
    const session = await connect("2024-11-05");
    expect(session.server.capabilities.completions).toBeUndefined();
    const result = await session.rawRequest("completion/complete", {
      ref: promptRef,
      argument: { name: "arg1", value: "part" },
    });
    expect(result.completion).toEqual({ values: ["party"], total: 1, hasMore: false });
  });
});

/** A server with one prompt, with or without a completer for its argument. */
function promptServer(complete: ((value: string) => readonly string[]) | undefined) {
  type H = { complete?: (value: string) => readonly string[] };
  const listing = {
    tools: [],
    resources: [],
    resourceTemplates: [],
    prompts: [{ name: "p", arguments: [{ name: "a" }] }],
  };
  const definition: ServerDefinition<H> = {
    info: { name: "p", version: "1.0.0" },
    revisions: ["2026-07-28", "2025-11-25"],
    infoByRevision: {},
    tools: [],
    resources: [],
    resourceTemplates: [],
    prompts: [{ name: "p", arguments: [{ name: "a", required: false }], get: () => [] }],
    ...(complete
      ? {
          completions: [
            {
              ref: { type: "ref/prompt", name: "p" },
              arguments: ["a"],
              completers: [{ argument: "a", complete: (h: H, value: string) => h.complete!(value) }],
            },
          ] as const,
          features: { completion: completionFeature },
        }
      : {}),
    listings: { "2026-07-28": listing, "2025-11-25": listing },
  };
  return createServer(definition, complete ? { complete } : {});
}

describe("completion/complete without and with many candidates", () => {
  it.each(["2026-07-28", "2025-11-25"])(
    "a server without completers does not advertise the capability and answers -32601 (%s)",
    async (revision) => {
      const session = await connect(revision, promptServer(undefined));
      expect(session.server.capabilities.completions).toBeUndefined();
      const error = await rpcError(
        session.rawRequest("completion/complete", {
          ref: { type: "ref/prompt", name: "p" },
          argument: { name: "a", value: "" },
        }),
      );
      expect(error.code).toBe(-32601);
    },
  );

  it("more than 100 values are cut to 100, with the total and hasMore", async () => {
    const many = Array.from({ length: 250 }, (_, i) => `v${i}`);
    const session = await connect(
      "2026-07-28",
      promptServer(() => many),
    );
    const result = await session.rawRequest("completion/complete", {
      ref: { type: "ref/prompt", name: "p" },
      argument: { name: "a", value: "" },
    });
    const completion = result.completion as { values: string[]; total: number; hasMore: boolean };
    expect(completion.values).toEqual(many.slice(0, 100));
    expect(completion.total).toBe(250);
    expect(completion.hasMore).toBe(true);
  });

  it("completionResult keeps a declared total and hasMore, and rejects non-strings", () => {
    expect(completionResult({ values: ["a"], total: 40, hasMore: true })).toEqual({
      values: ["a"],
      total: 40,
      hasMore: true,
    });
    expect(completionResult({ values: ["a"] })).toEqual({ values: ["a"], hasMore: false });
    expect(() => completionResult([1] as never)).toThrow(/list of strings/);
  });
});

describe("the weather example", () => {
  it.each(["2026-07-28", "2025-06-18"])("completes cities for its prompt and its template (%s)", async (revision) => {
    const session = await built.connectSession(built.memoryChannel(createWeatherServer(weatherHandlers)), {
      revisions: [revision],
    });
    sessions.push(session as unknown as ClientSession);
    const prompt = await session.rawRequest("completion/complete", {
      ref: { type: "ref/prompt", name: "plan_trip" },
      argument: { name: "city", value: "Pa" },
    });
    expect(prompt.completion).toEqual({ values: ["paris"], total: 1, hasMore: false });
    const template = await session.rawRequest("completion/complete", {
      ref: { type: "ref/resource", uri: "weather://{city}/current" },
      argument: { name: "city", value: "" },
    });
    expect(template.completion).toEqual({ values: ["paris", "oslo", "lisbon"], total: 3, hasMore: false });
  });
});

describe("the conformance server's generated code", () => {
  it("is up to date with its manifest", () => {
    const run = runCli(["test/conformance/server/mcp.yaml", "--check"]);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
  });
});
