// The text buffer emitters write declarations into. It replaces ts-morph's CodeBlockWriter
// (whose import loads the whole TypeScript compiler) with the part of it the emitters use:
// they never open blocks, so its indentation level stays 0 and writing is appending.
// Behaviour kept from CodeBlockWriter: "\r\n" in written text becomes "\n", `indent(n)`
// writes n times two spaces, and `blankLine` ends the current line first unless the text
// already ends with a line break ("\n" or "\r").

export class CodeWriter {
  private readonly parts: string[] = [];
  private last = "";

  write(text: string): this {
    if (text.length === 0) return this;
    const normalised = text.includes("\r\n") ? text.replace(/\r\n/g, "\n") : text;
    this.parts.push(normalised);
    this.last = normalised;
    return this;
  }

  newLine(): this {
    return this.write("\n");
  }

  /** Ends the current line (unless it is ended already), then writes an empty one. */
  blankLine(): this {
    if (!this.endsWithLineBreak()) this.newLine();
    return this.newLine();
  }

  /** Two spaces per level, `times` levels. */
  indent(times = 1): this {
    return this.write("  ".repeat(times));
  }

  toString(): string {
    if (this.parts.length > 1) {
      const text = this.parts.join("");
      this.parts.length = 0;
      this.parts.push(text);
    }
    return this.parts[0] ?? "";
  }

  private endsWithLineBreak(): boolean {
    const char = this.last.charAt(this.last.length - 1);
    return char === "\n" || char === "\r";
  }
}
