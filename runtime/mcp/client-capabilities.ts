// The capabilities a client declares, derived from the `requests` handlers it was given:
// a handler for a server-to-client request is the promise to answer it, so the capability
// that request needs is declared with it, in the shape the revision knows. What a handler
// can do beyond the basics (URL-mode elicitation, sampling with tools or context, roots
// change notifications) only its author knows: `handles` says it.
import type { JsonObject } from "./handler-types.js";
import { hasElicitation, hasElicitationModes, hasRootsListChanged, hasSamplingSubCapabilities } from "./revisions.js";

/** What the `requests` handlers honour beyond a plain answer; each flag defaults to false unless noted. */
export interface HandledFeatures {
  readonly elicitation?:
    | {
        /** Form mode (`mode` absent or "form"). Default true: a handler answers forms unless this says otherwise. */
        readonly form?: boolean | undefined;
        /** URL mode (`mode: "url"`, from 2025-11-25): the handler sends its user to `params.url`. */
        readonly url?: boolean | undefined;
      }
    | undefined;
  readonly sampling?:
    | {
        /** The handler runs `tools` / `toolChoice` (2025-11-25 and later). */
        readonly tools?: boolean | undefined;
        /** The handler includes context for `includeContext` other than "none" (2025-11-25 and later). */
        readonly context?: boolean | undefined;
      }
    | undefined;
  readonly roots?:
    | {
        /** The client sends notifications/roots/list_changed when its roots change (legacy revisions). */
        readonly listChanged?: boolean | undefined;
      }
    | undefined;
}

/** The client capabilities under `revision` of a client with handlers for `methods` (the keys of its `requests`). */
export function capabilitiesFromHandlers(
  methods: ReadonlySet<string>,
  handles: HandledFeatures,
  revision: string,
): JsonObject {
  const capabilities: JsonObject = {};
  if (methods.has("sampling/createMessage")) {
    const sampling: JsonObject = {};
    if (hasSamplingSubCapabilities(revision)) {
      if (handles.sampling?.context) sampling.context = {};
      if (handles.sampling?.tools) sampling.tools = {};
    }
    capabilities.sampling = sampling;
  }
  if (methods.has("elicitation/create") && hasElicitation(revision)) {
    const form = handles.elicitation?.form ?? true;
    const url = handles.elicitation?.url ?? false;
    // 2025-06-18 knows no modes: `elicitation: {}` is form mode, and URL mode does not exist.
    if (!hasElicitationModes(revision)) {
      if (form) capabilities.elicitation = {};
    } else if (form || url) {
      capabilities.elicitation = { ...(form ? { form: {} } : {}), ...(url ? { url: {} } : {}) };
    }
  }
  if (methods.has("roots/list")) {
    capabilities.roots = hasRootsListChanged(revision) ? { listChanged: handles.roots?.listChanged ?? false } : {};
  }
  return capabilities;
}
