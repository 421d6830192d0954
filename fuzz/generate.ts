// Seeded message generators for the fuzz job. Every generated case carries its own oracle:
// which responses it must produce (by id, or with id null) and, over HTTP, what kind of
// reply the POST must get. Nothing here talks to a server.

// --- PRNG (mulberry32) ------------------------------------------------------------------
export class Rng {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0 || 0x9e3779b9;
  }
  /** Uniform in [0, 1). */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
}

/** Independent streams from one seed. */
export function deriveSeed(seed: number, stream: number): number {
  let h = (seed ^ Math.imul(stream + 1, 0x9e3779b1)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b) >>> 0;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
  return (h ^ (h >>> 16)) >>> 0;
}

// --- ids ------------------------------------------------------------------------------
/**
 * A request id as raw JSON text plus its key: "s:<value>" for strings, "n:<digits>" for
 * integers, compared digit for digit (ids past 2^53 must come back exactly as sent).
 */
export interface Id {
  readonly raw: string;
  readonly key: string;
}

export function keyOfNumberText(raw: string): string {
  if (/^-?\d+$/.test(raw)) return `n:${BigInt(raw).toString()}`;
  return `n:${String(Number(raw))}`;
}

/** Unique ids of every valid shape; `prefix` keeps streams sharing a server apart. */
export class Ids {
  private n = 0;
  constructor(
    private readonly rng: Rng,
    private readonly prefix: string,
    /** A stream number folded into integer ids so that concurrent streams never collide. */
    private readonly lane: number,
  ) {}

  next(): Id {
    const n = ++this.n * 64 + this.lane; // lane < 64
    const r = this.rng.next();
    if (r < 0.45) return { raw: String(n), key: `n:${n}` };
    if (r < 0.75) {
      const value = `${this.prefix}${n}`;
      return { raw: JSON.stringify(value), key: `s:${value}` };
    }
    if (r < 0.83) {
      // Past 2^53: must come back digit for digit.
      const big = (9007199254740993n + BigInt(n) * 2n).toString();
      return { raw: big, key: `n:${big}` };
    }
    if (r < 0.88) {
      const big = (-(9007199254740993n + BigInt(n) * 2n)).toString();
      return { raw: big, key: `n:${big}` };
    }
    if (r < 0.93) return { raw: String(-n), key: `n:${-n}` };
    if (r < 0.96) {
      // Strings that look like numbers, unicode, escapes.
      const value = this.rng.pick([
        `${n}`,
        `\u00e9\u4e2d${n}`,
        `\u0000${n}`,
        `\ud83d\ude00${n}`,
        ` ${n} `,
        `__proto__${n}`,
      ]);
      return { raw: JSON.stringify(value), key: `s:${value}` };
    }
    if (r < 0.98) {
      // An integer written with an exponent or a fraction of zero: JSON says it is that integer.
      const k = 100_000_000 + n;
      const raw = this.rng.chance(0.5) ? `${k}0e-1` : `${k}.0`;
      return { raw, key: keyOfNumberText(raw) };
    }
    // A long string id.
    const value = `${this.prefix}${n}:${"x".repeat(200 + this.rng.int(2000))}`;
    return { raw: JSON.stringify(value), key: `s:${value}` };
  }
}

// --- cases ----------------------------------------------------------------------------
/** What one element of a case must produce. */
export type Expect =
  /** Exactly one response with this id. */
  | { readonly id: string }
  /** One error response with id null. */
  | { readonly nullError: true }
  /** One error response with this id, or with id null (an invalid message whose id is valid). */
  | { readonly idOrNull: string };

export type Kind =
  | "request"
  | "notification"
  | "client-response"
  | "invalid-envelope"
  | "parse-error"
  | "batch"
  | "duplicate-id"
  | "prototype"
  | "header-mutation";

export interface Case {
  readonly kind: Kind;
  readonly body: string | Buffer;
  /** Per-element expectations, in any order (a batch's elements are listed one by one). */
  readonly expect: readonly Expect[];
  /** HTTP: headers to send (besides the defaults), or to remove (value null). */
  readonly headers?: Readonly<Record<string, string | null>>;
  /** HTTP: the reply class (see run.ts). */
  readonly http?: HttpExpect;
  /** HTTP: send this many copies concurrently (duplicate ids in flight). */
  readonly copies?: number;
  /** Short description for failure reports. */
  readonly note: string;
}

/**
 * What the POST must get:
 *  - "answer": exactly the responses in `expect` (JSON or SSE body), status < 500;
 *  - "accepted": 202 and no response;
 *  - "refused": a 4xx with one JSON-RPC error whose id is null or the message's;
 *  - "answer-or-refused": either of those (header mutations a legacy session may ignore);
 *  - "accepted-or-refused": 202, or a 4xx with an error with id null.
 */
export type HttpExpect = "answer" | "accepted" | "refused" | "answer-or-refused" | "accepted-or-refused";

export interface Context {
  readonly transport: "stdio" | "http";
  /** "modern" (2026-07-28 requests with _meta) or a legacy session's revision. */
  readonly revision: string;
  /** Legacy stdio sessions declare sampling/elicitation/roots and the driver answers the server's requests. */
  readonly clientAnswers: boolean;
}

export const MODERN = "2026-07-28";
export const LEGACY_REVISIONS = ["2025-03-26", "2025-06-18", "2025-11-25"] as const;

const TOOLS_SIMPLE = [
  "test_simple_text",
  "test_image_content",
  "test_audio_content",
  "test_embedded_resource",
  "test_multiple_content_types",
  "test_error_handling",
  "test_logging_tool",
] as const;
const TOOLS_SLOW = ["test_tool_with_logging", "test_tool_with_progress"] as const;
const TOOLS_ASKING = [
  "test_sampling",
  "test_elicitation",
  "test_elicitation_sep1034_defaults",
  "test_elicitation_sep1330_enums",
  "test_missing_capability",
  "test_streaming_elicitation",
  "test_input_required_result_elicitation",
  "test_input_required_result_sampling",
  "test_input_required_result_list_roots",
  "test_input_required_result_request_state",
  "test_input_required_result_multiple_inputs",
  "test_input_required_result_multi_round",
  "test_input_required_result_tampered_state",
  "test_input_required_result_capabilities",
] as const;
const PROMPTS = [
  "test_simple_prompt",
  "test_prompt_with_arguments",
  "test_prompt_with_embedded_resource",
  "test_prompt_with_image",
  "test_input_required_result_prompt",
];
const URIS = [
  "test://static-text",
  "test://static-binary",
  "test://watched-resource",
  "test://template/1/data",
  "test://template/abc/data",
  "test://nope",
  "constructor",
  "__proto__",
];
const LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];
const WEIRD_NAMES = [
  "__proto__",
  "constructor",
  "toString",
  "hasOwnProperty",
  "prototype",
  "valueOf",
  "",
  "\u0000",
  "x".repeat(300),
];

type Json = unknown;

export class Generator {
  readonly ids: Ids;
  constructor(
    readonly rng: Rng,
    readonly ctx: Context,
    prefix: string,
    lane: number,
  ) {
    this.ids = new Ids(rng, prefix, lane);
  }

  private get modern(): boolean {
    return this.ctx.revision === MODERN;
  }

  /** Something wild for a value slot. */
  private wild(depth = 0): Json {
    const r = this.rng;
    switch (r.int(depth > 2 ? 7 : 10)) {
      case 0:
        return null;
      case 1:
        return r.chance(0.5);
      case 2:
        return r.pick([0, -1, 1.5, 1e308, -1e-308, 2 ** 53 + 1, 123456789]);
      case 3:
        return r.pick([
          "",
          "a",
          "\u0000",
          "\ud800",
          "\udfff\ud800",
          "\u202e",
          "😀",
          "%00",
          "{{arg1}}",
          "${x}",
          "a".repeat(r.int(5000)),
        ]);
      case 4:
        return r.pick(WEIRD_NAMES);
      case 5:
        return {};
      case 6:
        return [];
      case 7:
        return [this.wild(depth + 1), this.wild(depth + 1)];
      case 8:
        return { [r.pick(["a", "__proto__", "constructor", "name", "_meta"])]: this.wild(depth + 1) };
      default:
        return { x: this.wild(depth + 1) };
    }
  }

  private toolArgs(name: string): Json {
    const r = this.rng;
    if (r.chance(0.08)) return this.wild();
    switch (name) {
      case "test_sampling":
        return { prompt: r.pick(["What is 2+2?", "", "\u0000", "x".repeat(1000)]) };
      case "test_elicitation":
        return { message: r.pick(["Your name?", "", "😀"]) };
      case "json_schema_2020_12_tool":
        return r.pick<Json>([
          { name: "a", contactMethod: "email", email: "a@b.c" },
          { name: "a", contactMethod: "phone", phone: "1" },
          { name: "a", address: { street: "s", city: "c" }, email: "x" },
          { name: "a" },
          { extra: 1 },
        ]);
      case "test_routed_query":
        return r.pick<Json>([
          { region: "eu-west", query: "q" },
          { region: "us", priority: 3, query: "select" },
          { region: "ré gion", query: "q" },
          { region: 5, query: "q" },
          { query: "q" },
        ]);
      default:
        return r.chance(0.9) ? {} : { unexpected: this.wild() };
    }
  }

  /** The _meta of a request: the modern envelope, or a progress token now and then. */
  private meta(): Record<string, Json> | undefined {
    const r = this.rng;
    if (!this.modern)
      return r.chance(0.15) ? { progressToken: r.chance(0.5) ? r.int(1000) : `p${r.int(1000)}` } : undefined;
    const caps: Record<string, Json> = r.chance(0.5) ? {} : { elicitation: {}, sampling: {}, roots: {} };
    const meta: Record<string, Json> = {
      "io.modelcontextprotocol/protocolVersion": MODERN,
      "io.modelcontextprotocol/clientCapabilities": caps,
      "io.modelcontextprotocol/clientInfo": { name: "fuzz", version: "1.0.0" },
    };
    if (r.chance(0.2)) meta["io.modelcontextprotocol/logLevel"] = r.pick(LEVELS);
    if (r.chance(0.1)) meta.progressToken = `p${r.int(1000)}`;
    return meta;
  }

  /** A valid request (method and params) this context's server serves, or answers with an error. */
  validRequest(): { method: string; params?: Record<string, Json> } {
    const r = this.rng;
    const legacyOnly = ["ping", "resources/subscribe", "resources/unsubscribe", "logging/setLevel"];
    const common = [
      "tools/list",
      "tools/call",
      "tools/call",
      "tools/call",
      "tools/call",
      "resources/list",
      "resources/templates/list",
      "resources/read",
      "resources/read",
      "prompts/list",
      "prompts/get",
      "prompts/get",
      "completion/complete",
    ];
    const methods = this.modern ? [...common, "server/discover"] : [...common, ...legacyOnly];
    const method = r.pick(methods);
    let params: Record<string, Json> | undefined;
    switch (method) {
      case "tools/list":
      case "resources/list":
      case "resources/templates/list":
      case "prompts/list":
        params = r.chance(0.1) ? { cursor: r.pick(["", "bogus", "__proto__", "MTAw"]) } : {};
        break;
      case "tools/call": {
        const pool =
          this.ctx.transport === "http" && !this.modern
            ? // Legacy HTTP sessions declare no capabilities: asking tools fail at once.
              r.chance(0.9)
              ? TOOLS_SIMPLE
              : r.chance(0.5)
                ? TOOLS_SLOW
                : TOOLS_ASKING
            : r.chance(0.75)
              ? TOOLS_SIMPLE
              : r.chance(0.3)
                ? TOOLS_SLOW
                : TOOLS_ASKING;
        const name = r.chance(0.05)
          ? r.pick(["json_schema_2020_12_tool", "test_routed_query"])
          : r.chance(0.03)
            ? r.pick(["no_such_tool", ...WEIRD_NAMES])
            : r.pick(pool);
        params = { name, arguments: this.toolArgs(name) };
        break;
      }
      case "resources/read":
        params = { uri: r.pick(URIS) };
        break;
      case "prompts/get": {
        const name = r.chance(0.05) ? r.pick(WEIRD_NAMES) : r.pick(PROMPTS);
        params = { name };
        if (name === "test_prompt_with_arguments")
          params.arguments = r.chance(0.8) ? { arg1: "a", arg2: "b" } : { arg1: 1 };
        if (name === "test_prompt_with_embedded_resource") params.arguments = { resourceUri: r.pick(URIS) };
        break;
      }
      case "completion/complete":
        params = r.chance(0.5)
          ? {
              ref: { type: "ref/prompt", name: "test_prompt_with_arguments" },
              argument: { name: r.pick(["arg1", "arg2", "nope"]), value: r.pick(["pa", "t", ""]) },
              context: { arguments: { arg1: "paris" } },
            }
          : {
              ref: { type: "ref/resource", uri: "test://template/{id}/data" },
              argument: { name: "id", value: r.pick(["1", "12", ""]) },
            };
        break;
      case "resources/subscribe":
      case "resources/unsubscribe":
        params = { uri: r.pick(URIS) };
        break;
      case "logging/setLevel":
        params = { level: r.chance(0.9) ? r.pick(LEVELS) : r.pick(["verbose", "__proto__", ""]) };
        break;
      case "server/discover":
      case "ping":
        params = r.chance(0.5) ? {} : undefined;
        break;
    }
    const meta = this.meta();
    if (meta) params = { ...(params ?? {}), _meta: meta };
    return params === undefined ? { method } : { method, params };
  }

  private request(id: Id, method: string, params?: Json): string {
    const p = params === undefined ? "" : `,"params":${JSON.stringify(params)}`;
    return `{"jsonrpc":"2.0","id":${id.raw},"method":${JSON.stringify(method)}${p}}`;
  }

  private notificationText(): string {
    const r = this.rng;
    const method = r.pick([
      "notifications/initialized",
      "notifications/cancelled",
      "notifications/progress",
      "notifications/roots/list_changed",
      "notifications/message",
      "notifications/unknown",
      "__proto__",
      "constructor",
      "toString",
      "tools/call",
      "ping",
    ]);
    let params: Record<string, Json> | undefined;
    if (method === "notifications/cancelled")
      params = { requestId: r.chance(0.5) ? `never-${r.int(1e9)}` : -1 - r.int(1e6), reason: "fuzz" };
    else if (method === "notifications/progress") params = { progressToken: r.int(100), progress: r.int(100) };
    else if (r.chance(0.5)) params = { x: this.wild() };
    if (this.modern) params = { ...(params ?? {}), _meta: this.meta() };
    return JSON.stringify(params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params });
  }

  // --- the case mix ---------------------------------------------------------------------

  next(): Case {
    const r = this.rng.next();
    if (r < 0.5) return this.validCase();
    if (r < 0.6) return this.notificationCase();
    if (r < 0.64) return this.clientResponseCase();
    if (r < 0.76) return this.invalidCase();
    if (r < 0.82) return this.parseErrorCase();
    if (r < 0.86) return this.batchCase();
    if (r < 0.88) return this.duplicateCase();
    if (r < 0.94) return this.prototypeCase();
    if (this.ctx.transport === "http") return this.headerCase();
    return this.validCase();
  }

  /** The headers a correct client sends for `method` in this context (modern only; legacy headers come from the session). */
  modernHeaders(method: string, params: Record<string, Json> | undefined): Record<string, string> {
    const h: Record<string, string> = { "mcp-protocol-version": MODERN, "mcp-method": method };
    const field =
      method === "tools/call" || method === "prompts/get" ? "name" : method === "resources/read" ? "uri" : undefined;
    if (field !== undefined && params && typeof params[field] === "string")
      h["mcp-name"] = encodeHeader(params[field] as string);
    if (method === "tools/call" && params?.name === "test_routed_query") {
      const a = params.arguments as Record<string, Json> | undefined;
      if (a && typeof a === "object") {
        if (typeof a.region === "string" || typeof a.region === "number")
          h["mcp-param-region"] = encodeHeader(String(a.region));
        if (typeof a.priority === "number") h["mcp-param-priority"] = String(a.priority);
      }
    }
    return h;
  }

  private validCase(): Case {
    const id = this.ids.next();
    const { method, params } = this.validRequest();
    let body = this.request(id, method, params);
    if (this.rng.chance(0.02)) {
      // Invalid UTF-8 bytes inside a string value: decoded as U+FFFD, still a valid request.
      const at = body.lastIndexOf(`"${method}"`) + 1;
      if (at > 0) {
        const bytes = Buffer.concat([
          Buffer.from(body.slice(0, at)),
          Buffer.from([0xff, 0xfe, 0xc3]),
          Buffer.from(body.slice(at)),
        ]);
        return this.withHeaders(
          {
            kind: "request",
            body: bytes,
            expect: [{ id: id.key }],
            http: "answer",
            note: `${method} with invalid UTF-8 in the method name`,
          },
          method,
          params,
        );
      }
    }
    if (this.rng.chance(0.002)) {
      // A long string argument (bounded well under the 4 MiB message limit).
      const big = "L".repeat(100_000 + this.rng.int(900_000));
      const p = { name: "test_simple_text", arguments: { big }, ...(params?._meta ? { _meta: params._meta } : {}) };
      return this.withHeaders(
        {
          kind: "request",
          body: this.request(id, "tools/call", p),
          expect: [{ id: id.key }],
          http: "answer",
          note: "tools/call with a long string",
        },
        "tools/call",
        p,
      );
    }
    if (this.rng.chance(0.003)) {
      // Deep nesting inside params.
      const depth = this.rng.pick([100, 1000, 10_000, 100_000]);
      const nested = "[".repeat(depth) + "]".repeat(depth);
      const p = params ?? {};
      const pText = JSON.stringify(p);
      const withDeep = pText === "{}" ? `{"deep":${nested}}` : `{"deep":${nested},${pText.slice(1)}`;
      body = `{"jsonrpc":"2.0","id":${id.raw},"method":${JSON.stringify(method)},"params":${withDeep}}`;
      return this.withHeaders(
        {
          kind: "request",
          body,
          expect: [{ id: id.key }],
          http: "answer",
          note: `${method} with params nested ${depth} deep`,
        },
        method,
        p,
      );
    }
    return this.withHeaders(
      { kind: "request", body, expect: [{ id: id.key }], http: "answer", note: method },
      method,
      params,
    );
  }

  private withHeaders(c: Case, method: string, params: Record<string, Json> | undefined): Case {
    if (this.ctx.transport !== "http" || !this.modern) return c;
    return { ...c, headers: { ...c.headers, ...this.modernHeaders(method, params) } };
  }

  private notificationCase(): Case {
    const body = this.notificationText();
    const parsed = JSON.parse(body) as { method: string; params?: Record<string, Json> };
    // A modern notification named like tools/call lacks the Mcp-Name its method needs: it may be refused.
    const http: HttpExpect = this.modern && parsed.method === "tools/call" ? "accepted-or-refused" : "accepted";
    return this.withHeaders(
      { kind: "notification", body, expect: [], http, note: `notification ${parsed.method}` },
      parsed.method,
      parsed.params,
    );
  }

  private clientResponseCase(): Case {
    const r = this.rng;
    const id = r.chance(0.5) ? String(r.int(1e9) + 1e9) : JSON.stringify(`resp-${r.int(1e9)}`);
    const body = r.pick([
      `{"jsonrpc":"2.0","id":${id},"result":{}}`,
      `{"jsonrpc":"2.0","id":${id},"result":{"action":"accept"}}`,
      `{"jsonrpc":"2.0","id":${id},"error":{"code":-32000,"message":"no"}}`,
      `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"bad"}}`,
    ]);
    // A valid response the server did not ask for: ignored. HTTP: legacy 202; a modern POST must be a request or notification.
    return {
      kind: "client-response",
      body,
      expect: [],
      http: this.modern ? "accepted-or-refused" : "accepted",
      note: "unsolicited client response",
    };
  }

  /** Envelope errors; the expectation follows JSON-RPC 2.0 (the id when it is valid, else null). */
  private invalidCase(): Case {
    const r = this.rng;
    const id = this.ids.next();
    const { method, params } = this.validRequest();
    const p = params === undefined ? "" : `,"params":${JSON.stringify(params)}`;
    const m = JSON.stringify(method);
    const withId = (note: string, body: string): Case => ({
      kind: "invalid-envelope",
      body,
      expect: [{ idOrNull: id.key }],
      http: "refused",
      note,
    });
    const noId = (note: string, body: string): Case => ({
      kind: "invalid-envelope",
      body,
      expect: [{ nullError: true }],
      http: "refused",
      note,
    });
    const badId = r.pick(["null", "1.5", "-0.25", "true", "false", "{}", "[]", '{"a":1}', "[1]", "1e400", "-1e400"]);
    const badJsonrpc = r.pick(['"1.0"', '"2"', "2", "2.0", "null", '""', '"2.0 "', "{}", "[]"]);
    const badParams = r.pick(["[]", "[1,2]", '"x"', "1", "true", "null"]);
    const badMethod = r.pick(["1", "null", "true", "{}", "[]", '["tools/call"]']);
    let c: Case;
    switch (r.int(11)) {
      case 0:
        c = noId(`id ${badId}`, `{"jsonrpc":"2.0","id":${badId},"method":${m}${p}}`);
        break;
      case 1:
        c = withId(`jsonrpc ${badJsonrpc}`, `{"jsonrpc":${badJsonrpc},"id":${id.raw},"method":${m}${p}}`);
        break;
      case 2:
        c = withId("no jsonrpc", `{"id":${id.raw},"method":${m}${p}}`);
        break;
      case 3:
        c = withId(`params ${badParams}`, `{"jsonrpc":"2.0","id":${id.raw},"method":${m},"params":${badParams}}`);
        break;
      case 4:
        c = withId(`method ${badMethod}`, `{"jsonrpc":"2.0","id":${id.raw},"method":${badMethod}${p}}`);
        break;
      case 5:
        c = noId("not an object", r.pick(["1", '"x"', "null", "true", "false", "-5", "1e999", '"\\ud800"']));
        break;
      case 6:
        c = noId(
          "bad error object in a response",
          `{"jsonrpc":"2.0","id":${id.raw},"error":${r.pick(['"bad"', "1", '{"code":"x","message":"m"}', '{"code":1}', "null"])}}`,
        );
        break;
      case 7:
        c = noId(
          "response with an invalid id",
          `{"jsonrpc":"2.0","id":${r.pick(["1.5", "true", "{}", "[]", "null"])},"result":{}}`,
        );
        break;
      case 8:
        c = withId("no method, result or error", `{"jsonrpc":"2.0","id":${id.raw}}`);
        break;
      case 9:
        // Notification-shaped but with bad params: error with id null.
        c = noId(
          "notification with bad params",
          `{"jsonrpc":"2.0","method":"notifications/initialized","params":${badParams}}`,
        );
        if (badParams === "null") c = { ...c, note: "notification with params null" };
        break;
      default:
        c = withId(
          `params ${badParams}, jsonrpc ${badJsonrpc}`,
          `{"jsonrpc":${badJsonrpc},"id":${id.raw},"method":${m},"params":${badParams}}`,
        );
    }
    return this.withHeaders(c, method, params);
  }

  private parseErrorCase(): Case {
    const r = this.rng;
    const id = this.ids.next();
    const { method, params } = this.validRequest();
    const full = this.request(id, method, params);
    let body: string | Buffer;
    let note: string;
    switch (r.int(6)) {
      case 0:
        body = full.slice(0, 1 + r.int(full.length - 1));
        note = "truncated JSON";
        break;
      case 1:
        body = r.pick([
          "{",
          "}",
          "{]",
          "{'a':1}",
          "nul",
          "tru",
          "[1,]",
          '{"a":1,}',
          '{"a"\u0000:1}',
          "\u0001",
          "NaN",
          "Infinity",
          "undefined",
          "0x10",
          '"\\x41"',
          '"\\u12"',
          '"\\ud800',
        ]);
        note = "malformed JSON";
        break;
      case 2:
        body = Buffer.from([0x7b, 0xff, 0xfe, 0x7d]);
        note = "invalid UTF-8 structure";
        break;
      case 3:
        body = `${full}}`;
        note = "trailing garbage";
        break;
      case 4:
        body = full.replace('"jsonrpc"', "jsonrpc");
        note = "unquoted key";
        break;
      default:
        body = `${full} ${full}`;
        note = "two messages on one line";
    }
    return this.withHeaders(
      { kind: "parse-error", body, expect: [{ nullError: true }], http: "refused", note },
      method,
      params,
    );
  }

  private batchCase(): Case {
    const r = this.rng;
    const allowed = this.ctx.revision === "2025-03-26";
    const size = r.chance(0.05) ? 0 : 1 + r.int(r.chance(0.1) ? 50 : 6);
    const parts: string[] = [];
    const expect: Expect[] = [];
    for (let i = 0; i < size; i++) {
      const kind = r.next();
      if (kind < 0.6) {
        const id = this.ids.next();
        const { method, params } = this.validRequest();
        parts.push(this.request(id, method, params));
        expect.push({ id: id.key });
      } else if (kind < 0.75) parts.push(this.notificationText());
      else if (kind < 0.85) {
        parts.push(r.pick(["1", "null", "[]", '"x"', '{"jsonrpc":"2.0","id":1.5,"method":"ping"}']));
        expect.push({ nullError: true });
      } else if (kind < 0.92) {
        const id = this.ids.next();
        parts.push(`{"jsonrpc":"1.0","id":${id.raw},"method":"ping"}`);
        expect.push({ idOrNull: id.key });
      } else {
        parts.push(`{"jsonrpc":"2.0","id":${1e9 + r.int(1e9)},"result":{}}`);
      }
    }
    const body = `[${parts.join(",")}]`;
    if (!allowed || size === 0) {
      return {
        kind: "batch",
        body,
        expect: [{ nullError: true }],
        http: "refused",
        note: size === 0 ? "empty batch" : `batch of ${size} outside 2025-03-26`,
      };
    }
    return { kind: "batch", body, expect, http: expect.length === 0 ? "accepted" : "answer", note: `batch of ${size}` };
  }

  private duplicateCase(): Case {
    const id = this.ids.next();
    const slow = this.rng.chance(0.5);
    const params: Record<string, Json> = slow
      ? { name: "test_tool_with_progress", arguments: {} }
      : { name: "test_simple_text", arguments: {} };
    const meta = this.meta();
    if (meta) params._meta = meta;
    const body = this.request(id, "tools/call", params);
    // Sent twice: two responses with that id (a result, and a result or a -32600 for the id in use).
    const c: Case = {
      kind: "duplicate-id",
      body,
      expect: [{ id: id.key }],
      http: "answer",
      copies: 2,
      note: `duplicate in-flight id (${slow ? "slow" : "fast"} tool)`,
    };
    return this.withHeaders(c, "tools/call", params);
  }

  private prototypeCase(): Case {
    const r = this.rng;
    const id = this.ids.next();
    const pollute = '{"polluted":"yes","toString":"x","valueOf":1}';
    const meta = this.meta();
    const metaText = meta ? `,"_meta":${JSON.stringify(meta)}` : "";
    const choice = r.int(9);
    let method = "tools/call";
    let paramsText: string;
    let headerParams: Record<string, Json> | undefined;
    switch (choice) {
      case 0:
        method = r.pick([
          "__proto__",
          "constructor",
          "toString",
          "hasOwnProperty",
          "__defineGetter__",
          "constructor.prototype",
          "prototype",
          "tools/__proto__",
        ]);
        paramsText = `{"__proto__":${pollute}${metaText}}`;
        break;
      case 1:
        paramsText = `{"name":"test_simple_text","arguments":{"__proto__":${pollute}}${metaText}}`;
        headerParams = { name: "test_simple_text" };
        break;
      case 2:
        paramsText = `{"name":"json_schema_2020_12_tool","arguments":{"constructor":{"prototype":${pollute}},"name":"a","email":"e"}${metaText}}`;
        headerParams = { name: "json_schema_2020_12_tool" };
        break;
      case 3: {
        const name = r.pick(["__proto__", "constructor", "toString", "hasOwnProperty"]);
        paramsText = `{"name":${JSON.stringify(name)},"arguments":{}${metaText}}`;
        headerParams = { name };
        break;
      }
      case 4: {
        method = "prompts/get";
        const name = r.pick(["__proto__", "constructor", "toString", "test_prompt_with_arguments"]);
        paramsText = `{"name":${JSON.stringify(name)},"arguments":{"__proto__":${pollute},"constructor":{"prototype":${pollute}},"arg1":"a","arg2":"b"}${metaText}}`;
        headerParams = { name };
        break;
      }
      case 5:
        method = "completion/complete";
        paramsText = `{"ref":{"type":"ref/prompt","name":"__proto__"},"argument":{"name":"constructor","value":"x"},"context":{"arguments":{"__proto__":${pollute}}}${metaText}}`;
        break;
      case 6:
        method = "resources/read";
        paramsText = `{"uri":"test://template/__proto__/data","__proto__":${pollute}${metaText}}`;
        headerParams = { uri: "test://template/__proto__/data" };
        break;
      case 7:
        // _meta itself carries the payload.
        paramsText = `{"name":"test_simple_text","arguments":{},"_meta":{"__proto__":${pollute},"constructor":{"prototype":${pollute}}${meta ? `,${JSON.stringify(meta).slice(1, -1)}` : ""}}}`;
        headerParams = { name: "test_simple_text" };
        break;
      default:
        method = "logging/setLevel";
        paramsText = `{"level":"__proto__","__proto__":${pollute}${metaText}}`;
    }
    const body = `{"jsonrpc":"2.0","id":${id.raw},"method":${JSON.stringify(method)},"params":${paramsText},"__proto__":${pollute}}`;
    return this.withHeaders(
      { kind: "prototype", body, expect: [{ id: id.key }], http: "answer", note: `prototype payload (${method})` },
      method,
      headerParams,
    );
  }

  /** HTTP only: a well-formed request or notification with one header wrong. */
  private headerCase(): Case {
    const r = this.rng;
    const base = r.chance(0.8) ? this.validCase() : this.notificationCase();
    const headers: Record<string, string | null> = { ...(base.headers ?? {}) };
    const mutation = r.int(this.modern ? 12 : 8);
    const c = this.mutateHeaders(base, headers, mutation);
    return { ...c, kind: "header-mutation" };
  }

  private mutateHeaders(base: Case, headers: Record<string, string | null>, mutation: number): Case {
    const r = this.rng;
    let note: string;
    switch (mutation) {
      case 0:
        headers["content-type"] = r.pick(["text/plain", "application/xml", "", "application/jsonx"]);
        note = `content-type ${headers["content-type"]}`;
        // "application/jsonx" still contains application/json: accepted as JSON.
        // A notification keeps its own expectation (one the server cannot accept may be refused with 400).
        if (headers["content-type"] === "application/jsonx")
          return { ...base, headers, note: "content-type application/jsonx" };
        return { ...base, headers, http: "refused", note };
      case 1:
        headers["content-type"] = null;
        return { ...base, headers, http: "refused", note: "no content-type" };
      case 2:
        headers.accept = r.pick(["application/json", "text/event-stream", "text/html", ""]);
        return { ...base, headers, http: "refused", note: `accept ${headers.accept}` };
      case 3:
        headers.accept = null;
        return { ...base, headers, http: "refused", note: "no accept" };
      case 4:
        headers.origin = "http://evil.example";
        return { ...base, headers, http: "refused", note: "foreign Origin" };
      case 5:
        headers.host = "evil.example";
        return { ...base, headers, http: "refused", note: "foreign Host" };
      case 6:
        if (this.modern) {
          headers["mcp-session-id"] = "no-such-session";
          return { ...base, headers, http: "refused", note: "modern request with an unknown Mcp-Session-Id" };
        }
        headers["mcp-session-id"] = r.pick(["no-such-session", "", "__proto__", "constructor"]);
        return { ...base, headers, http: "refused", note: `Mcp-Session-Id '${headers["mcp-session-id"]}'` };
      case 7:
        headers["mcp-protocol-version"] = r.pick(["1999-01-01", "2025-03-26", "2025-06-18", "garbage", ""]);
        // A legacy session checks the version header from 2025-06-18 on; a modern request against its _meta.
        return {
          ...base,
          headers,
          http: base.kind === "request" ? "answer-or-refused" : "accepted-or-refused",
          note: `MCP-Protocol-Version '${headers["mcp-protocol-version"]}'`,
        };
      case 8:
        headers["mcp-method"] = r.pick(["tools/list", "", "__proto__", "TOOLS/CALL"]);
        return {
          ...base,
          headers,
          http: base.kind === "request" ? "answer-or-refused" : "accepted-or-refused",
          note: `Mcp-Method '${headers["mcp-method"]}'`,
        };
      case 9:
        headers["mcp-method"] = null;
        return { ...base, headers, http: "refused", note: "no Mcp-Method" };
      case 10:
        headers["mcp-name"] = r.pick(["other", "=?base64?!!!?=", "=?base64?X19wcm90b19f?=", "__proto__", ""]);
        return {
          ...base,
          headers,
          http: base.kind === "request" ? "answer-or-refused" : "accepted-or-refused",
          note: `Mcp-Name '${headers["mcp-name"]}'`,
        };
      default:
        headers["mcp-protocol-version"] = null;
        return { ...base, headers, http: "refused", note: "no MCP-Protocol-Version" };
    }
  }
}

/** Header-safe form of a mirrored value (plain visible ASCII as is, else the base64 sentinel). */
export function encodeHeader(value: string): string {
  if (/^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(value) && !(value.startsWith("=?base64?") && value.endsWith("?=")))
    return value;
  return `=?base64?${Buffer.from(value, "utf8").toString("base64")}?=`;
}

/** A result for a request the server sent the client (stdio legacy sessions): sometimes right, sometimes not. */
export function answerFor(rng: Rng, method: string, idRaw: string): string {
  let result: Json;
  const r = rng.next();
  if (r < 0.1) return `{"jsonrpc":"2.0","id":${idRaw},"error":{"code":-1,"message":"user said no"}}`;
  if (r < 0.25) result = rng.pick<Json>([{}, { foo: "bar" }, { action: 5 }, { roots: "x" }, { content: null }]);
  else if (method === "elicitation/create")
    result = rng.pick<Json>([
      { action: "accept", content: { name: "fuzz", ok: true, confirm: true } },
      { action: "decline" },
      { action: "cancel" },
    ]);
  else if (method === "sampling/createMessage")
    result = { role: "assistant", content: { type: "text", text: "Paris" }, model: "fuzz" };
  else if (method === "roots/list") result = { roots: [{ uri: "file:///tmp", name: "tmp" }] };
  else result = {};
  return `{"jsonrpc":"2.0","id":${idRaw},"result":${JSON.stringify(result)}}`;
}
