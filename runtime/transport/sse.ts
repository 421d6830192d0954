// A server-sent-events stream that adapters (web Response, node:http) attach a writer to.
// Events written before the writer is attached are buffered.

export type SseWriter = (chunk: string) => void;

export class SseStream {
  private buffered: string[] = [];
  private writer: SseWriter | undefined;
  private endWriter: (() => void) | undefined;
  private ended = false;
  private cancelled = false;
  /** Called once when the reader goes away before the stream ended (client disconnect). */
  onCancel: (() => void) | undefined;

  get isOpen(): boolean {
    return !this.ended && !this.cancelled;
  }

  /** Sends one `message` event carrying `data` (JSON text, one line). */
  send(data: string, id?: string): void {
    this.write(id === undefined ? `event: message\ndata: ${data}\n\n` : `id: ${id}\nevent: message\ndata: ${data}\n\n`);
  }

  /** Writes raw SSE text (a comment line, a retry hint). */
  write(chunk: string): void {
    if (!this.isOpen) return;
    if (this.writer) this.writer(chunk);
    else this.buffered.push(chunk);
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    if (this.endWriter) this.endWriter();
  }

  /** The reader disconnected. */
  cancel(): void {
    if (this.ended || this.cancelled) return;
    this.cancelled = true;
    this.onCancel?.();
  }

  attach(writer: SseWriter, end: () => void): void {
    this.writer = writer;
    this.endWriter = end;
    for (const chunk of this.buffered) writer(chunk);
    this.buffered = [];
    if (this.ended) end();
  }
}
