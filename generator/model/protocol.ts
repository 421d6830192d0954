// The protocol side of the model: for one revision, which methods exist in which
// direction, and which schema definitions type their params and results. Everything
// is derived from the schema's own unions (ClientRequest, ServerRequest, …) and
// naming conventions (FooRequest → FooResult), so a spec bump needs no code change.
import { methodOf, type ProtocolSchema, type SchemaObject } from "../load/protocol.js";
import type { Era, Revision } from "../load/revisions.js";

type Direction = "client-to-server" | "server-to-client";

export interface ProtocolMethod {
  readonly method: string;
  readonly direction: Direction;
  readonly kind: "request" | "notification";
  /** Definition of the whole message, e.g. "CallToolRequest". */
  readonly message: string;
  /** Whether the message declares `params` at all. */
  readonly hasParams: boolean;
  /** Result definitions for requests (a union when the revision allows several, e.g. input_required). */
  readonly results: readonly string[];
}

export interface ProtocolModel {
  readonly revision: Revision;
  readonly era: Era;
  readonly schema: ProtocolSchema;
  readonly methods: readonly ProtocolMethod[];
  /** Requests a modern server may embed in an InputRequiredResult (MRTR), by method. */
  readonly inputRequests: readonly ProtocolMethod[];
  /** Property names each definition declares; used to project data onto a revision. */
  readonly fields: (definition: string) => ReadonlySet<string>;
}

export function refName(ref: unknown): string | undefined {
  return typeof ref === "string" ? ref.slice(ref.lastIndexOf("/") + 1) : undefined;
}

/** The definitions a schema names: those of its anyOf/oneOf branches, or its own $ref; undefined when it names none. */
function namedRefs(schema: SchemaObject): string[] | undefined {
  const branches = (schema.anyOf ?? schema.oneOf) as SchemaObject[] | undefined;
  if (branches) return branches.map((b) => refName(b.$ref)).filter((n): n is string => n !== undefined);
  return typeof schema.$ref === "string" ? [refName(schema.$ref)!] : undefined;
}

/** The definitions a union definition (anyOf/oneOf of $refs) lists; a plain object definition lists itself. */
function unionMembers(definitions: Readonly<Record<string, SchemaObject>>, name: string): string[] {
  const def = definitions[name];
  return def ? (namedRefs(def) ?? [name]) : [];
}

export function buildProtocolModel(schema: ProtocolSchema): ProtocolModel {
  const { definitions } = schema;
  const era = schema.era;
  const methods: ProtocolMethod[] = [];

  const resultsFor = (message: string): string[] => {
    const base = message.replace(/Request$/, "");
    // 2026-07-28 spells out the response of each request as <Base>ResultResponse; its
    // `result` may be a union (e.g. CallToolResult | InputRequiredResult).
    const response = definitions[`${base}ResultResponse`]?.properties as Record<string, SchemaObject> | undefined;
    const result = response?.result;
    const names = result && namedRefs(result);
    if (names && names.length > 0) return names;
    if (definitions[`${base}Result`]) return [`${base}Result`];
    return [definitions.EmptyResult ? "EmptyResult" : "Result"];
  };

  const collect = (union: string, direction: Direction, kind: "request" | "notification", into: ProtocolMethod[]) => {
    for (const message of unionMembers(definitions, union)) {
      const def = definitions[message];
      const method = methodOf(def);
      if (!def || !method) continue;
      const hasParams = "params" in (def.properties as Record<string, unknown>);
      into.push({
        method,
        direction,
        kind,
        message,
        hasParams,
        results: kind === "request" ? resultsFor(message) : [],
      });
    }
  };
  collect("ClientRequest", "client-to-server", "request", methods);
  collect("ServerRequest", "server-to-client", "request", methods);
  collect("ClientNotification", "client-to-server", "notification", methods);
  collect("ServerNotification", "server-to-client", "notification", methods);
  const inputRequests: ProtocolMethod[] = [];
  collect("InputRequest", "server-to-client", "request", inputRequests);
  // An input request's answer is the matching member of InputResponse: FooRequest → FooResult.
  return {
    revision: schema.revision,
    era,
    schema,
    methods,
    inputRequests,
    fields: (definition) => new Set(Object.keys((definitions[definition]?.properties as object | undefined) ?? {})),
  };
}

/** Namespace name of a revision's types in protocol.gen.ts: 2025-11-25 → V2025_11_25. */
export function revisionNamespace(revision: Revision): string {
  return `V${revision.replace(/-/g, "_")}`;
}
