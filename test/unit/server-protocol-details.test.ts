// Protocol details of the server session layer that malformed or hostile input reaches:
// `arguments: null` is not an object (a malformed tools/call or prompts/get, -32602 in
// every revision), method names that are Object.prototype members are unknown methods
// (-32601), and a protocolVersion that is not a string -- an object with a `toString`
// member, an array nested deeper than the stack -- is -32022 UnsupportedProtocolVersion
// (modern _meta) or -32602 (initialize), never an internal error. In-process and over a
// real child process's stdio.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { afterAll, describe, expect, it } from "vitest";
import { MetaKey, serializeMessage, type JsonRpcMessage, type Params } from "../../runtime/index.js";
import { handlers } from "../conformance/server/handlers.js";
import { createConformanceServer } from "../conformance/server/mcp/index.js";
import { stopChild, tsxCommand, weatherMain } from "../e2e/helpers.js";

type Response = { id?: unknown; result?: Params; error?: { code: number; message: string; data?: unknown } };

const modernMeta = { [MetaKey.protocolVersion]: "2026-07-28", [MetaKey.clientCapabilities]: {} };
const prototypeNames = ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf", "__defineGetter__"];

function deepArray(depth: number): unknown {
  let value: unknown = "2026-07-28";
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

/** A connection to the conformance server in-process; `send` resolves with the response to the message. */
function connection() {
  const server = createConformanceServer(handlers, { onError: () => {} });
  const waiting = new Map<unknown, (response: Response) => void>();
  const peer = server.connect({
    send: (message: JsonRpcMessage) => {
      // As it goes on the wire: modern results get members spliced in at serialisation.
      const m = message as Response;
      if ("id" in m && (m.result !== undefined || m.error !== undefined))
        waiting.get(m.id)?.(JSON.parse(serializeMessage(message)) as Response);
    },
  });
  let next = 0;
  return (method: string, params?: Params): Promise<Response> => {
    const id = ++next;
    return new Promise((resolve) => {
      waiting.set(id, resolve);
      peer.receive({ jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) } as JsonRpcMessage);
    });
  };
}

async function legacyConnection(revision: string) {
  const send = connection();
  const init = await send("initialize", {
    protocolVersion: revision,
    capabilities: {},
    clientInfo: { name: "t", version: "1" },
  });
  expect(init.result?.protocolVersion).toBe(revision);
  return send;
}

describe("methods named like Object.prototype members are unknown (-32601)", () => {
  it.each(prototypeNames)("%s: modern request and legacy session", async (method) => {
    expect((await connection()(method, { _meta: modernMeta })).error?.code).toBe(-32601);
    const legacy = await legacyConnection("2025-11-25");
    expect((await legacy(method, {})).error?.code).toBe(-32601);
    expect((await legacy(method)).error?.code).toBe(-32601);
  });
});

describe("arguments must be an object when present", () => {
  it.each(["2026-07-28", "2025-11-25", "2025-06-18", "2024-11-05"])(
    "tools/call with arguments null (and other non-objects) is -32602 under %s",
    async (revision) => {
      const send = revision === "2026-07-28" ? connection() : await legacyConnection(revision);
      const meta = revision === "2026-07-28" ? { _meta: modernMeta } : {};
      for (const args of [null, "x", 3, [], [1]]) {
        const response = await send("tools/call", { name: "test_simple_text", arguments: args, ...meta });
        expect(response.error?.code, JSON.stringify(args)).toBe(-32602);
        expect(response.error?.message).toContain("arguments");
      }
      // Absent arguments are an empty object.
      expect((await send("tools/call", { name: "test_simple_text", ...meta })).result?.content).toBeDefined();
    },
  );

  it("prompts/get with arguments null is -32602", async () => {
    const response = await connection()("prompts/get", {
      name: "test_simple_prompt",
      arguments: null,
      _meta: modernMeta,
    });
    expect(response.error?.code).toBe(-32602);
  });

  it("a prompt's required argument is not found on the prototype", async () => {
    const response = await connection()("prompts/get", {
      name: "test_prompt_with_arguments",
      arguments: { arg1: "a" },
      _meta: modernMeta,
    });
    expect(response.error?.code).toBe(-32602);
  });
});

describe("a protocolVersion that is not a string", () => {
  const odd: [string, unknown][] = [
    ["an object with a toString member", { toString: "x" }],
    ["an object with valueOf", { valueOf: 1, toString: {} }],
    ["an array nested 100000 deep", deepArray(100_000)],
    ["a number", 20260728],
    ["null", null],
  ];

  it.each(odd)(
    "in _meta, %s, is -32022 UnsupportedProtocolVersion with a string `requested`",
    async (_what, version) => {
      const response = await connection()("tools/list", {
        _meta: { ...modernMeta, [MetaKey.protocolVersion]: version },
      });
      expect(response.error?.code).toBe(-32022);
      expect(typeof (response.error?.data as { requested?: unknown }).requested).toBe("string");
      expect((response.error?.data as { supported?: unknown }).supported).toContain("2026-07-28");
    },
  );

  it.each(odd)("in initialize, %s, is -32602", async (_what, version) => {
    const response = await connection()("initialize", {
      protocolVersion: version,
      capabilities: {},
      clientInfo: { name: "t", version: "1" },
    });
    expect(response.error?.code).toBe(-32602);
  });
});

describe("over stdio (the weather example in a child process)", () => {
  const child = spawn(tsxCommand(weatherMain).command, tsxCommand(weatherMain).args, {
    cwd: tsxCommand(weatherMain).cwd,
    stdio: ["pipe", "pipe", "ignore"],
  });
  const responses = new Map<unknown, Response>();
  const waiting = new Map<unknown, (r: Response) => void>();
  createInterface({ input: child.stdout! }).on("line", (line) => {
    const message = JSON.parse(line) as Response;
    responses.set(message.id, message);
    waiting.get(message.id)?.(message);
  });
  /** Sends a request; `raw` is spliced in as the text of `params` (JSON.stringify itself overflows on deep values). */
  const send = (id: number, method: string, params: Params, raw?: string) =>
    new Promise<Response>((resolve) => {
      waiting.set(id, resolve);
      const text = JSON.stringify({ jsonrpc: "2.0", id, method, params: raw === undefined ? params : "@" });
      child.stdin!.write(`${raw === undefined ? text : text.replace('"@"', raw)}\n`);
    });
  afterAll(() => stopChild(child));

  it(
    "answers prototype-named methods -32601, arguments null -32602 and an odd protocolVersion -32022",
    { timeout: 60_000 },
    async () => {
      let id = 0;
      for (const method of prototypeNames)
        expect((await send(++id, method, { _meta: modernMeta })).error?.code, method).toBe(-32601);
      expect(
        (await send(++id, "tools/call", { name: "get_forecast", arguments: null, _meta: modernMeta })).error?.code,
      ).toBe(-32602);
      expect(
        (await send(++id, "tools/list", { _meta: { ...modernMeta, [MetaKey.protocolVersion]: { toString: "x" } } }))
          .error?.code,
      ).toBe(-32022);
      const deep = `${"[".repeat(100_000)}"2026-07-28"${"]".repeat(100_000)}`;
      const deepMeta = `{"_meta":{"${MetaKey.clientCapabilities}":{},"${MetaKey.protocolVersion}":${deep}}}`;
      expect((await send(++id, "tools/list", {}, deepMeta)).error?.code).toBe(-32022);
      const deepInit = `{"protocolVersion":${deep},"capabilities":{},"clientInfo":{"name":"t","version":"1"}}`;
      expect((await send(++id, "initialize", {}, deepInit)).error?.code).toBe(-32602);
      const init = await send(++id, "initialize", {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "t", version: "1" },
      });
      expect(init.result?.protocolVersion).toBe("2025-11-25");
      for (const method of prototypeNames) expect((await send(++id, method, {})).error?.code, method).toBe(-32601);
      expect((await send(++id, "tools/call", { name: "get_forecast", arguments: null })).error?.code).toBe(-32602);
    },
  );
});
