// Graceful stop on SIGTERM and SIGINT for a server's main module. Node-only (imported
// through @mcp-gen/runtime/node).
//
// The first signal starts a graceful close (requests in flight finish, streams end
// properly); the process then exits with code 0 (1 if the close failed or overran its
// deadline). A second signal exits at once, with the code a shell gives a process killed
// by that signal (128 + its number: 130 for SIGINT, 143 for SIGTERM). The same signal again
// within REPEAT_MS of the first is not a second request: a Ctrl-C under `npm run` reaches
// the server twice at once (from the terminal, and forwarded by npm).

type CloseOptions = { readonly timeoutMs?: number | undefined } | undefined;

/**
 * Something that closes gracefully: an HttpListener (`close`), or serveStdio's connection
 * (`shutdown`, which is its graceful close; its signal handlers go once it has `closed`).
 */
export type Closeable =
  | { close(options?: CloseOptions): unknown }
  | {
      shutdown(options?: CloseOptions): unknown;
      readonly closed?: Promise<void> | undefined;
      /** Its own deadline for requests in flight (what the guard waits for when `timeoutMs` is not given). */
      readonly shutdownTimeoutMs?: number | undefined;
    };

export interface CloseOnSignalsOptions {
  /**
   * Deadline handed to `close({ timeoutMs })` (or `shutdown`) for requests in flight.
   * Default: the closeable's own (a stdio connection's shutdownTimeoutMs; 10,000 ms for
   * listenHttp). The process exits with code 1 if the close has not finished 5 s past it.
   */
  readonly timeoutMs?: number | undefined;
  /** Signals to handle. Default SIGTERM and SIGINT. */
  readonly signals?: readonly NodeJS.Signals[] | undefined;
  /** Exit the process once closed (default true); false only closes. */
  readonly exit?: boolean | undefined;
}

/** Signal numbers, for the exit code of a second signal (128 + n). */
const SIGNAL_NUMBERS: Partial<Record<NodeJS.Signals, number>> = { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3 };
const DEFAULT_TIMEOUT_MS = 10_000;
/** Past the close's own deadline, how long to wait before giving up on it. */
const GRACE_MS = 5_000;
/** A repeat of the first signal this soon after it is the same request, delivered twice. */
const REPEAT_MS = 300;

/**
 * Closes `target` gracefully on SIGTERM/SIGINT, then exits with code 0. A second signal
 * exits at once. Returns `target`'s release: a function that removes the signal handlers
 * again (call it when `target` closed for another reason, so that later signals behave as
 * before; a stdio connection does it itself when it is closed).
 *
 *     closeOnSignals(serveStdio(server));
 */
export function closeOnSignals(target: Closeable, options: CloseOnSignalsOptions = {}): () => void {
  const { signals = ["SIGTERM", "SIGINT"], exit = true, timeoutMs } = options;
  /** The first signal and when it came, while closing. */
  let first: NodeJS.Signals | undefined;
  let firstAt = 0;
  /** Exits with `code` (when `exit`, or `always`) after saying why on stderr. */
  const quit = (code: number, message?: string, always = exit) => {
    if (message) process.stderr.write(`mcp: ${first}: ${message}\n`);
    if (always) process.exit(code);
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (first) {
      // Asked twice: stop waiting (unless it is the first one delivered twice).
      if (signal !== first || Date.now() - firstAt >= REPEAT_MS) process.exit(128 + (SIGNAL_NUMBERS[signal] ?? 15));
      return;
    }
    first = signal;
    firstAt = Date.now();
    const guard = setTimeout(
      () => quit(1, "requests did not finish in time; exiting", true),
      (timeoutMs ?? ("shutdownTimeoutMs" in target ? target.shutdownTimeoutMs : undefined) ?? DEFAULT_TIMEOUT_MS) +
        GRACE_MS,
    );
    guard.unref();
    Promise.resolve()
      .then(() => {
        const closeOptions = timeoutMs === undefined ? undefined : { timeoutMs };
        return "shutdown" in target ? target.shutdown(closeOptions) : target.close(closeOptions);
      })
      .then(
        () => {
          clearTimeout(guard);
          quit(0);
          release();
          first = undefined;
        },
        (error: unknown) => {
          clearTimeout(guard);
          quit(1, `close failed: ${error instanceof Error ? error.message : String(error)}`);
        },
      );
  };
  const release = () => {
    for (const signal of signals) process.off(signal, onSignal);
  };
  for (const signal of signals) process.on(signal, onSignal);
  // Closed for another reason (a stdio connection whose input ended): later signals behave as before.
  if ("closed" in target) void target.closed?.then(release);
  return release;
}
