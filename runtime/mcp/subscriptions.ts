// Resource subscriptions: who wants `notifications/resources/updated` for which URI.
// Legacy sessions subscribe with resources/subscribe and get the notification on their
// connection (on HTTP: the session's GET stream); modern clients list URIs in the
// `resourceSubscriptions` filter of a subscriptions/listen request and get it on that
// stream, tagged with the subscription's id. Only resources and templates declared
// `subscribe` may be watched. Generated code passes `subscriptionsFeature` to the server
// only when the manifest declares one, so servers without them do not carry this module.
import { ErrorCode, invalidParams, RpcError, type Params } from "../jsonrpc/messages.js";
import type { Exchange, ExchangeHost } from "../jsonrpc/peer.js";
import type { ResourceEntry, ServerDefinition, SubscriptionsFeature } from "./definition.js";
import { MetaKey } from "./revisions.js";

interface Listener {
  readonly exchange: Exchange;
  readonly uris: ReadonlySet<string>;
}

class ResourceSubscriptions<H> implements SubscriptionsFeature {
  private readonly sessions = new Map<string, Set<ExchangeHost>>();
  private readonly listeners = new Set<Listener>();
  private readonly resources = new Map<string, ResourceEntry<H>>();

  constructor(private readonly definition: ServerDefinition<H>) {
    for (const resource of definition.resources) this.resources.set(resource.uri, resource);
  }

  canSubscribe(uri: string): boolean | undefined {
    const fixed = this.resources.get(uri);
    if (fixed) return fixed.subscribe === true;
    let known: boolean | undefined;
    for (const template of this.definition.resourceTemplates) {
      if (!template.pattern.test(uri)) continue;
      if (template.subscribe === true) return true;
      known = false;
    }
    return known;
  }

  answer(
    method: "resources/subscribe" | "resources/unsubscribe",
    params: Params | undefined,
    peer: ExchangeHost,
  ): Params {
    const uri = params?.uri;
    if (typeof uri !== "string") throw invalidParams("uri must be a string");
    // An unsubscribe can only follow an accepted subscribe, so it is refused alike.
    const watchable = this.canSubscribe(uri);
    if (watchable === undefined) throw new RpcError(ErrorCode.ResourceNotFound, `Resource not found: ${uri}`, { uri });
    if (!watchable)
      throw new RpcError(ErrorCode.InvalidParams, `Resource ${uri} does not support subscriptions`, { uri });
    let peers = this.sessions.get(uri);
    if (method === "resources/unsubscribe") {
      peers?.delete(peer);
      if (peers?.size === 0) this.sessions.delete(uri);
      return {};
    }
    if (!peers) this.sessions.set(uri, (peers = new Set()));
    peers.add(peer);
    return {};
  }

  listen(exchange: Exchange, requested: unknown): { resourceSubscriptions?: string[] } {
    const uris = Array.isArray(requested)
      ? [...new Set(requested.filter((u): u is string => typeof u === "string" && this.canSubscribe(u) === true))]
      : [];
    if (uris.length === 0) return {};
    const listener: Listener = { exchange, uris: new Set(uris) };
    this.listeners.add(listener);
    const signal = exchange.signal;
    if (signal.aborted) this.listeners.delete(listener);
    else signal.addEventListener("abort", () => this.listeners.delete(listener), { once: true });
    return { resourceSubscriptions: uris };
  }

  notify(uri: string): number {
    let sent = 0;
    const peers = this.sessions.get(uri);
    if (peers) {
      for (const peer of [...peers]) {
        if (peer.isClosed) {
          peers.delete(peer);
          continue;
        }
        peer.notify("notifications/resources/updated", { uri });
        sent++;
      }
      if (peers.size === 0) this.sessions.delete(uri);
    }
    for (const listener of this.listeners) {
      if (!listener.uris.has(uri)) continue;
      if (listener.exchange.cancelled || listener.exchange.peer.isClosed) {
        this.listeners.delete(listener);
        continue;
      }
      listener.exchange.notify("notifications/resources/updated", {
        uri,
        _meta: { [MetaKey.subscriptionId]: listener.exchange.id },
      });
      sent++;
    }
    return sent;
  }
}

/** Resource subscriptions for a server whose manifest declares `subscribe` resources or templates. */
export function subscriptionsFeature<H>(definition: ServerDefinition<H>): SubscriptionsFeature {
  return new ResourceSubscriptions(definition);
}
