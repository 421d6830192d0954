// protocol.gen.ts: the protocol's own types for each selected revision, one namespace
// per revision (V2026_07_28, …), with method-keyed maps so that a request that does not
// exist in a revision is a compile error.
import type { ProtocolModel, ProtocolMethod } from "../../model/protocol.js";
import { revisionNamespace, refName } from "../../model/protocol.js";
import { docComment, stringLiteral } from "../escape.js";
import type { GeneratedFile } from "../file.js";
import { normaliseSchema } from "../types/normalise.js";
import { schemaDeclaration } from "../types/schema-type.js";
import {
  keyword,
  lineWidth,
  printDeclaration,
  printType,
  reference,
  union,
  type TypeMember,
  type TypeNode,
} from "../types/type-node.js";

const specSite = "https://modelcontextprotocol.io";

/** Site-relative spec links in descriptions become absolute, so they work in an editor. */
export function absoluteSpecLinks(text: string): string {
  return text.replace(/\]\((\/(?:specification|docs|seps|community|extensions)\/[^)\s]*)\)/g, `](${specSite}$1)`);
}

export const normaliseOptions = { refName: (ref: string) => refName(ref), describe: absoluteSpecLinks };

const mapNames = {
  clientRequests: "ClientRequestMap",
  serverRequests: "ServerRequestMap",
  inputRequests: "InputRequestMap",
  clientNotifications: "ClientNotificationMap",
  serverNotifications: "ServerNotificationMap",
} as const;

/** One method-keyed map of a revision: its doc, name and members. */
interface MethodMap {
  readonly doc: string;
  readonly name: string;
  readonly methods: readonly ProtocolMethod[];
  readonly kind: "request" | "notification";
}

function methodMaps(protocol: ProtocolModel): MethodMap[] {
  const defined = new Set(Object.keys(protocol.schema.definitions));
  for (const name of Object.values(mapNames)) {
    if (defined.has(name))
      throw new Error(`protocol ${protocol.revision} defines ${name}, which mcp-gen uses for its method maps`);
  }
  const byDirection = (direction: ProtocolMethod["direction"], kind: ProtocolMethod["kind"]) =>
    protocol.methods.filter((m) => m.direction === direction && m.kind === kind);
  return [
    {
      doc: "Requests the client sends, by method: their params and possible results.",
      name: mapNames.clientRequests,
      methods: byDirection("client-to-server", "request"),
      kind: "request",
    },
    {
      doc: "Requests the server sends to the client over a session (legacy era), by method.",
      name: mapNames.serverRequests,
      methods: byDirection("server-to-client", "request"),
      kind: "request",
    },
    {
      doc: "Requests a server embeds in an input_required result (multi round-trip requests), by method.",
      name: mapNames.inputRequests,
      methods: protocol.inputRequests,
      kind: "request",
    },
    {
      doc: "Notifications the client sends, by method: their params.",
      name: mapNames.clientNotifications,
      methods: byDirection("client-to-server", "notification"),
      kind: "notification",
    },
    {
      doc: "Notifications the server sends, by method: their params.",
      name: mapNames.serverNotifications,
      methods: byDirection("server-to-client", "notification"),
      kind: "notification",
    },
  ];
}

/** A method's entry: `{ params; result }` for a request, the params for a notification. */
function entryType(m: ProtocolMethod, kind: MethodMap["kind"]): TypeNode {
  const params = m.hasParams ? reference(`${m.message}["params"]`) : keyword("undefined");
  if (kind === "notification") return params;
  const result = union(m.results.map(reference));
  return {
    kind: "object",
    members: [
      { kind: "property", name: "params", optional: false, type: params },
      { kind: "property", name: "result", optional: false, type: result },
    ],
  };
}

function mapDeclaration(map: MethodMap, indent: number): string {
  const members: TypeMember[] = map.methods.map((m) => ({
    kind: "property",
    name: m.method,
    optional: false,
    type: entryType(m, map.kind),
  }));
  return printDeclaration(map.name, { kind: "object", members }, map.doc, indent);
}

function namespaceDoc(protocol: ProtocolModel): string {
  return docComment(
    `Types of MCP protocol revision ${protocol.revision} (${protocol.era} era), generated from its official schema.json.` +
      (protocol.schema.patches.length > 0 ? `\n\nPatched at load: ${protocol.schema.patches.join(" ")}` : ""),
  );
}

/** The namespace of one revision: its definitions' types and its method maps, one level in. */
export function revisionNamespaceText(protocol: ProtocolModel): string {
  const declarations = Object.entries(protocol.schema.definitions).map(([name, definition]) =>
    schemaDeclaration(name, normaliseSchema(definition, normaliseOptions), 1),
  );
  declarations.push(...methodMaps(protocol).map((map) => mapDeclaration(map, 1)));
  return `${namespaceDoc(protocol)}export declare namespace ${revisionNamespace(protocol.revision)} {\n${declarations.join("\n")}}\n`;
}

const mapDocs: Record<keyof typeof mapNames, string> = {
  clientRequests: "Client requests",
  serverRequests: "Server-to-client requests",
  inputRequests: "Input requests",
  clientNotifications: "Client notifications",
  serverNotifications: "Server notifications",
};

/**
 * The head of protocol.gen.ts: the revisions and the merged method maps. The revisions list
 * is one line when it fits in 100 columns, else one revision per line; a map's type
 * argument (a union over the namespaces) follows the canonical layout of unions.
 */
export function protocolHead(revisions: readonly string[], merge: string, namespaces: readonly string[]): string {
  const out: string[] = [docComment("The protocol revisions this code serves and speaks, preferred first.").trimEnd()];
  const literals = revisions.map(stringLiteral);
  const list = `export const revisions = [${literals.join(", ")}] as const;`;
  out.push(
    ...(list.length <= lineWidth
      ? [list]
      : ["export const revisions = [", ...literals.map((l) => `  ${l},`), "] as const;"]),
  );
  out.push("export type Revision = (typeof revisions)[number];", "");
  for (const [key, name] of Object.entries(mapNames)) {
    out.push(
      docComment(
        `${mapDocs[key as keyof typeof mapNames]} of every revision above, by method; params and results are unions over the revisions that have the method.`,
      ).trimEnd(),
    );
    const head = `export type ${name} = ${merge}<`;
    const argument = printType(union(namespaces.map((ns) => reference(`${ns}.${name}`))), "", head.length, 2);
    out.push(argument.startsWith("\n") ? `${head}${argument}\n>;` : `${head}${argument}>;`);
  }
  return `${out.join("\n")}\n`;
}

export function emitProtocol(file: GeneratedFile, protocols: readonly ProtocolModel[], runtime: string): void {
  const merge = file.type(runtime, "MergeMethods");
  const w = file.writer;
  w.raw(
    protocolHead(
      protocols.map((p) => p.revision),
      merge,
      protocols.map((p) => revisionNamespace(p.revision)),
    ),
  );
  for (const protocol of protocols) w.raw(`\n${revisionNamespaceText(protocol)}`);
}
