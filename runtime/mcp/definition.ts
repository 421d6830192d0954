// The contract between generated code and the runtime: the data table a generated
// server passes to createServer, and the shapes handlers may return. Handler-facing
// types take the protocol's content types as parameters, so generated code binds them
// to the preferred revision's types from protocol.gen.ts.
import type { Validator } from "../validation.js";
import type { LoggingLevel } from "./revisions.js";

export type Awaitable<T> = T | Promise<T>;
export type JsonObject = { [key: string]: unknown };

/** Name, version and display fields of a client or server. */
export interface Implementation {
  readonly name: string;
  readonly version: string;
  readonly title?: string | undefined;
  readonly description?: string | undefined;
  readonly websiteUrl?: string | undefined;
  readonly icons?: readonly JsonObject[] | undefined;
}

/** What every handler receives besides its arguments. */
export interface RequestContext {
  /** Aborted when the client cancels the request or goes away. */
  readonly signal: AbortSignal;
  /** The protocol revision this request is served under. */
  readonly revision: string;
  readonly era: "modern" | "legacy";
  /** Who is asking, as the client declared it (self-reported; do not base security on it). */
  readonly client: { readonly info?: Implementation | undefined; readonly capabilities: JsonObject };
  /** The request's `_meta`, if any. */
  readonly meta: JsonObject | undefined;
  /** Reports progress when the client asked for it (a progress token); otherwise does nothing. */
  progress(progress: number, total?: number, message?: string): void;
  /**
   * Sends a log message to the client when its log level admits it (logging/setLevel in
   * legacy revisions, the request's `io.modelcontextprotocol/logLevel` in modern ones).
   */
  log(level: LoggingLevel, data: unknown, logger?: string): void;
}

export type ToolContext = RequestContext;
export type ResourceContext = RequestContext;
export type PromptContext = RequestContext;

/** A tool result without structured output: a string is shorthand for one text block. */
export type ToolReturn<Content> =
  | string
  | {
      readonly content: readonly Content[];
      readonly isError?: boolean | undefined;
      readonly _meta?: JsonObject | undefined;
    };

/**
 * A tool result with structured output. `content` is optional: when absent, the runtime
 * adds a text block with the JSON of `structuredContent` for clients that read text.
 * A tool with an output schema may still fail with a ToolError result.
 */
export type StructuredToolReturn<Output, Content> =
  | {
      readonly structuredContent: Output;
      readonly content?: readonly Content[] | undefined;
      readonly isError?: false | undefined;
      readonly _meta?: JsonObject | undefined;
    }
  | ToolError<Content>;

/** A tool result that reports failure to the model (`isError: true`), so it can correct itself. */
export interface ToolError<Content> {
  readonly content: readonly Content[];
  readonly isError: true;
  readonly _meta?: JsonObject | undefined;
}

/** One resource body; `uri` defaults to the URI read and `mimeType` to the declared one. */
export type ResourceContent =
  | { readonly uri?: string | undefined; readonly mimeType?: string | undefined; readonly text: string; readonly _meta?: JsonObject | undefined }
  | { readonly uri?: string | undefined; readonly mimeType?: string | undefined; readonly blob: string; readonly _meta?: JsonObject | undefined };

/** A string is text, bytes become a base64 blob. */
export type ResourceReturn = string | Uint8Array | ResourceContent | readonly ResourceContent[];

export type PromptReturn<Message> = readonly Message[] | { readonly description?: string | undefined; readonly messages: readonly Message[] };

export interface ToolEntry<H> {
  readonly name: string;
  readonly validateInput: Validator;
  readonly validateOutput?: Validator | undefined;
  readonly call: (handlers: H, args: unknown, ctx: ToolContext) => Awaitable<unknown>;
}

export interface ResourceEntry<H> {
  readonly uri: string;
  readonly mimeType?: string | undefined;
  readonly read: (handlers: H, ctx: ResourceContext) => Awaitable<ResourceReturn>;
}

export interface ResourceTemplateEntry<H> {
  readonly name: string;
  /** Anchored pattern whose groups capture `variables` (percent-encoded). */
  readonly pattern: RegExp;
  readonly variables: readonly string[];
  readonly mimeType?: string | undefined;
  readonly read: (handlers: H, variables: Record<string, string>, ctx: ResourceContext) => Awaitable<ResourceReturn>;
}

export interface PromptEntry<H> {
  readonly name: string;
  readonly arguments: readonly { readonly name: string; readonly required: boolean }[];
  readonly get: (handlers: H, args: Record<string, string>, ctx: PromptContext) => Awaitable<PromptReturn<unknown>>;
}

/** What tools/list, resources/list, resources/templates/list and prompts/list return for one revision. */
export interface Listing {
  readonly tools: readonly JsonObject[];
  readonly resources: readonly JsonObject[];
  readonly resourceTemplates: readonly JsonObject[];
  readonly prompts: readonly JsonObject[];
}

/** Everything a generated server knows at generation time. */
export interface ServerDefinition<H> {
  readonly info: Implementation;
  readonly instructions?: string | undefined;
  /** Served revisions, preferred first. */
  readonly revisions: readonly string[];
  /** `info` projected onto each revision's Implementation type. */
  readonly infoByRevision: Readonly<Record<string, JsonObject>>;
  readonly tools: readonly ToolEntry<H>[];
  readonly resources: readonly ResourceEntry<H>[];
  readonly resourceTemplates: readonly ResourceTemplateEntry<H>[];
  readonly prompts: readonly PromptEntry<H>[];
  readonly listings: Readonly<Record<string, Listing>>;
}
