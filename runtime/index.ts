// @mcp-gen/runtime: what generated code and applications import. Zero dependencies and
// no Node-only modules here (see @mcp-gen/runtime/node for stdio and node:http), so a
// generated server also runs on edge platforms behind createWebHandler.
export { ErrorCode, RpcError } from "./jsonrpc/messages.js";
export type {
  JsonRpcMessage,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcResponse,
  Params,
  RequestId,
} from "./jsonrpc/messages.js";
export { Exchange, Peer, RequestFailedError } from "./jsonrpc/peer.js";
export { RequestingPeer } from "./jsonrpc/requesting-peer.js";
export { batchesFeature } from "./jsonrpc/batches.js";
export type { BatchCollector, BatchesFeature } from "./jsonrpc/batches.js";
export type { Dispatcher, MessageSink, RequestOptions } from "./jsonrpc/peer.js";
export { RawJson, serializeMessage } from "./jsonrpc/serialize.js";
export { parseMessage } from "./jsonrpc/parse.js";
export { callToolAsTask, TaskCancelledError, TaskFailedError, TaskTimeoutError } from "./mcp/client-tasks.js";
export type { TaskCallOptions, TaskInfo, TaskSession, TaskWaitOptions, ToolTask } from "./mcp/client-tasks.js";
export { callTool, expandUriTemplate, getPrompt, readResource, toolMethods } from "./mcp/client-calls.js";
export { checkToolResult, ToolOutputError } from "./mcp/tool-output.js";
export type {
  PlainToolCallResult,
  RequestSender,
  ToolCallResult,
  ToolCallTable,
  ToolTasks,
  ToolTaskTable,
} from "./mcp/client-calls.js";
export { ClientSession, connectSession, NegotiationError } from "./mcp/client.js";
export type { HandledFeatures } from "./mcp/client-capabilities.js";
export type {
  CallerParams,
  CallOptions,
  ChannelHandlers,
  ClientChannel,
  ClientHandlers,
  ClientOptions,
  MergeMethods,
  MethodShape,
  NotificationWatcher,
  RawRequestOptions,
  ServerDescription,
} from "./mcp/client.js";
export { ClientRequestUnavailableError, missingClientCapability } from "./mcp/client-requests.js";
export { completionFeature, MAX_COMPLETION_VALUES } from "./mcp/completion.js";
export type {
  AnswerValidators,
  CacheHint,
  ChangingList,
  CompletionEntry,
  CompletionFeature,
  HandlerPath,
  InputFeature,
  ListChangesFeature,
  Listing,
  PromptEntry,
  PromptsFeature,
  ReadHost,
  RequestStateOptions,
  ResourceEntry,
  ResourcesFeature,
  ResourceTemplateEntry,
  ServerDefinition,
  ServerFeatures,
  ServerNames,
  SubscriptionsFeature,
  ToolEntry,
} from "./mcp/definition.js";
export type {
  AnyRequests,
  Awaitable,
  ClientRequestOptions,
  CompletionContext,
  CompletionReturn,
  Implementation,
  InputRequestOf,
  InputResults,
  JsonObject,
  PromptContext,
  PromptReturn,
  RequestContext,
  RequestShape,
  ResourceContent,
  ResourceContext,
  ResourceReturn,
  StructuredToolReturn,
  ToolContext,
  ToolError,
  ToolReturn,
} from "./mcp/handler-types.js";
export type { InputRequestSpec, TaskInput } from "./mcp/context.js";
export { MissingHandlersError } from "./mcp/handler-paths.js";
export { inputFeature } from "./mcp/input.js";
export { isModern, LOGGING_LEVELS, MetaKey } from "./mcp/revisions.js";
export type { LoggingLevel } from "./mcp/revisions.js";
export { createServer, McpServer } from "./mcp/server.js";
export type { EndpointDefinition, McpEndpoint, ServerOptions } from "./mcp/server.js";
export { subscriptionsFeature } from "./mcp/subscriptions.js";
export { createTaskServer, missingTasksExtension, RELATED_TASK, TASKS_EXTENSION, TaskServer } from "./mcp/tasks.js";
export type { TaskCall } from "./mcp/tasks.js";
export { isTerminal, MemoryTaskStore, TaskLimitError } from "./mcp/tasks-store.js";
export type {
  MemoryTaskStoreOptions,
  TaskOptions,
  TaskPage,
  TaskRecord,
  TaskStatus,
  TaskStore,
} from "./mcp/tasks-store.js";
export { listChangesFeature } from "./mcp/list-changes.js";
export { promptsFeature, resourcesFeature } from "./mcp/reads.js";
export { MemoryEventStore } from "./transport/event-store.js";
export type { EventStore, MemoryEventStoreOptions, Replay, StoredEvent } from "./transport/event-store.js";
export { BodyBudgetError, BodyTimeoutError, BodyTooLargeError, StreamableHttpBinding } from "./transport/http.js";
export { decodeHeaderValue, encodeHeaderValue } from "./mcp/mirrored-headers.js";
export type { BodyBudget, HttpAuthOptions, HttpOptions, HttpReply, HttpRequestLike } from "./transport/http.js";
export { InvalidTokenError, METADATA_PATH, metadataUrl, protectedResourceMetadata } from "./auth/resource-server.js";
export type { AuthInfo, AuthPolicy, EntryScopes, TokenRequest, VerifyToken } from "./auth/resource-server.js";
export { httpChannel, HttpStatusError } from "./transport/http-client.js";
export type { HttpAuth, HttpChannelOptions } from "./transport/http-client.js";
export { memoryChannel } from "./transport/memory.js";
export { createWebHandler } from "./transport/web.js";
export type { WebHandler } from "./transport/web.js";
export { codePointLength, deepEqual, describeIssue, pointerToken } from "./validation.js";
export type { ValidationIssue, Validator } from "./validation.js";
export { createLegacySseHandler, LegacySseBinding } from "./transport/legacy-sse.js";
export type { LegacySseHandler, LegacySseOptions } from "./transport/legacy-sse.js";
export { legacySseChannel } from "./transport/legacy-sse-client.js";
export type { LegacySseChannelOptions } from "./transport/legacy-sse-client.js";
