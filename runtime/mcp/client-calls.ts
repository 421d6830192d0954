// Typed calls the generated client makes: tools with validated structured output,
// resources, templates and prompts. Generic over the session's method map.
import type { Validator } from "../validation.js";
import type { CallOptions } from "./client.js";
import type { TaskCallOptions, TaskSession, ToolTask } from "./client-tasks.js";
import type { JsonObject } from "./handler-types.js";
import { checkToolResult } from "./tool-output.js";

/** A tools/call result whose structuredContent was checked against the tool's output schema. */
export type ToolCallResult<Output, Content> =
  | {
      readonly content: Content[];
      readonly structuredContent: Output;
      readonly isError?: false | undefined;
      readonly _meta?: JsonObject | undefined;
    }
  | {
      readonly content: Content[];
      readonly isError: true;
      readonly structuredContent?: unknown;
      readonly _meta?: JsonObject | undefined;
    };

/** A tools/call result of a tool without an output schema. */
export interface PlainToolCallResult<Content> {
  readonly content: Content[];
  readonly isError?: boolean | undefined;
  readonly structuredContent?: unknown;
  readonly _meta?: JsonObject | undefined;
}

/**
 * What these calls need from a session: its untyped request. Any ClientSession<M>
 * fits; the generated client supplies the precise types.
 */
export interface RequestSender {
  rawRequest(method: string, params?: JsonObject, options?: CallOptions): Promise<JsonObject>;
}

export async function callTool(
  session: RequestSender,
  name: string,
  args: unknown,
  options?: CallOptions,
  validateOutput?: Validator,
): Promise<JsonObject> {
  const result = await session.rawRequest("tools/call", { name, arguments: args ?? {} }, options);
  return checkToolResult(name, result, validateOutput);
}

/** What a generated client's tool methods call: member name -> [tool name, validator of its structured output]. */
export type ToolCallTable = Readonly<Record<string, readonly [name: string, validateOutput?: Validator]>>;

/** Tools that may run as tasks (`execution.taskSupport`): member name -> "optional" | "required". */
export type ToolTaskTable = Readonly<Record<string, "optional" | "required">>;

/** What toolMethods needs for tools that run as tasks. */
export interface ToolTasks {
  readonly tools: ToolTaskTable;
  /** callToolAsTask, passed in so that clients without task tools do not carry it. */
  readonly callAsTask: (
    session: TaskSession,
    name: string,
    args: unknown,
    options?: TaskCallOptions,
    validateOutput?: Validator,
  ) => Promise<ToolTask<JsonObject>>;
}

type ToolMethod = ((args?: unknown, options?: CallOptions) => Promise<JsonObject>) & {
  task?: (args?: unknown, options?: TaskCallOptions) => Promise<ToolTask<JsonObject>>;
};

/**
 * A client's tool methods, one per table entry, typed as `Methods`. Generated clients
 * describe each method's types in their interface and keep the calls as a table: a line
 * per tool instead of a function per tool. A tool that may run as a task also gets
 * `.task(args)`, which returns the task's handle; calling a tool that requires a task
 * runs it as one and waits for its result.
 */
export function toolMethods<Methods>(session: RequestSender, table: ToolCallTable): Methods;
export function toolMethods<Methods>(session: TaskSession, table: ToolCallTable, tasks: ToolTasks): Methods;
export function toolMethods<Methods>(
  session: RequestSender & Partial<TaskSession>,
  table: ToolCallTable,
  tasks?: ToolTasks,
): Methods {
  const methods = Object.entries(table).map(([member, [name, validateOutput]]): [string, ToolMethod] => {
    const support = tasks && Object.hasOwn(tasks.tools, member) ? tasks.tools[member] : undefined;
    if (!tasks || support === undefined)
      return [member, (args, options) => callTool(session, name, args, options, validateOutput)];
    const asTask = (args?: unknown, options?: TaskCallOptions) =>
      tasks.callAsTask(session as TaskSession, name, args, options, validateOutput);
    const method: ToolMethod =
      support === "required"
        ? async (args, options) => (await asTask(args, options)).wait({ signal: options?.signal })
        : (args, options) => callTool(session, name, args, options, validateOutput);
    method.task = asTask;
    return [member, method];
  });
  return Object.fromEntries(methods) as Methods;
}

/** resources/read; `Result` is the result type of the revisions the generated client speaks (the session does not check results). */
export function readResource<Result = JsonObject>(
  session: RequestSender,
  uri: string,
  options?: CallOptions,
): Promise<Result> {
  return session.rawRequest("resources/read", { uri }, options) as Promise<Result>;
}

/** prompts/get, leaving out undefined arguments; `Result` as for readResource. */
export function getPrompt<Result = JsonObject>(
  session: RequestSender,
  name: string,
  args: Readonly<Record<string, string | undefined>>,
  options?: CallOptions,
): Promise<Result> {
  const defined: Record<string, string> = {};
  for (const [key, value] of Object.entries(args)) if (value !== undefined) defined[key] = value;
  return session.rawRequest("prompts/get", { name, arguments: defined }, options) as Promise<Result>;
}

/** RFC 6570 level 1 expansion: `segments` alternates literal text and variable names. */
export function expandUriTemplate(segments: readonly string[], variables: Readonly<Record<string, string>>): string {
  let uri = "";
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    // Level 1 keeps only unreserved characters; encodeURIComponent also leaves !'()* alone.
    uri +=
      i % 2 === 0
        ? segment
        : encodeURIComponent(variables[segment] ?? "").replace(
            /[!'()*]/g,
            (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
          );
  }
  return uri;
}
