// A Peer that also sends requests of its own: it numbers them, correlates the responses,
// times them out, cancels them on abort and routes their progress notifications. Clients
// use it, and servers whose handlers ask the client something (ctx.request, ctx.input in
// legacy sessions); other servers answer with the plain Peer and leave this module out.
import {
  RpcError,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type Params,
  type RequestId,
} from "./messages.js";
import { Peer, RequestFailedError, type RequestOptions } from "./peer.js";

interface Pending {
  resolve(result: Params): void;
  reject(error: Error): void;
  timer: ReturnType<typeof setTimeout> | undefined;
  /** Starts (or restarts) the timeout; undefined when the request has none. */
  arm: (() => void) | undefined;
  /** Holds on the timeout (see holdTimeout): it runs again when none is left. */
  holds: number;
  cleanup: (() => void) | undefined;
  onProgress: ((params: Params) => void) | undefined;
}

export class RequestingPeer extends Peer {
  private nextId = 1;
  private readonly pending = new Map<RequestId, Pending>();

  protected override onResponse(message: JsonRpcResponse): void {
    if (message.id === null) return;
    const pending = this.pending.get(message.id);
    if (!pending) return;
    this.settle(message.id);
    if ("error" in message) pending.reject(new RpcError(message.error.code, message.error.message, message.error.data));
    else pending.resolve(message.result);
  }

  /** Progress of an outbound request goes to its onProgress, then to the dispatcher like any notification. */
  protected override handleNotification(notification: JsonRpcNotification): void {
    if (notification.method === "notifications/progress") {
      const token = notification.params?.progressToken;
      if (typeof token === "string" || typeof token === "number")
        this.pending.get(token)?.onProgress?.(notification.params!);
    }
    super.handleNotification(notification);
  }

  protected override failOutbound(reason: string): void {
    for (const [id, pending] of [...this.pending]) {
      this.settle(id);
      pending.reject(new RequestFailedError(reason));
    }
  }

  /** Fails an outbound request locally (its transport could not deliver it or got no JSON-RPC answer). */
  failRequest(id: RequestId, error: Error): void {
    const pending = this.pending.get(id);
    if (!pending) return;
    this.settle(id);
    pending.reject(error);
  }

  /** Sends a request and resolves with its result; rejects with the peer's RpcError, a timeout or on abort. */
  request(method: string, params: Params | undefined, options: RequestOptions = {}): Promise<Params> {
    if (this.closed) return Promise.reject(new RequestFailedError("Connection closed"));
    const id = this.nextId++;
    let outgoingParams = params;
    if (options.onProgress) {
      const meta = { ...((params?._meta as Params | undefined) ?? {}), progressToken: id };
      outgoingParams = { ...params, _meta: meta };
    }
    return new Promise<Params>((resolve, reject) => {
      const pending: Pending = {
        resolve,
        reject,
        timer: undefined,
        arm: undefined,
        holds: 0,
        cleanup: undefined,
        onProgress: options.onProgress,
      };
      const timeoutMs = options.timeoutMs ?? 60_000;
      if (timeoutMs > 0) {
        pending.arm = () => {
          pending.timer = setTimeout(() => {
            this.settle(id);
            this.notify("notifications/cancelled", { requestId: id, reason: `Timed out after ${timeoutMs} ms` });
            reject(new RequestFailedError(`Request ${method} timed out after ${timeoutMs} ms`));
          }, timeoutMs);
        };
        pending.arm();
      }
      const signal = options.signal;
      if (signal) {
        if (signal.aborted) {
          reject(signal.reason instanceof Error ? signal.reason : new RequestFailedError("Request aborted"));
          if (pending.timer) clearTimeout(pending.timer);
          return;
        }
        const onAbort = () => {
          this.settle(id);
          this.notify("notifications/cancelled", { requestId: id, reason: "Request aborted" });
          reject(signal.reason instanceof Error ? signal.reason : new RequestFailedError("Request aborted"));
        };
        signal.addEventListener("abort", onAbort, { once: true });
        pending.cleanup = () => signal.removeEventListener("abort", onAbort);
      }
      this.pending.set(id, pending);
      const request: JsonRpcRequest =
        outgoingParams === undefined
          ? { jsonrpc: "2.0", id, method }
          : { jsonrpc: "2.0", id, method, params: outgoingParams };
      this.sink.send(request, options.relatedTo);
    });
  }

  /**
   * Stops outbound request `id`'s timeout until the returned release is called, when it starts
   * afresh: for time its transport spends waiting on the user (an OAuth authorization).
   */
  holdTimeout(id: RequestId): () => void {
    const pending = this.pending.get(id);
    if (!pending?.arm) return () => {};
    pending.holds++;
    if (pending.timer) clearTimeout(pending.timer);
    pending.timer = undefined;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--pending.holds === 0 && this.pending.get(id) === pending) pending.arm!();
    };
  }

  private settle(id: RequestId): void {
    const pending = this.pending.get(id);
    if (!pending) return;
    this.pending.delete(id);
    if (pending.timer) clearTimeout(pending.timer);
    pending.cleanup?.();
  }
}
