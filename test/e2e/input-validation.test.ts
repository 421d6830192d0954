// The client's answers to ctx.input and ctx.request are checked against the result type
// of what was asked (ElicitResult, CreateMessageResult, ListRootsResult) as the revision in
// use defines it, with validators the generator compiles for the methods `asks:` uses.
// 2026-07-28: inputResponses that do not fit are -32602 naming the key. Legacy sessions:
// a malformed response to the server's request rejects the handler's ctx.input /
// ctx.request with an RpcError -32602 naming the method.
import { afterEach, describe, expect, it } from "vitest";
import {
  connectSession,
  memoryChannel,
  MetaKey,
  RpcError,
  serializeMessage,
  type ClientSession,
  type JsonObject,
  type JsonRpcMessage,
  type Params,
} from "../../runtime/index.js";
import { handlers } from "../conformance/server/handlers.js";
import {
  conformanceServerDefinition,
  createConformanceServer,
  type ConformanceHandlers,
} from "../conformance/server/mcp/index.js";
import { weatherServerDefinition } from "../../examples/weather/src/mcp/index.js";

const allCapabilities = { sampling: {}, elicitation: {}, roots: {} };
type Response = JsonRpcMessage & { result?: Params; error?: { code: number; message: string; data?: unknown } };

/** One 2026-07-28 request straight to the server; resolves with its response as it goes on the wire. */
function modern(method: string, params: Params, server = createConformanceServer(handlers)): Promise<Response> {
  return new Promise((resolve) => {
    const peer = server.connect({
      send: (message) => {
        if ("id" in message && message.id === 1 && ("result" in message || "error" in message))
          resolve(JSON.parse(serializeMessage(message)) as Response);
      },
    });
    peer.receive({
      jsonrpc: "2.0",
      id: 1,
      method,
      params: {
        ...params,
        _meta: { [MetaKey.protocolVersion]: "2026-07-28", [MetaKey.clientCapabilities]: allCapabilities },
      },
    });
  });
}

/** A first round of `method` (its input_required result), then the retry with `inputResponses` and the requestState it gave. */
async function answer(method: string, params: Params, inputResponses: JsonObject): Promise<Response> {
  const server = createConformanceServer(handlers);
  const first = await modern(method, params, server);
  expect(first.result?.resultType).toBe("input_required");
  return modern(method, { ...params, inputResponses, requestState: first.result!.requestState }, server);
}

const call = (name: string, inputResponses: JsonObject) =>
  answer("tools/call", { name, arguments: {} }, inputResponses);
const text = (result: Params | undefined) => (result?.content as { text: string }[])[0]!.text;

describe("2026-07-28: inputResponses are checked against the result type of what was asked", () => {
  it("an elicitation answer without `action` is -32602 naming the key", async () => {
    const { error } = await call("test_input_required_result_elicitation", { user_name: { foo: "bar" } });
    expect(error?.code).toBe(-32602);
    expect(error?.message).toContain("inputResponses.user_name");
    expect(error?.message).toContain("elicitation/create");
    expect(error?.message).toContain("must have required property 'action'");
  });

  it("an unknown action or content that is not form data is -32602", async () => {
    expect((await call("test_input_required_result_elicitation", { user_name: { action: "maybe" } })).error?.code).toBe(
      -32602,
    );
    const nested = await call("test_input_required_result_elicitation", {
      user_name: { action: "accept", content: { name: { first: "Bob" } } },
    });
    expect(nested.error?.code).toBe(-32602);
    expect(nested.error?.message).toContain("/content/name");
  });

  it("a roots answer without `roots` is -32602 naming the key", async () => {
    const { error } = await call("test_input_required_result_list_roots", { client_roots: {} });
    expect(error?.code).toBe(-32602);
    expect(error?.message).toContain("inputResponses.client_roots");
    expect(error?.message).toContain("roots/list");
    const badRoot = await call("test_input_required_result_list_roots", {
      client_roots: { roots: [{ name: "no uri" }] },
    });
    expect(badRoot.error?.message).toContain("/roots/0 must have required property 'uri'");
  });

  it("a sampling answer without model is -32602 naming the key", async () => {
    const { error } = await call("test_input_required_result_sampling", {
      capital_question: { role: "assistant", content: { type: "text", text: "Paris" } },
    });
    expect(error?.code).toBe(-32602);
    expect(error?.message).toContain("inputResponses.capital_question");
    expect(error?.message).toContain("model");
  });

  it("valid answers still complete the request", async () => {
    expect(
      text(
        (
          await call("test_input_required_result_elicitation", {
            user_name: { action: "accept", content: { name: "Bob" } },
          })
        ).result,
      ),
    ).toBe("Hello, Bob!");
    expect(
      text(
        (await call("test_input_required_result_list_roots", { client_roots: { roots: [{ uri: "file:///a" }] } }))
          .result,
      ),
    ).toBe("Roots: file:///a");
    const sampled = await call("test_input_required_result_sampling", {
      capital_question: {
        role: "assistant",
        content: { type: "text", text: "Paris" },
        model: "m",
        resultType: "complete",
      },
    });
    expect(text(sampled.result)).toBe("The LLM says: Paris");
  });

  it("answers for prompts/get are checked too", async () => {
    const { error } = await answer(
      "prompts/get",
      { name: "test_input_required_result_prompt" },
      { user_context: { content: { context: "x" } } },
    );
    expect(error?.code).toBe(-32602);
    expect(error?.message).toContain("inputResponses.user_context");
  });

  it("an answer for a key that was not asked for is -32602 naming the key, and so is any answer without requestState", async () => {
    const { error } = await call("test_input_required_result_elicitation", {
      user_name: { action: "decline" },
      other: { foo: "bar" },
    });
    expect(error).toMatchObject({ code: -32602, message: expect.stringContaining("inputResponses.other") });
    const unprompted = await modern("tools/call", {
      name: "test_input_required_result_elicitation",
      arguments: {},
      inputResponses: { user_name: { action: "decline" } },
    });
    expect(unprompted.error).toMatchObject({
      code: -32602,
      message: expect.stringContaining("inputResponses.user_name"),
    });
  });
});

describe("legacy sessions: the client's responses to the server's requests are checked", () => {
  const sessions: ClientSession[] = [];
  afterEach(async () => {
    await Promise.all(sessions.splice(0).map((s) => s.close()));
  });

  /** A conformance server whose elicitation and sampling tools report how ctx.input / ctx.request failed. */
  function reportingServer() {
    const report = (error: unknown) =>
      error instanceof RpcError ? `RpcError ${error.code}: ${error.message}` : `other: ${String(error)}`;
    const tools: ConformanceHandlers["tools"] = {
      ...handlers.tools,
      async testElicitation({ message }, ctx) {
        try {
          const { user } = await ctx.input({
            user: {
              method: "elicitation/create",
              params: { message, requestedSchema: { type: "object", properties: {} } },
            },
          });
          return `ok: ${user.action}`;
        } catch (error) {
          return report(error);
        }
      },
      async testSampling({ prompt }, ctx) {
        try {
          if (ctx.era !== "legacy") throw new Error("legacy only");
          const answer = await ctx.request("sampling/createMessage", {
            messages: [{ role: "user", content: { type: "text", text: prompt } }],
            maxTokens: 10,
          });
          return `ok: ${answer.model}`;
        } catch (error) {
          return report(error);
        }
      },
      async testInputRequiredResultListRoots(_args, ctx) {
        try {
          const { client_roots } = await ctx.input({ client_roots: { method: "roots/list", params: {} } });
          return `ok: ${client_roots.roots.length}`;
        } catch (error) {
          return report(error);
        }
      },
    };
    return createConformanceServer({ ...handlers, tools });
  }

  async function connect(revision: string, answers: { elicitation?: unknown; sampling?: unknown; roots?: unknown }) {
    const session = await connectSession(memoryChannel(reportingServer()), {
      revisions: [revision],
      capabilities: allCapabilities,
      requests: {
        "elicitation/create": () => answers.elicitation as Params,
        "sampling/createMessage": () => answers.sampling as Params,
        "roots/list": () => answers.roots as Params,
      },
    });
    sessions.push(session);
    const tool = async (name: string, args: JsonObject = {}) =>
      text(await session.rawRequest("tools/call", { name, arguments: args }));
    return tool;
  }

  it("ctx.input: an elicitation answer without action rejects with RpcError -32602 naming elicitation/create", async () => {
    const tool = await connect("2025-11-25", { elicitation: { foo: "bar" } });
    const reported = await tool("test_elicitation", { message: "Hi?" });
    expect(reported).toMatch(/^RpcError -32602: /);
    expect(reported).toContain("elicitation/create");
    expect(reported).toContain("must have required property 'action'");
  });

  it("ctx.input: a roots answer without roots rejects with -32602 naming roots/list (2024-11-05 too)", async () => {
    for (const revision of ["2025-11-25", "2024-11-05"]) {
      const tool = await connect(revision, { roots: { items: [] } });
      const reported = await tool("test_input_required_result_list_roots");
      expect(reported, revision).toMatch(/^RpcError -32602: .*roots\/list.*must have required property 'roots'/);
    }
  });

  it("ctx.request: a sampling answer is checked against the session's revision", async () => {
    const audio = { role: "assistant", content: { type: "audio", data: "AAAA", mimeType: "audio/wav" }, model: "m" };
    // Audio content exists from 2025-03-26: fine there, not in 2024-11-05.
    expect(await (await connect("2025-03-26", { sampling: audio }))("test_sampling", { prompt: "p" })).toBe("ok: m");
    const old = await (await connect("2024-11-05", { sampling: audio }))("test_sampling", { prompt: "p" });
    expect(old).toMatch(/^RpcError -32602: .*sampling\/createMessage/);
    const noModel = await (
      await connect("2025-11-25", { sampling: { role: "assistant", content: { type: "text", text: "x" } } })
    )("test_sampling", { prompt: "p" });
    expect(noModel).toMatch(/^RpcError -32602: .*sampling\/createMessage.*model/);
  });

  it("valid answers reach the handler", async () => {
    const tool = await connect("2025-11-25", { elicitation: { action: "cancel" }, roots: { roots: [] } });
    expect(await tool("test_elicitation", { message: "Hi?" })).toBe("ok: cancel");
    expect(await tool("test_input_required_result_list_roots")).toBe("ok: 0");
  });

  it("uncaught, the rejection answers the tools/call with -32602", async () => {
    const session = await connectSession(memoryChannel(createConformanceServer(handlers)), {
      revisions: ["2025-11-25"],
      capabilities: allCapabilities,
      requests: { "elicitation/create": () => ({ foo: "bar" }) },
    });
    sessions.push(session);
    const error = await session
      .rawRequest("tools/call", { name: "test_elicitation", arguments: { message: "Hi?" } })
      .then(
        () => undefined,
        (e: unknown) => e as RpcError,
      );
    expect(error).toBeInstanceOf(RpcError);
    expect(error?.code).toBe(-32602);
  });
});

describe("generated answer validators", () => {
  it("exist for exactly the methods `asks:` uses, per revision that has them", () => {
    const answers = conformanceServerDefinition.answers!;
    expect(Object.keys(answers).sort()).toEqual(["elicitation/create", "roots/list", "sampling/createMessage"]);
    expect(Object.keys(answers["elicitation/create"]!).sort()).toEqual(["2025-06-18", "2025-11-25", "2026-07-28"]);
    expect(Object.keys(answers["roots/list"]!).sort()).toEqual([
      "2024-11-05",
      "2025-03-26",
      "2025-06-18",
      "2025-11-25",
      "2026-07-28",
    ]);
  });

  it("a server that asks nothing carries none", () => {
    expect(weatherServerDefinition.answers).toBeUndefined();
  });
});
