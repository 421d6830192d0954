// The MCP client session layer: finds out which era a server speaks (a server/discover
// probe, then the legacy initialize handshake as fallback), then sends requests the
// way that era wants them: modern requests carry version, identity and capabilities in
// their _meta; legacy requests ride on the initialized session.
import {
  ErrorCode,
  isObject,
  RpcError,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type Params,
  type RequestId,
} from "../jsonrpc/messages.js";
import { type Exchange, RequestFailedError, type Dispatcher } from "../jsonrpc/peer.js";
import { RequestingPeer } from "../jsonrpc/requesting-peer.js";
import { capabilitiesFromHandlers, type HandledFeatures } from "./client-capabilities.js";
import type { Implementation, JsonObject } from "./handler-types.js";
import { isModern, MetaKey } from "./revisions.js";

/** A way to exchange messages with one server (stdio process, HTTP endpoint, in-memory server). */
/** What a channel reports to its session. */
export interface ChannelHandlers {
  receive(value: unknown): void;
  /** Rejects one outbound request locally (e.g. an HTTP error without a JSON-RPC body). */
  fail(id: RequestId, error: Error): void;
  closed(error?: Error): void;
  /** Holds request `id`'s timeout while the channel waits on the user (an OAuth authorization); call the release when done. */
  hold?(id: RequestId): () => void;
}

export interface ClientChannel {
  readonly kind: "stdio" | "http" | "memory";
  /**
   * Starts delivering inbound messages to `receive`. `fail` rejects one outbound request
   * locally (e.g. an HTTP error without a JSON-RPC body); `closed` reports the end.
   */
  start(handlers: ChannelHandlers): Promise<void>;
  send(message: JsonRpcMessage): void;
  /** Tells the channel what the session negotiated (HTTP needs it for headers). */
  setProtocol?(protocol: { readonly era: "modern" | "legacy"; readonly revision: string }): void;
  /**
   * A tool's `x-mcp-header` declarations known before any tools/list (argument -> header
   * name), so that HTTP can mirror its arguments into Mcp-Param-* headers from the first call.
   */
  declareParamHeaders?(tool: string, headers: ReadonlyMap<string, string>): void;
  close(): Promise<void>;
}

/** Requests the server may make of a client, by method: `{ params, result }`. Generated clients bind it to the protocol's. */
export type AnyServerRequests = {
  readonly [method: string]: { readonly params: Params | undefined; readonly result: Params };
};
/** Notifications the server may send, by method: their params. Generated clients bind it to the protocol's. */
export type AnyServerNotifications = { readonly [method: string]: Params | undefined };

type Answer<S> = S extends { readonly result: infer R } ? R : never;
type Asked<S> = S extends { readonly params: infer P } ? P : never;

/** Answers to server requests by method (legacy requests and 2026-07-28 input requests alike). */
export type RequestHandlers<R> = {
  readonly [K in keyof R & string]?: (params: Asked<R[K]>, signal: AbortSignal) => Answer<R[K]> | Promise<Answer<R[K]>>;
};
/** Listeners of server notifications by method. */
export type NotificationHandlers<N> = { readonly [K in keyof N & string]?: (params: N[K]) => void };

/** Handles requests the server sends to the client and notifications, typed by the maps of the revisions spoken. */
export interface ClientHandlers<R = AnyServerRequests, N = AnyServerNotifications> {
  /**
   * Server-to-client requests by method ("elicitation/create", "sampling/createMessage",
   * "roots/list"): legacy requests over the session and the inputRequests of 2026-07-28
   * input_required results alike. Unknown methods get -32601.
   */
  readonly requests?: RequestHandlers<R> | undefined;
  /** Notifications by method ("notifications/message", "notifications/tools/list_changed", ...). */
  readonly notifications?: NotificationHandlers<N> | undefined;
  /** Every notification the server sends (after its `notifications` listener, if any). */
  readonly onNotification?: ((method: string, params: Params | undefined) => void) | undefined;
}

/** The untyped view the session works with. */
type UntypedHandlers = {
  readonly requests?:
    | Readonly<
        Record<string, ((params: Params | undefined, signal: AbortSignal) => Params | Promise<Params>) | undefined>
      >
    | undefined;
  readonly notifications?: Readonly<Record<string, ((params: Params | undefined) => void) | undefined>> | undefined;
  readonly onNotification?: ((method: string, params: Params | undefined) => void) | undefined;
};

export interface ClientOptions<R = AnyServerRequests, N = AnyServerNotifications> extends ClientHandlers<R, N> {
  /** Revisions this client speaks, preferred first. */
  readonly revisions: readonly string[];
  readonly info?: Implementation | undefined;
  /**
   * The client capabilities to declare, as they are, whatever the revision. Default: those the
   * `requests` handlers imply under the negotiated revision (see `handles`).
   */
  readonly capabilities?: JsonObject | undefined;
  /**
   * What the `requests` handlers honour beyond a plain answer, for the capabilities derived from
   * them: `{ elicitation: { url: true } }` (URL mode), `{ sampling: { tools: true, context: true } }`,
   * `{ roots: { listChanged: true } }`. Ignored when `capabilities` is given.
   */
  readonly handles?: HandledFeatures | undefined;
  /** Per-request timeout in milliseconds. Default 60 000. */
  readonly timeoutMs?: number | undefined;
  /** How long the era probe waits for an answer before assuming a legacy server. Default 5 000. */
  readonly probeTimeoutMs?: number | undefined;
  /**
   * `x-mcp-header` declarations known in advance, tool -> argument -> header name (a generated
   * client passes its manifest's). A tools/list answer replaces what it says about a tool.
   */
  readonly paramHeaders?: Readonly<Record<string, Readonly<Record<string, string>>>> | undefined;
}

export interface CallOptions {
  readonly signal?: AbortSignal | undefined;
  readonly timeoutMs?: number | undefined;
  /** Extra _meta for the request (trace context, say). */
  readonly meta?: JsonObject | undefined;
  /** Receives progress notifications for this request. */
  readonly onProgress?: ((progress: { progress: number; total?: number; message?: string }) => void) | undefined;
}

/** Options of `rawRequest`: those of a call, plus what runtime features (tasks) need of the wire. */
export interface RawRequestOptions extends CallOptions {
  /**
   * 2026-07-28: extensions this request declares in its client capabilities, beside the
   * session's own (`{ "io.modelcontextprotocol/tasks": {} }`). Ignored by legacy sessions.
   */
  readonly extensions?: JsonObject | undefined;
  /** `resultType` values besides "complete" that the caller handles itself (e.g. "task"). */
  readonly resultTypes?: readonly string[] | undefined;
}

/** Receives every notification the server sends, before the user's listeners. */
export type NotificationWatcher = (method: string, params: Params | undefined) => void;

export interface MethodShape {
  readonly params: unknown;
  readonly result: unknown;
}

type KeysOfUnion<T> = T extends unknown ? keyof T : never;
/** One map of every method in a union of per-revision method maps; a method's params and result are unions over the revisions that have it. */
export type MergeMethods<U> = { [K in KeysOfUnion<U> & string]: U extends { readonly [P in K]: infer V } ? V : never };

/** Params as a caller writes them: the runtime fills the protocol's _meta fields. */
export type CallerParams<P> = P extends { _meta?: unknown } ? Omit<P, "_meta"> & { _meta?: JsonObject | undefined } : P;
// Params may be left out when the method has none or none of its params is required
// (the runtime fills a required `_meta`).
type ParamsArgs<P> = undefined extends P
  ? [params?: CallerParams<Exclude<P, undefined>>, options?: CallOptions]
  : {} extends CallerParams<P>
    ? [params?: CallerParams<P>, options?: CallOptions]
    : [params: CallerParams<P>, options?: CallOptions];

/** The server as the handshake or discovery described it. */
export interface ServerDescription {
  readonly era: "modern" | "legacy";
  readonly revision: string;
  readonly info: Implementation | undefined;
  readonly capabilities: JsonObject;
  readonly instructions: string | undefined;
  /** Versions the server said it supports (modern servers only). */
  readonly supportedVersions: readonly string[] | undefined;
}

/** Raised when client and server share no protocol revision. */
export class NegotiationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "NegotiationError";
  }
}

/** Rounds of input_required answers a request may take before the client gives up. */
const MAX_INPUT_ROUNDS = 10;

const modernErrorCodes = new Set<number>([
  ErrorCode.HeaderMismatch,
  ErrorCode.MissingRequiredClientCapability,
  ErrorCode.UnsupportedProtocolVersion,
]);

/** A connected MCP client session, typed by the request map `M` of the revisions it speaks. */
export class ClientSession<M = Record<string, MethodShape>> {
  private description: ServerDescription | undefined;
  private readonly watchers = new Set<NotificationWatcher>();

  private constructor(
    private readonly peer: RequestingPeer,
    private readonly channel: ClientChannel,
    private readonly options: ClientOptions,
  ) {}

  /** Opens a session over `channel`, negotiating era and revision. */
  static async connect<M>(channel: ClientChannel, options: ClientOptions): Promise<ClientSession<M>> {
    let session: ClientSession<M> | undefined;
    const handlers = options as UntypedHandlers;
    const dispatcher: Dispatcher = {
      onRequest: (exchange: Exchange) => {
        const { method, params } = exchange.request;
        if (method === "ping") return {};
        const handler = handlers.requests?.[method];
        if (!handler) throw new RpcError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
        return handler(params, exchange.signal);
      },
      onNotification: (notification: JsonRpcNotification) => {
        for (const watcher of session?.watchers ?? []) watcher(notification.method, notification.params);
        handlers.notifications?.[notification.method]?.(notification.params);
        handlers.onNotification?.(notification.method, notification.params);
      },
    };
    const peer = new RequestingPeer({ send: (message) => channel.send(message) }, dispatcher);
    session = new ClientSession<M>(peer, channel, options);
    for (const [tool, headers] of Object.entries(options.paramHeaders ?? {}))
      channel.declareParamHeaders?.(tool, new Map(Object.entries(headers)));
    await channel.start({
      receive: (value) => peer.receive(value),
      fail: (id, error) => peer.failRequest(id, error),
      closed: () => peer.close("Connection closed"),
      hold: (id) => peer.holdTimeout(id),
    });
    try {
      await session.negotiate();
    } catch (error) {
      await channel.close().catch(() => {});
      throw error;
    }
    return session;
  }

  get server(): ServerDescription {
    return this.description!;
  }

  get era(): "modern" | "legacy" {
    return this.description!.era;
  }

  get revision(): string {
    return this.description!.revision;
  }

  private get clientInfo(): Implementation {
    return this.options.info ?? { name: "mcp-gen-client", version: "0.1.0" };
  }

  /** What this client declares under `revision`: the explicit `capabilities`, else what its handlers imply. */
  private clientCapabilities(revision: string): JsonObject {
    if (this.options.capabilities !== undefined) return this.options.capabilities;
    const requests = (this.options as UntypedHandlers).requests ?? {};
    const handled = new Set(Object.keys(requests).filter((method) => typeof requests[method] === "function"));
    return capabilitiesFromHandlers(handled, this.options.handles ?? {}, revision);
  }

  private envelope(revision: string, extra?: JsonObject, extensions?: JsonObject): JsonObject {
    let capabilities = this.clientCapabilities(revision);
    if (extensions !== undefined) {
      const declared = isObject(capabilities.extensions) ? capabilities.extensions : {};
      capabilities = { ...capabilities, extensions: { ...declared, ...extensions } };
    }
    return {
      ...extra,
      [MetaKey.protocolVersion]: revision,
      [MetaKey.clientInfo]: this.clientInfo,
      [MetaKey.clientCapabilities]: capabilities,
    };
  }

  private async negotiate(): Promise<void> {
    const ours = this.options.revisions;
    const modern = ours.filter(isModern);
    const legacy = ours.filter((r) => !isModern(r));
    if (modern.length > 0) {
      const probed = await this.probe(modern[0]!, legacy.length > 0);
      if (probed === "legacy") {
        if (legacy.length === 0)
          throw new NegotiationError(
            `The server does not speak ${modern.join(", ")} and this client speaks no earlier revision`,
          );
      } else if (isModern(probed.revision)) {
        this.adopt(probed);
        return;
      } else {
        // A dual-era server whose modern versions we lack: use its legacy side.
        await this.initialize([probed.revision]);
        return;
      }
    }
    await this.initialize(legacy);
  }

  /** Sends server/discover; returns what it learned, or "legacy" when the answer is not modern. */
  private async probe(revision: string, canFallBack: boolean): Promise<ServerDescription | "legacy"> {
    const choose = (supported: readonly string[]): string => {
      const common = this.options.revisions.find((r) => supported.includes(r));
      if (!common)
        throw new NegotiationError(
          `No common protocol revision: the server supports ${supported.join(", ")}; this client ${this.options.revisions.join(", ")}`,
        );
      return common;
    };
    for (let attempt = 0; attempt < 2; attempt++) {
      let result: Params;
      try {
        result = await this.peer.request(
          "server/discover",
          { _meta: this.envelope(revision) },
          { timeoutMs: this.options.probeTimeoutMs ?? 5_000 },
        );
      } catch (error) {
        if (error instanceof RpcError && modernErrorCodes.has(error.code)) {
          const supported = (error.data as { supported?: unknown } | undefined)?.supported;
          if (error.code === ErrorCode.UnsupportedProtocolVersion && Array.isArray(supported) && attempt === 0) {
            const next = choose(supported as string[]);
            if (!isModern(next)) return this.described("legacy-capable", next, {}, supported as string[]);
            revision = next;
            continue;
          }
          throw error;
        }
        if (!canFallBack) throw error instanceof Error ? error : new Error(String(error));
        return "legacy";
      }
      const supported = Array.isArray(result.supportedVersions) ? (result.supportedVersions as string[]) : [revision];
      const chosen = supported.includes(revision) ? revision : choose(supported);
      return this.described(chosen, chosen, result, supported);
    }
    return "legacy";
  }

  private described(_tag: string, revision: string, result: Params, supported: readonly string[]): ServerDescription {
    const meta = isObject(result._meta) ? result._meta : {};
    return {
      era: isModern(revision) ? "modern" : "legacy",
      revision,
      info: isObject(meta[MetaKey.serverInfo]) ? (meta[MetaKey.serverInfo] as unknown as Implementation) : undefined,
      capabilities: isObject(result.capabilities) ? result.capabilities : {},
      instructions: typeof result.instructions === "string" ? result.instructions : undefined,
      supportedVersions: supported,
    };
  }

  private adopt(description: ServerDescription): void {
    this.description = description;
    this.channel.setProtocol?.({ era: description.era, revision: description.revision });
  }

  private async initialize(revisions: readonly string[]): Promise<void> {
    const result = await this.peer.request(
      "initialize",
      {
        protocolVersion: revisions[0],
        capabilities: this.clientCapabilities(revisions[0]!),
        clientInfo: this.clientInfo,
      },
      { timeoutMs: this.options.timeoutMs },
    );
    const revision = result.protocolVersion;
    if (typeof revision !== "string" || !revisions.includes(revision)) {
      throw new NegotiationError(
        `The server answered initialize with protocol ${String(revision)}, which this client does not speak (${revisions.join(", ")})`,
      );
    }
    this.adopt({
      era: "legacy",
      revision,
      info: isObject(result.serverInfo) ? (result.serverInfo as unknown as Implementation) : undefined,
      capabilities: isObject(result.capabilities) ? result.capabilities : {},
      instructions: typeof result.instructions === "string" ? result.instructions : undefined,
      supportedVersions: undefined,
    });
    this.peer.notify("notifications/initialized");
  }

  /**
   * Sends a request of the negotiated revision and resolves with its result. Modern
   * requests get the protocol _meta; `result.resultType` is checked.
   */
  request<K extends keyof M & string>(
    method: K,
    ...args: ParamsArgs<M[K] extends MethodShape ? M[K]["params"] : never>
  ): Promise<M[K] extends MethodShape ? M[K]["result"] : never> {
    const [params, options] = args as [unknown, CallOptions | undefined];
    return this.send(method, params, options) as Promise<M[K] extends MethodShape ? M[K]["result"] : never>;
  }

  /**
   * Sends any request, untyped: for methods outside this session's revisions (extensions,
   * experiments). Prefer `request`, which only accepts methods the revisions define.
   */
  rawRequest(method: string, params?: Params, options?: RawRequestOptions): Promise<Params> {
    return this.send(method, params, options);
  }

  /**
   * Calls `watcher` with every notification the server sends, until the returned function
   * is called: for runtime features that follow notifications of their own (task status).
   */
  watchNotifications(watcher: NotificationWatcher): () => void {
    this.watchers.add(watcher);
    return () => {
      this.watchers.delete(watcher);
    };
  }

  private async send(method: string, rawParams?: unknown, options: RawRequestOptions = {}): Promise<Params> {
    const description = this.description!;
    const params = rawParams as Params | undefined;
    let outgoing = params;
    const extraMeta = { ...(isObject(params?._meta) ? params._meta : {}), ...options.meta };
    if (description.era === "modern")
      outgoing = { ...params, _meta: this.envelope(description.revision, extraMeta, options.extensions) };
    else if (Object.keys(extraMeta).length > 0) outgoing = { ...params, _meta: extraMeta };
    const onProgress = options.onProgress;
    const requestOptions = {
      signal: options.signal,
      timeoutMs: options.timeoutMs ?? this.options.timeoutMs,
      onProgress:
        onProgress && ((p: Params) => onProgress(p as { progress: number; total?: number; message?: string })),
    };
    let result = await this.peer.request(method, outgoing, requestOptions);
    // 2026-07-28: the server needs input first (SEP-2322). Answer its requests with the
    // same handlers that serve legacy server-to-client requests, and retry.
    for (let round = 1; result.resultType === "input_required"; round++) {
      if (round > MAX_INPUT_ROUNDS)
        throw new RequestFailedError(`${method}: the server still required input after ${MAX_INPUT_ROUNDS} rounds`);
      const inputResponses = await this.answerInputRequests(method, result.inputRequests, options.signal);
      outgoing = { ...outgoing, inputResponses };
      if (typeof result.requestState === "string") outgoing.requestState = result.requestState;
      else delete outgoing.requestState;
      result = await this.peer.request(method, outgoing, requestOptions);
    }
    const resultType = result.resultType;
    if (
      resultType !== undefined &&
      resultType !== "complete" &&
      !(typeof resultType === "string" && options.resultTypes?.includes(resultType))
    ) {
      throw new RequestFailedError(
        `The server answered ${method} with resultType ${JSON.stringify(resultType)}, which this client does not handle`,
      );
    }
    return result;
  }

  /**
   * Answers the inputRequests of an input_required result (or of a task waiting for input)
   * with the `requests` handlers: key -> the handler's answer.
   */
  async answerInputRequests(method: string, requests: unknown, signal: AbortSignal | undefined): Promise<Params> {
    // A result with requestState alone asks for a plain retry.
    if (requests === undefined) return {};
    if (!isObject(requests))
      throw new RequestFailedError(`The server answered ${method} with input_required and malformed inputRequests`);
    const entries = Object.entries(requests);
    const answers = await Promise.all(
      entries.map(([key, request]) => {
        const inner = isObject(request) && typeof request.method === "string" ? request.method : undefined;
        const handler = inner === undefined ? undefined : (this.options as UntypedHandlers).requests?.[inner];
        if (!handler)
          throw new RequestFailedError(
            `The server needs ${inner ?? "an unknown request"} (${key}) to answer ${method}, which this client does not handle`,
          );
        return handler(
          isObject(request) && isObject(request.params) ? request.params : undefined,
          signal ?? new AbortController().signal,
        );
      }),
    );
    const responses: Params = {};
    entries.forEach(([key], i) =>
      Object.defineProperty(responses, key, {
        value: answers[i],
        enumerable: true,
        writable: true,
        configurable: true,
      }),
    );
    return responses;
  }

  /** Sends a notification (e.g. notifications/roots/list_changed in legacy revisions). */
  notify(method: string, params?: Params): void {
    this.peer.notify(method, params);
  }

  /** Follows nextCursor until the list ends and returns every item of `key`. */
  async listAll(method: string, key: string, options?: CallOptions): Promise<JsonObject[]> {
    const items: JsonObject[] = [];
    let cursor: string | undefined;
    const seen = new Set<string>();
    do {
      const page = await this.send(method, cursor === undefined ? {} : { cursor }, options);
      const list = page[key];
      if (Array.isArray(list)) items.push(...(list as JsonObject[]));
      cursor = typeof page.nextCursor === "string" ? page.nextCursor : undefined;
      if (cursor !== undefined && seen.has(cursor))
        throw new RequestFailedError(`${method}: the server repeated cursor ${cursor}`);
      if (cursor !== undefined) seen.add(cursor);
    } while (cursor !== undefined);
    return items;
  }

  async close(): Promise<void> {
    this.peer.close("Client closed");
    await this.channel.close();
  }
}

/** Connects a session over `channel`; see ClientSession.connect. */
export function connectSession<M = Record<string, MethodShape>, R = AnyServerRequests, N = AnyServerNotifications>(
  channel: ClientChannel,
  options: ClientOptions<NoInfer<R>, NoInfer<N>>,
): Promise<ClientSession<M>> {
  return ClientSession.connect<M>(channel, options as ClientOptions);
}
