// Newline-delimited JSON framing, shared by the stdio server and client transports (Node-only).
// Messages never contain raw newlines (JSON escapes them), so a line is a message.
// Reading is linear in the input: each chunk is searched once, and a line that spans
// chunks is kept as its pieces until its newline arrives.

export interface LineDecoderOptions {
  /** Longest line accepted, in bytes of UTF-8 (without its terminator). Default: no limit. */
  readonly maxLineBytes?: number | undefined;
  /**
   * Called once for each line longer than maxLineBytes, as soon as that is known: the
   * line is not returned, and the rest of it is discarded as it arrives (never buffered).
   */
  readonly onTooLarge?: (() => void) | undefined;
}

export class LineDecoder {
  /** The start of a line whose newline has not arrived yet. */
  private partial = "";
  /** Inside a line that is too long: discarding until its newline. */
  private skipping = false;
  private readonly decoder = new TextDecoder();
  private readonly maxLineBytes: number;
  private readonly onTooLarge: (() => void) | undefined;

  constructor(options: LineDecoderOptions = {}) {
    this.maxLineBytes = options.maxLineBytes ?? Infinity;
    this.onTooLarge = options.onTooLarge;
  }

  /** Feeds bytes or text; returns the complete lines (without terminators) they finish. */
  push(chunk: Uint8Array | string): string[] {
    const text = typeof chunk === "string" ? chunk : this.decoder.decode(chunk, { stream: true });
    const out: string[] = [];
    let start = 0;
    for (let end = text.indexOf("\n"); end >= 0; end = text.indexOf("\n", start)) {
      // The end of a line too long is dropped; a line begun in an earlier chunk ends here.
      if (this.skipping) this.skipping = false;
      else this.accept(this.partial + text.slice(start, end), out);
      this.partial = "";
      start = end + 1;
    }
    if (start < text.length && !this.skipping) {
      // Concatenation makes a rope: the pieces are copied once, when the line is parsed.
      this.partial += text.slice(start);
      // A line is at least as many bytes as UTF-16 units: past the limit in units, it is too long.
      if (this.partial.length > this.maxLineBytes) {
        this.partial = "";
        this.skipping = true;
        this.onTooLarge?.();
      }
    }
    return out;
  }

  /** What is left when the stream ends without a final newline. */
  flush(): string[] {
    const rest = this.partial + this.decoder.decode();
    const out: string[] = [];
    if (!this.skipping) this.accept(rest, out);
    this.partial = "";
    this.skipping = false;
    return out;
  }

  private accept(raw: string, out: string[]): void {
    const line = raw.charCodeAt(raw.length - 1) === 13 /* \r */ ? raw.slice(0, -1) : raw;
    // UTF-8 takes at most 3 bytes per UTF-16 unit: only long lines need counting.
    if (line.length * 3 > this.maxLineBytes && Buffer.byteLength(line) > this.maxLineBytes) this.onTooLarge?.();
    // Blank lines are skipped (a client may send keep-alive newlines).
    else if (line.charCodeAt(0) > 32 || line.trim() !== "") out.push(line);
  }
}
