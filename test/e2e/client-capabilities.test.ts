// A client's capabilities follow from its `requests` handlers: the generated client of the
// everything example, given handlers and no `capabilities`, declares elicitation, sampling
// and roots in the shape each revision knows (in initialize, or in every 2026-07-28
// request's _meta), and the example server — a real child process over stdio — accepts
// them: its tools that ask for input round-trip through the handlers. `handles` adds what
// only the handler's author knows (URL mode, sampling with tools, root change
// notifications); an explicit `capabilities` is declared as given and wins.
import { join } from "node:path";
import {
  MetaKey,
  RpcError,
  type ClientChannel,
  type JsonObject,
  type JsonRpcMessage,
  type Params,
} from "@mcp-gen/runtime";
import { stdioChannel } from "@mcp-gen/runtime/node";
import { afterAll, describe, expect, it } from "vitest";
import {
  connectNotesClient,
  type NotesClient,
  type NotesClientOptions,
  type Revision,
} from "../../examples/everything/src/mcp/index.js";
import { repoRoot } from "../support/paths.js";
import { stopAllChildren, tsxCommand } from "./helpers.js";

const everythingMain = join(repoRoot, "examples", "everything", "src", "main.ts");
const open: NotesClient[] = [];
afterAll(async () => {
  await Promise.all(open.splice(0).map((c) => c.close().catch(() => {})));
  await stopAllChildren();
});

/** A stdio channel to the example server that records the capabilities of each message the client sends. */
function recordedChannel(): { channel: ClientChannel; declared: JsonObject[] } {
  const inner = stdioChannel({ ...tsxCommand(everythingMain), stderr: "ignore" });
  const declared: JsonObject[] = [];
  const channel: ClientChannel = {
    kind: inner.kind,
    start: (handlers) => inner.start(handlers),
    send(message: JsonRpcMessage) {
      const params = "method" in message ? (message.params as Params | undefined) : undefined;
      if ("method" in message && message.method === "initialize") declared.push(params!.capabilities as JsonObject);
      const meta = params?._meta as JsonObject | undefined;
      if (meta?.[MetaKey.clientCapabilities] !== undefined)
        declared.push(meta[MetaKey.clientCapabilities] as JsonObject);
      inner.send(message);
    },
    setProtocol: (protocol) => inner.setProtocol?.(protocol),
    declareParamHeaders: (tool, headers) => inner.declareParamHeaders?.(tool, headers),
    close: () => inner.close(),
  };
  return { channel, declared };
}

const texts = (content: unknown) =>
  (content as { type: string; text?: string }[]).flatMap((c) =>
    c.type === "text" && c.text !== undefined ? [c.text] : [],
  );

async function connect(revision: Revision, options: Omit<NotesClientOptions, "revisions" | "requests"> = {}) {
  const asked: string[] = [];
  const { channel, declared } = recordedChannel();
  const client = await connectNotesClient(channel, {
    ...options,
    revisions: [revision],
    timeoutMs: 30_000,
    requests: {
      "elicitation/create": (params) => {
        const url = "mode" in params && params.mode === "url";
        asked.push(url ? "elicitation (url)" : "elicitation (form)");
        return url ? { action: "accept" } : { action: "decline" };
      },
      "sampling/createMessage": () => {
        asked.push("sampling");
        return { role: "assistant", content: { type: "text", text: "A short summary." }, model: "test-model" };
      },
      "roots/list": () => {
        asked.push("roots");
        return { roots: [{ uri: "file:///home/me/notes", name: "notes" }] };
      },
    },
  });
  open.push(client);
  expect(client.session.revision).toBe(revision);
  return { client, asked, declared };
}

/** The error a call fails with (it must fail). */
async function failure(promise: Promise<unknown>): Promise<RpcError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RpcError);
  return error as RpcError;
}

/** Runs the example's asking tools; what each answered, or the error code it failed with. */
async function askAll(client: NotesClient): Promise<Record<string, string | number>> {
  const outcome = (call: Promise<{ content: unknown }>) =>
    call.then(
      (result) => texts(result.content).join("\n"),
      (error: unknown) => (error instanceof RpcError ? error.code : String(error)),
    );
  return {
    summarize: await outcome(client.tools.summarizeNote({ id: "launch-plan" })),
    roots: await outcome(client.tools.listRoots()),
    delete: await outcome(client.tools.deleteNote({ id: "groceries" })),
    calendar: await outcome(client.tools.connectCalendar()),
  };
}

const summarized = "Launch plan: A short summary.";
const rooted = "notes: file:///home/me/notes";
const kept = 'Kept "Groceries" (decline)';
const connected = "Calendar connection started: finish it in your browser";

// What a client with the three handlers and nothing else declares, and what the server then does.
const byDefault: { revision: Revision; capabilities: JsonObject; outcome: Record<string, string | number> }[] = [
  {
    revision: "2024-11-05",
    capabilities: { sampling: {}, roots: { listChanged: false } },
    outcome: { summarize: summarized, roots: rooted, delete: -32021, calendar: -32021 },
  },
  {
    revision: "2025-03-26",
    capabilities: { sampling: {}, roots: { listChanged: false } },
    outcome: { summarize: summarized, roots: rooted, delete: -32021, calendar: -32021 },
  },
  {
    revision: "2025-06-18",
    capabilities: { sampling: {}, elicitation: {}, roots: { listChanged: false } },
    outcome: { summarize: summarized, roots: rooted, delete: kept, calendar: -32021 },
  },
  {
    revision: "2025-11-25",
    capabilities: { sampling: {}, elicitation: { form: {} }, roots: { listChanged: false } },
    outcome: { summarize: summarized, roots: rooted, delete: kept, calendar: -32021 },
  },
  {
    revision: "2026-07-28",
    capabilities: { sampling: {}, elicitation: { form: {} }, roots: {} },
    outcome: { summarize: summarized, roots: rooted, delete: kept, calendar: -32021 },
  },
];

describe.each(byDefault)(
  "generated client → everything example over stdio, $revision",
  ({ revision, capabilities, outcome }) => {
    it("declares what its handlers answer, as the revision knows it, and the server's requests round-trip", async () => {
      const { client, asked, declared } = await connect(revision);
      expect(await askAll(client)).toEqual(outcome);
      expect(declared.length).toBeGreaterThan(0);
      for (const sent of declared) expect(sent).toEqual(capabilities);
      // Only what the server could ask reached the handlers.
      expect(asked).toEqual(["sampling", "roots", ...(outcome.delete === kept ? ["elicitation (form)"] : [])]);
    }, 60_000);

    it("`handles` adds URL mode, sampling tools and root change notifications where the revision has them", async () => {
      const { client, asked, declared } = await connect(revision, {
        handles: { elicitation: { url: true }, sampling: { tools: true }, roots: { listChanged: true } },
      });
      const modes = revision >= "2025-11-25";
      const expected: JsonObject = {
        ...capabilities,
        ...(modes ? { sampling: { tools: {} }, elicitation: { form: {}, url: {} } } : {}),
        ...(revision < "2026-07-28" ? { roots: { listChanged: true } } : {}),
      };
      for (const sent of declared) expect(sent).toEqual(expected);
      const answered = await askAll(client);
      expect(answered).toEqual({ ...outcome, calendar: modes ? connected : -32021 });
      if (modes) expect(asked).toContain("elicitation (url)");
    }, 60_000);
  },
);

describe.each(["2025-11-25", "2026-07-28"] as const)("an explicit `capabilities` wins, %s", (revision) => {
  it("is declared as given: a handler the capabilities leave out is never asked", async () => {
    const { client, asked, declared } = await connect(revision, {
      capabilities: { sampling: {} },
      handles: { elicitation: { url: true } },
    });
    for (const sent of declared) expect(sent).toEqual({ sampling: {} });
    expect(texts((await client.tools.summarizeNote({ id: "launch-plan" })).content)).toEqual([summarized]);
    const error = await failure(client.tools.deleteNote({ id: "groceries" }));
    expect(error.code).toBe(-32021);
    expect(error.data).toEqual({ requiredCapabilities: { elicitation: {} } });
    expect(asked).toEqual(["sampling"]);
  }, 60_000);
});
