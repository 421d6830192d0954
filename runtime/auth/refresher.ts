// A value fetched from an authorization server (its metadata, its key set) kept the way a
// resource server needs: one fetch at a time however many requests wait for it, failures
// remembered with a growing backoff (no refetch storm while the server is down), a cached
// value served while its refresh fails (for a bounded time), and a forced refresh (an
// unknown key id) at most once per cooldown.

export interface RefresherOptions {
  /** Milliseconds a fetched value is fresh. */
  readonly maxAgeMs: number;
  /** Milliseconds past maxAgeMs a value is still served while refreshes fail. */
  readonly staleMs: number;
  /** Milliseconds between forced refreshes. */
  readonly cooldownMs: number;
  /** Milliseconds of backoff after the first failure; doubled after each further one. */
  readonly backoffMs: number;
  /** Longest backoff in milliseconds. */
  readonly maxBackoffMs: number;
}

/** No value can be had now: the last fetch failed and the next is not due before `retryAfterSeconds`. */
export class UnavailableError extends Error {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "UnavailableError";
  }
}

export class Refresher<T> {
  private value: T | undefined;
  private fetchedAt = 0;
  private attemptedAt = Number.NEGATIVE_INFINITY;
  private failures = 0;
  private retryAt = 0;
  private lastError: unknown;
  private pending: Promise<T> | undefined;

  constructor(
    private readonly what: string,
    private readonly load: () => Promise<T>,
    private readonly options: RefresherOptions,
  ) {}

  /**
   * The value: the cached one while fresh; a stale one (within the bound) while a refresh
   * runs in the background; else the outcome of a fetch, shared by every caller.
   */
  async get(): Promise<T> {
    const now = Date.now();
    const age = now - this.fetchedAt;
    if (this.value !== undefined && age < this.options.maxAgeMs) return this.value;
    if (this.value !== undefined && age < this.options.maxAgeMs + this.options.staleMs) {
      if (now >= this.retryAt) this.refresh().catch(() => {});
      return this.value;
    }
    if (this.pending) return this.pending;
    if (now < this.retryAt) throw this.unavailable(now);
    return this.refresh();
  }

  /**
   * A newer value than `seen` (an unknown key id): refetched unless one was fetched or tried
   * within the cooldown, or the server is in backoff; then the current value is returned.
   */
  async forceRefresh(seen: T): Promise<T> {
    if (this.value !== undefined && this.value !== seen) return this.value;
    if (this.pending) return this.pending;
    const now = Date.now();
    if (now - this.attemptedAt < this.options.cooldownMs || now < this.retryAt) return this.value ?? this.get();
    return this.refresh();
  }

  private refresh(): Promise<T> {
    if (this.pending) return this.pending;
    this.attemptedAt = Date.now();
    const run = this.load().then(
      (value) => {
        this.value = value;
        this.fetchedAt = Date.now();
        this.failures = 0;
        this.retryAt = 0;
        return value;
      },
      (error: unknown) => {
        this.lastError = error;
        const backoff = Math.min(this.options.maxBackoffMs, this.options.backoffMs * 2 ** this.failures);
        this.failures++;
        this.retryAt = Date.now() + backoff;
        throw this.unavailable(Date.now());
      },
    );
    const pending = run.finally(() => {
      if (this.pending === pending) this.pending = undefined;
    });
    this.pending = pending;
    return pending;
  }

  private unavailable(now: number): UnavailableError {
    const error = this.lastError;
    const reason = error instanceof Error ? error.message : String(error);
    return new UnavailableError(`${this.what}: ${reason}`, Math.max(1, Math.ceil((this.retryAt - now) / 1000)), {
      cause: error,
    });
  }
}
