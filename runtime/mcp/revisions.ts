// What the runtime does differently per protocol revision, as data: the released revisions,
// and for each behaviour the range of released revisions that have it (the first, and the
// last when a later revision dropped it). The schema does not state these (they live in the
// specification's prose). A revision this table has never seen (a later date, `draft`) is
// treated as the newest released revision at or before it, so a spec bump that the
// generator reads from a new schema.json is served and negotiated without a new runtime.

export type Era = "modern" | "legacy";

/** The released revisions, oldest first. */
export const releasedRevisions = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"] as const;

/** The released revisions that have a behaviour: the first, and the last when a later revision dropped it. */
export type RevisionRange = readonly [since: string, until?: string];

// One constant per behaviour (rather than one object) so that a bundle keeps only those it uses.
/** The modern era: version, identity and capabilities in each request's _meta, no initialize handshake. */
export const modernRevisions: RevisionRange = ["2026-07-28"];
/** JSON-RPC batches. */
export const revisionsWithBatches: RevisionRange = ["2025-03-26", "2025-03-26"];
/** The `completions` server capability (completion/complete itself exists from 2024-11-05). */
export const revisionsWithCompletionsCapability: RevisionRange = ["2025-03-26"];
/** structuredContent and outputSchema. */
export const revisionsWithStructuredContent: RevisionRange = ["2025-06-18"];
/** elicitation/create (server to client). */
export const revisionsWithElicitation: RevisionRange = ["2025-06-18"];
/** The MCP-Protocol-Version HTTP header. */
export const revisionsWithProtocolVersionHeader: RevisionRange = ["2025-06-18"];
/** Invalid tool arguments are a tool error (isError), a JSON-RPC error before (SEP-1303). */
export const revisionsWithToolErrorsForInvalidArguments: RevisionRange = ["2025-11-25"];
/** URL-mode elicitation (`mode: "url"`, SEP-1036), and elicitation modes in client capabilities (`elicitation: { form?, url? }`). */
export const revisionsWithUrlElicitation: RevisionRange = ["2025-11-25"];
/** The sampling client capability's `tools` and `context`. */
export const revisionsWithSamplingSubCapabilities: RevisionRange = ["2025-11-25"];
/** Servers prime an SSE stream with an event carrying only an id (SEP-1699). */
export const revisionsWithPrimedEventStreams: RevisionRange = ["2025-11-25"];
/** The experimental tasks of that revision (params.task, tasks/get, tasks/result, tasks/list, tasks/cancel); later revisions have the tasks extension. */
export const revisionsWithExperimentalTasks: RevisionRange = ["2025-11-25", "2025-11-25"];
/** Clients announce root changes (`roots.listChanged`, notifications/roots/list_changed). */
export const revisionsWithRootsListChanged: RevisionRange = ["2024-11-05", "2025-11-25"];
/** resources/read of an unknown URI is -32602 (-32002 before). */
export const revisionsWithResourceNotFoundAsInvalidParams: RevisionRange = ["2026-07-28"];

/**
 * The released revision whose behaviour `revision` has: itself when released, else the newest
 * released one before it (a date compares as a date; `draft` or any other name comes after every
 * date). A revision older than all released ones behaves like the oldest.
 */
export function releasedBehaviourOf(revision: string): string {
  const dated = /^\d{4}-\d{2}-\d{2}$/.test(revision);
  return releasedRevisions.findLast((known) => !dated || known <= revision) ?? releasedRevisions[0];
}

/** Whether `revision` has the behaviour of `range` (see releasedBehaviourOf). */
export function inRevisions(revision: string, [since, until]: RevisionRange): boolean {
  const behaviour = releasedBehaviourOf(revision);
  return behaviour >= since && behaviour <= (until ?? behaviour);
}

/** The era of `revision`: that of the released revision behind it. */
export function eraOf(revision: string): Era {
  return isModern(revision) ? "modern" : "legacy";
}

/** Modern revisions carry version, identity and capabilities in each request's _meta. */
export function isModern(revision: string): boolean {
  return inRevisions(revision, modernRevisions);
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
  return inRevisions(revision, revisionsWithToolErrorsForInvalidArguments);
}

/** resources/read of an unknown URI: -32002 up to 2025-11-25, -32602 from 2026-07-28. */
export function resourceNotFoundCode(revision: string): number {
  return inRevisions(revision, revisionsWithResourceNotFoundAsInvalidParams) ? -32602 : -32002;
}

/** structuredContent and outputSchema exist from 2025-06-18. */
export function hasStructuredContent(revision: string): boolean {
  return inRevisions(revision, revisionsWithStructuredContent);
}

/** The `completions` server capability exists from 2025-03-26 (completion/complete itself from 2024-11-05). */
export function hasCompletionsCapability(revision: string): boolean {
  return inRevisions(revision, revisionsWithCompletionsCapability);
}

/** elicitation/create (server to client) exists from 2025-06-18. */
export function hasElicitation(revision: string): boolean {
  return inRevisions(revision, revisionsWithElicitation);
}

/** URL-mode elicitation (`mode: "url"`, SEP-1036) exists from 2025-11-25. */
export function hasUrlElicitation(revision: string): boolean {
  return inRevisions(revision, revisionsWithUrlElicitation);
}

/** Client capabilities name elicitation modes (`elicitation: { form?, url? }`) from 2025-11-25, with URL mode. */
export function hasElicitationModes(revision: string): boolean {
  return hasUrlElicitation(revision);
}

/** The sampling client capability has `tools` and `context` from 2025-11-25. */
export function hasSamplingSubCapabilities(revision: string): boolean {
  return inRevisions(revision, revisionsWithSamplingSubCapabilities);
}

/** Clients announce root changes (`roots.listChanged`, notifications/roots/list_changed) up to 2025-11-25 only. */
export function hasRootsListChanged(revision: string): boolean {
  return inRevisions(revision, revisionsWithRootsListChanged);
}

/** The MCP-Protocol-Version HTTP header exists from 2025-06-18. */
export function hasProtocolVersionHeader(revision: string): boolean {
  return inRevisions(revision, revisionsWithProtocolVersionHeader);
}

/** Servers prime an SSE stream with an event carrying only an id from 2025-11-25 (SEP-1699). */
export function primesEventStreams(revision: string): boolean {
  return inRevisions(revision, revisionsWithPrimedEventStreams);
}

/** The experimental tasks (params.task, tasks/get, tasks/result, tasks/list, tasks/cancel) are part of 2025-11-25 only; later revisions have the tasks extension. */
export function hasExperimentalTasks(revision: string): boolean {
  return inRevisions(revision, revisionsWithExperimentalTasks);
}

/** JSON-RPC batches are part of 2025-03-26 only (no revision yet: none). */
export function allowsBatches(revision: string | undefined): boolean {
  return revision !== undefined && inRevisions(revision, revisionsWithBatches);
}

export const LOGGING_LEVELS = [
  "debug",
  "info",
  "notice",
  "warning",
  "error",
  "critical",
  "alert",
  "emergency",
] as const;
export type LoggingLevel = (typeof LOGGING_LEVELS)[number];

export function loggingSeverity(level: string): number {
  return LOGGING_LEVELS.indexOf(level as LoggingLevel);
}
