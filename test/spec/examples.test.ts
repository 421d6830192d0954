// The official example messages of protocol 2026-07-28 (examples/<TypeName>/*.json next
// to its schema.json, never copied into this repository) against what mcp-gen makes of
// that schema:
//  1. every example type-checks as its type in the generated protocol.gen.ts, as an
//     object literal (so excess properties are errors: the types are exact, not loose);
//  2. every example the client sends to a server (ClientRequest / ClientNotification of
//     the schema) is accepted by a server built by the runtime, over Streamable HTTP
//     (requests) and over a plain connection (notifications/cancelled, which the
//     revision uses on stdio only); params-only examples are sent in an envelope;
//  3. the examples a server sends (result responses, errors, notifications) are what the
//     runtime's client session accepts.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  connectSession,
  createWebHandler,
  encodeHeaderValue,
  RpcError,
  type ClientChannel,
  type JsonRpcMessage,
  type McpEndpoint,
  type RequestId,
} from "@mcp-gen/runtime";
import { generateManifest, tempProject } from "../support/generate.js";
import { schemaDir } from "../support/paths.js";
import { formatTypeErrors, typecheck, type TypeError } from "../support/typecheck.js";

const revision = "2026-07-28";
const namespace = "V2026_07_28";
const examplesDir = join(schemaDir, revision, "examples");
const EXPECTED_EXAMPLES = 129;

type Json = Record<string, unknown>;

interface Example {
  /** The type the example illustrates: its folder name. */
  readonly type: string;
  /** `<TypeName>/<file>.json`. */
  readonly path: string;
  readonly text: string;
  readonly value: Json;
}

const examples: Example[] = readdirSync(examplesDir, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort()
  .flatMap((type) =>
    readdirSync(join(examplesDir, type))
      .filter((f) => f.endsWith(".json"))
      .sort()
      .map((file) => {
        const text = readFileSync(join(examplesDir, type, file), "utf8");
        return { type, path: `${type}/${file}`, text, value: JSON.parse(text) as Json };
      }),
  );

const byPath = (path: string): Example => {
  const found = examples.find((e) => e.path === path);
  if (!found) throw new Error(`no official example ${path}`);
  return found;
};
const clone = (value: Json): Json => JSON.parse(JSON.stringify(value)) as Json;

/**
 * Official examples that disagree with the revision's own schema.ts (upstream defects,
 * not ours). Each is type-checked exactly but without the offending top-level property,
 * and a test below proves the defect is still there, so the entry reports itself once
 * the example is fixed upstream.
 */
const exampleDefects: Readonly<
  Record<string, { readonly drop: string; readonly error: RegExp; readonly why: string }>
> = {
  "ListRootsRequest/list-roots-request.json": {
    drop: "id",
    error: /'"?id"?' does not exist in type 'ListRootsRequest'/,
    why:
      "in 2026-07-28 roots/list is an input request embedded in an InputRequiredResult (MRTR): schema.ts declares ListRootsRequest as { method; params? } " +
      "without a JSON-RPC id, yet the example keeps the id of the former server-to-client request",
  },
};

// --- the schema's message directions ------------------------------------------------------

const schema = JSON.parse(readFileSync(join(schemaDir, revision, "schema.json"), "utf8")) as {
  $defs: Record<string, Json>;
};
const definitions = schema.$defs;

/**
 * The definitions a union names. schema.json inlines a one-member union (ClientNotification
 * is a copy of CancelledNotification), so such a member is found by its method.
 */
function unionMembers(name: string): string[] {
  const definition = definitions[name];
  if (!definition) throw new Error(`schema ${revision} has no ${name}`);
  const branches = (definition.anyOf ?? definition.oneOf) as Json[] | undefined;
  if (branches) return branches.map((b) => String(b.$ref).replace("#/$defs/", ""));
  const method = ((definition.properties as Json | undefined)?.method as Json | undefined)?.const;
  const members = Object.entries(definitions)
    .filter(
      ([other, d]) =>
        other !== name &&
        !d.anyOf &&
        ((d.properties as Json | undefined)?.method as Json | undefined)?.const === method,
    )
    .map(([other]) => other);
  if (method === undefined || members.length !== 1) throw new Error(`cannot tell what ${name} stands for`);
  return members;
}

const clientRequests = new Set(unionMembers("ClientRequest"));
const clientNotifications = new Set(unionMembers("ClientNotification"));
/** Params types of client messages, by the message type. */
const paramsOf = (type: string): string | undefined => {
  const ref = ((definitions[type]?.properties as Json | undefined)?.params as Json | undefined)?.$ref;
  return typeof ref === "string" ? ref.replace("#/$defs/", "") : undefined;
};

// --- the generated code under test --------------------------------------------------------

/**
 * A server that has what the examples name (tool get_weather, prompt code_review, the
 * resource file:///project/src/main.rs, …), so that they are served, not refused.
 */
const manifest = `mcpgen: 1
server:
  name: spec-examples
  version: 1.0.0
protocol: ${revision}
output: ./mcp
tools:
  get_weather:
    description: Current weather for a location
    input:
      type: object
      properties:
        location: { type: string }
      required: [location]
      additionalProperties: false
  build_simulation:
    description: Builds a city simulation, reporting progress
    input:
      type: object
      properties:
        city: { type: string }
      required: [city]
  wait_for_cancel:
    description: Runs until the client cancels it
resources:
  main_rs:
    uri: "file:///project/src/main.rs"
    name: main.rs
    mimeType: text/x-rust
prompts:
  code_review:
    description: Review code
    arguments:
      code: { required: true, description: The code to review }
      language: { description: Programming language }
      framework: { description: Framework in use }
    messages:
      - role: user
        text: "Review this code:\\n{{code}}"
`;

const serverSource = `import { createSpecExamplesServer, type SpecExamplesHandlers } from "./mcp/index.js";

/** The server under test; onCancelled hears why wait_for_cancel was cancelled. */
export function createServer(onCancelled: (reason: unknown) => void) {
  const handlers: SpecExamplesHandlers = {
    tools: {
      getWeather: ({ location }) => \`Weather in \${location}: 22°C, partly cloudy\`,
      buildSimulation({ city }, ctx) {
        ctx.progress(50, 100, "Reticulating splines...");
        return \`\${city} is simulated\`;
      },
      waitForCancel: (_args, ctx) =>
        new Promise((resolve) => {
          const done = () => {
            onCancelled(ctx.signal.reason);
            resolve("cancelled");
          };
          if (ctx.signal.aborted) done();
          else ctx.signal.addEventListener("abort", done, { once: true });
        }),
    },
    resources: {
      mainRs: () => 'fn main() {\\n    println!("Hello world!");\\n}',
    },
  };
  return createSpecExamplesServer(handlers, { onError: () => {} });
}
`;

let project: string;
let createServer: (onCancelled: (reason: unknown) => void) => McpEndpoint;

beforeAll(async () => {
  project = tempProject({ "mcp.yaml": manifest, "server.ts": serverSource });
  const result = await generateManifest(join(project, "mcp.yaml"), { cwd: project });
  if (!result.ok) throw new Error(result.diagnostics.map((d) => d.message).join("\n"));
  for (const [path, text] of result.generated.files) {
    const file = join(result.generated.outDir, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
  const module = (await import(pathToFileURL(join(project, "server.ts")).href)) as {
    createServer: typeof createServer;
  };
  createServer = module.createServer;
});

afterAll(() => {
  if (project) rmSync(project, { recursive: true, force: true });
});

// --- 1. type-checking ------------------------------------------------------------------

interface CheckFile {
  readonly file: string;
  /** The examples by the line range their declaration occupies (1-based, inclusive). */
  readonly ranges: readonly { readonly path: string; readonly from: number; readonly to: number }[];
}

/** Writes `<name>.ts` declaring each entry as a literal of its type. */
function writeCheckFile(name: string, entries: readonly { path: string; type: string; json: string }[]): CheckFile {
  const lines = [`import type { ${namespace} } from "./mcp/protocol.gen.js";`, ""];
  const ranges: { path: string; from: number; to: number }[] = [];
  entries.forEach((entry, n) => {
    const from = lines.length + 1;
    lines.push(
      `// ${entry.path}`,
      ...`export const e_${n}: ${namespace}.${entry.type} = ${entry.json.trim()};`.split("\n"),
      "",
    );
    ranges.push({ path: entry.path, from, to: lines.length });
  });
  const file = join(project, `${name}.ts`);
  writeFileSync(file, lines.join("\n"));
  return { file, ranges };
}

function errorsByExample(check: CheckFile, errors: readonly TypeError[]): Map<string, TypeError[]> {
  const out = new Map<string, TypeError[]>();
  for (const error of errors) {
    const range =
      error.file === check.file ? check.ranges.find((r) => error.line >= r.from && error.line <= r.to) : undefined;
    const key = range?.path ?? "(outside any example)";
    out.set(key, [...(out.get(key) ?? []), error]);
  }
  return out;
}

describe(`official ${revision} examples type-check as their types`, () => {
  it(`there are ${EXPECTED_EXAMPLES} examples, each in a folder named after a schema type`, () => {
    expect(examples).toHaveLength(EXPECTED_EXAMPLES);
    for (const example of examples) expect(definitions[example.type], example.path).toBeDefined();
  });

  it(`all ${EXPECTED_EXAMPLES} compile as object literals of ${namespace}.<TypeName> (strict, exactOptionalPropertyTypes, noUncheckedIndexedAccess)`, () => {
    const entries = examples.map((example) => {
      const defect = exampleDefects[example.path];
      if (!defect) return { path: example.path, type: example.type, json: example.text };
      const value = clone(example.value);
      delete value[defect.drop];
      return {
        path: `${example.path} (without "${defect.drop}": ${defect.why})`,
        type: example.type,
        json: JSON.stringify(value, null, 2),
      };
    });
    const check = writeCheckFile("examples", entries);
    expect(check.ranges).toHaveLength(EXPECTED_EXAMPLES);
    // server.ts proves the generated handler types fit the server the runtime tests use.
    const errors = typecheck([check.file, join(project, "server.ts")]);
    const report = [...errorsByExample(check, errors)]
      .map(([path, list]) => `${path}:\n${formatTypeErrors(list)}`)
      .join("\n\n");
    expect(report).toBe("");
  });

  it("the known upstream example defects are still there (remove an entry once its example is fixed)", () => {
    const defects = Object.entries(exampleDefects);
    const check = writeCheckFile(
      "defects",
      defects.map(([path]) => ({ path, type: byPath(path).type, json: byPath(path).text })),
    );
    const found = errorsByExample(check, typecheck([check.file]));
    for (const [path, defect] of defects) {
      const errors = found.get(path) ?? [];
      expect(
        errors.map((e) => e.message),
        path,
      ).toEqual([expect.stringMatching(defect.error)]);
    }
    expect(found.size).toBe(defects.length);
  });

  it("negative control: mutated examples fail to type-check, each for its mutation", () => {
    const mutate = (path: string, what: string, error: RegExp, change: (value: Json) => void) => {
      const value = clone(byPath(path).value);
      change(value);
      return { path: `${path} (${what})`, type: byPath(path).type, json: JSON.stringify(value, null, 2), error };
    };
    const mutations = [
      mutate(
        "CallToolRequest/call-tool-request.json",
        "tool name is a number",
        /'number' is not assignable to type 'string'/,
        (v) => {
          (v.params as Json).name = 42;
        },
      ),
      mutate(
        "TextContent/text-content.json",
        "an undeclared property",
        /'"?bogus"?' does not exist in type 'TextContent'/,
        (v) => {
          v.bogus = true;
        },
      ),
      mutate(
        "DiscoverRequest/server-discover-request.json",
        "_meta without clientCapabilities",
        /clientCapabilities"?' is missing/,
        (v) => {
          delete ((v.params as Json)._meta as Json)["io.modelcontextprotocol/clientCapabilities"];
        },
      ),
      mutate(
        "CallToolResult/result-with-structured-content.json",
        "an unknown content type",
        /'"txt"' is not assignable/,
        (v) => {
          (v.content as Json[])[0]!.type = "txt";
        },
      ),
      mutate(
        "CancelledNotification/user-requested-cancellation.json",
        "jsonrpc 1.0",
        /'"1\.0"' is not assignable to type '"2\.0"'/,
        (v) => {
          v.jsonrpc = "1.0";
        },
      ),
    ];
    const check = writeCheckFile("negative", mutations);
    const found = errorsByExample(check, typecheck([check.file]));
    for (const mutation of mutations) {
      expect(
        (found.get(mutation.path) ?? []).map((e) => e.message),
        `${mutation.path} must not compile`,
      ).toEqual([expect.stringMatching(mutation.error)]);
    }
    expect(found.has("(outside any example)")).toBe(false);
  });
});

// --- 2. the runtime serves what clients send ------------------------------------------------

interface Reply {
  readonly status: number;
  readonly contentType: string;
  /** The JSON-RPC messages of the body: one for JSON, every event for SSE. */
  readonly messages: readonly Json[];
}

function parseSse(text: string): Json[] {
  return text
    .split(/\r?\n\r?\n/)
    .map((event) =>
      event
        .split(/\r?\n/)
        .filter((line) => line.startsWith("data:"))
        .map((line) => line.slice(5).trimStart())
        .join("\n"),
    )
    .filter((data) => data !== "")
    .map((data) => JSON.parse(data) as Json);
}

/** A POST as a conforming 2026-07-28 client sends it: the body, and the headers that mirror it. */
function post(message: Json, signal?: AbortSignal): Request {
  const params = (message.params ?? {}) as Json;
  const meta = (params._meta ?? {}) as Json;
  const headers: Record<string, string> = {
    host: "localhost",
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": String(meta["io.modelcontextprotocol/protocolVersion"] ?? revision),
    "mcp-method": String(message.method),
  };
  const named =
    message.method === "resources/read"
      ? params.uri
      : message.method === "tools/call" || message.method === "prompts/get"
        ? params.name
        : undefined;
  if (typeof named === "string") headers["mcp-name"] = encodeHeaderValue(named);
  return new Request("http://localhost/mcp", {
    method: "POST",
    headers,
    body: JSON.stringify(message),
    ...(signal ? { signal } : {}),
  });
}

async function send(handler: (request: Request) => Promise<Response>, message: Json): Promise<Reply> {
  const response = await handler(post(message));
  const contentType = response.headers.get("content-type") ?? "";
  const text = await response.text();
  const messages =
    text === "" ? [] : contentType.includes("text/event-stream") ? parseSse(text) : [JSON.parse(text) as Json];
  return { status: response.status, contentType, messages };
}

/** Envelopes for the params-only examples of client messages. */
const envelopes: Readonly<Record<string, (params: Json, n: number) => Json>> = {
  CallToolRequestParams: (params, n) => ({ jsonrpc: "2.0", id: `params-${n}`, method: "tools/call", params }),
  CompleteRequestParams: (params, n) => ({ jsonrpc: "2.0", id: `params-${n}`, method: "completion/complete", params }),
  GetPromptRequestParams: (params, n) => ({ jsonrpc: "2.0", id: `params-${n}`, method: "prompts/get", params }),
  // Params of every paginated list request; tools/list stands for them.
  PaginatedRequestParams: (params, n) => ({ jsonrpc: "2.0", id: `params-${n}`, method: "tools/list", params }),
  CancelledNotificationParams: (params) => ({ jsonrpc: "2.0", method: "notifications/cancelled", params }),
};

interface Inbound {
  readonly path: string;
  readonly type: string;
  readonly message: Json;
  readonly wrapped: boolean;
}

/** Client requests and notifications: whole messages, and params-only examples in an envelope. */
const inbound: Inbound[] = examples.flatMap((example, n): Inbound[] => {
  if (clientRequests.has(example.type) || clientNotifications.has(example.type))
    return [{ path: example.path, type: example.type, message: example.value, wrapped: false }];
  const envelope = envelopes[example.type];
  return envelope
    ? [{ path: example.path, type: example.type, message: envelope(example.value, n), wrapped: true }]
    : [];
});
const inboundRequests = inbound.filter((i) => i.message.id !== undefined);
const inboundNotifications = inbound.filter((i) => i.message.id === undefined);

/** What a server of this revision answers when it serves the request as the spec says. */
type Outcome =
  | { readonly result: (result: Json, reply: Reply) => void }
  | { readonly error: number; readonly status: number; readonly message: RegExp; readonly why: string };

const completionUnsupported: Outcome = {
  error: -32601,
  status: 404,
  message: /^Method not found: completion\/complete$/,
  why: "the server does not advertise the completions capability (mcp-gen generates none), and the spec answers capability-gated methods with -32601",
};

const outcomes: Readonly<Record<string, Outcome>> = {
  "CallToolRequest/call-tool-request.json": {
    result: (r) => expect(r.content).toEqual([{ type: "text", text: "Weather in New York: 22°C, partly cloudy" }]),
  },
  "CallToolRequestParams/get-weather-tool-call-params.json": {
    result: (r) => expect(r.content).toEqual([{ type: "text", text: "Weather in New York: 22°C, partly cloudy" }]),
  },
  "CallToolRequestParams/tool-call-params-with-progress-token.json": {
    result: (r, reply) => {
      expect(r.content).toEqual([{ type: "text", text: "Micropolis is simulated" }]);
      // The example asks for progress with token "oivaizmir": it comes first on the stream.
      expect(reply.messages[0]).toEqual({
        jsonrpc: "2.0",
        method: "notifications/progress",
        params: { progressToken: "oivaizmir", progress: 50, total: 100, message: "Reticulating splines..." },
      });
    },
  },
  "CompleteRequest/completion-request.json": completionUnsupported,
  "CompleteRequestParams/prompt-argument-completion-with-context.json": completionUnsupported,
  "CompleteRequestParams/prompt-argument-completion.json": completionUnsupported,
  "DiscoverRequest/server-discover-request.json": {
    result: (r) => {
      expect(r.supportedVersions).toEqual([revision]);
      expect(r.capabilities).toMatchObject({ tools: {}, resources: {}, prompts: {} });
    },
  },
  "GetPromptRequest/get-prompt-request.json": {
    result: (r) =>
      expect(r.messages).toEqual([
        { role: "user", content: { type: "text", text: "Review this code:\ndef hello():\n    print('world')" } },
      ]),
  },
  "GetPromptRequestParams/get-code-review-prompt.json": {
    result: (r) =>
      expect(r.messages).toEqual([
        { role: "user", content: { type: "text", text: "Review this code:\ndef hello():\n    print('world')" } },
      ]),
  },
  "ListPromptsRequest/list-prompts-request.json": {
    result: (r) => expect((r.prompts as Json[]).map((p) => p.name)).toEqual(["code_review"]),
  },
  "ListResourceTemplatesRequest/list-resource-templates-request.json": {
    result: (r) => expect(r.resourceTemplates).toEqual([]),
  },
  "ListResourcesRequest/list-resources-request.json": {
    result: (r) => expect((r.resources as Json[]).map((p) => p.uri)).toEqual(["file:///project/src/main.rs"]),
  },
  "ListToolsRequest/list-tools-request.json": {
    result: (r) =>
      expect((r.tools as Json[]).map((t) => t.name)).toEqual(["get_weather", "build_simulation", "wait_for_cancel"]),
  },
  "PaginatedRequestParams/list-with-cursor.json": {
    error: -32602,
    status: 400,
    message: /^Invalid cursor$/,
    why: "cursors are opaque and issued by the server; the example's cursor was never issued by this one (the spec's own InvalidParamsError example covers this answer)",
  },
  "ReadResourceRequest/read-resource-request.json": {
    result: (r) =>
      expect(r.contents).toEqual([
        {
          uri: "file:///project/src/main.rs",
          mimeType: "text/x-rust",
          text: 'fn main() {\n    println!("Hello world!");\n}',
        },
      ]),
  },
};

describe(`official ${revision} client messages are accepted by a runtime server`, () => {
  it("the schema's client-to-server messages are the expected ones, and each has an example", () => {
    expect([...clientRequests].sort()).toEqual([
      "CallToolRequest",
      "CompleteRequest",
      "DiscoverRequest",
      "GetPromptRequest",
      "ListPromptsRequest",
      "ListResourceTemplatesRequest",
      "ListResourcesRequest",
      "ListToolsRequest",
      "ReadResourceRequest",
      "SubscriptionsListenRequest",
    ]);
    expect([...clientNotifications]).toEqual(["CancelledNotification"]);
    for (const type of [...clientRequests, ...clientNotifications])
      expect(
        examples.some((e) => e.type === type),
        type,
      ).toBe(true);
    // Every params-only example of a client message is sent in an envelope.
    const clientParams = new Set(
      [...clientRequests, ...clientNotifications].map(paramsOf).filter((p) => p !== undefined),
    );
    for (const example of examples) {
      if (clientParams.has(example.type)) expect(envelopes[example.type], example.type).toBeDefined();
    }
    expect(inbound.filter((i) => !i.wrapped)).toHaveLength(11);
    expect(inbound.filter((i) => i.wrapped)).toHaveLength(7);
  });

  it("every inbound request has a stated outcome (a new example needs one)", () => {
    const listen = inboundRequests.filter((i) => i.type === "SubscriptionsListenRequest").map((i) => i.path);
    expect(
      inboundRequests
        .map((i) => i.path)
        .filter((p) => !listen.includes(p))
        .sort(),
    ).toEqual(Object.keys(outcomes).sort());
  });

  for (const request of inboundRequests.filter((i) => i.type !== "SubscriptionsListenRequest")) {
    it(`${request.path}${request.wrapped ? " (params in an envelope)" : ""} over Streamable HTTP`, async () => {
      const handler = createWebHandler(createServer(() => {}));
      try {
        const reply = await send(handler, request.message);
        const final = reply.messages.at(-1);
        expect(final, JSON.stringify(reply)).toBeDefined();
        expect(final!.id).toBe(request.message.id);
        const error = final!.error as { code: number; message: string } | undefined;
        // Whatever the outcome, the message itself was understood: no parse, envelope or _meta complaint.
        expect([-32700, -32600, -32020, -32021, -32022]).not.toContain(error?.code);
        const outcome = outcomes[request.path]!;
        if ("result" in outcome) {
          expect(error, JSON.stringify(error)).toBeUndefined();
          expect(reply.status).toBe(200);
          const result = final!.result as Json;
          expect(result.resultType).toBe("complete");
          expect((result._meta as Json)["io.modelcontextprotocol/serverInfo"]).toEqual({
            name: "spec-examples",
            version: "1.0.0",
          });
          outcome.result(result, reply);
        } else {
          expect({ status: reply.status, code: error?.code, message: error?.message }).toEqual({
            status: outcome.status,
            code: outcome.error,
            message: expect.stringMatching(outcome.message),
          });
        }
      } finally {
        handler.close();
      }
    });
  }

  for (const request of inboundRequests.filter((i) => i.type === "SubscriptionsListenRequest")) {
    it(`${request.path} opens a stream that starts with the acknowledgement`, async () => {
      const handler = createWebHandler(createServer(() => {}));
      const abort = new AbortController();
      try {
        const response = await handler(post(request.message, abort.signal));
        expect(response.status).toBe(200);
        expect(response.headers.get("content-type")).toContain("text/event-stream");
        const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
        let text = "";
        while (!text.includes("\n\n")) {
          const { value, done } = await reader.read();
          if (done) break;
          text += value;
        }
        // This server's lists never change and it offers no resource subscriptions: it honours none of the requested types.
        expect(parseSse(text)).toEqual([
          {
            jsonrpc: "2.0",
            method: "notifications/subscriptions/acknowledged",
            params: { _meta: { "io.modelcontextprotocol/subscriptionId": request.message.id }, notifications: {} },
          },
        ]);
        abort.abort();
        await reader.cancel().catch(() => {});
      } finally {
        handler.close();
      }
    });
  }

  for (const notification of inboundNotifications) {
    it(`${notification.path}${notification.wrapped ? " (params in an envelope)" : ""} cancels the request it names`, async () => {
      // notifications/cancelled is a stdio message in this revision (HTTP cancels by closing
      // the stream): send it on a plain connection, after a request with the id it names.
      const params = notification.message.params as { requestId: RequestId; reason: string };
      let heard: (reason: unknown) => void = () => {};
      const cancelled = new Promise<unknown>((resolve) => (heard = resolve));
      const sent: JsonRpcMessage[] = [];
      const peer = createServer(heard).connect({ send: (message) => sent.push(message) });
      peer.receive({
        jsonrpc: "2.0",
        id: params.requestId,
        method: "tools/call",
        params: {
          _meta: {
            "io.modelcontextprotocol/protocolVersion": revision,
            "io.modelcontextprotocol/clientCapabilities": {},
          },
          name: "wait_for_cancel",
        },
      });
      peer.receive(JSON.parse(JSON.stringify(notification.message)));
      const reason = await cancelled;
      expect(reason instanceof Error ? reason.message : reason).toBe(params.reason);
      await new Promise((resolve) => setTimeout(resolve, 10));
      // A cancelled request gets no response, and the notification no complaint.
      expect(sent).toEqual([]);
      peer.close();
    });

    it(`${notification.path}${notification.wrapped ? " (params in an envelope)" : ""} is accepted when POSTed over Streamable HTTP`, async () => {
      const handler = createWebHandler(createServer(() => {}));
      try {
        const reply = await send(handler, notification.message);
        expect(reply).toEqual({ status: 202, contentType: "", messages: [] });
      } finally {
        handler.close();
      }
    });
  }
});

// --- 3. the runtime's client accepts what servers send ------------------------------------------

/** Answers each request with the official example response for its method, as a server would. */
function replayChannel(responses: ReadonlyMap<string, Json>, notifications: readonly Json[]): ClientChannel {
  let receive: ((value: unknown) => void) | undefined;
  let notified = false;
  const deliver = (value: Json) => queueMicrotask(() => receive?.(JSON.parse(JSON.stringify(value))));
  return {
    kind: "memory",
    async start(handlers) {
      receive = handlers.receive;
    },
    send(message) {
      if (!("method" in message) || !("id" in message)) return;
      const response = responses.get(message.method);
      if (!response) {
        deliver({
          jsonrpc: "2.0",
          id: message.id,
          error: { code: -32601, message: `no example for ${message.method}` },
        });
        return;
      }
      deliver({ ...response, id: message.id });
      // Server notifications arrive once, after discovery and before the next answer.
      if (!notified) for (const notification of notifications) deliver(notification);
      notified = true;
    },
    async close() {},
  };
}

const methodOfResponse = (type: string): string => {
  const request = type.replace(/ResultResponse$/, "Request");
  const method = ((definitions[request]?.properties as Json | undefined)?.method as Json | undefined)?.const;
  if (typeof method !== "string") throw new Error(`no request type for ${type}`);
  return method;
};

describe(`official ${revision} server messages are accepted by the runtime's client`, () => {
  const serverNotifications = new Set(unionMembers("ServerNotification"));
  const responseExamples = examples.filter((e) => e.type.endsWith("ResultResponse"));
  const notificationExamples = examples.filter((e) => serverNotifications.has(e.type));

  it("every result response resolves its request with the example's result; server notifications reach the handler", async () => {
    expect(responseExamples.length).toBeGreaterThanOrEqual(10);
    expect(notificationExamples.length).toBeGreaterThanOrEqual(7);
    const discover = byPath("DiscoverResultResponse/discover-result-response.json");
    const heard: Json[] = [];
    const responses = new Map<string, Json>([["server/discover", discover.value]]);
    const session = await connectSession(
      replayChannel(
        responses,
        notificationExamples.map((e) => e.value),
      ),
      {
        revisions: [revision],
        onNotification: (method, params) => heard.push({ method, params }),
      },
    );
    expect(session.server).toMatchObject({
      era: "modern",
      revision,
      info: { name: "ExampleServer", version: "1.0.0" },
      capabilities: { tools: {}, resources: {} },
    });
    for (const example of responseExamples) {
      const method = methodOfResponse(example.type);
      responses.set(method, example.value);
      expect(await session.rawRequest(method, {}), example.path).toEqual(example.value.result);
    }
    expect(heard).toEqual(notificationExamples.map((e) => ({ method: e.value.method, params: e.value.params })));
    await session.close();
  });

  it("error examples reject the request with their code and message", async () => {
    const errors = examples.filter((e) => e.type.endsWith("Error"));
    expect(errors.length).toBeGreaterThanOrEqual(8);
    const responses = new Map<string, Json>([
      ["server/discover", byPath("DiscoverResultResponse/discover-result-response.json").value],
    ]);
    const session = await connectSession(replayChannel(responses, []), { revisions: [revision] });
    for (const example of errors) {
      // Full error responses and bare error objects both occur among the examples.
      const error = (example.value.error ?? example.value) as { code: number; message: string; data?: unknown };
      responses.set("tools/call", example.value.error ? example.value : { jsonrpc: "2.0", id: 0, error });
      const failure = await session.rawRequest("tools/call", { name: "x" }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(failure, example.path).toBeInstanceOf(RpcError);
      expect({ code: (failure as RpcError).code, message: (failure as RpcError).message }, example.path).toEqual({
        code: error.code,
        message: error.message,
      });
    }
    await session.close();
  });
});
