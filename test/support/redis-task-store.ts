// A TaskStore in Redis, so that several server instances share their tasks: what the
// multi-instance test puts behind nginx. A small RESP client over node:net (no package):
// one connection, commands pipelined, replies matched in order.
//  - a record is the JSON string at `mcp:task:<id>`, expiring with the task (PX);
//  - create is SET NX (a task id is never reused); update is a Lua compare-and-set on the
//    record's version; list reads the owner's sorted set `mcp:tasks:<owner>` (by creation).
import { connect, type Socket } from "node:net";
import type { TaskPage, TaskRecord, TaskStore } from "../../runtime/index.js";

type Reply = string | number | null | Reply[];

class RespError extends Error {}

/** A minimal Redis client: commands in, replies out, in order. */
export class RespClient {
  private readonly socket: Socket;
  private buffer = Buffer.alloc(0);
  private readonly waiting: { resolve: (reply: Reply) => void; reject: (error: Error) => void }[] = [];
  private failure: Error | undefined;

  constructor(port: number, host = "127.0.0.1") {
    this.socket = connect({ port, host });
    this.socket.setNoDelay(true);
    this.socket.on("data", (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      for (;;) {
        const parsed = parseReply(this.buffer, 0);
        if (!parsed) break;
        this.buffer = this.buffer.subarray(parsed.end);
        const waiter = this.waiting.shift();
        if (!waiter) continue;
        if (parsed.value instanceof RespError) waiter.reject(parsed.value);
        else waiter.resolve(parsed.value);
      }
    });
    const fail = (error: Error) => {
      this.failure = error;
      for (const waiter of this.waiting.splice(0)) waiter.reject(error);
    };
    this.socket.on("error", fail);
    this.socket.on("close", () => fail(new Error("redis connection closed")));
  }

  command(...args: (string | number)[]): Promise<Reply> {
    if (this.failure) return Promise.reject(this.failure);
    const parts = args.map((a) => Buffer.from(String(a), "utf8"));
    const head = `*${parts.length}\r\n`;
    const body = parts.map((p) => Buffer.concat([Buffer.from(`$${p.length}\r\n`), p, Buffer.from("\r\n")]));
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      this.socket.write(Buffer.concat([Buffer.from(head), ...body]));
    });
  }

  close(): void {
    this.socket.end();
  }
}

/** One reply starting at `at`, or undefined when the buffer does not hold all of it yet. */
function parseReply(buffer: Buffer, at: number): { value: Reply | RespError; end: number } | undefined {
  const lineEnd = buffer.indexOf("\r\n", at);
  if (lineEnd < 0) return undefined;
  const type = String.fromCharCode(buffer[at]!);
  const line = buffer.toString("utf8", at + 1, lineEnd);
  const next = lineEnd + 2;
  switch (type) {
    case "+":
      return { value: line, end: next };
    case "-":
      return { value: new RespError(line), end: next };
    case ":":
      return { value: Number(line), end: next };
    case "$": {
      const length = Number(line);
      if (length < 0) return { value: null, end: next };
      if (buffer.length < next + length + 2) return undefined;
      return { value: buffer.toString("utf8", next, next + length), end: next + length + 2 };
    }
    case "*": {
      const count = Number(line);
      if (count < 0) return { value: null, end: next };
      const items: Reply[] = [];
      let end = next;
      for (let i = 0; i < count; i++) {
        const item = parseReply(buffer, end);
        if (!item) return undefined;
        if (item.value instanceof RespError) return { value: item.value, end: item.end };
        items.push(item.value);
        end = item.end;
      }
      return { value: items, end };
    }
    default:
      return { value: new RespError(`unexpected reply type ${JSON.stringify(type)}`), end: next };
  }
}

/** Writes ARGV[1] at KEYS[1] if the stored record's version is ARGV[2]; ARGV[3]: milliseconds to live (0: forever). */
const compareAndSet = `
local current = redis.call('GET', KEYS[1])
if not current then return 0 end
if cjson.decode(current)['version'] ~= tonumber(ARGV[2]) then return 0 end
local ttl = tonumber(ARGV[3])
if ttl > 0 then redis.call('SET', KEYS[1], ARGV[1], 'PX', ttl) else redis.call('SET', KEYS[1], ARGV[1]) end
return 1`;

export interface RedisTaskStoreOptions {
  readonly port: number;
  readonly host?: string | undefined;
  /** Key prefix. Default "mcp:". */
  readonly prefix?: string | undefined;
}

export class RedisTaskStore implements TaskStore {
  private readonly redis: RespClient;
  private readonly prefix: string;

  constructor(options: RedisTaskStoreOptions) {
    this.redis = new RespClient(options.port, options.host);
    this.prefix = options.prefix ?? "mcp:";
  }

  private key(taskId: string): string {
    return `${this.prefix}task:${taskId}`;
  }

  /** Milliseconds the record has left: 0 for records that never expire, at least 1 otherwise. */
  private static ttl(record: TaskRecord): number {
    return record.expiresAt === null ? 0 : Math.max(1, record.expiresAt - Date.now());
  }

  async create(record: TaskRecord): Promise<void> {
    const ttl = RedisTaskStore.ttl(record);
    const args: (string | number)[] = ["SET", this.key(record.taskId), JSON.stringify(record), "NX"];
    if (ttl > 0) args.push("PX", ttl);
    const stored = await this.redis.command(...args);
    if (stored !== "OK") throw new Error(`task ${record.taskId} exists already`);
    await this.redis.command(
      "ZADD",
      `${this.prefix}tasks:${record.owner}`,
      Date.parse(record.createdAt),
      record.taskId,
    );
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    const text = await this.redis.command("GET", this.key(taskId));
    return typeof text === "string" ? (JSON.parse(text) as TaskRecord) : undefined;
  }

  async update(record: TaskRecord): Promise<boolean> {
    const written = await this.redis.command(
      "EVAL",
      compareAndSet,
      1,
      this.key(record.taskId),
      JSON.stringify(record),
      record.version - 1,
      RedisTaskStore.ttl(record),
    );
    return written === 1;
  }

  async list(owner: string, cursor: string | undefined, limit: number): Promise<TaskPage> {
    const ids = (await this.redis.command("ZRANGE", `${this.prefix}tasks:${owner}`, 0, -1)) as string[];
    const records: TaskRecord[] = [];
    for (const id of ids) {
      const record = await this.get(id);
      if (record) records.push(record);
    }
    const start = cursor === undefined ? 0 : records.findIndex((r) => r.taskId === cursor);
    if (start < 0) throw new RangeError("unknown cursor");
    const next = records[start + limit];
    return next
      ? { tasks: records.slice(start, start + limit), nextCursor: next.taskId }
      : { tasks: records.slice(start, start + limit) };
  }

  async delete(taskId: string): Promise<void> {
    await this.redis.command("DEL", this.key(taskId));
  }

  close(): void {
    this.redis.close();
  }
}
