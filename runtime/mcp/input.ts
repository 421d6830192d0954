// Input from the client while a request is handled (`ctx.input`): elicitation, sampling,
// roots. Legacy sessions send the requests to the client and wait for the answers. The
// modern revision has no server-to-client requests (SEP-2322): the server answers
// tools/call, prompts/get or resources/read with an `input_required` result naming what
// it needs; the client retries the same request with `inputResponses` and the echoed
// `requestState`, and the handler runs again from the start, now finding its answers.
//
// requestState carries the answers a handler already used, so that a handler asking in
// several rounds finds all of them on its last run. It is sealed with HMAC-SHA256 (Web
// Crypto, so edge platforms too) and bound to the request it was issued for: the method,
// the tool, prompt or resource, the arguments (a SHA-256 of their canonical JSON), the
// caller (the bearer token's subject; an unauthenticated 2026-07-28 request has no stable
// caller: no session, no subject) and the keys it asked for; it expires. Anything else is
// rejected with -32602, and so are inputResponses to questions the server did not ask. It
// is signed, not encrypted: it holds nothing but answers the client itself gave.
//
// Generated code passes `inputFeature` (ctx.input and ctx.request) to the server when the
// manifest declares anything whose handler gets a context, so that a server without
// handlers does not carry this module or client-requests.ts.
import type { AuthInfo } from "../auth/resource-server.js";
import { brand } from "../jsonrpc/brand.js";
import { ErrorCode, invalidParams, isObject, RpcError, type Params } from "../jsonrpc/messages.js";
import type { Exchange } from "../jsonrpc/peer.js";
import { RequestingPeer } from "../jsonrpc/requesting-peer.js";
import {
  capabilityProblem,
  requiredClientCapability,
  sendClientRequest,
  type ClientRequestScope,
} from "./client-requests.js";
import { Context, type InputRequestSpec, type Scope, type TaskInput } from "./context.js";
import type { AnswerValidators, InputFeature, RequestStateOptions } from "./definition.js";
import type { ClientRequestOptions, JsonObject } from "./handler-types.js";
import { base64Encode } from "./results.js";
import { describeIssue, type Validator } from "../validation.js";

/** Methods whose modern results may be `input_required`; no prototype. */
const inputMethods: Readonly<Record<string, string | undefined>> = Object.assign(
  Object.create(null) as Record<string, string>,
  {
    "tools/call": "name",
    "prompts/get": "name",
    "resources/read": "uri",
  },
);

/** The validator of `method`'s result under `revision`, when the generated definition has one (the methods its `asks:` use). */
function answerValidator(
  answers: AnswerValidators | undefined,
  method: string,
  revision: string,
): Validator | undefined {
  const byRevision = answers !== undefined && Object.hasOwn(answers, method) ? answers[method] : undefined;
  return byRevision !== undefined && Object.hasOwn(byRevision, revision) ? byRevision[revision] : undefined;
}

/** The -32602 error for a client's answer to `method` that is not a result of that method (legacy: a response to a server request). */
function invalidAnswer(method: string, issue: string, key?: string): RpcError {
  const what =
    key === undefined ? `the client's result of ${method}` : `inputResponses.${key} (the client's result of ${method})`;
  return invalidParams(`${what} is invalid: ${issue}`);
}

/** Sends a server-to-client request and checks the client's result against the method's result type, when there is a validator for it. */
async function sendChecked(
  exchange: Exchange,
  scope: ClientRequestScope,
  answers: AnswerValidators | undefined,
  method: string,
  params: unknown,
  options?: ClientRequestOptions,
): Promise<Params> {
  const result = await sendClientRequest(exchange, scope, method, params, options);
  const issue = answerValidator(answers, method, scope.revision)?.(result);
  if (issue) throw invalidAnswer(method, describeIssue(issue));
  return result;
}

/**
 * Thrown by ctx.input under a modern revision when answers are missing; the server turns
 * it into the `input_required` result. An RpcError so that it passes through the paths
 * that rethrow protocol errors; should it ever reach the wire, it is an internal error.
 */
export class InputRequiredSignal extends RpcError {
  static {
    brand(this, "InputRequiredSignal");
  }

  constructor(
    readonly requests: Readonly<Record<string, InputRequestSpec>>,
    readonly round: InputRound,
  ) {
    super(ErrorCode.InternalError, "Internal error: input required outside a request that may ask for input");
  }
}

/** The request a requestState belongs to: the same one, retried by the same caller. */
export interface StateBinding {
  readonly method: string;
  /** The tool or prompt name, or the resource URI. */
  readonly target: string;
  /** The request's arguments (tools/call, prompts/get); compared by canonical JSON. */
  readonly arguments?: unknown;
  /** The verified bearer token's subject; undefined for an unauthenticated request. */
  readonly subject?: string | undefined;
}

/** What a valid requestState carries. */
export interface OpenedState {
  /** Answers the handler used in earlier rounds, by key. */
  readonly answers: JsonObject;
  /** The inputRequests keys of the result that issued it: the only inputResponses accepted with it. */
  readonly asked: readonly string[];
}

interface StatePayload {
  /** Format version. */
  readonly v: 2;
  /** Method and target (tool or prompt name, resource URI) the state was issued for. */
  readonly m: string;
  readonly t: string;
  /** SHA-256 (base64url) of the request's canonical arguments. */
  readonly h: string;
  /** The caller's token subject, when it had one. */
  readonly s?: string;
  /** Expiry, epoch milliseconds. */
  readonly exp: number;
  /** Answers the handler used in earlier rounds, by key. */
  readonly a: JsonObject;
  /** Keys asked by the result that issued the state. */
  readonly q: readonly string[];
}

/** JSON with object keys sorted at every level: equal values, equal text. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (isObject(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

async function argumentsDigest(value: unknown): Promise<string> {
  return base64url(new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(canonicalJson(value ?? {})))));
}

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true });

function base64url(bytes: Uint8Array): string {
  return base64Encode(bytes).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64url(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return undefined;
  try {
    const bytes = Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
    // Canonical text only: the decoder ignores a last character's unused bits, so 'A'..'D'
    // would all open the same state and a tampered signature could pass as the original.
    return base64url(bytes) === text ? bytes : undefined;
  } catch {
    return undefined;
  }
}

function invalidState(why: string): RpcError {
  return invalidParams(`requestState ${why}`);
}

type HmacKey = Awaited<ReturnType<typeof crypto.subtle.importKey>>;

/** Seals and opens requestState values. */
export class RequestStateCodec {
  private key: Promise<HmacKey> | undefined;
  private readonly ttlMs: number;

  constructor(private readonly options: RequestStateOptions = {}) {
    this.ttlMs = options.ttlMs ?? 3_600_000;
  }

  private hmacKey(): Promise<HmacKey> {
    if (!this.key) {
      const secret = this.options.secret;
      const raw =
        secret === undefined
          ? crypto.getRandomValues(new Uint8Array(32))
          : typeof secret === "string"
            ? encoder.encode(secret)
            : secret;
      this.key = crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
    }
    return this.key;
  }

  /** A state for `binding` carrying `answers`, that accepts answers to `asked` (inputRequests keys). */
  async seal(binding: StateBinding, answers: JsonObject, asked: readonly string[]): Promise<string> {
    const payload: StatePayload = {
      v: 2,
      m: binding.method,
      t: binding.target,
      h: await argumentsDigest(binding.arguments),
      ...(binding.subject === undefined ? {} : { s: binding.subject }),
      exp: Date.now() + this.ttlMs,
      a: answers,
      q: asked,
    };
    const body = base64url(encoder.encode(JSON.stringify(payload)));
    const signature = new Uint8Array(await crypto.subtle.sign("HMAC", await this.hmacKey(), encoder.encode(body)));
    return `${body}.${base64url(signature)}`;
  }

  /** What a valid state for `binding` carries; rejects with -32602 otherwise. */
  async open(state: string, binding: StateBinding): Promise<OpenedState> {
    const dot = state.indexOf(".");
    const body = dot < 0 ? "" : state.slice(0, dot);
    const signature = dot < 0 ? undefined : fromBase64url(state.slice(dot + 1));
    if (body === "" || !signature) throw invalidState("is malformed");
    const valid = await crypto.subtle.verify("HMAC", await this.hmacKey(), signature, encoder.encode(body));
    if (!valid) throw invalidState("failed its integrity check");
    let payload: StatePayload;
    try {
      payload = JSON.parse(decoder.decode(fromBase64url(body))) as StatePayload;
    } catch {
      throw invalidState("is malformed");
    }
    if (payload.v !== 2 || !isObject(payload.a) || !Array.isArray(payload.q)) throw invalidState("is malformed");
    if (payload.m !== binding.method || payload.t !== binding.target) throw invalidState("belongs to another request");
    if (payload.h !== (await argumentsDigest(binding.arguments))) throw invalidState("was issued for other arguments");
    if (payload.s !== binding.subject) throw invalidState("was issued to another caller");
    if (!(payload.exp > Date.now())) throw invalidState("has expired; start the request again without it");
    return { answers: payload.a, asked: payload.q };
  }
}

/** The answers of one modern request, gathered from its requestState and inputResponses. */
export class InputRound {
  /** Answers the handler used in this run: sealed into the next requestState. */
  readonly used: JsonObject = {};
  private answers: Promise<JsonObject> | undefined;

  constructor(
    private readonly exchange: Exchange,
    private readonly codec: RequestStateCodec,
  ) {}

  get method(): string {
    return this.exchange.request.method;
  }

  /** This request as a requestState binds it: method, target, arguments and caller. */
  get binding(): StateBinding {
    const params = this.exchange.request.params;
    const field = inputMethods[this.method];
    const target = field === undefined ? undefined : params?.[field];
    return {
      method: this.method,
      target: typeof target === "string" ? target : "",
      arguments: params?.arguments,
      subject: (this.exchange.auth as AuthInfo | undefined)?.subject,
    };
  }

  /** Validates inputResponses and requestState (once) and merges them. */
  available(): Promise<JsonObject> {
    this.answers ??= this.gather();
    return this.answers;
  }

  private async gather(): Promise<JsonObject> {
    const params = this.exchange.request.params ?? {};
    const responses = params.inputResponses;
    if (responses !== undefined && !isObject(responses)) throw invalidParams("inputResponses must be an object");
    for (const [key, value] of Object.entries(responses ?? {})) {
      if (!isObject(value)) throw invalidParams(`inputResponses.${key} must be a result object`);
    }
    const state = params.requestState;
    if (state !== undefined && typeof state !== "string") throw invalidParams("requestState must be a string");
    const earlier: OpenedState =
      state === undefined ? { answers: {}, asked: [] } : await this.codec.open(state, this.binding);
    for (const key of Object.keys(responses ?? {})) {
      if (!earlier.asked.includes(key)) throw invalidParams(`inputResponses.${key} answers nothing this server asked`);
    }
    const answers: JsonObject = {};
    for (const source of [earlier.answers, responses ?? {}]) {
      for (const [key, value] of Object.entries(source))
        Object.defineProperty(answers, key, { value, enumerable: true, writable: true, configurable: true });
    }
    return answers;
  }

  /** The `input_required` result for the requests a handler is still missing. */
  async result(requests: Readonly<Record<string, InputRequestSpec>>): Promise<Params> {
    const inputRequests: JsonObject = {};
    for (const [key, request] of Object.entries(requests)) {
      const entry: JsonObject = { method: request.method };
      if (request.params !== undefined) entry.params = request.params;
      Object.defineProperty(inputRequests, key, { value: entry, enumerable: true, writable: true, configurable: true });
    }
    return {
      resultType: "input_required",
      inputRequests,
      requestState: await this.codec.seal(this.binding, this.used, Object.keys(inputRequests)),
    };
  }
}

/** What ctx.input needs to know about the request being handled. */
export interface InputScope extends ClientRequestScope {
  /** The modern request's round; undefined in legacy sessions. */
  readonly round?: InputRound | undefined;
  /** Validators of the client's answers, by method and revision (generated for the methods `asks:` uses). */
  readonly answers?: AnswerValidators | undefined;
  /** A 2026-07-28 call of a task tool (see tasks.ts). */
  readonly task?: TaskInput | undefined;
}

/**
 * ctx.input: the answers to `requests`, by key. Legacy: sent to the client at once and
 * awaited. Modern: taken from the request's answers, or an `input_required` result.
 */
export async function requestInput(
  exchange: Exchange,
  scope: InputScope,
  requests: Readonly<Record<string, InputRequestSpec>>,
): Promise<JsonObject> {
  if (!isObject(requests)) throw new TypeError("ctx.input: requests must be an object of { method, params } by key");
  for (const request of Object.values(requests)) {
    const method: unknown = isObject(request) ? request.method : undefined;
    const capability = typeof method === "string" ? requiredClientCapability[method] : undefined;
    if (capability === undefined)
      throw new TypeError(
        `ctx.input: ${typeof method === "string" ? method : typeof method} is not a request a server may send the client`,
      );
    const problem = capabilityProblem(scope.capabilities, request.method, request.params, scope.revision);
    if (problem) throw problem;
  }
  const answers: JsonObject = {};
  const put = (key: string, value: unknown) =>
    Object.defineProperty(answers, key, { value, enumerable: true, writable: true, configurable: true });
  if (scope.era === "legacy") {
    const entries = Object.entries(requests);
    const results = await Promise.all(
      entries.map(([, r]) => sendChecked(exchange, scope, scope.answers, r.method, r.params)),
    );
    entries.forEach(([key], i) => put(key, results[i]));
    return answers;
  }
  const round = scope.round;
  if (!round || inputMethods[exchange.request.method] === undefined) {
    throw new TypeError(
      `ctx.input: ${exchange.request.method} cannot ask the client for input under protocol ${scope.revision}`,
    );
  }
  const available = await round.available();
  const missing: Record<string, InputRequestSpec> = {};
  for (const [key, request] of Object.entries(requests)) {
    if (Object.prototype.hasOwnProperty.call(available, key)) {
      const issue = answerValidator(scope.answers, request.method, scope.revision)?.(available[key]);
      if (issue) throw invalidAnswer(request.method, describeIssue(issue), key);
      put(key, available[key]);
      Object.defineProperty(round.used, key, {
        value: available[key],
        enumerable: true,
        writable: true,
        configurable: true,
      });
    } else Object.defineProperty(missing, key, { value: request, enumerable: true });
  }
  if (Object.keys(missing).length === 0) return answers;
  // A call that has become a task asks through the task (tasks/update brings the answers).
  if (!scope.task?.active) throw new InputRequiredSignal(missing, round);
  const given = await scope.task.input(missing);
  for (const [key, request] of Object.entries(missing)) {
    const value = Object.hasOwn(given, key) ? given[key] : undefined;
    const issue = isObject(value) ? answerValidator(scope.answers, request.method, scope.revision)?.(value) : undefined;
    if (!isObject(value) || issue)
      throw invalidAnswer(request.method, issue ? describeIssue(issue) : "it must be a result object", key);
    put(key, value);
  }
  return answers;
}

/** Why `content` does not fill in the form `schema` (flat, primitive fields), if it does not. */
function formProblem(schema: JsonObject, content: unknown): string | undefined {
  if (!isObject(content)) return "content must be an object";
  const properties = (isObject(schema.properties) ? schema.properties : {}) as Record<string, JsonObject>;
  for (const name of Array.isArray(schema.required) ? (schema.required as string[]) : []) {
    if (content[name] === undefined) return `missing required field '${name}'`;
  }
  for (const [name, value] of Object.entries(content)) {
    const field = Object.hasOwn(properties, name) ? properties[name] : undefined;
    if (!field) return `unknown field '${name}'`;
    const allowed = Array.isArray(field.enum)
      ? field.enum
      : Array.isArray(field.oneOf)
        ? (field.oneOf as JsonObject[]).map((o) => o.const)
        : undefined;
    const type = field.type === "integer" ? "number" : field.type;
    if (type === "array") {
      const items = (isObject(field.items) ? field.items : {}) as JsonObject;
      const choices = Array.isArray(items.enum)
        ? items.enum
        : Array.isArray(items.anyOf)
          ? (items.anyOf as JsonObject[]).map((o) => o.const)
          : undefined;
      if (!Array.isArray(value) || (choices && value.some((v) => !choices.includes(v))))
        return `field '${name}' must be a list of the offered choices`;
    } else if (typeof value !== type || (field.type === "integer" && !Number.isInteger(value)))
      return `field '${name}' must be ${String(field.type)}`;
    else if (allowed && !allowed.includes(value)) return `field '${name}' must be one of the offered choices`;
  }
  return undefined;
}

/** What a handler's ctx asks the client through: ctx.input's round of answers, the forms, the answers' checks. */
interface Asking {
  readonly codec: RequestStateCodec;
  readonly forms: Readonly<Record<string, JsonObject>>;
  readonly answers: AnswerValidators | undefined;
}

/** A handler's ctx when the manifest declares what handlers ask (`asks:`). */
class InputContext extends Context {
  /** ctx.input of this request, made on first use: every call shares its modern round of answers. */
  private ask: ((requests: Readonly<Record<string, InputRequestSpec>>) => Promise<JsonObject>) | undefined;
  private forms: JsonObject | undefined;

  constructor(
    exchange: Exchange,
    scope: Scope,
    meta: JsonObject | undefined,
    private readonly asking: Asking,
  ) {
    super(exchange, scope, meta);
  }

  override async request(method: string, params?: unknown, options?: ClientRequestOptions): Promise<never> {
    return sendChecked(this.exchange, this.scope, this.asking.answers, method, params, options) as Promise<never>;
  }

  override async input(requests: Readonly<Record<string, InputRequestSpec>>): Promise<never> {
    return this.asker()(requests) as Promise<never>;
  }

  /** A method per form (`elicitations:`), asking through ctx.input. */
  override get elicit(): never {
    if (!this.forms) {
      const ask = this.asker();
      const forms: JsonObject = {};
      for (const [name, requestedSchema] of Object.entries(this.asking.forms)) {
        forms[name] = async (message: string, options?: { key?: string }) => {
          const key = options?.key ?? name;
          const answers = await ask({
            [key]: { method: "elicitation/create", params: { message, requestedSchema } } as InputRequestSpec,
          });
          const answer = answers[key] as { action?: unknown; content?: unknown };
          const problem = answer.action === "accept" ? formProblem(requestedSchema, answer.content) : undefined;
          if (problem) throw new Error(`The client's answer to form ${name} does not fit it: ${problem}`);
          return answer;
        };
      }
      this.forms = forms;
    }
    return this.forms as never;
  }

  private asker(): (requests: Readonly<Record<string, InputRequestSpec>>) => Promise<JsonObject> {
    if (!this.ask) {
      const { exchange, scope } = this;
      const { codec, answers } = this.asking;
      let round: InputRound | undefined;
      this.ask = (requests) => {
        if (scope.era === "modern") round ??= new InputRound(exchange, codec);
        return requestInput(exchange, { ...scope, round, answers }, requests);
      };
    }
    return this.ask;
  }
}

/** ctx.input and ctx.request, with `requestState` sealed as `options` say. */
export function inputFeature(
  options?: RequestStateOptions,
  forms: Readonly<Record<string, JsonObject>> = {},
  answers?: AnswerValidators,
): InputFeature {
  const asking: Asking = { codec: new RequestStateCodec(options), forms, answers };
  return {
    connect: (sink, dispatcher) => new RequestingPeer(sink, dispatcher),
    context: (exchange, scope, meta) => new InputContext(exchange, scope, meta, asking),
    async inputRequired(error, meta) {
      if (!(error instanceof InputRequiredSignal)) throw error;
      const result = await error.round.result(error.requests);
      result._meta = meta;
      return result;
    },
  };
}
