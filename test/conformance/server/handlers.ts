// What the conformance suite's server scenarios expect each tool, resource and prompt
// to do (see the scenario descriptions in @modelcontextprotocol/conformance). Everything
// else — routing, validation, lists, both protocol eras, HTTP — is generated or runtime.
import { ErrorCode, RpcError, type InputRequestOf, type ToolContext, type ToolReturn } from "../../../runtime/index.js";
import type { Asks, ClientRequests, ConformanceHandlers, ToolContent } from "./mcp/index.js";

type Elicitation = Extract<InputRequestOf<ClientRequests>, { method: "elicitation/create" }>;

/** A 1x1 red PNG. */
const pngBase64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";

/** A tenth of a second of silence: 8 kHz, 8-bit mono PCM in a RIFF/WAVE container. */
function silentWav(): string {
  const samples = 800;
  const bytes = Buffer.alloc(44 + samples, 0x80);
  bytes.write("RIFF", 0, "ascii");
  bytes.writeUInt32LE(36 + samples, 4);
  bytes.write("WAVEfmt ", 8, "ascii");
  bytes.writeUInt32LE(16, 16); // fmt chunk size
  bytes.writeUInt16LE(1, 20); // PCM
  bytes.writeUInt16LE(1, 22); // mono
  bytes.writeUInt32LE(8000, 24); // sample rate
  bytes.writeUInt32LE(8000, 28); // byte rate
  bytes.writeUInt16LE(1, 32); // block align
  bytes.writeUInt16LE(8, 34); // bits per sample
  bytes.write("data", 36, "ascii");
  bytes.writeUInt32LE(samples, 40);
  return bytes.toString("base64");
}
const wavBase64 = silentWav();

/** Resolves after `ms`, or at once when `signal` aborts; the abort listener goes when the time is up. */
const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const stop = () => (clearTimeout(timer), resolve());
    const timer = setTimeout(() => (signal.removeEventListener("abort", stop), resolve()), ms);
    signal.addEventListener("abort", stop, { once: true });
  });

/** The text of a sampling result, whose content is one block or (from 2025-11-25) a list. */
function sampledText(content: unknown): string {
  const blocks = Array.isArray(content) ? content : [content];
  return blocks
    .map((b: { type?: unknown; text?: unknown }) =>
      b.type === "text" && typeof b.text === "string" ? b.text : `[${String(b.type)}]`,
    )
    .join("\n");
}

const elicitationText = (result: { action: string; content?: unknown }) =>
  `Elicitation completed: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`;

/** An elicitation of a name. */
const askName = (message: string): Elicitation => ({
  method: "elicitation/create",
  params: {
    message,
    requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
  },
});

const confirmation: Elicitation = {
  method: "elicitation/create",
  params: {
    message: "Please confirm",
    requestedSchema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] },
  },
};

const completionWords = ["paris", "park", "party", "test", "testing", "template"];
const completionIds = ["1", "2", "3", "12", "123", "1234"];

/**
 * The tools the tasks scenarios (io.modelcontextprotocol/tasks) call. Each is an ordinary
 * handler: the runtime runs it inline or as a task. Those that ask first (test_tool_with_task)
 * get their answers through input_required rounds; those that work first and then ask
 * (confirm_delete, multi_input) ask through the task (tasks/update).
 */
const taskHandlers = {
  greet({ name }: { name: string }): ToolReturn<ToolContent> {
    return `Hello, ${name}!`;
  },
  async slowCompute(
    { seconds, label }: { seconds: number; label?: string | undefined },
    ctx: ToolContext<Asks<never>>,
  ): Promise<ToolReturn<ToolContent>> {
    await sleep(seconds * 1000, ctx.signal);
    return `Computed ${label ?? "result"} in ${seconds}s`;
  },
  async failingJob(_args: object, ctx: ToolContext<Asks<never>>): Promise<ToolReturn<ToolContent>> {
    await sleep(1000, ctx.signal);
    return { content: [{ type: "text", text: "The job failed: nothing to process" }], isError: true };
  },
  async protocolErrorJob(_args: object, ctx: ToolContext<Asks<never>>): Promise<ToolReturn<ToolContent>> {
    await sleep(1000, ctx.signal);
    throw new RpcError(ErrorCode.InternalError, "protocol_error_job: the worker crashed");
  },
  async confirmDelete(
    { filename }: { filename: string },
    ctx: ToolContext<Asks<"elicitation/create">>,
  ): Promise<ToolReturn<ToolContent>> {
    // Looks the file up first (long enough to become a task), then asks.
    await sleep(300, ctx.signal);
    const { confirm } = await ctx.input({
      confirm: {
        method: "elicitation/create",
        params: {
          message: `Delete ${filename}?`,
          requestedSchema: { type: "object", properties: { confirm: { type: "boolean" } }, required: ["confirm"] },
        },
      },
    });
    const yes = confirm.action === "accept" && (confirm.content as { confirm?: unknown } | undefined)?.confirm === true;
    return yes ? `Deleted ${filename}` : `Kept ${filename}`;
  },
  async multiInput(_args: object, ctx: ToolContext<Asks<"elicitation/create">>): Promise<ToolReturn<ToolContent>> {
    await sleep(300, ctx.signal);
    const { name, confirm } = await ctx.input({
      name: askName("What is your name?"),
      confirm: {
        method: "elicitation/create",
        params: {
          message: "Proceed?",
          requestedSchema: { type: "object", properties: { confirm: { type: "boolean" } }, required: ["confirm"] },
        },
      },
    });
    return `name: ${name.action}, confirm: ${confirm.action}`;
  },
  async testToolWithTask(
    _args: object,
    ctx: ToolContext<Asks<"elicitation/create">>,
  ): Promise<ToolReturn<ToolContent>> {
    // Asks at once (an input_required round), then works long enough to become a task.
    const { user_name } = await ctx.input({ user_name: askName("What is your name?") });
    await sleep(500, ctx.signal);
    return `Hello, ${String((user_name.content as { name?: unknown } | undefined)?.name ?? "stranger")}! Your report is ready.`;
  },
};

export const handlers: ConformanceHandlers = {
  tools: {
    testSimpleText() {
      return "This is a simple text response for testing.";
    },
    testImageContent() {
      return { content: [{ type: "image", data: pngBase64, mimeType: "image/png" }] };
    },
    testAudioContent() {
      return { content: [{ type: "audio", data: wavBase64, mimeType: "audio/wav" }] };
    },
    testEmbeddedResource() {
      return {
        content: [
          {
            type: "resource",
            resource: {
              uri: "test://embedded-resource",
              mimeType: "text/plain",
              text: "This is an embedded resource content.",
            },
          },
        ],
      };
    },
    testMultipleContentTypes() {
      return {
        content: [
          { type: "text", text: "Multiple content types test:" },
          { type: "image", data: pngBase64, mimeType: "image/png" },
          {
            type: "resource",
            resource: {
              uri: "test://mixed-content-resource",
              mimeType: "application/json",
              text: JSON.stringify({ test: "data", value: 123 }),
            },
          },
        ],
      };
    },
    testErrorHandling() {
      return {
        content: [{ type: "text", text: "This tool intentionally returns an error for testing" }],
        isError: true,
      };
    },
    async testToolWithLogging(_args, ctx) {
      ctx.log("info", "Tool execution started");
      await sleep(50, ctx.signal);
      ctx.log("info", "Tool processing data");
      await sleep(50, ctx.signal);
      ctx.log("info", "Tool execution completed");
      return "Tool with logging executed successfully";
    },
    async testToolWithProgress(_args, ctx) {
      ctx.progress(0, 100);
      await sleep(50, ctx.signal);
      ctx.progress(50, 100);
      await sleep(50, ctx.signal);
      ctx.progress(100, 100);
      return "Tool with progress executed successfully";
    },
    testLoggingTool(_args, ctx) {
      ctx.log("info", "test_logging_tool ran");
      return "Logged one message";
    },
    async testSampling({ prompt }, ctx) {
      const { answer } = await ctx.input({
        answer: {
          method: "sampling/createMessage",
          params: { messages: [{ role: "user", content: { type: "text", text: prompt } }], maxTokens: 100 },
        },
      });
      return `LLM response: ${sampledText(answer.content)}`;
    },
    async testElicitation({ message }, ctx) {
      const { user } = await ctx.input({
        user: {
          method: "elicitation/create",
          params: {
            message,
            requestedSchema: {
              type: "object",
              properties: {
                username: { type: "string", description: "User's response" },
                email: { type: "string", description: "User's email address" },
              },
              required: ["username", "email"],
            },
          },
        },
      });
      return `User response: action=${user.action}, content=${JSON.stringify(user.content ?? {})}`;
    },
    async testElicitationSep1034Defaults(_args, ctx) {
      const { form } = await ctx.input({
        form: {
          method: "elicitation/create",
          params: {
            message: "Please review and update the form fields with defaults",
            requestedSchema: {
              type: "object",
              properties: {
                name: { type: "string", description: "User name", default: "John Doe" },
                age: { type: "integer", description: "User age", default: 30 },
                score: { type: "number", description: "User score", default: 95.5 },
                status: {
                  type: "string",
                  description: "User status",
                  enum: ["active", "inactive", "pending"],
                  default: "active",
                },
                verified: { type: "boolean", description: "Verification status", default: true },
              },
            },
          },
        },
      });
      return elicitationText(form);
    },
    async testElicitationSep1330Enums(_args, ctx) {
      const { form } = await ctx.input({
        form: {
          method: "elicitation/create",
          params: {
            message: "Please select options from the enum fields",
            requestedSchema: {
              type: "object",
              properties: {
                untitledSingle: {
                  type: "string",
                  description: "Untitled single-select",
                  enum: ["option1", "option2", "option3"],
                },
                titledSingle: {
                  type: "string",
                  description: "Titled single-select",
                  oneOf: [
                    { const: "value1", title: "First Option" },
                    { const: "value2", title: "Second Option" },
                    { const: "value3", title: "Third Option" },
                  ],
                },
                legacyEnum: {
                  type: "string",
                  description: "Legacy titled enum",
                  enum: ["opt1", "opt2", "opt3"],
                  enumNames: ["Option One", "Option Two", "Option Three"],
                },
                untitledMulti: {
                  type: "array",
                  description: "Untitled multi-select",
                  items: { type: "string", enum: ["option1", "option2", "option3"] },
                },
                titledMulti: {
                  type: "array",
                  description: "Titled multi-select",
                  items: {
                    anyOf: [
                      { const: "value1", title: "First Choice" },
                      { const: "value2", title: "Second Choice" },
                      { const: "value3", title: "Third Choice" },
                    ],
                  },
                },
              },
            },
          },
        },
      });
      return elicitationText(form);
    },
    async testMissingCapability(_args, ctx) {
      // Rejects with MissingRequiredClientCapability (-32021) unless the client declared sampling.
      const { hello } = await ctx.input({
        hello: {
          method: "sampling/createMessage",
          params: { messages: [{ role: "user", content: { type: "text", text: "Say hello" } }], maxTokens: 10 },
        },
      });
      return `LLM response: ${sampledText(hello.content)}`;
    },
    async testStreamingElicitation(_args, ctx) {
      // Legacy: an elicitation/create request on this call's stream. 2026-07-28: an
      // input_required result, never a request of its own on the stream.
      const { confirm } = await ctx.input({
        confirm: {
          method: "elicitation/create",
          params: {
            message: "Continue?",
            requestedSchema: { type: "object", properties: { confirm: { type: "boolean" } }, required: ["confirm"] },
          },
        },
      });
      return elicitationText(confirm);
    },
    async testReconnection(_args, ctx) {
      // SEP-1699 (2025-11-25 sessions): the POST's connection ends after its priming event and a
      // retry hint; the result goes out when the client resumes with GET and Last-Event-ID.
      // Elsewhere (modern requests, older revisions) the call is answered as usual.
      ctx.pollLater(500);
      await sleep(100, ctx.signal);
      return "Reconnection test completed";
    },
    async testInputRequiredResultElicitation(_args, ctx) {
      const { user_name } = await ctx.input({ user_name: askName("What is your name?") });
      return `Hello, ${String((user_name.content as { name?: unknown } | undefined)?.name ?? "stranger")}!`;
    },
    async testInputRequiredResultSampling(_args, ctx) {
      const { capital_question } = await ctx.input({
        capital_question: {
          method: "sampling/createMessage",
          params: {
            messages: [{ role: "user", content: { type: "text", text: "What is the capital of France?" } }],
            maxTokens: 100,
          },
        },
      });
      return `The LLM says: ${sampledText(capital_question.content)}`;
    },
    async testInputRequiredResultListRoots(_args, ctx) {
      const { client_roots } = await ctx.input({ client_roots: { method: "roots/list", params: {} } });
      return `Roots: ${client_roots.roots.map((r) => r.uri).join(", ") || "(none)"}`;
    },
    async testInputRequiredResultRequestState(_args, ctx) {
      // The runtime verified the signed requestState before this resolves (or rejected the call).
      const { confirm } = await ctx.input({ confirm: confirmation });
      return `state-ok: confirmed=${String((confirm.content as { ok?: unknown } | undefined)?.ok)}`;
    },
    async testInputRequiredResultMultipleInputs(_args, ctx) {
      const { user_name, greeting, client_roots } = await ctx.input({
        user_name: askName("What is your name?"),
        greeting: {
          method: "sampling/createMessage",
          params: {
            messages: [{ role: "user", content: { type: "text", text: "Generate a greeting" } }],
            maxTokens: 50,
          },
        },
        client_roots: { method: "roots/list", params: {} },
      });
      const name = String((user_name.content as { name?: unknown } | undefined)?.name ?? "stranger");
      return `${sampledText(greeting.content)}, ${name}! Roots: ${client_roots.roots.length}`;
    },
    async testInputRequiredResultMultiRound(_args, ctx) {
      const { step1 } = await ctx.input({ step1: askName("Step 1: What is your name?") });
      const { step2 } = await ctx.input({
        step2: {
          method: "elicitation/create",
          params: {
            message: "Step 2: What is your favorite color?",
            requestedSchema: { type: "object", properties: { color: { type: "string" } }, required: ["color"] },
          },
        },
      });
      const name = (step1.content as { name?: unknown } | undefined)?.name;
      const color = (step2.content as { color?: unknown } | undefined)?.color;
      return `${String(name)} likes ${String(color)}`;
    },
    async testInputRequiredResultTamperedState(_args, ctx) {
      const { confirm } = await ctx.input({ confirm: confirmation });
      return `state-ok: confirmed=${String((confirm.content as { ok?: unknown } | undefined)?.ok)}`;
    },
    async testInputRequiredResultCapabilities(_args, ctx) {
      // Ask only for what the client declared it can answer.
      const capabilities = ctx.client.capabilities;
      const answers: string[] = [];
      if (capabilities.sampling) {
        const { question } = await ctx.input({
          question: {
            method: "sampling/createMessage",
            params: { messages: [{ role: "user", content: { type: "text", text: "Say hi" } }], maxTokens: 10 },
          },
        });
        answers.push(`sampling: ${sampledText(question.content)}`);
      }
      if (capabilities.elicitation) {
        const { user_name } = await ctx.input({ user_name: askName("What is your name?") });
        answers.push(`elicitation: ${user_name.action}`);
      }
      return answers.length > 0 ? answers.join("; ") : "The client declared no capability to ask it anything";
    },
    jsonSchema202012Tool(args) {
      return `Received: ${JSON.stringify(args)}`;
    },
    testRoutedQuery(args) {
      return `Ran ${JSON.stringify(args.query)} in region ${args.region}${args.priority === undefined ? "" : ` at priority ${args.priority}`}`;
    },
    ...taskHandlers,
  },
  resources: {
    staticText() {
      return "This is the content of the static text resource.";
    },
    staticBinary() {
      return Buffer.from(pngBase64, "base64");
    },
    watchedResource() {
      return "The watched resource.";
    },
  },
  resourceTemplates: {
    templateData({ id }) {
      return JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` });
    },
  },
  prompts: {
    testPromptWithEmbeddedResource({ resourceUri }) {
      return [
        {
          role: "user",
          content: {
            type: "resource",
            resource: { uri: resourceUri, mimeType: "text/plain", text: "Embedded resource content for testing." },
          },
        },
        { role: "user", content: { type: "text", text: "Please process the embedded resource above." } },
      ];
    },
    async testInputRequiredResultPrompt(_args, ctx) {
      const { user_context } = await ctx.input({
        user_context: {
          method: "elicitation/create",
          params: {
            message: "What context should the prompt use?",
            requestedSchema: { type: "object", properties: { context: { type: "string" } }, required: ["context"] },
          },
        },
      });
      const context = String((user_context.content as { context?: unknown } | undefined)?.context ?? "none");
      return [{ role: "user", content: { type: "text", text: `Answer with this context in mind: ${context}` } }];
    },
    testPromptWithImage() {
      return [
        { role: "user", content: { type: "image", data: pngBase64, mimeType: "image/png" } },
        { role: "user", content: { type: "text", text: "Please analyze the image above." } },
      ];
    },
  },
  completions: {
    prompts: {
      testPromptWithArguments: {
        arg1: (value) => completionWords.filter((w) => w.startsWith(value)),
        // arg2's candidates depend on arg1, when the client says what it chose.
        arg2: (value, ctx) => completionWords.filter((w) => w.startsWith(value) && w !== ctx.arguments.arg1),
      },
    },
    resourceTemplates: {
      templateData: {
        id: (value) => ({ values: completionIds.filter((id) => id.startsWith(value)), hasMore: false }),
      },
    },
  },
};
