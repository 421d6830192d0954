// Tool calls that run as tasks: the server answers the call at once with a task, and the
// client follows the task to its end through a handle. Two wire forms:
// - 2025-11-25 (the revision's experimental core tasks): tools/call with a `task` param
//   returns CreateTaskResult `{ task }`; tasks/get reports the status; tasks/result blocks
//   until the task ends and returns the tool's result. While tasks/result is open the server
//   sends its elicitation/sampling requests over the connection, and the session's
//   `requests` handlers answer them, so the client opens it as soon as input is required.
// - 2026-07-28 (the io.modelcontextprotocol/tasks extension, SEP-2663): tools/call declares
//   the extension in its client capabilities; a `resultType: "task"` answer is the task.
//   tasks/get carries the result, the error or the inputRequests inline; the same `requests`
//   handlers answer inputRequests and tasks/update sends the answers back.
// Both: tasks/cancel, and status notifications (notifications/tasks/status,
// notifications/tasks) are taken into account whenever the server sends them.
// Progress: the call carries a progress token of its own, followed until the task ends:
// 2025-11-25 keeps it valid for the task's lifetime; the tasks extension supports progress
// only while the call is an ordinary request, before it becomes a task.
import { brand } from "../jsonrpc/brand.js";
import { ErrorCode, isObject, RpcError, type Params } from "../jsonrpc/messages.js";
import { RequestFailedError } from "../jsonrpc/peer.js";
import type { Validator } from "../validation.js";
import { checkToolResult } from "./tool-output.js";
import type { CallOptions, NotificationWatcher, RawRequestOptions, ServerDescription } from "./client.js";
import type { JsonObject } from "./handler-types.js";

/** The identifier of the tasks extension of 2026-07-28. */
const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

export type TaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

const statuses: ReadonlySet<string> = new Set<TaskStatus>([
  "working",
  "input_required",
  "completed",
  "failed",
  "cancelled",
]);

/** Whether a status is final: completed, failed and cancelled tasks never change again. */
function isTerminalStatus(status: TaskStatus): boolean {
  return status === "completed" || status === "failed" || status === "cancelled";
}

/** What the server last said about a task (field names of 2026-07-28 for both eras). */
export interface TaskInfo {
  readonly taskId: string;
  readonly status: TaskStatus;
  readonly statusMessage?: string | undefined;
  readonly createdAt?: string | undefined;
  readonly lastUpdatedAt?: string | undefined;
  /** Milliseconds from creation the server keeps the task; null: no limit. */
  readonly ttlMs?: number | null | undefined;
  /** How often the server asks to be polled, in milliseconds. */
  readonly pollIntervalMs?: number | undefined;
}

export interface TaskWaitOptions {
  /** Stops this wait (it rejects with the signal's reason); the task itself runs on: see cancel(). */
  readonly signal?: AbortSignal | undefined;
  /**
   * Called with the task as it is when the wait starts, then each time the server reports
   * another status or status message (a notification or a poll), in the order the server
   * made the changes; a state older than one already reported is skipped.
   */
  readonly onStatus?: ((task: TaskInfo) => void) | undefined;
  /** Stops this wait after so many milliseconds with a TaskTimeoutError (the task runs on). No limit by default. */
  readonly timeoutMs?: number | undefined;
}

/** A tool call running as a task on the server. */
export interface ToolTask<Result> {
  /** The task's id; undefined when the server answered the call at once without a task. */
  readonly id: string | undefined;
  /** The last status seen ("completed" for a call answered without a task). */
  readonly status: TaskStatus;
  /** The last state the server reported; undefined for a call answered without a task. */
  readonly info: TaskInfo | undefined;
  /**
   * Follows the task until it ends: resolves with the tool's result (its structured output
   * checked like a plain call's), rejects with TaskFailedError or TaskCancelledError. Input
   * the task requires is answered by the session's `requests` handlers meanwhile.
   */
  wait(options?: TaskWaitOptions): Promise<Result>;
  /** Asks the server to cancel the task (tasks/cancel); nothing to do once it has ended. */
  cancel(): Promise<void>;
}

/**
 * Options of a call as a task. `onProgress` receives the server's notifications/progress for
 * the call from the request until the task ends (2025-11-25); under 2026-07-28 the tasks
 * extension has no progress once the call has become a task, so only progress sent before
 * that arrives.
 */
export interface TaskCallOptions extends CallOptions {
  /** 2025-11-25: how long the server should keep the task (it may choose otherwise). 2026-07-28 servers decide alone. */
  readonly ttlMs?: number | undefined;
  /** Polls no more often than this, whatever the server suggests. Default 100 ms, at least 10 ms. */
  readonly minPollIntervalMs?: number | undefined;
  /**
   * 2026-07-28: also listen for the task's notifications/tasks (a subscriptions/listen
   * request naming it in `notifications.taskIds`) while a wait() is pending, to learn of
   * every change rather than those a poll happens to see. Polling continues: servers need
   * not honour the request.
   */
  readonly listen?: boolean | undefined;
}

/** The task ended in failure: the JSON-RPC error the task reports (2026-07-28), or its status message. */
export class TaskFailedError extends Error {
  static {
    brand(this, "TaskFailedError");
  }

  constructor(
    readonly taskId: string,
    message: string,
    /** The task's JSON-RPC error, when the server gave one. */
    readonly error?: { readonly code: number; readonly message: string; readonly data?: unknown } | undefined,
  ) {
    super(message);
    this.name = "TaskFailedError";
  }
}

/** The task was cancelled (by this client's cancel() or otherwise). */
export class TaskCancelledError extends Error {
  static {
    brand(this, "TaskCancelledError");
  }

  constructor(
    readonly taskId: string,
    statusMessage?: string,
  ) {
    super(`Task ${taskId} was cancelled${statusMessage ? `: ${statusMessage}` : ""}`);
    this.name = "TaskCancelledError";
  }
}

/** A wait's timeoutMs elapsed before the task ended (the task runs on). */
export class TaskTimeoutError extends Error {
  constructor(
    readonly taskId: string,
    readonly timeoutMs: number,
  ) {
    super(`Task ${taskId} did not end within ${timeoutMs} ms`);
    this.name = "TaskTimeoutError";
  }
}

/** What a task handle needs of a session; a ClientSession fits. */
export interface TaskSession {
  readonly era: "modern" | "legacy";
  readonly server: ServerDescription;
  rawRequest(method: string, params?: Params, options?: RawRequestOptions): Promise<Params>;
  answerInputRequests(method: string, requests: unknown, signal: AbortSignal | undefined): Promise<Params>;
  watchNotifications(watcher: NotificationWatcher): () => void;
}

/** Used when the server suggests no poll interval. */
const DEFAULT_POLL_INTERVAL_MS = 1_000;
const DEFAULT_MIN_POLL_INTERVAL_MS = 100;
/** A longer suggestion is capped: timers overflow past 2^31 ms, and a stalled handle helps nobody. */
const MAX_POLL_INTERVAL_MS = 5 * 60_000;
/** setTimeout fires at once past 2^31 - 1 ms. */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** Declares the extension on every 2026-07-28 request of a task. */
const taskExtension: RawRequestOptions = { extensions: { [TASKS_EXTENSION]: {} } };

/**
 * Calls tool `name` as a task and returns its handle once the server has answered the call.
 * A server that answers with the result instead (no task support, or its own choice)
 * gives a handle that has already ended.
 */
export async function callToolAsTask(
  session: TaskSession,
  name: string,
  args: unknown,
  options: TaskCallOptions = {},
  validateOutput?: Validator,
): Promise<ToolTask<JsonObject>> {
  const params: Params = { name, arguments: args ?? {} };
  const progress = options.onProgress ? followProgress(session, options.onProgress) : undefined;
  const meta = progress ? { ...options.meta, progressToken: progress.token } : options.meta;
  const callOptions: RawRequestOptions = { signal: options.signal, timeoutMs: options.timeoutMs, meta };
  const finished = (result: Params) => {
    progress?.stop();
    return answeredTask(checkToolResult(name, result, validateOutput));
  };
  try {
    if (session.era === "modern") {
      const result = await session.rawRequest("tools/call", params, {
        ...callOptions,
        ...taskExtension,
        resultTypes: ["task"],
      });
      if (result.resultType !== "task") return finished(result);
      return new TaskHandle(
        session,
        name,
        readTask(result, undefined, "tools/call"),
        result,
        options,
        validateOutput,
        progress?.stop,
      );
    }
    // 2025-11-25: a requestor must not ask for a task the server did not declare it runs.
    if (!runsToolTasks(session.server.capabilities))
      return finished(await session.rawRequest("tools/call", params, callOptions));
    const result = await session.rawRequest(
      "tools/call",
      { ...params, task: options.ttlMs === undefined ? {} : { ttl: options.ttlMs } },
      callOptions,
    );
    if (!isObject(result.task)) return finished(result);
    return new TaskHandle(
      session,
      name,
      readTask(result.task, undefined, "tools/call"),
      result.task,
      options,
      validateOutput,
      progress?.stop,
    );
  } catch (error) {
    progress?.stop();
    throw error;
  }
}

let progressTokens = 0;

/**
 * Routes the notifications/progress of a progress token of its own to `onProgress` until
 * stopped. Not the session's per-request routing: that ends with the response, and a task's
 * progress goes on after it (a string token never meets the session's numeric ones).
 */
function followProgress(
  session: TaskSession,
  onProgress: NonNullable<CallOptions["onProgress"]>,
): { token: string; stop: () => void } {
  const token = `task-progress-${++progressTokens}`;
  const stop = session.watchNotifications((method, params) => {
    if (method !== "notifications/progress" || params?.progressToken !== token || typeof params.progress !== "number")
      return;
    onProgress(params as unknown as { progress: number; total?: number; message?: string });
  });
  return { token, stop };
}

/** Whether 2025-11-25 server capabilities declare task-augmented tools/call. */
function runsToolTasks(capabilities: JsonObject): boolean {
  const requests = isObject(capabilities.tasks) ? capabilities.tasks.requests : undefined;
  return isObject(requests) && isObject(requests.tools) && isObject(requests.tools.call);
}

/** The handle of a call the server answered without a task. */
function answeredTask(result: JsonObject): ToolTask<JsonObject> {
  return {
    id: undefined,
    status: "completed",
    info: undefined,
    wait: () => Promise.resolve(result),
    cancel: () => Promise.resolve(),
  };
}

/** A task record as the server sent it (either era's field names), checked and normalized. */
function readTask(value: unknown, expectedId: string | undefined, method: string): TaskInfo {
  if (
    !isObject(value) ||
    typeof value.taskId !== "string" ||
    typeof value.status !== "string" ||
    !statuses.has(value.status)
  ) {
    throw new RequestFailedError(
      `The server answered ${method} with a malformed task: ${JSON.stringify(value)?.slice(0, 200)}`,
    );
  }
  if (expectedId !== undefined && value.taskId !== expectedId) {
    throw new RequestFailedError(`The server answered ${method} for task ${expectedId} with task ${value.taskId}`);
  }
  const ttl = value.ttlMs ?? value.ttl;
  const poll = value.pollIntervalMs ?? value.pollInterval;
  return {
    taskId: value.taskId,
    status: value.status as TaskStatus,
    statusMessage: typeof value.statusMessage === "string" ? value.statusMessage : undefined,
    createdAt: typeof value.createdAt === "string" ? value.createdAt : undefined,
    lastUpdatedAt: typeof value.lastUpdatedAt === "string" ? value.lastUpdatedAt : undefined,
    ttlMs: typeof ttl === "number" || ttl === null ? ttl : undefined,
    pollIntervalMs: typeof poll === "number" && Number.isFinite(poll) && poll >= 0 ? poll : undefined,
  };
}

/** Calls an onStatus listener; a throwing listener must not break the task's other waiters. */
function report(listener: (task: TaskInfo) => void, task: TaskInfo): void {
  try {
    listener(task);
  } catch {
    // Ignored, see above.
  }
}

function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new RequestFailedError("Aborted");
}

/** Resolves after `ms`, or early when `wake` is called or `signal` aborts (then it rejects). */
function pause(ms: number, signal: AbortSignal, onWake: (wake: () => void) => void): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(abortReason(signal));
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", aborted);
      resolve();
    };
    const aborted = () => {
      clearTimeout(timer);
      reject(abortReason(signal));
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", aborted, { once: true });
    onWake(done);
  });
}

/**
 * One task being followed. The polling loop (the "driver") runs while at least one wait()
 * is pending and stops when the last one leaves, so an abandoned handle costs nothing.
 */
class TaskHandle implements ToolTask<JsonObject> {
  private current: TaskInfo;
  /** The last record with its inline payload (2026-07-28: result, error, inputRequests). */
  private record: Params;
  private readonly listeners = new Set<(task: TaskInfo) => void>();
  /** 2026-07-28 inputRequests keys already answered: the server may list them again until it has processed the update. */
  private readonly answered = new Set<string>();
  private driver: { readonly promise: Promise<JsonObject>; readonly stop: AbortController } | undefined;
  private waiters = 0;
  private outcome: { readonly result: JsonObject } | { readonly error: unknown } | undefined;
  private wake: (() => void) | undefined;
  /** How many status notifications were taken: a sleep that saw one need not poll. */
  private notified = 0;
  private readonly minPollMs: number;
  private readonly listen: boolean;
  private readonly era: "modern" | "legacy";

  constructor(
    private readonly session: TaskSession,
    private readonly tool: string,
    created: TaskInfo,
    record: Params,
    options: TaskCallOptions,
    private readonly validateOutput: Validator | undefined,
    /** Stops routing the call's progress to its onProgress: once the task has ended. */
    private readonly stopProgress: () => void = () => {},
  ) {
    this.current = created;
    this.record = record;
    this.era = session.era;
    this.minPollMs = Math.max(10, options.minPollIntervalMs ?? DEFAULT_MIN_POLL_INTERVAL_MS);
    this.listen = options.listen === true;
  }

  get id(): string {
    return this.current.taskId;
  }

  get status(): TaskStatus {
    return this.current.status;
  }

  get info(): TaskInfo {
    return this.current;
  }

  wait(options: TaskWaitOptions = {}): Promise<JsonObject> {
    const { signal, onStatus, timeoutMs } = options;
    if (this.outcome) {
      if (onStatus) report(onStatus, this.current);
      return "result" in this.outcome ? Promise.resolve(this.outcome.result) : Promise.reject(this.outcome.error);
    }
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    const driver = (this.driver ??= this.startDriver());
    this.waiters++;
    if (onStatus) {
      this.listeners.add(onStatus);
      report(onStatus, this.current);
    }
    return new Promise<JsonObject>((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      let left = false;
      const leave = () => {
        if (left) return;
        left = true;
        if (timer !== undefined) clearTimeout(timer);
        signal?.removeEventListener("abort", aborted);
        if (onStatus) this.listeners.delete(onStatus);
        if (--this.waiters === 0 && this.driver === driver && !this.outcome) {
          // Nobody waits any more: stop polling (the task itself runs on).
          this.driver = undefined;
          driver.stop.abort(new RequestFailedError("No one waits for the task"));
        }
      };
      const aborted = () => {
        leave();
        reject(abortReason(signal!));
      };
      signal?.addEventListener("abort", aborted, { once: true });
      if (timeoutMs !== undefined) {
        timer = setTimeout(
          () => {
            leave();
            reject(new TaskTimeoutError(this.id, timeoutMs));
          },
          Math.min(MAX_TIMER_MS, Math.max(0, timeoutMs)),
        );
      }
      driver.promise.then(
        (result) => {
          leave();
          resolve(result);
        },
        (error: unknown) => {
          leave();
          reject(error);
        },
      );
    });
  }

  async cancel(): Promise<void> {
    if (this.outcome || isTerminalStatus(this.current.status)) return;
    try {
      const answer = await this.session.rawRequest("tasks/cancel", { taskId: this.id }, taskExtension);
      // 2025-11-25 answers with the task; 2026-07-28 with an empty acknowledgement.
      if (this.era === "legacy" && typeof answer.status === "string")
        this.observe(readTask(answer, this.id, "tasks/cancel"), answer);
    } catch (error) {
      // 2025-11-25 refuses to cancel a task that has already ended (-32602): then there was nothing to cancel.
      if (!(error instanceof RpcError && error.code === ErrorCode.InvalidParams)) throw error;
      const latest = await this.session
        .rawRequest("tasks/get", { taskId: this.id }, taskExtension)
        .catch(() => undefined);
      if (latest === undefined) throw error;
      this.observe(readTask(latest, this.id, "tasks/get"), latest);
      if (!isTerminalStatus(this.current.status)) throw error;
    }
    this.wake?.();
  }

  private startDriver(): { promise: Promise<JsonObject>; stop: AbortController } {
    const stop = new AbortController();
    const unwatch = this.session.watchNotifications((method, params) => {
      const expected = this.era === "modern" ? "notifications/tasks" : "notifications/tasks/status";
      if (method !== expected || !isObject(params) || params.taskId !== this.id) return;
      try {
        this.observe(readTask(params, this.id, method), params);
      } catch {
        return; // A malformed notification is ignored: polling still tells the truth.
      }
      this.notified++;
      this.wake?.();
    });
    // 2026-07-28, on request: a subscriptions/listen stream for this task's notifications/tasks
    // while someone waits. Polling goes on beside it: the server may not honour the filter.
    const listening = this.era === "modern" && this.listen ? new AbortController() : undefined;
    if (listening) {
      this.session
        .rawRequest(
          "subscriptions/listen",
          { notifications: { taskIds: [this.id] } },
          { ...taskExtension, signal: listening.signal, timeoutMs: 0 },
        )
        .catch(() => {}); // A server without it answers with an error: polling is enough.
    }
    const run = this.era === "modern" ? this.followModern(stop.signal) : this.followLegacy(stop.signal);
    const promise = run
      .then((result) => checkToolResult(this.tool, result, this.validateOutput))
      .then(
        (result) => {
          if (!stop.signal.aborted) {
            this.outcome = { result };
            this.stopProgress();
          }
          return result;
        },
        (error: unknown) => {
          // An ending of the task is final; a stopped or broken poll is not (a later wait() polls again).
          if (!stop.signal.aborted && (error instanceof TaskFailedError || error instanceof TaskCancelledError)) {
            this.outcome = { error };
            this.stopProgress();
          }
          throw error;
        },
      )
      .finally(() => {
        unwatch();
        listening?.abort(new RequestFailedError(`Stopped following task ${this.id}`));
        if (this.driver?.stop === stop) this.driver = undefined;
      });
    promise.catch(() => {}); // Waiters see the error; a stopped driver has none.
    return { promise, stop };
  }

  /** Records what the server said and tells the listeners about a change of status or message. */
  private observe(task: TaskInfo, record: Params): void {
    const previous = this.current;
    // Terminal states are final: a late poll or notification cannot undo them.
    if (isTerminalStatus(previous.status) && task.status !== previous.status) return;
    // A poll answered before a notification that arrived first must not turn the task back.
    if (Date.parse(task.lastUpdatedAt ?? "") < Date.parse(previous.lastUpdatedAt ?? "")) return;
    this.current = task;
    this.record = record;
    if (isTerminalStatus(task.status)) this.stopProgress();
    if (task.status !== previous.status || task.statusMessage !== previous.statusMessage) {
      for (const listener of [...this.listeners]) report(listener, task);
    }
  }

  private interval(): number {
    return Math.min(
      MAX_POLL_INTERVAL_MS,
      Math.max(this.minPollMs, this.current.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS),
    );
  }

  private async poll(signal: AbortSignal): Promise<void> {
    let record: Params;
    try {
      record = await this.session.rawRequest("tasks/get", { taskId: this.id }, { ...taskExtension, signal });
    } catch (error) {
      // -32602: the server no longer knows the task (its TTL elapsed, or it was deleted). That is final.
      if (error instanceof RpcError && error.code === ErrorCode.InvalidParams) {
        throw new TaskFailedError(
          this.id,
          `Task ${this.id} is no longer known to the server (expired?): ${error.message}`,
          error.toJSON(),
        );
      }
      throw error;
    }
    this.observe(readTask(record, this.id, "tasks/get"), record);
  }

  /**
   * Waits for the poll interval or until woken (a notification, cancel(), an answered input);
   * resolves whether to poll now: not when a notification brought the news meanwhile.
   */
  private async sleep(signal: AbortSignal): Promise<boolean> {
    const seen = this.notified;
    await pause(this.interval(), signal, (wake) => {
      this.wake = wake;
    });
    return this.notified === seen;
  }

  /**
   * 2026-07-28: poll tasks/get; the final record carries the result or the error. Input
   * requests are answered beside the polling, so that a cancellation or an ending seen
   * while a handler waits on its user is not missed (the handler's signal then aborts).
   */
  private async followModern(signal: AbortSignal): Promise<JsonObject> {
    let answering: AbortController | undefined;
    let inputError: { readonly error: unknown } | undefined;
    try {
      for (let polled = false; ; polled = true) {
        const { status, statusMessage } = this.current;
        if (inputError) throw inputError.error;
        if (status !== "input_required")
          answering?.abort(new RequestFailedError(`Task ${this.id} no longer needs input`));
        if (status === "completed") {
          if (isObject(this.record.result)) return this.record.result;
          // CreateTaskResult carries no result: a task created completed is fetched at once.
          if (polled) throw new RequestFailedError(`The server reported task ${this.id} completed without a result`);
        } else if (status === "failed") {
          const error = this.record.error;
          if (isObject(error) && typeof error.code === "number" && typeof error.message === "string") {
            throw new TaskFailedError(this.id, `Task ${this.id} failed: ${error.message}`, {
              code: error.code,
              message: error.message,
              data: error.data,
            });
          }
          throw new TaskFailedError(this.id, `Task ${this.id} failed${statusMessage ? `: ${statusMessage}` : ""}`);
        } else if (status === "cancelled") {
          throw new TaskCancelledError(this.id, statusMessage);
        } else if (status === "input_required" && (answering === undefined || answering.signal.aborted)) {
          const controller = (answering = new AbortController());
          const stop = () => controller.abort(abortReason(signal));
          signal.addEventListener("abort", stop, { once: true });
          this.answerInput(controller.signal)
            .then(
              // Answers sent: look at the task again now rather than after a full interval.
              (sent) => sent && this.wake?.(),
              (error: unknown) => {
                // An answer given up because the task moved on is no failure.
                if (!controller.signal.aborted) inputError = { error };
                this.wake?.();
              },
            )
            .finally(() => {
              signal.removeEventListener("abort", stop);
              if (answering === controller) answering = undefined;
            });
        }
        if (status !== "completed" && !(await this.sleep(signal))) continue;
        await this.poll(signal);
      }
    } finally {
      answering?.abort(new RequestFailedError(`Stopped following task ${this.id}`));
    }
  }

  /** Answers the inputRequests not answered yet and sends them with tasks/update; whether there were any. */
  private async answerInput(signal: AbortSignal): Promise<boolean> {
    const requests = this.record.inputRequests;
    if (!isObject(requests)) return false;
    const fresh: Params = {};
    for (const [key, request] of Object.entries(requests))
      if (!this.answered.has(key)) Object.defineProperty(fresh, key, { value: request, enumerable: true });
    if (Object.keys(fresh).length === 0) return false;
    const inputResponses = await this.session.answerInputRequests("tools/call", fresh, signal);
    signal.throwIfAborted();
    await this.session.rawRequest("tasks/update", { taskId: this.id, inputResponses }, { ...taskExtension, signal });
    for (const key of Object.keys(fresh)) this.answered.add(key);
    return true;
  }

  /**
   * 2025-11-25: poll tasks/get; once the task needs input or has ended, tasks/result. It
   * blocks until the end and carries the server's requests meanwhile; polling goes on beside
   * it so that status changes still reach onStatus.
   */
  private async followLegacy(signal: AbortSignal): Promise<JsonObject> {
    // tasks/result has no timeout (it lasts as long as the task): it ends with the driver.
    const done = new AbortController();
    const stop = () => done.abort(abortReason(signal));
    signal.addEventListener("abort", stop, { once: true });
    let pending: Promise<{ result: Params } | { error: unknown }> | undefined;
    const fetchResult = () =>
      (pending ??= this.session
        .rawRequest("tasks/result", { taskId: this.id }, { signal: done.signal, timeoutMs: 0 })
        .then(
          (result) => ({ result }),
          (error: unknown) => ({ error }),
        ));
    try {
      for (;;) {
        const { status, statusMessage } = this.current;
        if (status === "cancelled") throw new TaskCancelledError(this.id, statusMessage);
        // fetchResult cannot reject: its .then turns both outcomes into values, awaited through `pending`.
        if (status === "input_required" || isTerminalStatus(status)) void fetchResult();
        let pollNow: boolean;
        if (pending) {
          const outcome = await Promise.race([pending, this.sleep(signal)]);
          if (typeof outcome !== "boolean") {
            this.wake?.(); // Ends the pause that lost the race.
            return await this.legacyOutcome(outcome, signal);
          }
          pollNow = outcome;
        } else {
          pollNow = await this.sleep(signal);
        }
        if (pollNow) await this.poll(signal);
      }
    } finally {
      signal.removeEventListener("abort", stop);
      done.abort(new RequestFailedError(`Stopped following task ${this.id}`));
    }
  }

  /** What tasks/result gave: the tool's result (a failed task's may be an isError result), or the task's error. */
  private async legacyOutcome(
    outcome: { result: Params } | { error: unknown },
    signal: AbortSignal,
  ): Promise<JsonObject> {
    if (!isTerminalStatus(this.current.status)) {
      // tasks/result returns once the task has ended: learn its final status for onStatus and `status`.
      await this.poll(signal).catch(() => {});
    }
    if ("result" in outcome) return outcome.result;
    const { error } = outcome;
    if (this.current.status === "cancelled") throw new TaskCancelledError(this.id, this.current.statusMessage);
    if (error instanceof RpcError) {
      const message =
        this.current.status === "failed" && this.current.statusMessage ? this.current.statusMessage : error.message;
      throw new TaskFailedError(this.id, `Task ${this.id} failed: ${message}`, error.toJSON());
    }
    throw error;
  }
}
