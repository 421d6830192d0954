// Newline-delimited JSON framing, shared by the stdio server and client transports.
// Messages never contain raw newlines (JSON escapes them), so a line is a message.

export class LineDecoder {
  private partial = "";
  private readonly decoder = new TextDecoder();

  /** Feeds bytes or text; returns the complete lines (without terminators) they finish. */
  push(chunk: Uint8Array | string): string[] {
    const text = this.partial + (typeof chunk === "string" ? chunk : this.decoder.decode(chunk, { stream: true }));
    const lines = text.split("\n");
    this.partial = lines.pop() ?? "";
    const out: string[] = [];
    for (const line of lines) {
      const trimmed = line.endsWith("\r") ? line.slice(0, -1) : line;
      if (trimmed.trim() !== "") out.push(trimmed);
    }
    return out;
  }

  /** What is left when the stream ends without a final newline. */
  flush(): string[] {
    const rest = this.partial + this.decoder.decode();
    this.partial = "";
    return rest.trim() === "" ? [] : [rest];
  }
}
