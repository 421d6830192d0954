// Which of a manifest's generated signatures a spec bump changes. Each signature names the
// protocol types it is built from, exactly as emit/server and emit/client write them (tool
// content blocks, prompt messages, read and prompt results, the requests `asks:` allows);
// following their $refs transitively and meeting the changed types gives its impact.
import type { ProtocolSchema, SchemaObject } from "../load/protocol.js";
import { buildProtocolModel, refName } from "../model/protocol.js";
import { clientAsks } from "../model/declarations.js";
import type { Declared, ServerModel } from "../model/types.js";
import { inMeta, reachedTypes, type ProtocolDiff } from "./protocol-diff.js";

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
  /** The changes above all lie in `_meta` fields (and the types only they reach): no field the signature's users read changes. */
  readonly metaOnly: boolean;
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

const ref =
  (name: string): Roots =>
  (schema) =>
    schema.definitions[name] ? [{ $ref: `#/$defs/${name}` }] : [];
/** `CallToolResult["content"][number]`: what server.gen.ts's ToolContent and client.gen.ts's ToolResultContent are. */
const contentItems = (definitions: Definitions): SchemaObject | undefined =>
  (definitions.CallToolResult?.properties as Record<string, SchemaObject> | undefined)?.content?.items as
    SchemaObject | undefined;
const toolContent: Roots = (schema) => [contentItems(schema.definitions)].filter((items) => items !== undefined);
/** A request a handler may send the client (ctx.input / ctx.request): its message and results. */
const protocolModels = new WeakMap<ProtocolSchema, ReturnType<typeof buildProtocolModel>>();
const clientRequest =
  (method: string): Roots =>
  (schema) => {
    // Built once per revision, not once per declaration that asks.
    const model = protocolModels.get(schema) ?? buildProtocolModel(schema);
    protocolModels.set(schema, model);
    const found = [...model.methods, ...model.inputRequests].find(
      (m) => m.method === method && m.direction === "server-to-client",
    );
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
export function contentBlockChanges(
  before: ProtocolSchema,
  after: ProtocolSchema,
  diff: ProtocolDiff,
): ContentBlockChanges {
  const [a, b] = [contentBlocks(before.definitions), contentBlocks(after.definitions)];
  const changedTypes = new Set(diff.types.changed.map((t) => t.name));
  const changed = sorted(b.filter((name) => a.includes(name)))
    .map((name) => ({
      name,
      types: sorted([...reachedTypes(after.definitions, ref(name)(after))].filter((t) => changedTypes.has(t))),
    }))
    .filter((member) => member.types.length > 0);
  return { added: sorted(b.filter((n) => !a.includes(n))), removed: sorted(a.filter((n) => !b.includes(n))), changed };
}

export function manifestImpact(
  manifest: string,
  model: ServerModel,
  before: ProtocolSchema,
  after: ProtocolSchema,
  diff: ProtocolDiff,
): ManifestImpact {
  const changedTypes = new Set(diff.types.changed.map((t) => t.name));
  const changedOutsideMeta = new Set(diff.types.changed.filter((t) => !t.changes.every(inMeta)).map((t) => t.name));
  const signatures: SignatureImpact[] = [];
  /** Whether the types `roots` reach (through `_meta` fields too, or not) differ between the revisions in `changed`, or are added or removed. */
  const differs = (roots: Roots, changed: ReadonlySet<string>, skipMeta: boolean) => {
    const [a, b] = [
      reachedTypes(before.definitions, roots(before), { skipMeta }),
      reachedTypes(after.definitions, roots(after), { skipMeta }),
    ];
    return {
      changed: sorted([...b].filter((t) => a.has(t) && changed.has(t))),
      added: sorted([...b].filter((t) => !a.has(t))),
      removed: sorted([...a].filter((t) => !b.has(t))),
    };
  };
  const impact = (declaration: string, signature: string, roots: Roots) => {
    const all = differs(roots, changedTypes, false);
    const outsideMeta = differs(roots, changedOutsideMeta, true);
    const real = outsideMeta.changed.length + outsideMeta.added.length + outsideMeta.removed.length > 0;
    signatures.push({
      declaration,
      signature,
      ...all,
      metaOnly: !real && all.changed.length + all.added.length + all.removed.length > 0,
    });
  };
  const { server, client } = model.generate;
  /** Each declaration's signatures (left out where `false`: a part not generated), then the requests its `asks:` allows. */
  const each = <T extends Declared>(
    kind: string,
    items: readonly T[],
    signaturesOf: (item: T) => [string | false, Roots][],
  ) => {
    for (const item of items) {
      for (const [signature, roots] of signaturesOf(item))
        if (signature) impact(`${kind} ${item.key}`, signature, roots);
      if (server)
        for (const ask of item.asks)
          impact(`${kind} ${item.key}`, `ctx.input ${clientAsks[ask].method}`, clientRequest(clientAsks[ask].method));
    }
  };
  const toolSides = [server && "handler ToolContent", client && "client ToolResultContent"].filter(Boolean).join(", ");
  each("tool", model.tools, () => [[toolSides !== "" && `result content: ${toolSides}`, toolContent]]);
  const read = (): [string | false, Roots][] => [
    [client && "read result: client ReadResourceResult", ref("ReadResourceResult")],
  ];
  each("resource", model.resources, read);
  each("resource template", model.resourceTemplates, read);
  // Declarative prompts have no handler: generated code renders their messages.
  each("prompt", model.prompts, (p) => [
    [server && p.messages === undefined && "messages: handler PromptMessage", ref("PromptMessage")],
    [client && "result: client GetPromptResult", ref("GetPromptResult")],
  ]);

  const { revisions } = model;
  const targets = (revision: string) => (revisions as readonly string[]).includes(revision);
  const notes = [diff.from, diff.to]
    .filter((revision) => !targets(revision))
    .map(
      (revision) =>
        `${manifest} does not target ${revision} (protocol: ${revisions.join(", ")})${revision === diff.to ? "; this is what adding it would change" : ""}`,
    );
  if (server && revisions[0] !== diff.to)
    notes.push(
      `handler content types come from the preferred (first) revision, now ${revisions[0]}; they change as shown once ${diff.to} is first in protocol:`,
    );
  const requests = (roles: readonly string[]) => client && roles.includes("client request");
  const { added, removed, moved } = diff.methods;
  const clientRequests = {
    added: sorted([...added, ...moved].filter((m) => requests(m.to) && !requests(m.from)).map((m) => m.method)),
    removed: sorted([...removed, ...moved].filter((m) => requests(m.from) && !requests(m.to)).map((m) => m.method)),
  };
  return { manifest, revisions, notes, signatures, clientRequests };
}
