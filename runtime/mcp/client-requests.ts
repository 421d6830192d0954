// Requests a server sends to the client while it handles one of the client's requests
// (sampling/createMessage, elicitation/create, roots/list). Legacy sessions carry them
// on the connection (on HTTP: the stream of the POST being answered). Either way the
// client must have declared the capability a method needs; a server must not rely on
// one it did not declare.
import { ErrorCode, isObject, RpcError, type Params } from "../jsonrpc/messages.js";
import { RequestFailedError, type Exchange } from "../jsonrpc/peer.js";
import type { ClientRequestOptions, JsonObject } from "./handler-types.js";
import { hasElicitation, hasUrlElicitation } from "./revisions.js";

/** The client capability each server-to-client request needs (no prototype: any method name is safe to look up). */
export const requiredClientCapability: Readonly<Record<string, string | undefined>> = Object.assign(
  Object.create(null) as Record<string, string>,
  {
    "sampling/createMessage": "sampling",
    "elicitation/create": "elicitation",
    "roots/list": "roots",
  },
);

/**
 * Raised by `ctx.request` when the revision a request is served under has no
 * server-to-client requests (2026-07-28 replaces them with input_required results).
 * A plain Error: thrown on from a tool handler, it becomes a tool error result.
 */
export class ClientRequestUnavailableError extends Error {
  constructor(
    readonly method: string,
    readonly revision: string,
  ) {
    super(
      `Cannot send ${method} to the client: protocol ${revision} has no server-to-client requests during a request`,
    );
    this.name = "ClientRequestUnavailableError";
  }
}

/** The MissingRequiredClientCapability error (-32021) for a capability the client did not declare. */
export function missingClientCapability(
  capability: string,
  method?: string,
  mode?: string,
  revision?: string,
): RpcError {
  const what = method === undefined ? "" : ` (${method}${mode === undefined ? "" : `, ${mode} mode`})`;
  const why =
    revision === undefined
      ? ""
      : `: protocol ${revision} has no ${method ?? capability}${mode === undefined ? "" : ` in ${mode} mode`}`;
  return new RpcError(
    ErrorCode.MissingRequiredClientCapability,
    `Missing required client capability: ${capability}${mode === undefined ? "" : `.${mode}`}${what}${why}`,
    {
      requiredCapabilities: { [capability]: mode === undefined ? {} : { [mode]: {} } },
    },
  );
}

/**
 * Whether the client declared what `method` with `params` needs, else the -32021 error:
 * its capability, and for elicitation the mode (`url` must be declared; `form` is implied
 * by an empty `elicitation: {}`, as clients before URL mode wrote it). What the negotiated
 * `revision` does not have, no declaration provides: elicitation exists from 2025-06-18,
 * its URL mode from 2025-11-25 (clients of earlier revisions may still declare them).
 */
export function capabilityProblem(
  capabilities: JsonObject,
  method: string,
  params: unknown,
  revision?: string,
): RpcError | undefined {
  const capability = requiredClientCapability[method];
  if (capability === undefined) return undefined;
  const elicitation = method === "elicitation/create";
  const mode = elicitation ? (isObject(params) && params.mode === "url" ? "url" : "form") : undefined;
  if (revision !== undefined && elicitation) {
    if (!hasElicitation(revision)) return missingClientCapability(capability, method, undefined, revision);
    if (mode === "url" && !hasUrlElicitation(revision))
      return missingClientCapability(capability, method, mode, revision);
  }
  const declared = Object.hasOwn(capabilities, capability) ? capabilities[capability] : undefined;
  if (!isObject(declared)) return missingClientCapability(capability, method);
  if (!elicitation) return undefined;
  const modes = Object.keys(declared).filter((m) => m === "form" || m === "url");
  return (modes.length === 0 ? mode === "form" : isObject(declared[mode!]))
    ? undefined
    : missingClientCapability(capability, method, mode);
}

/** What ctx.request needs to know about the request being handled. */
export interface ClientRequestScope {
  readonly revision: string;
  readonly era: "modern" | "legacy";
  readonly capabilities: JsonObject;
}

/** Sends `method` to the client on behalf of `exchange`, after checking the client's capabilities. */
export function sendClientRequest(
  exchange: Exchange,
  scope: ClientRequestScope,
  method: string,
  params: unknown,
  options: ClientRequestOptions = {},
): Promise<Params> {
  const problem = capabilityProblem(scope.capabilities, method, params, scope.revision);
  if (problem) return Promise.reject(problem);
  if (scope.era === "modern") return Promise.reject(new ClientRequestUnavailableError(method, scope.revision));
  if (params !== undefined && !isObject(params))
    return Promise.reject(new TypeError(`${method}: params must be an object`));
  // On behalf of the request being handled: cancelled with it, and related to it on HTTP streams.
  const request = exchange.peer.request?.(method, params, {
    ...options,
    relatedTo: exchange.id,
    signal: options.signal ?? exchange.signal,
  });
  return request ?? Promise.reject(new RequestFailedError(`Cannot send ${method}: this connection sends no requests`));
}
