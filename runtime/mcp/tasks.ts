// Tasks: a tools/call answered with a handle the client polls while the tool runs on.
//  - 2026-07-28, the `io.modelcontextprotocol/tasks` extension (SEP-2663): negotiated per
//    request (the client lists the extension in its _meta capabilities). The server
//    decides: a call to a tool declared `task: optional | required` runs inline first and
//    becomes a task (`resultType: "task"`) when it has neither finished nor asked for input
//    within `taskAfterMs`; so a handler that asks first (ctx.input) gets its answers through
//    input_required rounds and goes on as a task. tasks/get inlines the result, error or
//    pending inputRequests; tasks/update delivers answers; tasks/cancel aborts ctx.signal.
//  - 2025-11-25, the experimental tasks of that revision: a client asks for a task with
//    `params.task`; CreateTaskResult, tasks/get, tasks/result (waits for the end), tasks/list,
//    tasks/cancel, notifications/tasks/status; ctx.input sends its requests to the client on
//    the session, tagged with the related task.
// The same handler runs inline or as a task. Records live in a TaskStore (tasks-store.ts);
// the instance running a handler polls its record so that answers and cancellations that
// reached another instance get to it. Generated code creates its server with
// createTaskServer only when a tool declares `task:`, so other servers do not carry this
// module (TaskServer extends McpServer: server.ts has no task code at all).
import { ErrorCode, invalidParams, isObject, RpcError, toErrorObject, type Params } from "../jsonrpc/messages.js";
import { Exchange, type ExchangeHost, type RequestOptions } from "../jsonrpc/peer.js";
import type { AuthInfo } from "../auth/resource-server.js";
import type { Context, InputRequestSpec, Scope, TaskInput } from "./context.js";
import type { ServerDefinition, ServerNames, ToolEntry } from "./definition.js";
import type { Implementation, JsonObject } from "./handler-types.js";
import { McpServer, type ServerOptions } from "./server.js";
import { RawJson } from "../jsonrpc/serialize.js";
import { hasExperimentalTasks, MetaKey } from "./revisions.js";
import {
  isTerminal,
  MemoryTaskStore,
  TaskLimitError,
  type TaskOptions,
  type TaskRecord,
  type TaskStatus,
  type TaskStore,
} from "./tasks-store.js";

/** The extension's identifier (client capabilities, server/discover). */
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";
/** The _meta key that ties a 2025-11-25 message to its task. */
export const RELATED_TASK = "io.modelcontextprotocol/related-task";

/** A tools/call TaskServer hands its task engine: the tool, the request, and how to run the handler. */
export interface TaskCall {
  readonly tool: ToolEntry<unknown>;
  readonly exchange: Exchange;
  readonly scope: Scope;
  /** A handler's ctx over `exchange` and `scope`. */
  context(exchange: Exchange, scope: Scope): Context;
  /** Runs the handler with `ctx`: the tools/call result, or a thrown RpcError. */
  execute(ctx: Context): Promise<Params>;
}

/** The -32021 error of a request that needs the tasks extension its client did not declare. */
export function missingTasksExtension(what: string): RpcError {
  return new RpcError(
    ErrorCode.MissingRequiredClientCapability,
    `Missing required client capability: extensions["${TASKS_EXTENSION}"] (${what})`,
    {
      requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } },
    },
  );
}

function declaresTasks(capabilities: JsonObject): boolean {
  const extensions = capabilities.extensions;
  return isObject(extensions) && Object.hasOwn(extensions, TASKS_EXTENSION) && isObject(extensions[TASKS_EXTENSION]);
}

function put(target: JsonObject, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Adds the related-task _meta to a message's params (2025-11-25). */
function withRelatedTask(params: Params | undefined, taskId: string): Params {
  const meta = isObject(params?._meta) ? params._meta : {};
  return { ...params, _meta: { ...meta, [RELATED_TASK]: { taskId } } };
}

/** The task fields every shape shares. */
function taskFields(record: TaskRecord, legacy: boolean): Params {
  const out: Params = { taskId: record.taskId, status: record.status };
  if (record.statusMessage !== undefined) out.statusMessage = record.statusMessage;
  out.createdAt = record.createdAt;
  out.lastUpdatedAt = record.lastUpdatedAt;
  if (legacy) {
    out.ttl = record.ttlMs;
    out.pollInterval = record.pollIntervalMs;
  } else {
    out.ttlMs = record.ttlMs;
    out.pollIntervalMs = record.pollIntervalMs;
  }
  return out;
}

/** tasks/get (2026-07-28): the task with its result, error or pending requests inline. */
function detailedTask(record: TaskRecord): Params {
  const out = taskFields(record, false);
  if (record.status === "input_required") out.inputRequests = record.inputRequests ?? {};
  if (record.status === "completed" && record.result) out.result = record.result;
  if (record.status === "failed" && record.error) out.error = record.error;
  return out;
}

/** A task whose handler runs on this instance. */
class Runner {
  /** Wakes whoever waits for this task's record to change (ctx.input waiting for answers). */
  private waiters = new Set<() => void>();
  private poller: ReturnType<typeof setInterval> | undefined;
  /** 2025-11-25: a tasks/result request waiting for this task, whose stream carries the task's requests. */
  resultRequest: Exchange | undefined;

  constructor(
    readonly taskId: string,
    /** The protocol revision of the call (2025-11-25 tasks live in their session). */
    readonly revision: string,
    readonly exchange: Exchange,
    /** Resolves once the record exists (2026-07-28 calls answer only then). */
    readonly created: Promise<TaskRecord>,
  ) {}

  /** Re-reads the record every `intervalMs`, calling `check`; the timer never keeps the process alive. */
  poll(intervalMs: number, check: () => void): void {
    this.poller = setInterval(check, intervalMs);
    (this.poller as { unref?: () => void }).unref?.();
  }

  stop(): void {
    if (this.poller !== undefined) clearInterval(this.poller);
    this.wake();
  }

  wake(): void {
    const waiters = [...this.waiters];
    this.waiters.clear();
    for (const waiter of waiters) waiter();
  }

  /** Resolves at the next wake, or after `ms`. */
  next(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      (timer as { unref?: () => void }).unref?.();
      const waiters = this.waiters;
      function done() {
        clearTimeout(timer);
        waiters.delete(done);
        resolve();
      }
      waiters.add(done);
    });
  }
}

/**
 * What a task's handler sends while it runs. Before a 2026-07-28 call becomes a task, its
 * notifications belong to the request; afterwards a modern task has no stream (they are
 * dropped), and a 2025-11-25 task sends on its session, its requests to the client tagged
 * with the task and carried by a waiting tasks/result when there is one.
 */
class TaskHost implements ExchangeHost {
  runner: Runner | undefined;
  request?: (method: string, params: Params | undefined, options?: RequestOptions) => Promise<Params>;

  constructor(
    private readonly origin: Exchange,
    private readonly legacy: { readonly mark: (status: TaskStatus) => Promise<void> } | undefined,
  ) {
    const peer = origin.peer;
    if (legacy && peer.request) {
      const send = peer.request.bind(peer);
      this.request = async (method, params, options) => {
        const runner = this.runner!;
        await legacy.mark("input_required");
        try {
          return await send(method, withRelatedTask(params, runner.taskId), {
            ...options,
            relatedTo: runner.resultRequest?.id ?? origin.id,
          });
        } finally {
          if (!runner.exchange.cancelled) await legacy.mark("working");
        }
      };
    }
  }

  get state(): unknown {
    return this.origin.peer.state;
  }
  set state(_value: unknown) {}

  get isClosed(): boolean {
    return this.origin.peer.isClosed;
  }

  notify(method: string, params?: Params): void {
    const runner = this.runner;
    if (!runner) this.origin.notify(method, params);
    else if (this.legacy) {
      // Tied to the task (progress keeps the call's token, valid for the task's lifetime); a
      // status notification names its task already and goes without the tag.
      const tagged = method === "notifications/tasks/status" ? params : withRelatedTask(params, runner.taskId);
      this.origin.peer.notify(method, tagged, runner.resultRequest?.id);
    }
  }
}

interface Listener {
  readonly exchange: Exchange;
  readonly owner: string;
  readonly ids: ReadonlySet<string>;
}

/** The task engine of a TaskServer: task calls, the tasks/* methods, capabilities, listeners. */
class Tasks {
  private readonly store: TaskStore;
  private readonly taskAfterMs: number;
  private readonly ttlMs: number;
  private readonly pollIntervalMs: number;
  private readonly maxRunning: number;
  private readonly running = new Map<string, Runner>();
  /** The owner of each legacy session's tasks, by connection. */
  private readonly sessions = new WeakMap<object, string>();
  private readonly listeners = new Set<Listener>();

  constructor(
    options: TaskOptions,
    private readonly info: Implementation,
  ) {
    this.store = options.store ?? new MemoryTaskStore();
    this.taskAfterMs = Math.max(0, options.taskAfterMs ?? 100);
    this.ttlMs = options.ttlMs ?? 3_600_000;
    this.pollIntervalMs = Math.max(1, options.pollIntervalMs ?? 1000);
    this.maxRunning = options.maxRunningTasks ?? 1000;
  }

  // --- tools/call ------------------------------------------------------------------

  /** What the server adds to its capabilities: in initialize of `revision` (legacy), or in server/discover (no revision). */
  capabilities(revision?: string): JsonObject | undefined {
    if (revision === undefined) return { extensions: { [TASKS_EXTENSION]: {} } };
    // 2025-11-25: task-augmented tools/call, tasks/list and tasks/cancel.
    return hasExperimentalTasks(revision)
      ? { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } }
      : undefined;
  }

  /** A tools/call of a tool declared `task:`: inline, as a task, or an error. */
  call(call: TaskCall): Promise<Params> {
    const { tool, scope, exchange } = call;
    const support = tool.taskSupport;
    if (scope.era === "modern") {
      if (declaresTasks(scope.capabilities)) return this.modernCall(call);
      if (support === "required") throw missingTasksExtension(`tool ${tool.name} runs only as a task`);
      return call.execute(call.context(exchange, scope));
    }
    const requested = exchange.request.params?.task;
    if (!hasExperimentalTasks(scope.revision)) return call.execute(call.context(exchange, scope));
    if (requested === undefined) {
      if (support === "required")
        throw new RpcError(ErrorCode.MethodNotFound, `Tool ${tool.name} must be called as a task (params.task)`);
      return call.execute(call.context(exchange, scope));
    }
    if (!isObject(requested)) throw invalidParams("task must be an object");
    return this.legacyCall(call, requested.ttl);
  }

  /** 2026-07-28: inline until `taskAfterMs` passes without an outcome, then a task. */
  private async modernCall(call: TaskCall): Promise<Params> {
    const host = new TaskHost(call.exchange, undefined);
    const exchange = new Exchange(host, call.exchange.request, call.exchange.auth);
    // Until it becomes a task, the call is the request's: cancelling the request cancels it.
    const unlink = follow(call.exchange.signal, () => exchange.cancel("Request cancelled"));
    let become: (() => void) | undefined;
    // The task's runner, once the task exists: ctx.input may ask in between.
    let runnerMade!: (runner: Runner) => void;
    let runnerFailed!: (error: unknown) => void;
    const runnerReady = new Promise<Runner>((resolve, reject) => ((runnerMade = resolve), (runnerFailed = reject)));
    runnerReady.catch(() => {});
    const input: { active: boolean; input: TaskInput["input"] } = {
      active: false,
      input: (requests) => runnerReady.then((runner) => this.awaitInput(runner, requests)),
    };
    const outcome = call.execute(call.context(exchange, { ...call.scope, task: input }));
    const settled = outcome.then(
      (result) => ({ result }),
      (error: unknown) => ({ error }),
    );
    const deadline = new Promise<"task">((resolve) => {
      const timer = setTimeout(() => {
        // From now on ctx.input asks through the task (set before anything else runs).
        input.active = true;
        resolve("task");
      }, this.taskAfterMs);
      become = () => clearTimeout(timer);
    });
    const first = await Promise.race([settled, deadline]);
    become!();
    unlink();
    if (first !== "task") {
      if ("error" in first) throw first.error;
      return first.result;
    }
    if (this.running.size >= this.maxRunning) {
      const error = new RpcError(
        ErrorCode.InternalError,
        `Too many tasks running on this server (at most ${this.maxRunning}); try again later`,
      );
      runnerFailed(error);
      exchange.cancel("Too many tasks");
      throw error;
    }
    const record = this.newRecord(call, this.owner(call.exchange, call.scope), undefined);
    const created = this.create(record, exchange);
    const ready = created.then(() => record);
    // The call's own await reports a failed creation; ctx.input waiting on it just stops.
    ready.catch(runnerFailed);
    const runner = new Runner(record.taskId, record.revision, exchange, ready);
    host.runner = runner;
    runnerMade(runner);
    await created;
    this.run(runner, settled, record.pollIntervalMs);
    // Serialised here: the server adds `resultType: "complete"` to what it serialises itself.
    return new RawJson(
      JSON.stringify({ resultType: "task", ...taskFields(record, false), _meta: { [MetaKey.serverInfo]: this.info } }),
    ) as unknown as Params;
  }

  /** 2025-11-25: the client asked for a task; it exists before the handler starts. */
  private async legacyCall(call: TaskCall, requestedTtl: unknown): Promise<Params> {
    if (this.running.size >= this.maxRunning) {
      throw new RpcError(
        ErrorCode.InternalError,
        `Too many tasks running on this server (at most ${this.maxRunning}); try again later`,
      );
    }
    const ttl =
      typeof requestedTtl === "number" && Number.isInteger(requestedTtl) && requestedTtl > 0 ? requestedTtl : undefined;
    const record = this.newRecord(call, this.owner(call.exchange, call.scope), ttl);
    const taskId = record.taskId;
    const host = new TaskHost(call.exchange, { mark: (status) => this.mark(taskId, status) });
    const exchange = new Exchange(host, call.exchange.request, call.exchange.auth);
    await this.create(record, exchange);
    const runner = new Runner(taskId, record.revision, exchange, Promise.resolve(record));
    host.runner = runner;
    const outcome = call.execute(call.context(exchange, call.scope));
    const settled = outcome.then(
      (result) => ({ result }),
      (error: unknown) => ({ error }),
    );
    this.run(runner, settled, record.pollIntervalMs);
    return { task: taskFields(record, true) };
  }

  private newRecord(call: TaskCall, owner: string, requestedTtl: number | undefined): TaskRecord {
    const now = Date.now();
    const toolTtl = call.tool.ttlMs ?? this.ttlMs;
    const ttlMs = requestedTtl === undefined ? toolTtl : Math.min(requestedTtl, toolTtl);
    const at = new Date(now).toISOString();
    return {
      taskId: crypto.randomUUID(),
      owner,
      tool: call.tool.name,
      revision: call.scope.revision,
      status: "working",
      createdAt: at,
      lastUpdatedAt: at,
      ttlMs,
      pollIntervalMs: Math.max(1, Math.round(call.tool.pollIntervalMs ?? this.pollIntervalMs)),
      expiresAt: now + ttlMs,
      version: 1,
    };
  }

  /** Stores a new record; a full store cancels the handler and fails the call with a clear error. */
  private async create(record: TaskRecord, exchange: Exchange): Promise<void> {
    try {
      await this.store.create(record);
    } catch (error) {
      exchange.cancel("The task could not be created");
      if (error instanceof TaskLimitError) throw new RpcError(ErrorCode.InternalError, error.message);
      throw error;
    }
  }

  /** Watches the running handler: polls the record for remote cancellation or answers, and stores the outcome. */
  private run(runner: Runner, settled: Promise<{ result: Params } | { error: unknown }>, intervalMs: number): void {
    this.running.set(runner.taskId, runner);
    runner.poll(intervalMs, () => {
      // A 2025-11-25 task belongs to its session: when the session ends, nobody can reach it any more.
      if (hasExperimentalTasks(runner.revision) && runner.exchange.peer.isClosed) {
        runner.exchange.cancel("The session ended");
        void this.mutate(runner.taskId, (record) =>
          isTerminal(record.status)
            ? undefined
            : {
                ...record,
                status: "cancelled",
                statusMessage: "The session ended",
                inputRequests: undefined,
                inputResponses: undefined,
              },
        ).catch(() => {});
        return;
      }
      this.store.get(runner.taskId).then(
        (record) => {
          if (!record) runner.exchange.cancel("Task expired");
          else if (record.status === "cancelled") runner.exchange.cancel("Task cancelled");
          else runner.wake();
        },
        () => {},
      );
    });
    void settled.then(async (outcome) => {
      runner.stop();
      const patch: Partial<TaskRecord> =
        "result" in outcome
          ? { status: "completed", result: outcome.result }
          : { status: "failed", error: toErrorObject(outcome.error) as unknown as JsonObject };
      // Still running while the outcome is written, so that a 2025-11-25 session hears of it.
      await this.mutate(runner.taskId, (record) =>
        isTerminal(record.status)
          ? undefined
          : { ...record, ...patch, inputRequests: undefined, inputResponses: undefined },
      )
        .catch(() => {})
        .finally(() => this.running.delete(runner.taskId));
    });
  }

  /** Sets a 2025-11-25 task's status (input_required while the client answers, working again after). */
  private async mark(taskId: string, status: TaskStatus): Promise<void> {
    await this.mutate(taskId, (record) =>
      isTerminal(record.status) || record.status === status ? undefined : { ...record, status },
    );
  }

  /**
   * ctx.input inside a 2026-07-28 task: the requests join the task's inputRequests (status
   * input_required) until tasks/update delivers an answer to each; then they are taken.
   */
  private async awaitInput(runner: Runner, requests: Readonly<Record<string, InputRequestSpec>>): Promise<JsonObject> {
    await runner.created;
    const keys = Object.keys(requests);
    const asked: JsonObject = {};
    for (const [key, request] of Object.entries(requests)) {
      const entry: JsonObject = { method: request.method };
      if (request.params !== undefined) entry.params = request.params;
      put(asked, key, entry);
    }
    await this.mutate(runner.taskId, (record) =>
      isTerminal(record.status)
        ? undefined
        : { ...record, status: "input_required", inputRequests: { ...record.inputRequests, ...asked } },
    );
    const signal = runner.exchange.signal;
    for (;;) {
      if (signal.aborted) throw signal.reason;
      const record = await this.store.get(runner.taskId);
      if (!record || isTerminal(record.status)) {
        runner.exchange.cancel(record ? `Task ${record.status}` : "Task expired");
        throw signal.reason;
      }
      const responses = record.inputResponses ?? {};
      if (keys.every((key) => Object.hasOwn(responses, key))) {
        const answers: JsonObject = {};
        const taken = await this.mutate(runner.taskId, (current) => {
          const now = current.inputResponses ?? {};
          if (!keys.every((key) => Object.hasOwn(now, key))) return undefined;
          const rest: JsonObject = {};
          for (const [key, value] of Object.entries(now)) put(keys.includes(key) ? answers : rest, key, value);
          return { ...current, inputResponses: Object.keys(rest).length > 0 ? rest : undefined };
        });
        if (taken && keys.every((key) => Object.hasOwn(answers, key))) return answers;
        continue;
      }
      await runner.next(record.pollIntervalMs);
    }
  }

  /**
   * Applies `change` to the record by compare-and-set, retrying when another writer came
   * first; `change` returns undefined to leave the record as it is. Resolves with the
   * written record, or undefined when nothing was written (or there is no record).
   */
  private async mutate(
    taskId: string,
    change: (record: TaskRecord) => TaskRecord | undefined,
  ): Promise<TaskRecord | undefined> {
    for (let attempt = 0; attempt < 100; attempt++) {
      const record = await this.store.get(taskId);
      if (!record) return undefined;
      const next = change(record);
      if (!next) return undefined;
      const written: TaskRecord = {
        ...stripUndefined(next),
        version: record.version + 1,
        lastUpdatedAt: new Date().toISOString(),
      };
      if (await this.store.update(written)) {
        this.changed(written);
        return written;
      }
    }
    throw new RpcError(ErrorCode.InternalError, `Task ${taskId} is being updated too often; try again`);
  }

  /** After a write: wake the handler waiting on it, tell listeners and (2025-11-25) the session. */
  private changed(record: TaskRecord): void {
    const runner = this.running.get(record.taskId);
    runner?.wake();
    this.wakeResultWaiters(record.taskId);
    if (hasExperimentalTasks(record.revision)) {
      runner?.exchange.peer.notify("notifications/tasks/status", taskFields(record, true), runner.resultRequest?.id);
      return;
    }
    for (const listener of this.listeners) {
      if (!listener.ids.has(record.taskId) || (record.owner !== "" && record.owner !== listener.owner)) continue;
      if (listener.exchange.cancelled || listener.exchange.peer.isClosed) {
        this.listeners.delete(listener);
        continue;
      }
      listener.exchange.notify("notifications/tasks", {
        ...detailedTask(record),
        _meta: { [MetaKey.subscriptionId]: listener.exchange.id },
      });
    }
  }

  private readonly resultWaiters = new Map<string, Set<() => void>>();

  private wakeResultWaiters(taskId: string): void {
    const waiters = this.resultWaiters.get(taskId);
    if (!waiters) return;
    this.resultWaiters.delete(taskId);
    for (const wake of waiters) wake();
  }

  /** Who may see the tasks a request creates or names. */
  private owner(exchange: Exchange, scope: Scope): string {
    const subject = (exchange.auth as AuthInfo | undefined)?.subject;
    if (subject !== undefined) return `sub:${subject}`;
    if (scope.era === "modern") return "";
    let id = this.sessions.get(exchange.peer);
    if (id === undefined) this.sessions.set(exchange.peer, (id = `session:${crypto.randomUUID()}`));
    return id;
  }

  // --- tasks/* ------------------------------------------------------------------------

  /** tasks/get, tasks/update, tasks/cancel, tasks/result, tasks/list; undefined for methods the revision does not have. */
  answer(method: string, params: Params | undefined, exchange: Exchange, scope: Scope): Promise<Params> | undefined {
    if (!method.startsWith("tasks/")) return undefined;
    if (scope.era === "modern") {
      if (method !== "tasks/get" && method !== "tasks/update" && method !== "tasks/cancel") return undefined;
      if (!declaresTasks(scope.capabilities)) throw missingTasksExtension(method);
    } else if (!hasExperimentalTasks(scope.revision)) return undefined;
    const taskId = params?.taskId;
    const owner = this.owner(exchange, scope);
    if (method === "tasks/list") return this.list(params?.cursor, owner);
    if (typeof taskId !== "string") throw invalidParams("taskId must be a string");
    const legacy = scope.era === "legacy";
    switch (method) {
      case "tasks/get":
        return this.visible(taskId, owner).then((record) => (legacy ? taskFields(record, true) : detailedTask(record)));
      case "tasks/update":
        if (legacy) return undefined;
        return this.update(taskId, owner, params?.inputResponses);
      case "tasks/cancel":
        return this.cancel(taskId, owner, legacy);
      case "tasks/result":
        return this.result(taskId, owner, exchange);
    }
    return undefined;
  }

  /** The record of `taskId` when `owner` may see it; -32602 otherwise (unknown and foreign tasks look alike). */
  private async visible(taskId: string, owner: string): Promise<TaskRecord> {
    const record = await this.seenBy(taskId, owner);
    if (!record) throw invalidParams(`unknown task ${JSON.stringify(taskId)}`);
    return record;
  }

  /** The record of `taskId` when `owner` may see it. */
  private async seenBy(taskId: string, owner: string): Promise<TaskRecord | undefined> {
    const record = await this.store.get(taskId);
    return record && (record.owner === "" || record.owner === owner) ? record : undefined;
  }

  private async update(taskId: string, owner: string, inputResponses: unknown): Promise<Params> {
    if (!isObject(inputResponses)) throw invalidParams("inputResponses must be an object");
    // SEP-2663: tasks/update acknowledges any task id, known or not (and another caller's task looks unknown).
    if (!(await this.seenBy(taskId, owner))) return {};
    // Answers to keys the task is not waiting for are ignored (SEP-2663).
    await this.mutate(taskId, (record) => {
      if (isTerminal(record.status)) return undefined;
      const pending: JsonObject = { ...record.inputRequests };
      const responses: JsonObject = { ...record.inputResponses };
      let answered = false;
      for (const [key, value] of Object.entries(inputResponses)) {
        if (!Object.hasOwn(pending, key) || !isObject(value)) continue;
        delete pending[key];
        put(responses, key, value);
        answered = true;
      }
      if (!answered) return undefined;
      const waiting = Object.keys(pending).length > 0;
      return {
        ...record,
        status: waiting ? "input_required" : "working",
        inputRequests: waiting ? pending : undefined,
        inputResponses: responses,
      };
    });
    return {};
  }

  private async cancel(taskId: string, owner: string, legacy: boolean): Promise<Params> {
    // SEP-2663: tasks/cancel acknowledges any task id; 2025-11-25 answers an unknown one with -32602.
    const record = legacy ? await this.visible(taskId, owner) : await this.seenBy(taskId, owner);
    if (!record) return {};
    if (isTerminal(record.status)) {
      // 2025-11-25 rejects cancelling a finished task; 2026-07-28 acknowledges it (idempotent).
      if (legacy) throw invalidParams(`task ${taskId} is already ${record.status}`);
      return {};
    }
    const written = await this.mutate(taskId, (current) =>
      isTerminal(current.status)
        ? undefined
        : {
            ...current,
            status: "cancelled",
            statusMessage: "Cancelled by the client",
            inputRequests: undefined,
            inputResponses: undefined,
          },
    );
    this.running.get(taskId)?.exchange.cancel("Task cancelled");
    if (!legacy) return {};
    return taskFields(written ?? (await this.visible(taskId, owner)), true);
  }

  /** tasks/result (2025-11-25): waits for the task to end; its result, or its error. */
  private async result(taskId: string, owner: string, exchange: Exchange): Promise<Params> {
    try {
      return await this.awaitResult(taskId, owner, exchange);
    } finally {
      const runner = this.running.get(taskId);
      if (runner?.resultRequest === exchange) runner.resultRequest = undefined;
    }
  }

  private async awaitResult(taskId: string, owner: string, exchange: Exchange): Promise<Params> {
    const signal = exchange.signal;
    for (;;) {
      const record = await this.visible(taskId, owner);
      if (record.status === "completed") {
        const result = record.result ?? {};
        const meta = isObject(result._meta) ? result._meta : {};
        return { ...result, _meta: { ...meta, [RELATED_TASK]: { taskId } } };
      }
      if (record.status === "failed") {
        const error = record.error ?? {};
        throw new RpcError(
          typeof error.code === "number" ? error.code : ErrorCode.InternalError,
          typeof error.message === "string" ? error.message : "Task failed",
          error.data,
        );
      }
      if (record.status === "cancelled") throw new RpcError(ErrorCode.InvalidParams, `Task ${taskId} was cancelled`);
      if (signal.aborted) throw signal.reason;
      // While it waits, this request's stream carries the task's requests to the client.
      const runner = this.running.get(taskId);
      if (runner) runner.resultRequest = exchange;
      await new Promise<void>((resolve) => {
        const waiters = this.resultWaiters.get(taskId) ?? new Set();
        this.resultWaiters.set(taskId, waiters);
        const done = () => {
          clearTimeout(timer);
          waiters.delete(done);
          signal.removeEventListener("abort", done);
          resolve();
        };
        const timer = setTimeout(done, record.pollIntervalMs);
        (timer as { unref?: () => void }).unref?.();
        waiters.add(done);
        signal.addEventListener("abort", done, { once: true });
      });
    }
  }

  /** tasks/list (2025-11-25): the caller's tasks, a page at a time. */
  private async list(cursor: unknown, owner: string): Promise<Params> {
    if (cursor !== undefined && typeof cursor !== "string") throw invalidParams("cursor must be a string");
    let page;
    try {
      page = await this.store.list(owner, cursor, 100);
    } catch (error) {
      if (error instanceof RangeError) throw invalidParams("invalid cursor");
      throw error;
    }
    const result: Params = { tasks: page.tasks.map((record) => taskFields(record, true)) };
    if (page.nextCursor !== undefined) result.nextCursor = page.nextCursor;
    return result;
  }

  /** subscriptions/listen: registers `exchange` for notifications/tasks of the task ids in `requested` (`taskIds`); returns the honoured filter part. */
  listen(exchange: Exchange, requested: unknown): { taskIds?: string[] } {
    const ids = Array.isArray(requested)
      ? [...new Set(requested.filter((id): id is string => typeof id === "string"))]
      : [];
    if (ids.length === 0) return {};
    const auth = (exchange.auth as AuthInfo | undefined)?.subject;
    const listener: Listener = { exchange, owner: auth === undefined ? "" : `sub:${auth}`, ids: new Set(ids) };
    this.listeners.add(listener);
    const signal = exchange.signal;
    if (signal.aborted) this.listeners.delete(listener);
    else signal.addEventListener("abort", () => this.listeners.delete(listener), { once: true });
    return { taskIds: ids };
  }
}

/** Calls `onAbort` when `signal` aborts; returns what stops following it. */
function follow(signal: AbortSignal, onAbort: () => void): () => void {
  if (signal.aborted) {
    onAbort();
    return () => {};
  }
  signal.addEventListener("abort", onAbort, { once: true });
  return () => signal.removeEventListener("abort", onAbort);
}

function stripUndefined(record: TaskRecord): TaskRecord {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) if (value !== undefined) out[key] = value;
  return out as unknown as TaskRecord;
}

/**
 * A server whose tools declared `task:` (ToolEntry.taskSupport) may run as tasks: McpServer
 * plus the tasks methods, the capabilities that announce them, and notifications/tasks on
 * subscriptions/listen. Options: ServerOptions.tasks.
 */
export class TaskServer<H = unknown, N extends ServerNames = ServerNames> extends McpServer<H, N> {
  private readonly tasks: Tasks;

  constructor(definition: ServerDefinition<H>, handlers: H, options: ServerOptions = {}) {
    super(definition, handlers, options);
    this.tasks = new Tasks(options.tasks ?? {}, definition.info);
  }

  protected override dispatch(
    method: string,
    params: Params | undefined,
    exchange: Exchange,
    scope: Scope,
    meta: JsonObject | undefined,
  ): Params | Promise<Params> {
    if (method === "tools/call" && this.capabilities.tools) {
      const name = params?.name;
      const tool = typeof name === "string" && !this.isOff("tools", name) ? this.tools.get(name) : undefined;
      if (tool?.taskSupport) {
        // callTool validates the arguments and runs the handler, with the ctx the task gives it.
        return this.tasks.call({
          tool: tool as ToolEntry<unknown>,
          exchange,
          scope,
          context: (taskExchange, taskScope) => this.context(taskExchange, taskScope, meta),
          execute: (ctx) => this.callTool(params, ctx, scope.revision),
        });
      }
    }
    return this.tasks.answer(method, params, exchange, scope) ?? super.dispatch(method, params, exchange, scope, meta);
  }

  protected override initialize(exchange: Exchange): Params {
    const result = super.initialize(exchange);
    const extra = this.tasks.capabilities(result.protocolVersion as string);
    if (extra) result.capabilities = { ...(result.capabilities as JsonObject), ...extra };
    return result;
  }

  protected override discover(exchange: Exchange): Params {
    const result = super.discover(exchange);
    result.capabilities = { ...(result.capabilities as JsonObject), ...this.tasks.capabilities() };
    return result;
  }

  /** subscriptions/listen, whose filter may also name tasks (`taskIds`, as the tasks extension says) to hear notifications/tasks of. */
  protected override listen(params: Params | undefined, exchange: Exchange): Promise<Params> {
    if (!isObject(params?.notifications)) throw invalidParams("notifications must be an object");
    const { notifications } = params;
    const honoured: JsonObject = {
      ...this.subscriptions?.listen(exchange, notifications.resourceSubscriptions),
      ...this.listChanges?.listen(exchange, notifications),
      ...this.tasks.listen(exchange, notifications.taskIds),
    };
    exchange.notify("notifications/subscriptions/acknowledged", {
      _meta: { [MetaKey.subscriptionId]: exchange.id },
      notifications: honoured,
    });
    const signal = exchange.signal;
    return new Promise((resolve) => {
      if (signal.aborted) resolve({});
      else signal.addEventListener("abort", () => resolve({}), { once: true });
    });
  }
}

/** Builds a server whose tools may run as tasks (see TaskServer); generated code calls it when a tool declares `task:`. */
export function createTaskServer<H, N extends ServerNames = ServerNames>(
  definition: ServerDefinition<H>,
  handlers: H,
  options?: ServerOptions,
): TaskServer<H, N> {
  return new TaskServer<H, N>(definition, handlers, options);
}
