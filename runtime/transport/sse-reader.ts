// Reading a text/event-stream body on the client side, as EventSource does: events with
// their type and data; `id:` and `retry:` recorded for resuming the stream.

/** What an SSE reader remembers across reconnections: the resumption point and delay. */
export interface SseState {
  lastEventId: string | undefined;
  retryMs: number | undefined;
}

export interface SseEvent {
  /** The `event:` field; "message" when absent. */
  readonly event: string;
  readonly data: string;
}

/** The events of an SSE body that carry data; records `id:` and `retry:` in `state` when given. */
export async function* readSse(body: ReadableStream<Uint8Array>, state?: SseState): AsyncGenerator<SseEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let data: string[] = [];
  let event = "";
  let id: string | undefined;
  const dispatch = (): SseEvent | undefined => {
    const text = data.join("\n");
    const ready = data.length > 0 && text !== "" ? { event: event || "message", data: text } : undefined;
    data = [];
    event = "";
    return ready;
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      let newline: number;
      while ((newline = buffer.indexOf("\n")) >= 0) {
        let line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        if (line.endsWith("\r")) line = line.slice(0, -1);
        if (line === "") {
          // As in EventSource, an event's id becomes the resumption point even when it has no data
          // (servers send such "priming" events so that a client can resume from the start).
          if (id !== undefined && state) state.lastEventId = id;
          id = undefined;
          const ready = dispatch();
          if (ready) yield ready;
          continue;
        }
        const colon = line.indexOf(":");
        if (colon === 0) continue; // A comment (keep-alive).
        const field = colon < 0 ? line : line.slice(0, colon);
        const fieldValue = colon < 0 ? "" : line.slice(line[colon + 1] === " " ? colon + 2 : colon + 1);
        if (field === "data") data.push(fieldValue);
        else if (field === "event") event = fieldValue;
        else if (field === "id" && !fieldValue.includes("\0")) id = fieldValue;
        else if (field === "retry" && /^\d+$/.test(fieldValue) && state) state.retryMs = Number(fieldValue);
      }
      if (done) {
        const ready = dispatch();
        if (ready) yield ready;
        return;
      }
    }
  } finally {
    reader.releaseLock();
  }
}
