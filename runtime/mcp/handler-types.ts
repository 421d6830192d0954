// The handler's side of the contract: what a handler receives (RequestContext, its
// typed ctx.request, ctx.input and ctx.elicit) and the shapes it may return. Handler-facing
// types take the protocol's content types as parameters, so generated code binds them
// to the preferred revision's types from protocol.gen.ts. Types only; the runtime's
// modules below the server definition (context, results, client requests) read these.
import type { AuthInfo } from "../auth/resource-server.js";
import type { LoggingLevel } from "./revisions.js";

export type Awaitable<T> = T | Promise<T>;
export type JsonObject = { [key: string]: unknown };

/** Name, version and display fields of a client or server. */
export interface Implementation {
  readonly name: string;
  readonly version: string;
  readonly title?: string | undefined;
  readonly description?: string | undefined;
  readonly websiteUrl?: string | undefined;
  readonly icons?: readonly JsonObject[] | undefined;
}

/** The shape of one request method: its params and its result. */
export interface RequestShape {
  readonly params: unknown;
  readonly result: unknown;
}

/**
 * Requests a handler may send to the client, by method. Generated code binds this to
 * its `ClientRequests` (the protocol's ServerRequestMap and InputRequestMap over the
 * revisions it serves: sampling/createMessage, elicitation/create, roots/list ...); this
 * default leaves them untyped.
 */
export type AnyRequests = {
  readonly [method: string]: { readonly params: JsonObject | undefined; readonly result: JsonObject };
};

type RequestArgs<P> = undefined extends P
  ? [params?: Exclude<P, undefined>, options?: ClientRequestOptions]
  : [params: P, options?: ClientRequestOptions];

type ParamsOf<S> = S extends RequestShape ? S["params"] : never;
type ResultOf<S> = S extends RequestShape ? S["result"] : never;

/**
 * A type no value has, standing where the manifest lacks a declaration: its name says
 * what to declare, so the compile error reads e.g. `Argument of type '"tools"' is not
 * assignable to parameter of type '"tools" & Undeclared<"declare listChanged: [tools]
 * on the server in mcp.yaml">'`.
 */
export interface Undeclared<Fix extends string> {
  readonly "mcp.yaml": Fix;
}

/**
 * What stands for a request to the client that the handler's `asks:` does not declare
 * (ctx.input): its method reads `Type '"roots/list"' is not assignable to type 'string &
 * Undeclared<"declare asks: [roots] on this handler in mcp.yaml">'`.
 */
export interface UndeclaredAsk<Fix extends string> {
  readonly method: string & Undeclared<Fix>;
  readonly params?: unknown;
}

/** The `asks:` entry that lets a handler send `Method` (elicitation, sampling, roots). */
type AskOf<Method> = Method extends "elicitation/create"
  ? "elicitation"
  : Method extends "sampling/createMessage"
    ? "sampling"
    : Method extends "roots/list"
      ? "roots"
      : "elicitation, sampling or roots";

/** One request a handler needs the client to answer (ctx.input): a method of `Requests` and its params. */
export type InputRequestOf<Requests> = {
  [K in keyof Requests & string]: undefined extends ParamsOf<Requests[K]>
    ? { readonly method: K; readonly params?: Exclude<ParamsOf<Requests[K]>, undefined> }
    : { readonly method: K; readonly params: ParamsOf<Requests[K]> };
}[keyof Requests & string];

/**
 * What ctx.input accepts for the requests `R`: each a request of `Requests`, and for a
 * method the handler's `asks:` does not declare, an Undeclared type naming the `asks:` entry.
 */
export type InputRequestsOf<Requests, R> = {
  readonly [K in keyof R]: R[K] extends { readonly method: infer M }
    ? M extends keyof Requests
      ? InputRequestOf<Requests>
      : UndeclaredAsk<`declare asks: [${AskOf<M>}] on this handler in mcp.yaml`>
    : [keyof Requests] extends [never]
      ? UndeclaredAsk<`declare asks: [${AskOf<never>}] on this handler in mcp.yaml`>
      : InputRequestOf<Requests>;
};

/** The methods ctx.request can send: those of `Requests`, or, for any other, an Undeclared type naming the `asks:` entry. */
export type RequestMethodOf<Requests, M extends string> = M extends keyof Requests
  ? M
  : M & Undeclared<`declare asks: [${AskOf<M>}] on this handler in mcp.yaml`>;

/** The answers to the requests given to ctx.input, by key. */
export type InputResults<Requests, R> = {
  -readonly [K in keyof R]: R[K] extends { readonly method: infer M }
    ? M extends keyof Requests
      ? ResultOf<Requests[M]>
      : never
    : never;
};

export interface ClientRequestOptions {
  /** Milliseconds before the request fails; 0 disables. Default 60 000. */
  readonly timeoutMs?: number | undefined;
  /** Aborts the request (and tells the client). Default: the signal of the request being handled. */
  readonly signal?: AbortSignal | undefined;
}

/** What every handler receives besides its arguments. */
/** The value of one field of an elicitation form (a flat schema of primitives, as the protocol restricts them). */
type FieldValue<F> = F extends { readonly enum: readonly (infer E)[] }
  ? E
  : F extends { readonly oneOf: readonly { readonly const: infer E }[] }
    ? E
    : F extends { readonly type: "array"; readonly items: { readonly enum: readonly (infer E)[] } }
      ? E[]
      : F extends { readonly type: "array"; readonly items: { readonly anyOf: readonly { readonly const: infer E }[] } }
        ? E[]
        : F extends { readonly type: "string" }
          ? string
          : F extends { readonly type: "number" | "integer" }
            ? number
            : F extends { readonly type: "boolean" }
              ? boolean
              : unknown;
type RequiredFields<S> = S extends { readonly required: readonly (infer K)[] } ? K & string : never;

/** What the client fills in for a form whose requestedSchema is `S`. */
export type FormContent<S> = S extends { readonly properties: infer P }
  ? { -readonly [K in keyof P & RequiredFields<S>]: FieldValue<P[K]> } & {
      -readonly [K in Exclude<keyof P, RequiredFields<S>>]?: FieldValue<P[K]>;
    }
  : never;

/** The user's answer to a form: accepted with its content, or declined / cancelled. */
export type ElicitAnswer<T> =
  | { readonly action: "accept"; readonly content: T }
  | { readonly action: "decline" | "cancel"; readonly content?: undefined };

/** ctx.elicit: one method per elicitation form of the manifest (`elicitations:`), by its identifier. */
export type ElicitForms<Forms> = {
  readonly [K in keyof Forms]: (
    message: string,
    options?: {
      /** The ctx.input key of this question; default the form's identifier. Ask twice in one handler with two keys. */ readonly key?: string;
    },
  ) => Promise<ElicitAnswer<FormContent<Forms[K]>>>;
};

/**
 * ctx.elicit as a handler sees it: the manifest's forms, or, when the handler's `asks:`
 * lacks elicitation or the manifest declares no form, an Undeclared type saying what to
 * declare: `ctx.elicit.confirmDelete` then fails with `Property 'confirmDelete' does not
 * exist on type 'Undeclared<"declare asks: [elicitation] on this handler in mcp.yaml">'`.
 */
export type ElicitOf<Requests, Forms> = unknown extends Forms
  ? any // `any` forms (EntryContext): the runtime's view, passed on to a handler whose forms it knows
  : "elicitation/create" extends keyof Requests
    ? [keyof Forms] extends [never]
      ? Undeclared<"declare the form under elicitations: in mcp.yaml">
      : ElicitForms<Forms>
    : Undeclared<"declare asks: [elicitation] on this handler in mcp.yaml">;

export interface RequestContext<Requests extends object = AnyRequests, Forms extends object = {}> {
  /** Aborted when the client cancels the request or goes away. */
  readonly signal: AbortSignal;
  /** The protocol revision this request is served under. */
  readonly revision: string;
  readonly era: "modern" | "legacy";
  /** Who is asking, as the client declared it (self-reported; do not base security on it). */
  readonly client: { readonly info?: Implementation | undefined; readonly capabilities: JsonObject };
  /** The request's `_meta`, if any. */
  readonly meta: JsonObject | undefined;
  /**
   * Who the request's bearer token stands for, as verifyToken returned it: set on HTTP
   * bindings with `auth`, undefined otherwise (stdio servers take credentials from their environment).
   */
  readonly auth: AuthInfo | undefined;
  /** Reports progress when the client asked for it (a progress token); otherwise does nothing. */
  progress(progress: number, total?: number, message?: string): void;
  /**
   * Sends a log message to the client when its log level admits it (logging/setLevel in
   * legacy revisions, the request's `io.modelcontextprotocol/logLevel` in modern ones).
   */
  log(level: LoggingLevel, data: unknown, logger?: string): void;
  /**
   * Sends a request to the client on behalf of this one (`sampling/createMessage`,
   * `elicitation/create`, `roots/list`) and resolves with its result; an error answer
   * rejects with its RpcError.
   *
   * If the client did not declare the capability the method needs (`sampling`,
   * `elicitation`, `roots`), this rejects with a MissingRequiredClientCapability RpcError
   * (-32021, `data.requiredCapabilities`) before sending anything; thrown on from a
   * handler it becomes that JSON-RPC error. Only legacy sessions (2024-11-05 ... 2025-11-25)
   * carry server-to-client requests: under a modern revision a declared capability still
   * rejects, with ClientRequestUnavailableError, which a tool handler turns into a tool error.
   */
  request<const K extends string>(
    method: RequestMethodOf<Requests, K>,
    ...args: RequestArgs<ParamsOf<Requests[K & keyof Requests]>>
  ): Promise<ResultOf<Requests[K & keyof Requests]>>;
  /**
   * Asks the client for input -- `elicitation/create`, `sampling/createMessage`,
   * `roots/list` -- and resolves with the answers, by the keys you chose:
   *
   *     const { name } = await ctx.input({ name: { method: "elicitation/create", params: { ... } } });
   *
   * Works in both eras. Legacy sessions send the requests to the client and wait. Under
   * 2026-07-28 (tools/call, prompts/get and resources/read only) the server answers with
   * an `input_required` result naming the requests; the client retries with the answers
   * and the handler runs again from the start, where this call now resolves at once. So
   * do nothing before asking that must not happen twice, and ask for the same keys each
   * run; answers of earlier rounds travel in the (signed) requestState.
   *
   * Rejects with MissingRequiredClientCapability (-32021) if the client did not declare
   * what a request needs: check `ctx.client.capabilities` first to ask only for what it supports.
   */
  input<const R extends InputRequestsOf<Requests, R>>(requests: R): Promise<InputResults<Requests, R>>;
  /**
   * The manifest's elicitation forms (`elicitations:`), for handlers that declare
   * `asks: [elicitation]`: `await ctx.elicit.confirmDelete("Delete it?")` asks through
   * ctx.input (both eras) and resolves with the answer, its content typed by the form's
   * schema and checked against it.
   */
  readonly elicit: ElicitOf<Requests, Forms>;
  /**
   * Asks the client to come back later for this request's response (SSE polling, SEP-1699):
   * over Streamable HTTP, in a 2025-11-25 session with an event store (the default), the
   * connection carrying the request's SSE stream ends after a `retry:` hint of `retryMs`
   * (default: the binding's `pollRetryMs`, 1000) and the client resumes the stream with GET
   * and Last-Event-ID, receiving what was sent meanwhile and, in the end, the response. The
   * handler just goes on. Returns false where that is not possible (stdio, modern requests,
   * older revisions, no event store, the request already answered): the connection stays.
   */
  pollLater(retryMs?: number): boolean;
}

export type ToolContext<Requests extends object = AnyRequests, Forms extends object = {}> = RequestContext<
  Requests,
  Forms
>;
export type ResourceContext<Requests extends object = AnyRequests, Forms extends object = {}> = RequestContext<
  Requests,
  Forms
>;
export type PromptContext<Requests extends object = AnyRequests, Forms extends object = {}> = RequestContext<
  Requests,
  Forms
>;

/** What a completer receives besides the value being completed. */
export interface CompletionContext<
  Args = Readonly<Record<string, string | undefined>>,
  Requests extends object = AnyRequests,
> extends RequestContext<Requests> {
  /** Values the client already chose for the other arguments or variables (`context.arguments`; may be empty). */
  readonly arguments: Args;
}

/**
 * What a completer returns: candidate values for the argument, best first. A list
 * longer than 100 (the protocol's limit per response) is cut to 100 with `hasMore`.
 */
export type CompletionReturn =
  | readonly string[]
  | { readonly values: readonly string[]; readonly total?: number | undefined; readonly hasMore?: boolean | undefined };

/** A tool result without structured output: a string is shorthand for one text block. */
export type ToolReturn<Content> =
  | string
  | {
      readonly content: readonly Content[];
      readonly isError?: boolean | undefined;
      readonly _meta?: JsonObject | undefined;
    };

/**
 * A tool result with structured output. `content` is optional: when absent, the runtime
 * adds a text block with the JSON of `structuredContent` for clients that read text.
 * A tool with an output schema may still fail with a ToolError result.
 */
export type StructuredToolReturn<Output, Content> =
  | {
      readonly structuredContent: Output;
      readonly content?: readonly Content[] | undefined;
      readonly isError?: false | undefined;
      readonly _meta?: JsonObject | undefined;
    }
  | ToolError<Content>;

/** A tool result that reports failure to the model (`isError: true`), so it can correct itself. */
export interface ToolError<Content> {
  readonly content: readonly Content[];
  readonly isError: true;
  readonly _meta?: JsonObject | undefined;
}

/** One resource body; `uri` defaults to the URI read and `mimeType` to the declared one. */
export type ResourceContent =
  | {
      readonly uri?: string | undefined;
      readonly mimeType?: string | undefined;
      readonly text: string;
      readonly _meta?: JsonObject | undefined;
    }
  | {
      readonly uri?: string | undefined;
      readonly mimeType?: string | undefined;
      readonly blob: string;
      readonly _meta?: JsonObject | undefined;
    };

/** A string is text, bytes become a base64 blob. */
export type ResourceReturn = string | Uint8Array | ResourceContent | readonly ResourceContent[];

export type PromptReturn<Message> =
  readonly Message[] | { readonly description?: string | undefined; readonly messages: readonly Message[] };
