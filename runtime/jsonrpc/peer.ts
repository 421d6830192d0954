// One side of a JSON-RPC conversation over one connection: hands inbound requests and
// notifications to a dispatcher, answers them, cancels them (and sends its own requests,
// correlated with their responses, as RequestingPeer in requesting-peer.ts). It knows nothing of MCP methods except the
// `notifications/cancelled` plumbing, and nothing of transports: it writes through `send`.
import {
  classify,
  ErrorCode,
  errorResponse,
  RpcError,
  toErrorObject,
  validId,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type Params,
  type RequestId,
} from "./messages.js";

/** Where a peer writes. `relatedTo` names the inbound request an outbound message belongs to. */
export interface MessageSink {
  send(message: JsonRpcMessage, relatedTo?: RequestId): void;
  /**
   * Ends the connection carrying inbound request `relatedTo`'s messages early, the rest to
   * follow when the client resumes it (SSE polling); whether it will. Transports that
   * cannot leave it out.
   */
  pollLater?(relatedTo: RequestId, retryMs: number | undefined): boolean;
}

/**
 * What an exchange is served within: a connection's Peer, or nothing but the request
 * itself (serveRequest).
 */
export interface ExchangeHost {
  /** Free-form state the layer above keeps per connection (the MCP session lives here); undefined for a lone request. */
  state: unknown;
  readonly isClosed: boolean;
  notify(method: string, params?: Params, relatedTo?: RequestId): void;
  /** Sends a request to the peer: only a RequestingPeer can (see requesting-peer.ts). */
  request?(method: string, params: Params | undefined, options?: RequestOptions): Promise<Params>;
  /** See MessageSink.pollLater. */
  pollLater?(relatedTo: RequestId, retryMs: number | undefined): boolean;
}

/** An inbound request being handled. */
export class Exchange {
  cancelled = false;
  /** Set once the response is sent (or withheld after a cancel): nothing more may follow it. */
  answered = false;
  private controller: AbortController | undefined;

  constructor(
    readonly peer: ExchangeHost,
    readonly request: JsonRpcRequest,
    /** What the transport verified about the sender (an HTTP bearer token's identity); opaque here. */
    readonly auth?: unknown,
  ) {}

  get id(): RequestId {
    return this.request.id;
  }

  /** Aborted when the peer cancels the request or the connection closes. Created on first use. */
  get signal(): AbortSignal {
    this.controller ??= new AbortController();
    if (this.cancelled && !this.controller.signal.aborted)
      this.controller.abort(new RpcError(ErrorCode.InternalError, "Request cancelled"));
    return this.controller.signal;
  }

  cancel(reason: string): void {
    if (this.cancelled) return;
    this.cancelled = true;
    this.controller?.abort(new RpcError(ErrorCode.InternalError, reason));
  }

  /** Sends a notification that belongs to this request (progress, log messages); dropped once it is over. */
  notify(method: string, params?: Params): void {
    if (!this.cancelled && !this.answered) this.peer.notify(method, params, this.request.id);
  }
}

export interface Dispatcher {
  /** Handles a request; the returned result (or thrown RpcError) becomes the response. */
  onRequest(exchange: Exchange): Params | Promise<Params>;
  onNotification(notification: JsonRpcNotification, peer: Peer): void;
}

export interface RequestOptions {
  readonly signal?: AbortSignal | undefined;
  /** Milliseconds before the request fails with a timeout; 0 disables. Default 60 000. */
  readonly timeoutMs?: number | undefined;
  readonly relatedTo?: RequestId | undefined;
  /** Called for each progress notification of this request (a progress token is added to params). */
  readonly onProgress?: ((params: Params) => void) | undefined;
}

/** Raised locally when a request times out or the connection closes; never sent to the peer. */
export class RequestFailedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RequestFailedError";
  }
}

/** Where a dispatched request's outcome goes. */
interface Finisher {
  finish(exchange: Exchange, result: Params | undefined, error: unknown): void;
}

/** Hands `exchange` to the dispatcher; its result or error goes to `to`, now or when it settles. */
function dispatch(dispatcher: Dispatcher, exchange: Exchange, to: Finisher): void {
  let outcome: Params | Promise<Params>;
  try {
    outcome = dispatcher.onRequest(exchange);
  } catch (error) {
    to.finish(exchange, undefined, error);
    return;
  }
  if (outcome instanceof Promise) {
    outcome.then(
      (result) => to.finish(exchange, result, undefined),
      (error: unknown) => to.finish(exchange, undefined, error),
    );
  } else to.finish(exchange, outcome, undefined);
}

const invalidRequest = (id: RequestId | null, reason: string) =>
  errorResponse(id, ErrorCode.InvalidRequest, `Invalid request: ${reason}`);

function notification(method: string, params: Params | undefined): JsonRpcNotification {
  return params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params };
}

function response(exchange: Exchange, result: Params | undefined, error: unknown): JsonRpcResponse {
  return result !== undefined
    ? { jsonrpc: "2.0", id: exchange.id, result }
    : { jsonrpc: "2.0", id: exchange.id, error: toErrorObject(error) };
}

/**
 * One connection's side that answers: hands inbound requests and notifications to the
 * dispatcher and sends notifications. Sending requests of its own (and correlating their
 * responses) is RequestingPeer's, so that a server whose handlers ask the client nothing
 * does not carry it.
 */
export class Peer implements ExchangeHost, Finisher {
  /** Free-form state the layer above keeps per connection (the MCP session lives here). */
  state: unknown;
  private readonly inbound = new Map<RequestId, Exchange>();
  protected closed = false;

  constructor(
    protected readonly sink: MessageSink,
    private readonly dispatcher: Dispatcher,
  ) {}

  get isClosed(): boolean {
    return this.closed;
  }

  /** Handles one parsed inbound message (a value from JSON.parse); `auth` is what the transport verified of its sender. */
  receive(value: unknown, auth?: unknown): void {
    const classified = classify(value);
    switch (classified.kind) {
      case "request":
        this.handleRequest(classified.message, auth);
        return;
      case "notification":
        this.handleNotification(classified.message);
        return;
      case "response":
        this.onResponse(classified.message);
        return;
      case "invalid":
        this.sink.send(invalidRequest(classified.id, classified.reason));
    }
  }

  /** A response arrived: none is awaited here (RequestingPeer awaits its own). */
  protected onResponse(_response: JsonRpcResponse): void {}

  /** Outbound requests fail: no answer can come any more. */
  protected failOutbound(_reason: string): void {}

  /** Reports bytes that were not JSON. */
  receiveParseError(detail: string): void {
    this.sink.send(errorResponse(null, ErrorCode.ParseError, `Parse error: ${detail}`));
  }

  private handleRequest(request: JsonRpcRequest, auth: unknown): void {
    if (this.inbound.has(request.id)) {
      this.sink.send(invalidRequest(request.id, "id is already in use by a request in progress"));
      return;
    }
    const exchange = new Exchange(this, request, auth);
    this.inbound.set(request.id, exchange);
    dispatch(this.dispatcher, exchange, this);
  }

  /** @internal The outcome of an inbound request. */
  finish(exchange: Exchange, result: Params | undefined, error: unknown): void {
    this.inbound.delete(exchange.id);
    exchange.answered = true;
    // A cancelled request gets no response (MCP cancellation rules).
    if (exchange.cancelled || this.closed) return;
    this.sink.send(response(exchange, result, error), exchange.id);
  }

  protected handleNotification(notification: JsonRpcNotification): void {
    if (notification.method === "notifications/cancelled") {
      // An id past 2^53 is a BigInt here (parseMessage), as the request's own id is: the lookup is exact.
      const id = notification.params?.requestId;
      if (validId(id)) {
        const reason = notification.params?.reason;
        this.inbound.get(id)?.cancel(typeof reason === "string" ? reason : "Request cancelled");
      }
    }
    this.dispatcher.onNotification(notification, this);
  }

  pollLater(relatedTo: RequestId, retryMs: number | undefined): boolean {
    return this.sink.pollLater?.(relatedTo, retryMs) ?? false;
  }

  /** Inbound requests still being handled. */
  get inboundCount(): number {
    return this.inbound.size;
  }

  /**
   * The peer will send nothing more (its input ended): requests sent to it fail now, since no
   * answer can come, while its own requests still being handled go on (to be answered if the
   * output is still open).
   */
  endInput(reason: string): void {
    this.failOutbound(reason);
  }

  /** Cancels an inbound request without a notification (e.g. its HTTP stream closed). */
  cancelInbound(id: RequestId, reason: string): void {
    this.inbound.get(id)?.cancel(reason);
  }

  notify(method: string, params?: Params, relatedTo?: RequestId): void {
    if (!this.closed) this.sink.send(notification(method, params), relatedTo);
  }

  /** Fails outbound requests and aborts inbound ones; later sends are dropped. */
  close(reason = "Connection closed"): void {
    if (this.closed) return;
    this.closed = true;
    this.failOutbound(reason);
    for (const exchange of this.inbound.values()) exchange.cancel(reason);
    this.inbound.clear();
  }
}

/**
 * The host of a request served on its own: no connection state, no requests to the
 * client, and nothing after its response.
 */
class LoneRequest implements ExchangeHost, Finisher {
  state: unknown = undefined;
  isClosed = false;

  constructor(private readonly sink: MessageSink) {}

  notify(method: string, params?: Params, relatedTo?: RequestId): void {
    if (!this.isClosed) this.sink.send(notification(method, params), relatedTo);
  }

  finish(exchange: Exchange, result: Params | undefined, error: unknown): void {
    if (this.isClosed) return;
    this.isClosed = true;
    if (!exchange.cancelled) this.sink.send(response(exchange, result, error), exchange.id);
  }
}

/**
 * Serves one message that is a connection of its own (a stateless HTTP request) without
 * a Peer: what it produces goes to `sink`, its response last. Returns the exchange (to
 * cancel it), or undefined when the message is not a valid request (the error response
 * has been sent).
 */
export function serveRequest(
  dispatcher: Dispatcher,
  message: unknown,
  sink: MessageSink,
  auth?: unknown,
): Exchange | undefined {
  const classified = classify(message);
  if (classified.kind === "invalid") sink.send(invalidRequest(classified.id, classified.reason));
  if (classified.kind !== "request") return undefined;
  const host = new LoneRequest(sink);
  const exchange = new Exchange(host, classified.message, auth);
  dispatch(dispatcher, exchange, host);
  return exchange;
}
