// The context a handler gets (`ctx`): the request's signal, revision, era, client and auth,
// progress and log notifications, SSE polling. ctx.request, ctx.input and ctx.elicit come
// with the input feature (InputContext in input.ts) when the manifest declares what
// handlers ask (`asks:`); without it they say what to declare, and the server's bundle
// leaves that machinery out.
import type { Params } from "../jsonrpc/messages.js";
import type { Exchange } from "../jsonrpc/peer.js";
import type { AuthInfo } from "../auth/resource-server.js";
import type { Implementation, JsonObject, RequestContext } from "./handler-types.js";
import { loggingSeverity, type LoggingLevel } from "./revisions.js";

/** What ctx.input uses inside a 2026-07-28 task (see requestInput in input.ts). */
export interface TaskInput {
  /** Whether the call has become a task: missing answers are asked through the task, not an input_required result. */
  readonly active: boolean;
  /** Waits for the client's answers to `requests` (tasks/update), the task being input_required meanwhile. */
  input(requests: Readonly<Record<string, InputRequestSpec>>): Promise<JsonObject>;
}

/** One request a handler needs the client to answer. */
export interface InputRequestSpec {
  readonly method: string;
  readonly params?: unknown;
}

/** What a request is served under: its revision and who the client says it is. */
export interface Scope {
  readonly revision: string;
  readonly era: "modern" | "legacy";
  readonly clientInfo: Implementation | undefined;
  readonly capabilities: JsonObject;
  /** Minimum level of log messages the client wants; undefined = legacy default (all) or modern opt-out. */
  logLevel: string | undefined;
  /** A 2026-07-28 call of a task tool: where ctx.input asks once the call has become a task. */
  readonly task?: TaskInput | undefined;
}

export class Context implements RequestContext {
  private lastProgress = -Infinity;

  constructor(
    protected readonly exchange: Exchange,
    protected readonly scope: Scope,
    readonly meta: JsonObject | undefined,
  ) {}

  get signal(): AbortSignal {
    return this.exchange.signal;
  }
  get revision(): string {
    return this.scope.revision;
  }
  get era(): "modern" | "legacy" {
    return this.scope.era;
  }
  get client(): RequestContext["client"] {
    return { info: this.scope.clientInfo, capabilities: this.scope.capabilities };
  }
  get auth(): AuthInfo | undefined {
    return this.exchange.auth as AuthInfo | undefined;
  }

  progress(progress: number, total?: number, message?: string): void {
    const token = this.meta?.progressToken;
    if (
      (typeof token !== "string" && typeof token !== "number" && typeof token !== "bigint") ||
      !(progress > this.lastProgress)
    )
      return;
    // Progress must increase with each notification; stale or repeated values are dropped.
    this.lastProgress = progress;
    const params: Params = { progressToken: token, progress };
    if (total !== undefined) params.total = total;
    if (message !== undefined) params.message = message;
    this.exchange.notify("notifications/progress", params);
  }

  log(level: LoggingLevel, data: unknown, logger?: string): void {
    const wanted = this.scope.logLevel;
    // Modern clients opt in per request; legacy clients get everything until they set a level.
    if (wanted === undefined ? this.scope.era === "modern" : loggingSeverity(level) < loggingSeverity(wanted)) return;
    const params: Params = logger === undefined ? { level, data } : { level, logger, data };
    this.exchange.notify("notifications/message", params);
  }

  pollLater(retryMs?: number): boolean {
    return this.exchange.peer.pollLater?.(this.exchange.id, retryMs) ?? false;
  }

  // Without the input feature: what to declare (InputContext overrides these).
  async request(_method: string, _params?: unknown, _options?: unknown): Promise<never> {
    throw undeclared("ctx.request");
  }
  async input(_requests: unknown): Promise<never> {
    throw undeclared("ctx.input");
  }
  get elicit(): never {
    throw undeclared("ctx.elicit");
  }
}

function undeclared(what: string): Error {
  return new Error(`${what}: declare what this handler asks the client (\`asks:\`) in the manifest and regenerate`);
}
