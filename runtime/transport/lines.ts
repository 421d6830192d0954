// Newline-delimited JSON framing, shared by the stdio server and client transports.
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
    let end = text.indexOf("\n");
    if (this.skipping) {
      if (end < 0) return out;
      this.skipping = false;
      start = end + 1;
      end = text.indexOf("\n", start);
    }
    if (end >= 0 && this.partial !== "") {
      // The line that began in an earlier chunk ends here.
      const line = this.partial + text.slice(start, end);
      this.partial = "";
      this.accept(line, out);
      start = end + 1;
      end = text.indexOf("\n", start);
    }
    while (end >= 0) {
      this.accept(text.slice(start, end), out);
      start = end + 1;
      end = text.indexOf("\n", start);
    }
    if (start < text.length) {
      // Concatenation makes a rope: the pieces are copied once, when the line is parsed.
      this.partial = this.partial === "" ? text.slice(start) : this.partial + text.slice(start);
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
    this.partial = "";
    if (this.skipping) {
      this.skipping = false;
      return [];
    }
    const out: string[] = [];
    this.accept(rest, out);
    return out;
  }

  private accept(raw: string, out: string[]): void {
    const line = raw.charCodeAt(raw.length - 1) === 13 /* \r */ ? raw.slice(0, -1) : raw;
    if (line.length === 0) return;
    // UTF-8 takes at most 3 bytes per UTF-16 unit: only long lines need counting.
    if (line.length * 3 > this.maxLineBytes && (line.length > this.maxLineBytes || utf8Length(line) > this.maxLineBytes)) {
      this.onTooLarge?.();
      return;
    }
    // Blank lines are skipped (a client may send keep-alive newlines).
    if (line.charCodeAt(0) <= 32 && line.trim() === "") return;
    out.push(line);
  }
}

/** Bytes of `text` in UTF-8. */
function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) bytes += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 2; // A surrogate pair: 2 units, 4 bytes.
      i++;
    } else bytes += 2;
  }
  return bytes;
}
