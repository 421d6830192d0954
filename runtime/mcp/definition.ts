// The contract between generated code and the runtime: the data table a generated
// server passes to createServer (its entries, lists and optional features) and what
// each optional feature provides. What handlers receive and return is in handler-types.ts.
import type { AuthPolicy } from "../auth/resource-server.js";
import type { Validator } from "../validation.js";
import type { BatchesFeature } from "../jsonrpc/batches.js";
import type { Params } from "../jsonrpc/messages.js";
import type { Dispatcher, Exchange, ExchangeHost, MessageSink } from "../jsonrpc/peer.js";
import type { RequestingPeer } from "../jsonrpc/requesting-peer.js";
import type { Context, Scope } from "./context.js";
import type {
  AnyRequests,
  Awaitable,
  CompletionContext,
  CompletionReturn,
  Implementation,
  JsonObject,
  PromptReturn,
  RequestContext,
  ResourceReturn,
  Undeclared,
} from "./handler-types.js";

/**
 * The context the runtime hands a definition entry, which passes it on to the handler:
 * the generated definition knows each handler's requests and forms, the runtime does not.
 */
// `any` forms: each generated entry passes the context to a handler whose forms it knows.
export type EntryContext = RequestContext<AnyRequests, any>;

export interface ToolEntry<H> {
  readonly name: string;
  readonly validateInput: Validator;
  readonly validateOutput?: Validator | undefined;
  readonly call: (handlers: H, args: unknown, ctx: EntryContext) => Awaitable<unknown>;
  /**
   * The tool may run as a task (`task:` in the manifest; `execution.taskSupport`): "optional"
   * or "required" (clients without the tasks extension get -32021 under 2026-07-28, and
   * 2025-11-25 clients must ask for a task). Served by createTaskServer (tasks.ts).
   */
  readonly taskSupport?: "optional" | "required" | undefined;
  /** How long this tool's tasks stay readable after creation, in milliseconds (default: the tasks feature's). */
  readonly ttlMs?: number | undefined;
  /** How often clients should poll this tool's tasks, in milliseconds (default: the tasks feature's). */
  readonly pollIntervalMs?: number | undefined;
}

/**
 * How long a 2026-07-28 client may cache a result (`ttlMs`) and whether caches may share it
 * across authorization contexts (`cacheScope`).
 */
export interface CacheHint {
  readonly ttlMs: number;
  readonly scope: "public" | "private";
}

export interface ResourceEntry<H> {
  readonly uri: string;
  readonly mimeType?: string | undefined;
  /** Caching of resources/read results under 2026-07-28. Default: stale at once, private. */
  readonly cache?: CacheHint | undefined;
  /** Clients may subscribe to updates of this resource (see McpServer.notifyResourceUpdated). */
  readonly subscribe?: boolean | undefined;
  readonly read: (handlers: H, ctx: EntryContext) => Awaitable<ResourceReturn>;
}

export interface ResourceTemplateEntry<H> {
  readonly name: string;
  /** Anchored pattern whose groups capture `variables` (percent-encoded). */
  readonly pattern: RegExp;
  readonly variables: readonly string[];
  readonly mimeType?: string | undefined;
  /** Caching of resources/read results under 2026-07-28. Default: stale at once, private. */
  readonly cache?: CacheHint | undefined;
  /** Clients may subscribe to updates of resources matching this template. */
  readonly subscribe?: boolean | undefined;
  readonly read: (handlers: H, variables: Record<string, string>, ctx: EntryContext) => Awaitable<ResourceReturn>;
}

export interface PromptEntry<H> {
  readonly name: string;
  readonly arguments: readonly { readonly name: string; readonly required: boolean }[];
  readonly get: (handlers: H, args: Record<string, string>, ctx: EntryContext) => Awaitable<PromptReturn<unknown>>;
}

/** The completers of one prompt (`ref/prompt`) or resource template (`ref/resource`), by argument. */
export interface CompletionEntry<H> {
  readonly ref:
    { readonly type: "ref/prompt"; readonly name: string } | { readonly type: "ref/resource"; readonly uri: string };
  /** Every argument (prompt) or variable (template); those without a completer complete to nothing. */
  readonly arguments: readonly string[];
  readonly completers: readonly {
    readonly argument: string;
    readonly complete: (handlers: H, value: string, ctx: CompletionContext) => Awaitable<CompletionReturn>;
  }[];
}

/** A handler the manifest declares: its path in the handlers object and its name in the manifest. */
export interface HandlerPath {
  readonly path: readonly string[];
  /** `tool "get_forecast"`, `prompt "summary"`, `completer of argument "city" of prompt "plan_trip"`. */
  readonly of: string;
}

/** What tools/list, resources/list, resources/templates/list and prompts/list return for one revision. */
export interface Listing {
  readonly tools: readonly JsonObject[];
  readonly resources: readonly JsonObject[];
  readonly resourceTemplates: readonly JsonObject[];
  readonly prompts: readonly JsonObject[];
}

// What the server needs from each optional part of the runtime (ServerFeatures): the
// interfaces the feature modules implement. They live here, beside the definition they
// are made from, so that a feature module depends on the contract and never the reverse.

/** What the server needs to answer completion/complete. */
export interface CompletionFeature<H> {
  /** Whether any argument has a completer (the `completions` capability). */
  readonly enabled: boolean;
  /**
   * Answers completion/complete. `context` builds the completer's context from the
   * request's `context.arguments`.
   */
  complete(
    handlers: H,
    params: Params | undefined,
    context: (args: Readonly<Record<string, string>>) => CompletionContext,
  ): Promise<Params>;
  /** The server's `capabilities` as `revision` knows them (the `completions` capability exists from 2025-03-26). */
  capabilitiesFor(capabilities: JsonObject, revision: string): JsonObject;
}

/** What the server needs from resource subscriptions (see McpServer.notifyResourceUpdated). */
export interface SubscriptionsFeature {
  /** true: watchable; false: a known resource that is not; undefined: no such resource. */
  canSubscribe(uri: string): boolean | undefined;
  /**
   * Answers a legacy session's resources/subscribe (idempotent) or resources/unsubscribe;
   * both refuse a URI that cannot be watched (-32002 unknown, -32602 not declared `subscribe`).
   */
  answer(
    method: "resources/subscribe" | "resources/unsubscribe",
    params: Params | undefined,
    peer: ExchangeHost,
  ): Params;
  /**
   * Registers a modern listen stream, until its request ends, for the watchable URIs among
   * `requested` (its filter's resourceSubscriptions); returns the part of the filter it honours.
   */
  listen(exchange: Exchange, requested: unknown): { resourceSubscriptions?: string[] };
  /** Sends notifications/resources/updated for `uri` to everyone subscribed to it; returns how many were told. */
  notify(uri: string): number;
}

export interface RequestStateOptions {
  /** HMAC key. Default: random per server instance (set one when several instances serve one endpoint). */
  readonly secret?: string | Uint8Array | undefined;
  /** How long a requestState stays valid, in milliseconds. Default one hour. */
  readonly ttlMs?: number | undefined;
}

/** What the server needs for ctx.input and ctx.request. */
export interface InputFeature {
  /** A connection on which handlers can send requests to the client (legacy sessions' ctx.request and ctx.input). */
  connect(sink: MessageSink, dispatcher: Dispatcher): RequestingPeer;
  /** A handler's ctx, with ctx.request, ctx.input and ctx.elicit. */
  context(exchange: Exchange, scope: Scope, meta: JsonObject | undefined): Context;
  /** The `input_required` result when `error` is ctx.input asking for answers of a modern request; undefined otherwise. */
  /**
   * The `input_required` result (its `_meta` is `meta`) when `error` is ctx.input asking for
   * answers of a modern request; rethrows anything else.
   */
  inputRequired(error: unknown, meta: JsonObject): Promise<Params>;
}

/** What a read needs from the server serving it. */
export interface ReadHost<H> {
  readonly handlers: H;
  /** Whether setEnabled switched the entry off. */
  isOff(kind: keyof ServerNames, name: string): boolean;
  /** Runs a handler: RpcErrors pass, anything else is reported and becomes an internal error. */
  guard<T>(run: () => T | Promise<T>, where: string): Promise<T>;
}

export interface ResourcesFeature<H> {
  read(host: ReadHost<H>, params: Params | undefined, ctx: RequestContext, revision: string): Promise<Params>;
}

export interface PromptsFeature<H> {
  get(host: ReadHost<H>, params: Params | undefined, ctx: RequestContext): Promise<Params>;
}

/** What setEnabled checks an entry against: the lists of the definition and what it declares `listChanged`. */
export type ListedDefinition = Pick<ServerDefinition<unknown>, "listings" | "revisions" | "listChanged">;

/** A list whose changes a server may announce. */
export type ChangingList = "tools" | "prompts" | "resources";

export interface ListChangesFeature {
  /** Whether setEnabled switched an entry off (tools, prompts, templates by name; resources by URI). */
  isDisabled(kind: keyof ServerNames, name: string): boolean;
  /**
   * McpServer.setEnabled: switches an entry of the definition off or on; when that changed
   * anything, drops the server's list pages of its kind (`pages`, keyed `<revision> <scope>
   * <kind>`) and schedules the list's notification. Throws for an entry the definition does
   * not list, or a list it does not declare `listChanged`.
   */
  setEnabled(kind: keyof Listing, name: string, enabled: boolean, pages: Map<string, unknown>): void;
  /** Remembers an initialized legacy session (once, however often it is added), told about every change until it closes. */
  addSession(peer: ExchangeHost): void;
  /**
   * Registers a modern listen stream for the lists its `filter` asks for among those
   * declared `listChanged`, until its request ends; returns the filter fields it honours.
   */
  listen(exchange: Exchange, filter: Readonly<Record<string, unknown>>): Record<string, true>;
  /**
   * Sends notifications/<list>/list_changed once the current task is done: entries switched
   * one after another in one go (setEnabled in a loop) make one notification per list.
   */
  schedule(list: ChangingList): void;
  /** Sends notifications/<list>/list_changed to everyone listening now; returns how many were told (0 for a list not declared `listChanged`). */
  notify(list: ChangingList): number;
}

/**
 * Parts of the runtime a server needs only when its manifest uses them. Generated code
 * imports and passes just those, so bundlers leave the others out of the server.
 */
export interface ServerFeatures<H> {
  /** completion/complete (anything declared `complete: true`). */
  readonly completion?: ((definition: ServerDefinition<H>) => CompletionFeature<H>) | undefined;
  /** resources/subscribe and subscriptions/listen updates (resources or templates declared `subscribe: true`). */
  readonly subscriptions?: ((definition: ServerDefinition<H>) => SubscriptionsFeature) | undefined;
  /** ctx.input and ctx.request (handlers that declare `asks:`). */
  readonly input?:
    | ((
        options: RequestStateOptions | undefined,
        forms?: Readonly<Record<string, JsonObject>>,
        answers?: AnswerValidators,
      ) => InputFeature)
    | undefined;
  /** resources/read (resources or resource templates). */
  readonly resources?: ((definition: ServerDefinition<H>) => ResourcesFeature<H>) | undefined;
  /** prompts/get (prompts). */
  readonly prompts?: ((definition: ServerDefinition<H>) => PromptsFeature<H>) | undefined;
  /** notifications/<list>/list_changed (lists declared `listChanged`). */
  readonly listChanges?: ((definition: ListedDefinition) => ListChangesFeature) | undefined;
  /** JSON-RPC batches (protocol 2025-03-26 selected). */
  readonly batches?: BatchesFeature | undefined;
}

/**
 * Validators of the client's answers to what handlers ask (ctx.input, ctx.request): the
 * result type of each method (ElicitResult, CreateMessageResult, ListRootsResult) as each
 * revision's schema defines it, by method, then revision.
 */
export type AnswerValidators = Readonly<Record<string, Readonly<Record<string, Validator>>>>;

/** Everything a generated server knows at generation time. */
export interface ServerDefinition<H> {
  readonly info: Implementation;
  readonly instructions?: string | undefined;
  /** Served revisions, preferred first. */
  readonly revisions: readonly string[];
  /** `info` projected onto the Implementation type of each legacy revision whose type leaves part of it out (initialize answers with it; `info` otherwise). */
  readonly infoByRevision?: Readonly<Record<string, JsonObject>> | undefined;
  readonly tools: readonly ToolEntry<H>[];
  readonly resources: readonly ResourceEntry<H>[];
  readonly resourceTemplates: readonly ResourceTemplateEntry<H>[];
  readonly prompts: readonly PromptEntry<H>[];
  /** Prompts and resource templates with completable arguments (`completion/complete`). */
  readonly completions?: readonly CompletionEntry<H>[] | undefined;
  readonly listings: Readonly<Record<string, Listing>>;
  /**
   * Every function the handlers object must have: where it sits (`["tools", "getForecast"]`)
   * and what the manifest calls it (`tool "get_forecast"`). createServer checks them all and
   * throws one MissingHandlersError, so a handler lost behind a cast fails at start, not on call.
   */
  readonly handlerPaths?: readonly HandlerPath[] | undefined;
  /**
   * Lists whose changes the server announces (`listChanged` capability): see
   * McpServer.setEnabled and notifyListChanged.
   */
  readonly listChanged?:
    { readonly tools?: boolean; readonly prompts?: boolean; readonly resources?: boolean } | undefined;
  /**
   * Caching of the lists and of server/discover under 2026-07-28. Default: stale at once,
   * public, or private for callers authenticated by a bearer token.
   */
  readonly listCache?: { readonly ttlMs: number; readonly scope?: CacheHint["scope"] | undefined } | undefined;
  /**
   * Tool arguments that 2026-07-28 HTTP requests mirror into Mcp-Param-* headers
   * (`x-mcp-header`): tool -> argument -> header name. The HTTP binding checks them.
   */
  readonly paramHeaders?: Readonly<Record<string, Readonly<Record<string, string>>>> | undefined;
  /** Authorization (`auth:`): the HTTP bindings need a verifyToken for it and check scopes before any handler runs. */
  readonly auth?: AuthPolicy | undefined;
  /** Elicitation forms (`elicitations:`) by identifier: the requestedSchema ctx.elicit sends. */
  readonly forms?: Readonly<Record<string, JsonObject>> | undefined;
  /** Checks of the client's answers to the requests handlers may send (`asks:`); see AnswerValidators. */
  readonly answers?: AnswerValidators | undefined;
  /** The optional parts of the runtime this server uses. */
  readonly features?: ServerFeatures<H> | undefined;
  /**
   * Extensions the server supports, by identifier, with their settings (`{}`: none), e.g.
   * `io.modelcontextprotocol/ui` for MCP Apps. Advertised where a revision negotiates
   * extensions: `capabilities.extensions` of server/discover (2026-07-28).
   */
  readonly extensions?: Readonly<Record<string, JsonObject>> | undefined;
}

/**
 * The names a server's lists can be switched by (McpServer.setEnabled): tool and prompt
 * names, resource URIs and resource template names; and what the manifest declares for
 * change notifications. Generated servers narrow each to the manifest's literals
 * (`never` where the manifest declares nothing).
 */
export interface ServerNames {
  readonly tools: string;
  readonly prompts: string;
  readonly resources: string;
  readonly resourceTemplates: string;
  /** The lists declared `listChanged` (McpServer.notifyListChanged, setEnabled). */
  readonly listChanged: "tools" | "prompts" | "resources";
  /** URIs McpServer.notifyResourceUpdated takes: `string` when a resource or template declares `subscribe: true`. */
  readonly subscribable: string;
}

/** The lists of a server whose entries setEnabled switches. */
export type ListedKind = "tools" | "prompts" | "resources" | "resourceTemplates";

/**
 * What notifyListChanged and setEnabled add to the list they take: nothing, or, when the
 * manifest declares no `listChanged`, an Undeclared type saying what to declare.
 */
export type ListChangedCheck<N extends ServerNames, L> = [N["listChanged"]] extends [never]
  ? Undeclared<`declare listChanged: [${L extends "resourceTemplates" ? "resources" : L & string}] on the server in mcp.yaml`>
  : unknown;

/** What notifyResourceUpdated adds to the URI it takes: nothing, or, when nothing declares `subscribe: true`, an Undeclared type saying so. */
export type SubscribeCheck<N extends ServerNames> = [N["subscribable"]] extends [never]
  ? Undeclared<"declare subscribe: true on a resource or resource template in mcp.yaml">
  : unknown;
