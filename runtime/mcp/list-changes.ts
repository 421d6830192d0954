// List-changed notifications: who hears `notifications/{tools,prompts,resources}/list_changed`.
// Legacy sessions hear about every list the server declared `listChanged` (they learn it
// from the capabilities of initialize); modern clients opt in per list with the
// `toolsListChanged`, `promptsListChanged` and `resourcesListChanged` filter of a
// subscriptions/listen request and hear on that stream, tagged with its subscription id.
// Generated code passes `listChangesFeature` only when the manifest declares `listChanged`.
import type { Exchange, ExchangeHost } from "../jsonrpc/peer.js";
import type { ChangingList, ListChangesFeature, ListedDefinition, Listing, ServerNames } from "./definition.js";
import type { JsonObject } from "./handler-types.js";
import { MetaKey } from "./revisions.js";

/** How setEnabled names a listed entry: resources by URI, everything else by name. */
export const entryName = (kind: keyof Listing, item: JsonObject): string =>
  (kind === "resources" ? item.uri : item.name) as string;

/** The subscriptions/listen filter field that opts in to each list's notification. */
const listFilterFields: Readonly<Record<ChangingList, string>> = {
  tools: "toolsListChanged",
  prompts: "promptsListChanged",
  resources: "resourcesListChanged",
};

class ListChanges implements ListChangesFeature {
  private readonly disabled = new Map<keyof ServerNames, Set<string>>();
  private readonly sessions = new Set<ExchangeHost>();
  private readonly listeners = new Map<Exchange, ReadonlySet<ChangingList>>();
  /** Sessions known open at the last sweep: closed ones are dropped when the set doubles. */
  private liveAtSweep = 0;
  /** Lists changed in the current task, announced by one microtask. */
  private readonly pending = new Set<ChangingList>();

  constructor(private readonly definition: ListedDefinition) {}

  isDisabled(kind: keyof ServerNames, name: string): boolean {
    return this.disabled.get(kind)?.has(name) === true;
  }

  setEnabled(kind: keyof Listing, name: string, enabled: boolean, pages: Map<string, unknown>): void {
    const definition = this.definition;
    const list = kind === "resourceTemplates" ? "resources" : kind;
    const known = (definition.listings[definition.revisions[0]!]?.[kind] ?? []).some(
      (item) => entryName(kind, item) === name,
    );
    if (!known || !definition.listChanged?.[list]) {
      throw new Error(
        `setEnabled: ${known ? `declare \`listChanged: [${list}]\` in the manifest` : `no ${kind} entry ${JSON.stringify(name)}`}`,
      );
    }
    const disabled = !enabled;
    let off = this.disabled.get(kind);
    if (!off) this.disabled.set(kind, (off = new Set()));
    if (off.has(name) === disabled) return;
    if (disabled) off.add(name);
    else off.delete(name);
    for (const key of [...pages.keys()]) if (key.endsWith(` ${kind}`)) pages.delete(key);
    this.schedule(list);
  }

  addSession(peer: ExchangeHost): void {
    this.sessions.add(peer);
    if (this.sessions.size > 2 * this.liveAtSweep + 16) {
      for (const session of this.sessions) if (session.isClosed) this.sessions.delete(session);
      this.liveAtSweep = this.sessions.size;
    }
  }

  listen(exchange: Exchange, filter: Readonly<Record<string, unknown>>): Record<string, true> {
    const declared = this.definition.listChanged ?? {};
    const honoured: Record<string, true> = {};
    const lists = new Set<ChangingList>();
    for (const list of ["tools", "prompts", "resources"] as const) {
      const field = listFilterFields[list];
      if (filter[field] !== true || !declared[list]) continue;
      lists.add(list);
      honoured[field] = true;
    }
    if (lists.size === 0) return honoured;
    this.listeners.set(exchange, lists);
    const signal = exchange.signal;
    if (signal.aborted) this.listeners.delete(exchange);
    else signal.addEventListener("abort", () => this.listeners.delete(exchange), { once: true });
    return honoured;
  }

  schedule(list: ChangingList): void {
    if (this.pending.size === 0) {
      queueMicrotask(() => {
        const lists = [...this.pending];
        for (const changed of lists) this.notify(changed);
      });
    }
    this.pending.add(list);
  }

  notify(list: ChangingList): number {
    if (!this.definition.listChanged?.[list]) return 0;
    // An explicit notification covers the changes scheduled before it.
    this.pending.delete(list);
    const method = `notifications/${list}/list_changed`;
    let sent = 0;
    for (const session of this.sessions) {
      if (session.isClosed) {
        this.sessions.delete(session);
        continue;
      }
      session.notify(method);
      sent++;
    }
    for (const [exchange, lists] of this.listeners) {
      if (!lists.has(list)) continue;
      if (exchange.cancelled || exchange.peer.isClosed) {
        this.listeners.delete(exchange);
        continue;
      }
      exchange.notify(method, { _meta: { [MetaKey.subscriptionId]: exchange.id } });
      sent++;
    }
    return sent;
  }
}

/** List-changed notifications for a server whose manifest declares `listChanged`. */
export function listChangesFeature(definition: ListedDefinition): ListChangesFeature {
  return new ListChanges(definition);
}
