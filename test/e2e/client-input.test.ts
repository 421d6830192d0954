// Input from the client (ctx.input, ctx.request) and resource subscriptions, on both
// eras, against the conformance server in-process: legacy sessions get real
// server-to-client requests, 2026-07-28 gets input_required results (SEP-2322) that the
// runtime's client answers with the same handlers and retries; requestState is signed,
// bound to its request and checked; missing client capabilities are -32021.
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
import { createConformanceServer } from "../conformance/server/mcp/index.js";

const sessions: ClientSession[] = [];
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.close()));
});

const allCapabilities = { sampling: {}, elicitation: {}, roots: { listChanged: true } };

/** Answers like a user and an LLM would; records what the server asked. */
function clientHandlers(asked: string[]) {
  return {
    "elicitation/create": (params: Params | undefined) => {
      const message = String(params?.message);
      asked.push(message);
      return {
        action: "accept",
        content: message.includes("color")
          ? { color: "blue" }
          : message.includes("context")
            ? { context: "weather" }
            : { name: "Alice", ok: true },
      };
    },
    "sampling/createMessage": () => {
      asked.push("sampling");
      return {
        role: "assistant",
        content: { type: "text", text: "Paris" },
        model: "test-model",
        stopReason: "endTurn",
      };
    },
    "roots/list": () => {
      asked.push("roots");
      return { roots: [{ uri: "file:///work", name: "work" }] };
    },
  };
}

async function connect(
  revision: string,
  capabilities: JsonObject = allCapabilities,
  asked: string[] = [],
  server = createConformanceServer(handlers),
) {
  const notifications: { method: string; params: Params | undefined }[] = [];
  const session = await connectSession(memoryChannel(server), {
    revisions: [revision],
    capabilities,
    requests: clientHandlers(asked),
    onNotification: (method, params) => notifications.push({ method, params }),
  });
  sessions.push(session);
  return { session, notifications, server };
}

const text = (result: Params) => (result.content as { text: string }[])[0]!.text;

async function rpcError(promise: Promise<unknown>): Promise<RpcError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RpcError);
  return error as RpcError;
}

describe.each(["2026-07-28", "2025-11-25"])("ctx.input (%s)", (revision) => {
  it("asks in two rounds and completes with both answers", async () => {
    const asked: string[] = [];
    const { session } = await connect(revision, allCapabilities, asked);
    const result = await session.rawRequest("tools/call", {
      name: "test_input_required_result_multi_round",
      arguments: {},
    });
    expect(text(result)).toBe("Alice likes blue");
    expect(asked).toEqual(["Step 1: What is your name?", "Step 2: What is your favorite color?"]);
  });

  it("asks for elicitation, sampling and roots at once", async () => {
    const asked: string[] = [];
    const { session } = await connect(revision, allCapabilities, asked);
    const result = await session.rawRequest("tools/call", {
      name: "test_input_required_result_multiple_inputs",
      arguments: {},
    });
    expect(text(result)).toBe("Paris, Alice! Roots: 1");
    expect([...asked].sort()).toEqual(["What is your name?", "roots", "sampling"]);
  });

  it("works in prompts/get too", async () => {
    const { session } = await connect(revision);
    const result = await session.rawRequest("prompts/get", { name: "test_input_required_result_prompt" });
    expect(result.messages).toEqual([
      { role: "user", content: { type: "text", text: "Answer with this context in mind: weather" } },
    ]);
  });

  it("a capability the client did not declare is MissingRequiredClientCapability (-32021), before anything is sent", async () => {
    const asked: string[] = [];
    const { session } = await connect(revision, { sampling: {} }, asked);
    const error = await rpcError(
      session.rawRequest("tools/call", { name: "test_input_required_result_elicitation", arguments: {} }),
    );
    expect(error.code).toBe(-32021);
    expect(error.data).toEqual({ requiredCapabilities: { elicitation: {} } });
    expect(asked).toEqual([]);
    // The handler that checks ctx.client.capabilities asks only for what the client supports.
    const result = await session.rawRequest("tools/call", {
      name: "test_input_required_result_capabilities",
      arguments: {},
    });
    expect(text(result)).toBe("sampling: Paris");
  });
});

describe("ctx.request (legacy sessions)", () => {
  it("sends the request on the call and returns its result", async () => {
    const asked: string[] = [];
    const legacy = await connect("2025-11-25", allCapabilities, asked);
    expect(
      text(await legacy.session.rawRequest("tools/call", { name: "test_sampling", arguments: { prompt: "Capital?" } })),
    ).toBe("LLM response: Paris");
    expect(asked).toEqual(["sampling"]);
  });

  it("without the sampling capability: -32021 in both eras", async () => {
    for (const revision of ["2026-07-28", "2025-11-25"]) {
      const { session } = await connect(revision, {});
      const error = await rpcError(
        session.rawRequest("tools/call", { name: "test_missing_capability", arguments: {} }),
      );
      expect(error.code).toBe(-32021);
      expect(error.data).toEqual({ requiredCapabilities: { sampling: {} } });
    }
  });
});

/** One modern request straight to the server, returning the response message and what came before it. */
function modern(
  server: ReturnType<typeof createConformanceServer>,
  method: string,
  params: Params,
  capabilities: JsonObject = allCapabilities,
) {
  return new Promise<{
    response: JsonRpcMessage & { result?: Params; error?: { code: number; message: string; data?: unknown } };
    before: JsonRpcMessage[];
  }>((resolve) => {
    const before: JsonRpcMessage[] = [];
    const peer = server.connect({
      send: (message) => {
        // As it goes on the wire: results may carry members spliced in at serialisation.
        if ("id" in message && message.id === 7 && ("result" in message || "error" in message))
          resolve({ response: JSON.parse(serializeMessage(message)) as never, before });
        else before.push(message);
      },
    });
    peer.receive({
      jsonrpc: "2.0",
      id: 7,
      method,
      params: {
        ...params,
        _meta: { [MetaKey.protocolVersion]: "2026-07-28", [MetaKey.clientCapabilities]: capabilities },
      },
    });
  });
}

describe("input_required results (2026-07-28, on the wire)", () => {
  const server = createConformanceServer(handlers);
  const call = (name: string, extra: Params = {}) => modern(server, "tools/call", { name, arguments: {}, ...extra });

  it("name the requests by key, carry a signed requestState and say resultType input_required", async () => {
    const { response } = await call("test_input_required_result_elicitation");
    const result = response.result!;
    expect(result.resultType).toBe("input_required");
    expect(result.inputRequests).toEqual({
      user_name: {
        method: "elicitation/create",
        params: {
          message: "What is your name?",
          requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
        },
      },
    });
    expect(result.requestState).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect((result._meta as JsonObject)[MetaKey.serverInfo]).toMatchObject({ name: "conformance" });
  });

  it("answers need the requestState of the round that asked, and only the keys it asked", async () => {
    const answer = { action: "accept", content: { name: "Bob" } };
    const { requestState } = (await call("test_input_required_result_elicitation")).response.result!;
    expect(
      text(
        (await call("test_input_required_result_elicitation", { inputResponses: { user_name: answer }, requestState }))
          .response.result!,
      ),
    ).toBe("Hello, Bob!");
    expect(
      (await call("test_input_required_result_elicitation", { inputResponses: { user_name: answer } })).response.error
        ?.code,
    ).toBe(-32602);
    expect(
      (await call("test_input_required_result_elicitation", { inputResponses: { wrong_key: answer }, requestState }))
        .response.error?.code,
    ).toBe(-32602);
  });

  it("earlier answers travel in requestState, so the last round needs only the new one", async () => {
    const round1 = (await call("test_input_required_result_multi_round")).response.result!;
    const round2 = (
      await call("test_input_required_result_multi_round", {
        inputResponses: { step1: { action: "accept", content: { name: "Carol" } } },
        requestState: round1.requestState,
      })
    ).response.result!;
    expect(Object.keys(round2.inputRequests as JsonObject)).toEqual(["step2"]);
    expect(round2.requestState).not.toBe(round1.requestState);
    const round3 = (
      await call("test_input_required_result_multi_round", {
        inputResponses: { step2: { action: "accept", content: { color: "green" } } },
        requestState: round2.requestState,
      })
    ).response.result!;
    expect(text(round3)).toBe("Carol likes green");
  });

  it("rejects a tampered, foreign or malformed requestState, and malformed inputResponses, with -32602", async () => {
    const { requestState } = (await call("test_input_required_result_request_state")).response.result! as {
      requestState: string;
    };
    const answers = { inputResponses: { confirm: { action: "accept", content: { ok: true } } } };
    expect(
      text((await call("test_input_required_result_request_state", { ...answers, requestState })).response.result!),
    ).toBe("state-ok: confirmed=true");
    const [body, signature] = requestState.split(".") as [string, string];
    const flipped = `${body.slice(0, -2)}${body.endsWith("A") ? "B" : "A"}${body.slice(-1)}.${signature}`;
    for (const bad of [`${requestState}-TAMPERED`, flipped, "garbage", ""]) {
      expect(
        (await call("test_input_required_result_request_state", { ...answers, requestState: bad })).response.error
          ?.code,
        bad,
      ).toBe(-32602);
    }
    // A state issued for one tool is no good for another.
    expect(
      (await call("test_input_required_result_tampered_state", { ...answers, requestState })).response.error?.code,
    ).toBe(-32602);
    // Another server instance (another key) cannot open it either.
    const other = createConformanceServer(handlers);
    expect(
      (
        await modern(other, "tools/call", {
          name: "test_input_required_result_request_state",
          arguments: {},
          ...answers,
          requestState,
        })
      ).response.error?.code,
    ).toBe(-32602);
    for (const inputResponses of [null, 42, { user_name: 12345 }]) {
      expect((await call("test_input_required_result_elicitation", { inputResponses })).response.error?.code).toBe(
        -32602,
      );
    }
  });

  it("a shared secret lets any instance open any instance's requestState", async () => {
    const a = createConformanceServer(handlers, { requestState: { secret: "s3cret" } });
    const b = createConformanceServer(handlers, { requestState: { secret: "s3cret" } });
    const first = (await modern(a, "tools/call", { name: "test_input_required_result_multi_round", arguments: {} }))
      .response.result!;
    const second = await modern(b, "tools/call", {
      name: "test_input_required_result_multi_round",
      arguments: {},
      inputResponses: { step1: { action: "accept", content: { name: "Dan" } } },
      requestState: first.requestState,
    });
    expect(second.response.result!.resultType).toBe("input_required");
  });

  it("never sends a request of its own on the response stream", async () => {
    const { response, before } = await call("test_streaming_elicitation");
    expect(response.result!.resultType).toBe("input_required");
    expect(before.every((m) => "method" in m && m.method.startsWith("notifications/"))).toBe(true);
  });
});

describe("resource subscriptions", () => {
  it("legacy: resources/subscribe, notifications/resources/updated, resources/unsubscribe", async () => {
    const { session, notifications, server } = await connect("2025-11-25");
    expect(session.server.capabilities.resources).toEqual({ subscribe: true });
    expect(await session.rawRequest("resources/subscribe", { uri: "test://watched-resource" })).toEqual({});
    expect(await session.rawRequest("resources/subscribe", { uri: "test://template/7/data" })).toEqual({});
    expect(server.notifyResourceUpdated("test://watched-resource")).toBe(1);
    expect(server.notifyResourceUpdated("test://template/7/data")).toBe(1);
    expect(server.notifyResourceUpdated("test://template/8/data")).toBe(0);
    await new Promise((r) => setTimeout(r, 10));
    expect(notifications.filter((n) => n.method === "notifications/resources/updated").map((n) => n.params)).toEqual([
      { uri: "test://watched-resource" },
      { uri: "test://template/7/data" },
    ]);
    expect(await session.rawRequest("resources/unsubscribe", { uri: "test://watched-resource" })).toEqual({});
    expect(server.notifyResourceUpdated("test://watched-resource")).toBe(0);
    // Unknown resources and resources not declared `subscribe` are refused, by unsubscribe as by subscribe.
    for (const method of ["resources/subscribe", "resources/unsubscribe"]) {
      expect((await rpcError(session.rawRequest(method, { uri: "test://nope" }))).code, method).toBe(-32002);
      expect(await rpcError(session.rawRequest(method, { uri: "test://static-text" })), method).toMatchObject({
        code: -32602,
        message: "Resource test://static-text does not support subscriptions",
      });
    }
    // Unsubscribing from a watchable resource one is not subscribed to is fine (nothing to cancel).
    expect(await session.rawRequest("resources/unsubscribe", { uri: "test://template/9/data" })).toEqual({});
  });

  it("legacy: a closed session is forgotten", async () => {
    const { session, server } = await connect("2025-11-25");
    await session.rawRequest("resources/subscribe", { uri: "test://watched-resource" });
    await session.close();
    sessions.splice(sessions.indexOf(session), 1);
    expect(server.notifyResourceUpdated("test://watched-resource")).toBe(0);
  });

  it("modern: subscriptions/listen acknowledges the watchable resourceSubscriptions and delivers their updates, tagged", async () => {
    const server = createConformanceServer(handlers);
    const messages: JsonRpcMessage[] = [];
    const peer = server.connect({ send: (m) => messages.push(m) });
    peer.receive({
      jsonrpc: "2.0",
      id: "listen-1",
      method: "subscriptions/listen",
      params: {
        _meta: { [MetaKey.protocolVersion]: "2026-07-28", [MetaKey.clientCapabilities]: {} },
        notifications: {
          resourceSubscriptions: ["test://watched-resource", "test://static-text", "test://nope"],
          toolsListChanged: true,
        },
      },
    });
    expect(messages[0]).toEqual({
      jsonrpc: "2.0",
      method: "notifications/subscriptions/acknowledged",
      params: {
        _meta: { [MetaKey.subscriptionId]: "listen-1" },
        notifications: { resourceSubscriptions: ["test://watched-resource"] },
      },
    });
    expect(server.notifyResourceUpdated("test://watched-resource")).toBe(1);
    expect(server.notifyResourceUpdated("test://static-text")).toBe(0);
    expect(messages[1]).toEqual({
      jsonrpc: "2.0",
      method: "notifications/resources/updated",
      params: { uri: "test://watched-resource", _meta: { [MetaKey.subscriptionId]: "listen-1" } },
    });
    peer.receive({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "listen-1" } });
    expect(server.notifyResourceUpdated("test://watched-resource")).toBe(0);
  });
});

describe("initialize under a modern _meta", () => {
  it("is method not found (-32601): modern revisions have no initialize", async () => {
    const { response } = await modern(createConformanceServer(handlers), "initialize", {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "x", version: "1" },
    });
    expect(response.error?.code).toBe(-32601);
  });
});
