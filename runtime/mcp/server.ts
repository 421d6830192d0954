// The MCP server session layer: serves a generated ServerDefinition with the user's
// handlers to any number of connections, in both protocol eras at once. A request that
// carries `io.modelcontextprotocol/protocolVersion` in its _meta is served statelessly
// (modern era); an `initialize` opens a legacy session scoped to its connection.
import {
  ErrorCode,
  invalidParams,
  isObject,
  RpcError,
  type JsonRpcNotification,
  type Params,
  type RequestId,
} from "../jsonrpc/messages.js";
import { type Exchange, Peer, type Dispatcher, type MessageSink } from "../jsonrpc/peer.js";
import { RawJson, ResultWithTail } from "../jsonrpc/serialize.js";
import { describeIssue } from "../validation.js";
import { Context, type Scope } from "./context.js";
import type { BatchesFeature } from "../jsonrpc/batches.js";
import type { ScopedDefinition } from "../auth/scopes.js";
import type {
  ChangingList,
  CompletionFeature,
  InputFeature,
  ListChangedCheck,
  ListChangesFeature,
  ListedKind,
  Listing,
  PromptsFeature,
  ReadHost,
  RequestStateOptions,
  ResourcesFeature,
  ServerDefinition,
  ServerNames,
  SubscribeCheck,
  SubscriptionsFeature,
  ToolEntry,
} from "./definition.js";
import type { Implementation, JsonObject } from "./handler-types.js";
import { checkHandlers } from "./handler-paths.js";
import { textResult, toolResult } from "./results.js";
import type { TaskOptions } from "./tasks-store.js";
import { entryName } from "./list-changes.js";
import { invalidToolArgumentsAreToolErrors, isModern, loggingSeverity, LOGGING_LEVELS, MetaKey } from "./revisions.js";

export interface ServerOptions {
  /** Items per page of tools/list, resources/list, resources/templates/list and prompts/list. Default 100. */
  readonly pageSize?: number | undefined;
  /**
   * Reports errors thrown by handlers (the client gets an error result either way).
   * Default: a line on stderr, which is safe on stdio where stdout carries the protocol.
   */
  readonly onError?: ((error: unknown, where: string) => void) | undefined;
  /** Freshness hint for modern list results, in milliseconds. Default 0 (re-fetch freely). */
  readonly listTtlMs?: number | undefined;
  /**
   * How ctx.input seals the `requestState` of modern `input_required` results (HMAC-SHA256).
   * Set `secret` when several server instances answer the same clients, so that each can
   * open the others' states; the default key is random per instance.
   */
  readonly requestState?: RequestStateOptions | undefined;
  /**
   * Tasks (servers made by createTaskServer, for tools declared `task:`): the store shared by
   * instances behind one endpoint, how soon a call becomes a task, default TTL and poll
   * interval, and the limit of running tasks.
   */
  readonly tasks?: TaskOptions | undefined;
}

/** Legacy session state, kept on the connection's Peer. */
type LegacySession = Scope;

type ListKind = keyof Listing;
/** No prototype: a method named `constructor` or `__proto__` is no list. */
const listMethods: Readonly<Record<string, ListKind | undefined>> = Object.assign(
  Object.create(null) as Record<string, ListKind>,
  {
    "tools/list": "tools",
    "resources/list": "resources",
    "resources/templates/list": "resourceTemplates",
    "prompts/list": "prompts",
  },
);

/**
 * What transports need from a server: a way to serve a connection, a dispatcher for a lone
 * request (a stateless modern HTTP request, see serveRequest in jsonrpc/peer.ts), and the
 * revisions it speaks.
 */
export interface McpEndpoint extends Dispatcher {
  connect(sink: MessageSink): Peer;
  /** JSON-RPC batches (2025-03-26), when the server serves that revision; transports refuse batches without it. */
  readonly batches?: BatchesFeature | undefined;
  readonly revisions: readonly string[];
  /**
   * What the server was generated from: its `auth` policy and the tool arguments that modern
   * requests mirror into Mcp-Param-* headers (`paramHeaders`) are what HTTP bindings enforce.
   */
  readonly definition?: EndpointDefinition | undefined;
}

/** What transports read of a server's definition. */
export type EndpointDefinition = ScopedDefinition & Pick<ServerDefinition<never>, "paramHeaders">;

export class McpServer<H = unknown, N extends ServerNames = ServerNames> implements McpEndpoint {
  protected readonly tools = new Map<string, ToolEntry<H>>();
  private readonly resources: ResourcesFeature<H> | undefined;
  private readonly prompts: PromptsFeature<H> | undefined;
  /** What resource and prompt reads use of this server. */
  private readonly host: ReadHost<H>;
  private readonly legacyRevisions: readonly string[];
  private readonly modernRevisions: readonly string[];
  private readonly pageSize: number;
  private readonly pages = new Map<string, RawJson[]>();
  protected readonly capabilities: JsonObject;
  private readonly onError: (error: unknown, where: string) => void;
  private readonly completions: CompletionFeature<H> | undefined;
  protected readonly subscriptions: SubscriptionsFeature | undefined;
  protected readonly listChanges: ListChangesFeature | undefined;
  private readonly input: InputFeature | undefined;
  readonly batches: BatchesFeature | undefined;
  /** What every modern result ends with: `resultType` and who answered, as JSON. */
  private readonly modernTail: string;

  constructor(
    readonly definition: ServerDefinition<H>,
    private readonly handlers: H,
    private readonly options: ServerOptions = {},
  ) {
    checkHandlers(definition, handlers);
    for (const tool of definition.tools) this.tools.set(tool.name, tool);
    this.host = {
      handlers,
      isOff: (kind, name) => this.isOff(kind, name),
      guard: (run, where) => this.guard(run, where),
    };
    this.legacyRevisions = definition.revisions.filter((r) => !isModern(r));
    this.modernRevisions = definition.revisions.filter(isModern);
    this.pageSize = Math.max(1, options.pageSize ?? 100);
    this.onError = options.onError ?? ((error, where) => console.error(`mcp server: ${where}:`, error));
    // The generated definition passes a feature exactly when the manifest uses it (resources
    // or templates, prompts, `subscribe`, `listChanged`): its presence is the declaration.
    const capabilities: JsonObject = { logging: {} };
    const features = definition.features ?? {};
    this.listChanges = features.listChanges?.(definition);
    const announces = (list: ChangingList) =>
      this.listChanges && definition.listChanged?.[list] ? { listChanged: true } : {};
    if (definition.tools.length > 0) capabilities.tools = announces("tools");
    this.subscriptions = features.subscriptions?.(definition);
    this.resources = features.resources?.(definition);
    if (this.resources)
      capabilities.resources = { ...(this.subscriptions && { subscribe: true }), ...announces("resources") };
    this.prompts = features.prompts?.(definition);
    if (this.prompts) capabilities.prompts = announces("prompts");
    this.completions = features.completion?.(definition);
    this.input = features.input?.(options.requestState, definition.forms, definition.answers);
    this.batches = features.batches;
    if (this.completions?.enabled) capabilities.completions = {};
    this.capabilities = capabilities;
    this.modernTail = `"resultType":"complete","_meta":${JSON.stringify({ [MetaKey.serverInfo]: definition.info })}`;
  }

  /**
   * Starts serving one connection: inbound messages go to the returned peer's receive().
   * It sends requests to the client only when handlers may ask it something (ctx.input).
   */
  connect(sink: MessageSink): Peer {
    return this.input ? this.input.connect(sink, this) : new Peer(sink, this);
  }

  /** Freshness of modern lists and server/discover: the option, else the manifest's `cache`, else 0. */
  private get listTtlMs(): number {
    return this.options.listTtlMs ?? this.definition.listCache?.ttlMs ?? 0;
  }

  /** Served revisions, preferred first. */
  get revisions(): readonly string[] {
    return this.definition.revisions;
  }

  onNotification(notification: JsonRpcNotification, peer: Peer): void {
    // An initialized legacy session hears of every list change (adding it again changes nothing).
    if (notification.method === "notifications/initialized" && peer.state) this.listChanges?.addSession(peer);
  }

  onRequest(exchange: Exchange): Params | Promise<Params> {
    const { method, params } = exchange.request;
    if (method === "initialize") return this.initialize(exchange);
    const meta = isObject(params?._meta) ? params._meta : undefined;
    const requested = meta?.[MetaKey.protocolVersion];
    let scope: Scope;
    if (requested !== undefined) scope = this.modernScope(requested, meta!);
    else {
      const session = exchange.peer.state as LegacySession | undefined;
      if (session) scope = session;
      else if (method === "ping" && this.legacyRevisions.length > 0) return {};
      else throw this.missingVersion();
    }
    const result = this.dispatch(method, params, exchange, scope, meta);
    if (scope.era === "legacy") return result;
    if (!(result instanceof Promise)) return this.modernResult(result);
    const input = this.input;
    // A handler's ctx.input found answers missing: the `input_required` result asking for them.
    return result.then(
      (r) => this.modernResult(r),
      input && ((e: unknown) => input.inputRequired(e, { [MetaKey.serverInfo]: this.definition.info })),
    );
  }

  /** A handler's ctx: with ctx.input, ctx.request and ctx.elicit when handlers may ask the client something. */
  protected context(exchange: Exchange, scope: Scope, meta: JsonObject | undefined): Context {
    return this.input ? this.input.context(exchange, scope, meta) : new Context(exchange, scope, meta);
  }

  protected dispatch(
    method: string,
    params: Params | undefined,
    exchange: Exchange,
    scope: Scope,
    meta: JsonObject | undefined,
  ): Params | Promise<Params> {
    const listKind = listMethods[method];
    if (
      listKind !== undefined &&
      this.capabilities[listKind === "resourceTemplates" ? "resources" : listKind] !== undefined
    ) {
      return this.listPage(listKind, scope.revision, params?.cursor, this.cacheScope(exchange));
    }
    switch (method) {
      case "tools/call":
        if (!this.capabilities.tools) break;
        return this.callTool(params, this.context(exchange, scope, meta), scope.revision);
      case "resources/read":
        if (!this.resources) break;
        return this.resources.read(this.host, params, this.context(exchange, scope, meta), scope.revision);
      case "prompts/get":
        if (!this.prompts) break;
        return this.prompts.get(this.host, params, this.context(exchange, scope, meta));
      case "completion/complete": {
        const completions = this.completions;
        if (!completions?.enabled) break;
        // A completer's context: the request's, plus the arguments the client already chose.
        return this.guard(
          () =>
            completions.complete(this.handlers, params, (args) =>
              Object.assign(this.context(exchange, scope, meta), { arguments: args }),
            ),
          "completion",
        );
      }
      case "resources/subscribe":
      case "resources/unsubscribe":
        if (scope.era !== "legacy" || !this.subscriptions) break;
        return this.subscriptions.answer(method, params, exchange.peer);
      case "server/discover":
        if (scope.era !== "modern") break;
        return this.discover(exchange);
      case "subscriptions/listen":
        if (scope.era !== "modern") break;
        return this.listen(params, exchange);
      case "ping":
        if (scope.era !== "legacy") break;
        return {};
      case "logging/setLevel": {
        if (scope.era !== "legacy") break;
        const level = params?.level;
        if (typeof level !== "string" || !(LOGGING_LEVELS as readonly string[]).includes(level)) {
          throw new RpcError(
            ErrorCode.InvalidParams,
            `Invalid log level; expected one of ${LOGGING_LEVELS.join(", ")}`,
          );
        }
        scope.logLevel = level;
        return {};
      }
    }
    throw new RpcError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
  }

  // --- lifecycle ---------------------------------------------------------------

  protected initialize(exchange: Exchange): Params {
    const params = exchange.request.params ?? {};
    const requested = params.protocolVersion;
    if (isObject(params._meta) && params._meta[MetaKey.protocolVersion] !== undefined) {
      // A request that carries its version in _meta is a modern request, and modern
      // revisions have no initialize.
      throw new RpcError(
        ErrorCode.MethodNotFound,
        "Method not found: initialize (requests that carry a protocol version in _meta use server/discover)",
      );
    }
    if (this.legacyRevisions.length === 0) {
      throw new RpcError(
        ErrorCode.UnsupportedProtocolVersion,
        `This server does not use initialize; it speaks protocol ${this.definition.revisions.join(", ")}, where each request carries its version in _meta`,
        { supported: this.definition.revisions, requested: typeof requested === "string" ? requested : "" },
      );
    }
    if (exchange.peer.state !== undefined)
      throw new RpcError(ErrorCode.InvalidRequest, "Invalid request: the session is already initialized");
    if (typeof requested !== "string")
      throw new RpcError(ErrorCode.InvalidParams, "initialize: protocolVersion must be a string");
    // Version negotiation: echo a supported version, else offer the latest one we speak.
    const revision = this.legacyRevisions.includes(requested) ? requested : this.legacyRevisions[0]!;
    const session: LegacySession = {
      revision,
      era: "legacy",
      clientInfo: isObject(params.clientInfo) ? (params.clientInfo as unknown as Implementation) : undefined,
      capabilities: isObject(params.capabilities) ? params.capabilities : {},
      logLevel: undefined,
    };
    exchange.peer.state = session;
    const result: Params = {
      protocolVersion: revision,
      capabilities: this.completions?.capabilitiesFor(this.capabilities, revision) ?? this.capabilities,
      serverInfo: this.definition.infoByRevision?.[revision] ?? this.definition.info,
    };
    if (this.definition.instructions !== undefined) result.instructions = this.definition.instructions;
    return result;
  }

  private missingVersion(): RpcError {
    if (this.modernRevisions.length === 0) {
      return new RpcError(ErrorCode.InvalidRequest, "Invalid request: send initialize first to open a session");
    }
    const hint =
      this.legacyRevisions.length > 0
        ? " (or send initialize first to use protocol " + this.legacyRevisions.join(", ") + ")"
        : "";
    return invalidParams(`_meta must carry ${MetaKey.protocolVersion} and ${MetaKey.clientCapabilities}${hint}`);
  }

  private modernScope(requested: unknown, meta: JsonObject): Scope {
    if (typeof requested !== "string" || !this.modernRevisions.includes(requested)) {
      throw new RpcError(ErrorCode.UnsupportedProtocolVersion, "Unsupported protocol version", {
        supported: this.definition.revisions,
        // Never String() a value from the wire: an object may carry a `toString` member, an array nest deeper than the stack.
        requested:
          typeof requested === "string"
            ? requested
            : typeof requested === "object" || typeof requested === "undefined"
              ? ""
              : JSON.stringify(requested),
      });
    }
    const capabilities = meta[MetaKey.clientCapabilities];
    if (!isObject(capabilities)) {
      throw invalidParams(
        `_meta must carry ${MetaKey.clientCapabilities} (an object; {} when the client supports no optional capabilities)`,
      );
    }
    const info = meta[MetaKey.clientInfo];
    const level = meta[MetaKey.logLevel];
    if (level !== undefined && (typeof level !== "string" || loggingSeverity(level) < 0)) {
      throw invalidParams(`${MetaKey.logLevel} must be one of ${LOGGING_LEVELS.join(", ")}`);
    }
    return {
      revision: requested,
      era: "modern",
      clientInfo: isObject(info) ? (info as unknown as Implementation) : undefined,
      capabilities,
      logLevel: level as string | undefined,
    };
  }

  /**
   * Every modern result says it is complete and who answered. Written when the response
   * is serialised, unless the result has a _meta of its own to merge with.
   */
  private modernResult(result: Params): Params {
    if (result instanceof RawJson) return result;
    if (result._meta === undefined) return new ResultWithTail(result, this.modernTail) as unknown as Params;
    const out: Params = { ...result, resultType: "complete" };
    const meta = isObject(result._meta) ? result._meta : {};
    out._meta = { ...meta, [MetaKey.serverInfo]: this.definition.info };
    return out;
  }

  /**
   * Whether caches may share a list (or server/discover) across users: as the manifest says,
   * else public, or private when the caller is authenticated (its answer may depend on who asks).
   */
  private cacheScope(exchange: Exchange): "public" | "private" {
    return this.definition.listCache?.scope ?? (exchange.auth === undefined ? "public" : "private");
  }

  protected discover(exchange: Exchange): Params {
    const result: Params = {
      supportedVersions: this.definition.revisions,
      // Only modern revisions negotiate extensions; initialize answers without them.
      capabilities: this.definition.extensions
        ? { ...this.capabilities, extensions: this.definition.extensions }
        : this.capabilities,
      ttlMs: this.listTtlMs,
      cacheScope: this.cacheScope(exchange),
    };
    if (this.definition.instructions !== undefined) result.instructions = this.definition.instructions;
    return result;
  }

  /**
   * subscriptions/listen (2026-07-28): the server acknowledges the subset of requested
   * notifications it will send -- the `resourceSubscriptions` it can watch (resources
   * declared `subscribe`) and the list changes the manifest declares (`listChanged`) --
   * then holds the stream open; those notifications arrive on it (see
   * notifyResourceUpdated, setEnabled). The request ends when the client cancels it or
   * goes away (no response then).
   */
  protected listen(params: Params | undefined, exchange: Exchange): Promise<Params> {
    if (!isObject(params?.notifications)) throw invalidParams("notifications must be an object");
    const { notifications } = params;
    const honoured: JsonObject = {
      ...this.subscriptions?.listen(exchange, notifications.resourceSubscriptions),
      ...this.listChanges?.listen(exchange, notifications),
    };
    exchange.notify("notifications/subscriptions/acknowledged", {
      _meta: { [MetaKey.subscriptionId]: exchange.id },
      notifications: honoured,
    });
    const signal = exchange.signal;
    return new Promise((resolve) => {
      if (signal.aborted) resolve({});
      else signal.addEventListener("abort", () => resolve({}), { once: true });
    });
  }

  // --- resource subscriptions -------------------------------------------------------

  /**
   * Tells every client subscribed to `uri` that the resource changed
   * (`notifications/resources/updated`): legacy sessions that sent resources/subscribe
   * and modern subscriptions/listen streams that listed it. Only resources and
   * templates declared `subscribe` can be watched. Returns how many were told.
   */
  notifyResourceUpdated(uri: string & SubscribeCheck<N>): number {
    return this.subscriptions?.notify(uri) ?? 0;
  }

  // --- list changes ------------------------------------------------------------------

  /**
   * Switches a tool, prompt, resource (by URI) or resource template on or off at run time:
   * a disabled entry leaves its list and answers as if unknown, and clients are told
   * (notifications/<list>/list_changed, once per list for all the switches made in one
   * synchronous run). Only lists the manifest declares `listChanged` switch.
   */
  setEnabled<K extends ListedKind>(kind: K & ListChangedCheck<N, K>, name: N[K], enabled: boolean): void {
    if (!this.listChanges) throw new Error("setEnabled: declare `listChanged` in the manifest");
    this.listChanges.setEnabled(kind, name, enabled, this.pages);
  }

  /** Whether setEnabled left an entry on (the default). */
  isEnabled<K extends ListedKind>(kind: K, name: N[K]): boolean {
    return !this.isOff(kind, name);
  }

  protected isOff(kind: keyof ServerNames, name: string): boolean {
    return this.listChanges?.isDisabled(kind, name) === true;
  }

  /**
   * Sends notifications/<list>/list_changed to legacy sessions and to modern
   * subscriptions/listen streams that asked for it, when the manifest declares
   * `listChanged` for the list; returns how many clients were told (0 otherwise).
   */
  notifyListChanged<L extends ChangingList>(list: L & ListChangedCheck<N, L>): number {
    return this.listChanges?.notify(list) ?? 0;
  }

  // --- lists ---------------------------------------------------------------------

  /** Pages are serialised once per revision and kind, on first use. */
  private listPage(kind: ListKind, revision: string, cursor: unknown, cacheScope: "public" | "private"): Params {
    const key = `${revision} ${cacheScope} ${kind}`;
    let pages = this.pages.get(key);
    if (!pages) {
      pages = this.buildPages(kind, revision, cacheScope);
      this.pages.set(key, pages);
    }
    let index = 0;
    if (cursor !== undefined) {
      index = typeof cursor === "string" ? decodeCursor(cursor) : -1;
      if (!(index >= 0 && index < pages.length)) throw new RpcError(ErrorCode.InvalidParams, "Invalid cursor");
    }
    return pages[index] as unknown as Params;
  }

  private buildPages(kind: ListKind, revision: string, cacheScope: "public" | "private"): RawJson[] {
    const all = this.definition.listings[revision]?.[kind] ?? [];
    const items = all.filter((item) => !this.isOff(kind, entryName(kind, item)));
    const modern = isModern(revision);
    const pages: RawJson[] = [];
    for (let start = 0; start === 0 || start < items.length; start += this.pageSize) {
      const result: Params = { [kind]: items.slice(start, start + this.pageSize) };
      const next = start + this.pageSize;
      if (next < items.length) result.nextCursor = encodeCursor(pages.length + 1);
      if (modern) {
        result.resultType = "complete";
        result.ttlMs = this.listTtlMs;
        result.cacheScope = cacheScope;
        result._meta = { [MetaKey.serverInfo]: this.definition.info };
      }
      pages.push(new RawJson(JSON.stringify(result)));
    }
    return pages;
  }

  // --- tools, resources, prompts ---------------------------------------------------

  protected async callTool(params: Params | undefined, ctx: Context, revision: string): Promise<Params> {
    const name = params?.name;
    if (typeof name !== "string") throw invalidParams("name must be a string");
    const tool = this.isOff("tools", name) ? undefined : this.tools.get(name);
    if (!tool) throw new RpcError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
    // `arguments` is an optional object: anything else (null too) fails CallToolRequest's
    // schema, a malformed request and so a protocol error in every revision.
    const given = params?.arguments;
    if (given !== undefined && !isObject(given)) throw invalidParams(`arguments of tool ${name} must be an object`);
    const args = given ?? {};
    const issue = tool.validateInput(args);
    if (issue) {
      const message = `Invalid arguments for tool ${name}: ${describeIssue(issue)}`;
      if (invalidToolArgumentsAreToolErrors(revision)) return textResult(message, true);
      throw new RpcError(ErrorCode.InvalidParams, message);
    }
    let returned: unknown;
    try {
      returned = await tool.call(this.handlers, args, ctx);
    } catch (error) {
      if (error instanceof RpcError) throw error;
      this.onError(error, `tool ${name}`);
      return textResult(error instanceof Error ? error.message : String(error), true);
    }
    return toolResult(name, returned, tool.validateOutput, revision);
  }

  /** Runs a handler; unexpected errors are reported and become an opaque internal error. */
  private async guard<T>(run: () => T | Promise<T>, where: string): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (error instanceof RpcError) throw error;
      this.onError(error, where);
      throw new RpcError(ErrorCode.InternalError, "Internal error");
    }
  }
}

function encodeCursor(page: number): string {
  return `p${page.toString(36)}`;
}

function decodeCursor(cursor: string): number {
  return /^p[0-9a-z]+$/.test(cursor) ? parseInt(cursor.slice(1), 36) : -1;
}

/** Builds a server from a generated definition and the user's handlers. */
export function createServer<H, N extends ServerNames = ServerNames>(
  definition: ServerDefinition<H>,
  handlers: H,
  options?: ServerOptions,
): McpServer<H, N> {
  return new McpServer<H, N>(definition, handlers, options);
}

export type { RequestId };
