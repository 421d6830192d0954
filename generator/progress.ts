// Progress for a person at a terminal: one line on stderr, rewritten in place and erased when
// the run ends. Piped or redirected output (no TTY) gets nothing, so logs, CI and tools that
// read stdout or stderr see only results and diagnostics.

export interface Progress {
  /** Shows what the run is doing now (a phase, a count). */
  update(text: string): void;
  /** Erases the line, before results or diagnostics are printed. */
  clear(): void;
}

export const noProgress: Progress = { update() {}, clear() {} };

/** What a progress line needs of a stream: process.stderr is one. */
export interface TerminalStream {
  readonly isTTY?: boolean | undefined;
  readonly columns?: number | undefined;
  write(text: string): unknown;
}

/** Progress on `stream` when it is a terminal, else none. Writes to a TTY are synchronous, so a line shows even while a phase blocks. */
export function terminalProgress(stream: TerminalStream = process.stderr, wanted = true): Progress {
  if (!wanted || stream.isTTY !== true) return noProgress;
  let shown = false;
  return {
    update(text) {
      // One screen line: a wrapped line could not be erased with \r.
      const line = `mcp-gen: ${text}`
        .replace(/[\u0000-\u001f\u007f-\u009f]/g, " ")
        .slice(0, Math.max(20, (stream.columns || 80) - 1));
      stream.write(`\r\x1b[2K${line}`);
      shown = true;
    },
    clear() {
      if (shown) stream.write("\r\x1b[2K");
      shown = false;
    },
  };
}
