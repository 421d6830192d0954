// JSON-RPC 2.0 batches on one connection (MCP has them in protocol 2025-03-26 only): the
// responses to a batch's requests are written together, as one array, once the last of
// them is answered; a request cancelled meanwhile is left out, and a batch of
// notifications only is answered with nothing. Generated code passes `batchesFeature` to
// the server only when the manifest selects 2025-03-26, so that other servers' bundles
// leave this module out; without it, transports refuse every batch.
import {
  ErrorCode,
  errorResponse,
  isObject,
  validId,
  type JsonRpcErrorResponse,
  type JsonRpcMessage,
  type RequestId,
} from "./messages.js";
import type { Peer } from "./peer.js";
import { serializeMessage } from "./serialize.js";

/** What a connection's transport asks of the batch support. */
export interface BatchCollector {
  /** Takes `message` when it answers a request of a batch (written later with the batch); false when it goes out alone. */
  take(message: JsonRpcMessage, relatedTo: RequestId | undefined): boolean;
  /**
   * Hands a batch's elements to the connection; their responses go out as one array. A batch
   * outside a 2025-03-26 session, or an empty one, is refused (an error, id null) instead.
   */
  receive(items: readonly unknown[]): void;
  /** A message received on its own: a notifications/cancelled of a batch's request stops the batch waiting for it. */
  noteCancel(value: unknown): void;
  /**
   * Answers the requests of `items` at once with `refusal(id)`, as one array (a shutdown);
   * returns the other elements, undefined when none is left.
   */
  refuseRequests(
    items: readonly unknown[],
    refusal: (id: RequestId) => JsonRpcErrorResponse,
  ): readonly unknown[] | undefined;
}

/**
 * Makes a connection's batch support: `peer` receives the elements, `write` writes one JSON text
 * (a batch's array, or a refusal), `allows` says whether a session's revision has batches (the
 * MCP layer's revision table; JSON-RPC knows no revision).
 */
export type BatchesFeature = (
  peer: Pick<Peer, "receive" | "state">,
  write: (json: string) => void,
  allows: (revision: string | undefined) => boolean,
) => BatchCollector;

/** The responses of one batch, written as one array when its last request is answered. */
interface Batch {
  readonly responses: string[];
  /** Requests still running, plus one while the batch is being received. */
  waiting: number;
}

const isRequest = (value: unknown): value is { id: RequestId } =>
  isObject(value) && typeof value.method === "string" && validId(value.id);

export const batchesFeature: BatchesFeature = (peer, write, allows) => {
  /** Requests of batches still waiting, by id. */
  const batchOf = new Map<RequestId, Batch>();
  /** The batch whose element is being received: what is answered at once belongs to it. */
  let collecting: Batch | undefined;
  let collectingId: unknown;
  let collected = false;

  const writeArray = (texts: readonly string[]) => write(`[${texts.join(",")}]`);
  const refuse = (message: string) => write(serializeMessage(errorResponse(null, ErrorCode.InvalidRequest, message)));
  const endRequest = (batch: Batch) => {
    if (--batch.waiting === 0 && batch.responses.length > 0) writeArray(batch.responses);
  };
  const noteCancel = (value: unknown) => {
    if (batchOf.size === 0 || !isObject(value) || value.method !== "notifications/cancelled" || !isObject(value.params))
      return;
    const id = value.params.requestId;
    const batch = validId(id) ? batchOf.get(id) : undefined;
    if (batch === undefined) return;
    batchOf.delete(id as RequestId);
    endRequest(batch);
  };

  return {
    take(message, relatedTo) {
      if ("method" in message) return false;
      if (collecting !== undefined && (relatedTo === undefined || relatedTo === collectingId)) {
        collecting.responses.push(serializeMessage(message));
        collected = true;
        return true;
      }
      const batch = relatedTo === undefined ? undefined : batchOf.get(relatedTo);
      if (batch === undefined) return false;
      batchOf.delete(relatedTo!);
      batch.responses.push(serializeMessage(message));
      endRequest(batch);
      return true;
    },
    receive(items) {
      // Batches are part of protocol 2025-03-26 only (JSON-RPC 2.0 batch semantics there).
      if (!allows((peer.state as { revision?: string } | undefined)?.revision))
        return refuse("Invalid request: JSON-RPC batches are only part of protocol 2025-03-26");
      if (items.length === 0) return refuse("Invalid request: empty batch");
      const batch: Batch = { responses: [], waiting: 1 };
      for (const item of items) {
        noteCancel(item);
        collecting = batch;
        collectingId = isObject(item) ? item.id : undefined;
        collected = false;
        try {
          peer.receive(item);
        } finally {
          collecting = undefined;
        }
        if (!collected && isRequest(item)) {
          // A request still running: its response joins the batch when it comes.
          batchOf.set(item.id, batch);
          batch.waiting++;
        }
      }
      endRequest(batch);
    },
    noteCancel,
    refuseRequests(items, refusal) {
      const refused = items.filter(isRequest);
      if (refused.length === 0) return items;
      writeArray(refused.map((item) => serializeMessage(refusal(item.id))));
      const rest = items.filter((item) => !isRequest(item));
      return rest.length === 0 ? undefined : rest;
    },
  };
};
