// Which of a manifest's generated signatures a spec bump changes. Each signature names the
// protocol types it is built from, exactly as emit/server and emit/client write them (tool
// content blocks, prompt messages, read and prompt results, the requests `asks:` allows);
// following their $refs transitively and meeting the changed types gives its impact.
import type { ProtocolSchema, SchemaObject } from "../load/protocol.js";
import { buildProtocolModel, refName } from "../model/protocol.js";
import { clientAsks, type ServerModel } from "../model/server.js";
import { reachedTypes, type ProtocolDiff } from "./protocol-diff.js";

/** The protocol types one generated signature reaches before and after the bump. */
export interface SignatureImpact {
  /** `tool get_forecast`, `prompt plan_trip`, … */
  readonly declaration: string;
  /** What is generated from these types, e.g. `result content: handler ToolContent, client ToolResultContent`. */
  readonly signature: string;
  /** Types reached in both revisions that changed. */
  readonly changed: readonly string[];
  readonly added: readonly string[];
  readonly removed: readonly string[];
}

export interface ContentBlockChanges {
  readonly added: readonly string[];
  readonly removed: readonly string[];
  /** Members of both revisions, each with the changed types it reaches (itself included). */
  readonly changed: readonly { readonly name: string; readonly types: readonly string[] }[];
}

export interface ManifestImpact {
  readonly manifest: string;
  /** The manifest's `protocol:` list, preferred first. */
  readonly revisions: readonly string[];
  readonly notes: readonly string[];
  readonly signatures: readonly SignatureImpact[];
  /** Client requests the generated client's session gains and loses. */
  readonly clientRequests: { readonly added: readonly string[]; readonly removed: readonly string[] };
}

type Definitions = Readonly<Record<string, SchemaObject>>;
/** The schemas a signature is built from, in one revision (none when the revision lacks them). */
type Roots = (schema: ProtocolSchema) => unknown[];

const ref = (name: string): Roots => (schema) => (schema.definitions[name] ? [{ $ref: `#/$defs/${name}` }] : []);
/** `CallToolResult["content"][number]`: what server.gen.ts's ToolContent and client.gen.ts's ToolResultContent are. */
const contentItems = (definitions: Definitions): SchemaObject | undefined =>
  ((definitions.CallToolResult?.properties as Record<string, SchemaObject> | undefined)?.content?.items as SchemaObject | undefined);
const toolContent: Roots = (schema) => [contentItems(schema.definitions)].filter((items) => items !== undefined);
/** A request a handler may send the client (ctx.input / ctx.request): its message and results. */
const clientRequest = (method: string): Roots => (schema) => {
  const model = buildProtocolModel(schema);
  const found = [...model.methods, ...model.inputRequests].find((m) => m.method === method && m.direction === "server-to-client");
  return found ? [found.message, ...found.results].flatMap((name) => ref(name)(schema)) : [];
};

/** The member definitions of the tool content block union (ContentBlock, or the inline anyOf of older revisions). */
export function contentBlocks(definitions: Definitions): string[] {
  const items = contentItems(definitions);
  const union = items && typeof items.$ref === "string" ? definitions[refName(items.$ref)!] : items;
  const branches = (union?.anyOf ?? union?.oneOf ?? (union ? [items] : [])) as SchemaObject[];
  return branches.map((b) => refName(b.$ref)).filter((n): n is string => n !== undefined);
}

const sorted = (names: Iterable<string>) => [...names].sort();

/** Content block members added, removed, and changed (reaching a changed type). */
export function contentBlockChanges(before: ProtocolSchema, after: ProtocolSchema, diff: ProtocolDiff): ContentBlockChanges {
  const [a, b] = [contentBlocks(before.definitions), contentBlocks(after.definitions)];
  const changedTypes = new Set(diff.types.changed.map((t) => t.name));
  const changed = sorted(b.filter((name) => a.includes(name)))
    .map((name) => ({ name, types: sorted([...reachedTypes(after.definitions, ref(name)(after))].filter((t) => changedTypes.has(t))) }))
    .filter((member) => member.types.length > 0);
  return { added: sorted(b.filter((n) => !a.includes(n))), removed: sorted(a.filter((n) => !b.includes(n))), changed };
}

export function manifestImpact(manifest: string, model: ServerModel, before: ProtocolSchema, after: ProtocolSchema, diff: ProtocolDiff): ManifestImpact {
  const changedTypes = new Set(diff.types.changed.map((t) => t.name));
  const signatures: SignatureImpact[] = [];
  const impact = (declaration: string, signature: string, roots: Roots) => {
    const [a, b] = [reachedTypes(before.definitions, roots(before)), reachedTypes(after.definitions, roots(after))];
    signatures.push({
      declaration,
      signature,
      changed: sorted([...b].filter((t) => a.has(t) && changedTypes.has(t))),
      added: sorted([...b].filter((t) => !a.has(t))),
      removed: sorted([...a].filter((t) => !b.has(t))),
    });
  };
  const { server, client } = model.generate;
  /** "handler X, client Y", for the parts the manifest generates. */
  const sides = (what: string, handler: string | undefined, clientType: string | undefined) => {
    const parts = [server && handler ? `handler ${handler}` : undefined, client && clientType ? `client ${clientType}` : undefined].filter(Boolean);
    return parts.length > 0 ? `${what}: ${parts.join(", ")}` : undefined;
  };
  const entries = [
    ...model.tools.map((t) => ({ d: t, kind: "tool", signature: sides("result content", "ToolContent", "ToolResultContent"), roots: toolContent })),
    ...model.resources.map((r) => ({ d: r, kind: "resource", signature: sides("read result", undefined, "ReadResourceResult"), roots: ref("ReadResourceResult") })),
    ...model.resourceTemplates.map((r) => ({ d: r, kind: "resource template", signature: sides("read result", undefined, "ReadResourceResult"), roots: ref("ReadResourceResult") })),
    ...model.prompts.map((p) => ({ d: p, kind: "prompt", signature: undefined, roots: ref("GetPromptResult") })),
  ];
  for (const { d, kind, signature, roots } of entries) {
    const name = `${kind} ${d.key}`;
    if (kind === "prompt") {
      // Declarative prompts have no handler: their messages are rendered by generated code.
      const handlerMessages = server && (d as ServerModel["prompts"][number]).messages === undefined;
      if (handlerMessages) impact(name, "messages: handler PromptMessage", ref("PromptMessage"));
      if (client) impact(name, "result: client GetPromptResult", roots);
    } else if (signature) impact(name, signature, roots);
    if (server) for (const ask of d.asks) impact(name, `ctx.input ${clientAsks[ask].method}`, clientRequest(clientAsks[ask].method));
  }

  const { revisions } = model;
  const notes: string[] = [];
  const list = revisions.join(", ");
  if (!revisions.includes(diff.to as never)) notes.push(`${manifest} does not target ${diff.to} (protocol: ${list}); this is what adding it would change`);
  if (!revisions.includes(diff.from as never)) notes.push(`${manifest} does not target ${diff.from} (protocol: ${list})`);
  if (server && revisions[0] !== diff.to) {
    notes.push(`handler content types come from the preferred (first) revision, now ${revisions[0]}; they change as shown once ${diff.to} is first in protocol:`);
  }
  const requests = (side: readonly string[]) => side.includes("client request");
  const clientRequests = {
    added: diff.methods.added.concat(diff.methods.moved).filter((m) => requests(m.to) && !requests(m.from)).map((m) => m.method),
    removed: diff.methods.removed.concat(diff.methods.moved).filter((m) => requests(m.from) && !requests(m.to)).map((m) => m.method),
  };
  return { manifest, revisions, notes, signatures, clientRequests: client ? { added: sorted(clientRequests.added), removed: sorted(clientRequests.removed) } : { added: [], removed: [] } };
}
