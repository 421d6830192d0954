// Resource subscriptions: who wants `notifications/resources/updated` for which URI.
// Legacy sessions subscribe with resources/subscribe and get the notification on their
// connection (on HTTP: the session's GET stream); modern clients list URIs in the
// `resourceSubscriptions` filter of a subscriptions/listen request and get it on that
// stream, tagged with the subscription's id. The server says which URIs may be watched.
import type { Exchange, Peer } from "../jsonrpc/peer.js";
import { MetaKey } from "./revisions.js";

interface Listener {
  readonly exchange: Exchange;
  readonly uris: ReadonlySet<string>;
}

export class ResourceSubscriptions {
  private readonly sessions = new Map<string, Set<Peer>>();
  private readonly listeners = new Set<Listener>();

  /** Adds a legacy session's subscription (idempotent). */
  subscribe(peer: Peer, uri: string): void {
    let peers = this.sessions.get(uri);
    if (!peers) this.sessions.set(uri, (peers = new Set()));
    peers.add(peer);
  }

  /** Removes a legacy session's subscription, if it had one. */
  unsubscribe(peer: Peer, uri: string): void {
    const peers = this.sessions.get(uri);
    if (!peers) return;
    peers.delete(peer);
    if (peers.size === 0) this.sessions.delete(uri);
  }

  /** Registers a modern listen stream for `uris` until its request ends. */
  listen(exchange: Exchange, uris: readonly string[]): void {
    if (uris.length === 0) return;
    const listener: Listener = { exchange, uris: new Set(uris) };
    this.listeners.add(listener);
    const signal = exchange.signal;
    if (signal.aborted) this.listeners.delete(listener);
    else signal.addEventListener("abort", () => this.listeners.delete(listener), { once: true });
  }

  /** Sends notifications/resources/updated for `uri` to everyone subscribed to it. */
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
      listener.exchange.notify("notifications/resources/updated", { uri, _meta: { [MetaKey.subscriptionId]: listener.exchange.id } });
      sent++;
    }
    return sent;
  }
}
