// Facts about protocol revisions that the runtime needs and the schema does not state
// (they live in the specification's prose).

/** Revisions are dates; later strings are later revisions. */
export const FIRST_MODERN_REVISION = "2026-07-28";

/** Modern revisions carry version, identity and capabilities in each request's _meta. */
export function isModern(revision: string): boolean {
  return revision >= FIRST_MODERN_REVISION;
}

/** The reserved `_meta` keys of the modern era. */
export const MetaKey = {
  protocolVersion: "io.modelcontextprotocol/protocolVersion",
  clientInfo: "io.modelcontextprotocol/clientInfo",
  clientCapabilities: "io.modelcontextprotocol/clientCapabilities",
  logLevel: "io.modelcontextprotocol/logLevel",
  serverInfo: "io.modelcontextprotocol/serverInfo",
  subscriptionId: "io.modelcontextprotocol/subscriptionId",
} as const;

/** Invalid tool arguments are a tool error (isError) from 2025-11-25 (SEP-1303), a JSON-RPC error before. */
export function invalidToolArgumentsAreToolErrors(revision: string): boolean {
  return revision >= "2025-11-25";
}

/** resources/read of an unknown URI: -32002 up to 2025-11-25, -32602 from 2026-07-28. */
export function resourceNotFoundCode(revision: string): number {
  return isModern(revision) ? -32602 : -32002;
}

/** structuredContent and outputSchema exist from 2025-06-18. */
export function hasStructuredContent(revision: string): boolean {
  return revision >= "2025-06-18";
}

/** The `completions` server capability exists from 2025-03-26 (completion/complete itself from 2024-11-05). */
export function hasCompletionsCapability(revision: string): boolean {
  return revision >= "2025-03-26";
}

/** elicitation/create (server to client) exists from 2025-06-18. */
export function hasElicitation(revision: string): boolean {
  return revision >= "2025-06-18";
}

/** URL-mode elicitation (`mode: "url"`, SEP-1036) exists from 2025-11-25. */
export function hasUrlElicitation(revision: string): boolean {
  return revision >= "2025-11-25";
}

/** Client capabilities name elicitation modes (`elicitation: { form?, url? }`) from 2025-11-25, with URL mode. */
export function hasElicitationModes(revision: string): boolean {
  return hasUrlElicitation(revision);
}

/** The sampling client capability has `tools` and `context` from 2025-11-25. */
export function hasSamplingSubCapabilities(revision: string): boolean {
  return revision >= "2025-11-25";
}

/** Clients announce root changes (`roots.listChanged`, notifications/roots/list_changed) up to 2025-11-25 only. */
export function hasRootsListChanged(revision: string): boolean {
  return !isModern(revision);
}

/** The MCP-Protocol-Version HTTP header exists from 2025-06-18. */
export function hasProtocolVersionHeader(revision: string): boolean {
  return revision >= "2025-06-18";
}

/** Servers prime an SSE stream with an event carrying only an id from 2025-11-25 (SEP-1699). */
export function primesEventStreams(revision: string): boolean {
  return revision >= "2025-11-25";
}

/** The experimental tasks (params.task, tasks/get, tasks/result, tasks/list, tasks/cancel) are part of 2025-11-25 only; later revisions have the tasks extension. */
export function hasExperimentalTasks(revision: string): boolean {
  return revision === "2025-11-25";
}

/** JSON-RPC batches are part of 2025-03-26 only. */
export function allowsBatches(revision: string): boolean {
  return revision === "2025-03-26";
}

export const LOGGING_LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"] as const;
export type LoggingLevel = (typeof LOGGING_LEVELS)[number];

export function loggingSeverity(level: string): number {
  return LOGGING_LEVELS.indexOf(level as LoggingLevel);
}
