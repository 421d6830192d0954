// Where tasks live (`io.modelcontextprotocol/tasks`, and the experimental tasks of
// 2025-11-25): a TaskStore keeps one plain-JSON record per task. The default keeps them in
// this process's memory; a database-backed store (Redis, SQL ...) lets every instance behind
// a load balancer read, update and cancel the tasks the others created.
//
// The contract a store implements:
//  - create(record): stores a new record (version 1). Must be durable when it resolves: the
//    server answers with the task only afterwards, and the next tasks/get may reach another
//    instance. Rejects with TaskLimitError when the store is full.
//  - get(taskId): the record, or undefined when there is none or it expired (expiresAt passed).
//  - update(record): compare-and-set. Writes `record` only if the stored record's version is
//    `record.version - 1`; resolves false otherwise (someone else wrote first: read again, retry).
//  - list(owner, cursor, limit): the owner's live records, oldest first, a page at a time.
//  - delete(taskId).
// Records are JSON values: a store may serialise them as it likes. Nothing here keeps a
// timer running: expiry is lazy (records past `expiresAt` are invisible and swept on write).
//
// Another instance learns of answers (tasks/update) and cancellations that reached the
// instance running a handler by polling: the runner reads the record every pollIntervalMs
// while its handler runs (see tasks.ts), so a store needs no notification channel.
import { brand } from "../jsonrpc/brand.js";
import type { JsonObject } from "./handler-types.js";

export type TaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

/** Statuses a task never leaves. */
export function isTerminal(status: TaskStatus): boolean {
  return status === "completed" || status === "failed" || status === "cancelled";
}

export interface TaskRecord {
  readonly taskId: string;
  /**
   * Who may see the task: `sub:<token subject>` for authenticated callers, `session:<id>`
   * for a legacy session, or "" when the caller is anonymous and stateless (then the
   * unguessable task id is the only key).
   */
  readonly owner: string;
  /** The tool the task runs. */
  readonly tool: string;
  /** The protocol revision of the call that created it (its wire shapes follow that revision). */
  readonly revision: string;
  readonly status: TaskStatus;
  readonly statusMessage?: string | undefined;
  /** ISO 8601. */
  readonly createdAt: string;
  readonly lastUpdatedAt: string;
  /** Lifetime from creation in milliseconds; null: unlimited. */
  readonly ttlMs: number | null;
  readonly pollIntervalMs: number;
  /** Epoch milliseconds after which the record is gone; null: never. */
  readonly expiresAt: number | null;
  /** Incremented by every write (compare-and-set). */
  readonly version: number;
  /** Requests the handler waits for the client to answer (input_required), by key. */
  readonly inputRequests?: JsonObject | undefined;
  /** Answers delivered by tasks/update that the handler has not taken yet, by key. */
  readonly inputResponses?: JsonObject | undefined;
  /** The tool's result (completed). */
  readonly result?: JsonObject | undefined;
  /** The JSON-RPC error (failed). */
  readonly error?: JsonObject | undefined;
}

/** A page of records. */
export interface TaskPage {
  readonly tasks: readonly TaskRecord[];
  readonly nextCursor?: string | undefined;
}

export interface TaskStore {
  create(record: TaskRecord): Promise<void>;
  get(taskId: string): Promise<TaskRecord | undefined>;
  update(record: TaskRecord): Promise<boolean>;
  list(owner: string, cursor: string | undefined, limit: number): Promise<TaskPage>;
  delete(taskId: string): Promise<void>;
}

/** The store holds as many tasks as it may: the server answers the call with a clear error. */
export class TaskLimitError extends Error {
  static {
    brand(this, "TaskLimitError");
  }

  constructor(readonly limit: number) {
    super(`Too many tasks: this server keeps at most ${limit}; try again once some have finished or expired`);
    this.name = "TaskLimitError";
  }
}

export interface MemoryTaskStoreOptions {
  /** Most records kept at once (running and finished). Default 10,000. */
  readonly maxTasks?: number | undefined;
}

/**
 * Records in this process's memory. When full, expired records are swept first, then the
 * oldest finished ones make room; a store full of running tasks rejects with TaskLimitError.
 */
export class MemoryTaskStore implements TaskStore {
  private readonly records = new Map<string, TaskRecord>();
  private readonly maxTasks: number;

  constructor(options: MemoryTaskStoreOptions = {}) {
    this.maxTasks = Math.max(1, options.maxTasks ?? 10_000);
  }

  async create(record: TaskRecord): Promise<void> {
    if (this.records.size >= this.maxTasks) this.makeRoom();
    if (this.records.size >= this.maxTasks) throw new TaskLimitError(this.maxTasks);
    this.records.set(record.taskId, structuredClone(record));
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    const record = this.live(taskId);
    return record && structuredClone(record);
  }

  async update(record: TaskRecord): Promise<boolean> {
    const stored = this.live(record.taskId);
    if (!stored || stored.version !== record.version - 1) return false;
    this.records.set(record.taskId, structuredClone(record));
    return true;
  }

  async list(owner: string, cursor: string | undefined, limit: number): Promise<TaskPage> {
    const now = Date.now();
    // Insertion order is creation order.
    const mine = [...this.records.values()].filter((r) => r.owner === owner && !expired(r, now));
    const start = cursor === undefined ? 0 : mine.findIndex((r) => r.taskId === cursor);
    if (start < 0) throw new RangeError("unknown cursor");
    const page = mine.slice(start, start + limit).map((r) => structuredClone(r));
    const next = mine[start + limit];
    return next ? { tasks: page, nextCursor: next.taskId } : { tasks: page };
  }

  async delete(taskId: string): Promise<void> {
    this.records.delete(taskId);
  }

  /** The record unless it expired (then it is dropped). */
  private live(taskId: string): TaskRecord | undefined {
    const record = this.records.get(taskId);
    if (record && expired(record, Date.now())) {
      this.records.delete(taskId);
      return undefined;
    }
    return record;
  }

  private makeRoom(): void {
    const now = Date.now();
    for (const [id, record] of this.records) if (expired(record, now)) this.records.delete(id);
    if (this.records.size < this.maxTasks) return;
    for (const [id, record] of this.records) {
      if (!isTerminal(record.status)) continue;
      this.records.delete(id);
      return;
    }
  }
}

function expired(record: TaskRecord, now: number): boolean {
  return record.expiresAt !== null && record.expiresAt <= now;
}

/** The tasks feature's settings (ServerOptions.tasks): where records live and how long calls, tasks and polls take. */
export interface TaskOptions {
  /** Where task records live. Default: a MemoryTaskStore of this server. */
  readonly store?: TaskStore | undefined;
  /**
   * 2026-07-28: milliseconds a call of a task tool may take, finishing or asking for input,
   * before it becomes a task. Default 100. 0 makes every such call a task at once (still
   * after the handler's synchronous start).
   */
  readonly taskAfterMs?: number | undefined;
  /** How long a task stays readable after it is created, unless its tool says. Default one hour. */
  readonly ttlMs?: number | undefined;
  /** How often clients should poll (and this instance re-reads the store), unless the tool says. Default 1000 ms. */
  readonly pollIntervalMs?: number | undefined;
  /** Most tasks whose handlers run on this instance at once; a call beyond it fails with a clear error. Default 1000. */
  readonly maxRunningTasks?: number | undefined;
}
