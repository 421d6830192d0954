// protocol.gen.ts: the protocol's own types for each selected revision, one namespace
// per revision (V2026_07_28, …), with method-keyed maps so that a request that does not
// exist in a revision is a compile error.
import type { ProtocolModel, ProtocolMethod } from "../../model/protocol.js";
import { revisionNamespace, refName } from "../../model/protocol.js";
import { docComment, stringLiteral } from "../escape.js";
import type { GeneratedFile } from "../file.js";
import { formatTypeScript } from "../format.js";
import { cachedNamespace } from "./cache.js";
import { normaliseSchema, schemaToDeclaration } from "../json-schema-types.js";
import { Unsupported } from "../layout/expression.js";
import { bareKey } from "../layout/literals.js";
import { printString, printWidth } from "../layout/print.js";
import { fitsWidth } from "../layout/width.js";
import { printDeclaration, type Declaration, type TypeMember, type TypeNode } from "../layout/type-doc.js";
import { schemaDeclaration } from "../types/schema-types.js";

const specSite = "https://modelcontextprotocol.io";

/** Site-relative spec links in descriptions become absolute, so they work in an editor. */
export function absoluteSpecLinks(text: string): string {
  return text.replace(/\]\((\/(?:specification|docs|seps|community|extensions)\/[^)\s]*)\)/g, `](${specSite}$1)`);
}

const normaliseOptions = { refName: (ref: string) => refName(ref), describe: absoluteSpecLinks };

async function buildDeclarations(protocol: ProtocolModel): Promise<string> {
  const parts: string[] = [];
  for (const [name, definition] of Object.entries(protocol.schema.definitions)) {
    parts.push(await schemaToDeclaration(name, normaliseSchema(definition, normaliseOptions)));
  }
  return parts.join("\n");
}

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
    if (defined.has(name)) throw new Error(`protocol ${protocol.revision} defines ${name}, which mcp-gen uses for its method maps`);
  }
  const byDirection = (direction: ProtocolMethod["direction"], kind: ProtocolMethod["kind"]) =>
    protocol.methods.filter((m) => m.direction === direction && m.kind === kind);
  return [
    { doc: "Requests the client sends, by method: their params and possible results.", name: mapNames.clientRequests, methods: byDirection("client-to-server", "request"), kind: "request" },
    { doc: "Requests the server sends to the client over a session (legacy era), by method.", name: mapNames.serverRequests, methods: byDirection("server-to-client", "request"), kind: "request" },
    { doc: "Requests a server embeds in an input_required result (multi round-trip requests), by method.", name: mapNames.inputRequests, methods: protocol.inputRequests, kind: "request" },
    { doc: "Notifications the client sends, by method: their params.", name: mapNames.clientNotifications, methods: byDirection("client-to-server", "notification"), kind: "notification" },
    { doc: "Notifications the server sends, by method: their params.", name: mapNames.serverNotifications, methods: byDirection("server-to-client", "notification"), kind: "notification" },
  ];
}

/** A method's entry: `{ params; result }` for a request, the params for a notification. */
function entryType(m: ProtocolMethod, kind: MethodMap["kind"]): TypeNode {
  const params: TypeNode = m.hasParams ? { kind: "reference", name: `${m.message}["params"]` } : { kind: "keyword", text: "undefined" };
  if (kind === "notification") return params;
  const results: TypeNode[] = m.results.map((name) => ({ kind: "reference", name }));
  const result: TypeNode = results.length === 1 ? results[0]! : { kind: "union", members: results };
  return {
    kind: "object",
    multiline: false,
    members: [
      { comments: [], key: "params", optional: false, type: params },
      { comments: [], key: "result", optional: false, type: result },
    ],
  };
}

function mapDeclaration(map: MethodMap): Declaration {
  const members: TypeMember[] = map.methods.map((m) => {
    const bare = bareKey(m.method);
    if (bare === undefined) throw new Unsupported("method name prettier may unquote");
    return { comments: [], key: bare ? m.method : printString(stringLiteral(m.method)), optional: false, type: entryType(m, map.kind) };
  });
  return { kind: "interface", comments: [docComment(map.doc).trimEnd()], name: map.name, members };
}

function mapSource(map: MethodMap): string {
  const lines = map.methods.map((m) => {
    const params = m.hasParams ? `${m.message}["params"]` : "undefined";
    const value = map.kind === "request" ? `{ params: ${params}; result: ${m.results.join(" | ")} }` : params;
    return `  ${stringLiteral(m.method)}: ${value};`;
  });
  return `${docComment(map.doc)}export interface ${map.name} ${lines.length === 0 ? "{}" : `{\n${lines.join("\n")}\n}`}\n`;
}

function namespaceDoc(protocol: ProtocolModel): string {
  return docComment(
    `Types of MCP protocol revision ${protocol.revision} (${protocol.era} era), generated from its official schema.json.` +
      (protocol.schema.patches.length > 0 ? `\n\nPatched at load: ${protocol.schema.patches.join(" ")}` : ""),
  );
}

/**
 * The namespace already in prettier's layout, when every definition takes the direct type
 * path (all of the official schemas' do): no json-schema-to-typescript, TypeScript or
 * prettier to load on a machine's first run. Undefined otherwise.
 */
export function laidOutNamespace(protocol: ProtocolModel, maps: readonly MethodMap[] = methodMaps(protocol)): string | undefined {
  const declarations: string[] = [];
  for (const [name, definition] of Object.entries(protocol.schema.definitions)) {
    const text = schemaDeclaration(name, normaliseSchema(definition, normaliseOptions), 2);
    if (text === undefined) return undefined;
    declarations.push(text);
  }
  let mapTexts: string[];
  try {
    mapTexts = maps.map((map) => printDeclaration(mapDeclaration(map), 2));
  } catch (error) {
    if (error instanceof Unsupported) return undefined;
    throw error;
  }
  return `${namespaceDoc(protocol)}export declare namespace ${revisionNamespace(protocol.revision)} {\n${declarations.join("\n")}\n${mapTexts.join("")}}\n`;
}

/** The namespace of one revision, formatted: it depends on nothing but the revision's schema. */
function revisionNamespaceText(protocol: ProtocolModel): Promise<string> {
  return cachedNamespace([protocol.revision, protocol.schema.sha256, ...protocol.schema.patches], async () => {
    const maps = methodMaps(protocol);
    return laidOutNamespace(protocol, maps) ?? formattedNamespace(protocol, maps);
  });
}

/** The namespace for any schema: json-schema-to-typescript where the direct path declines, and prettier over the whole. */
export async function formattedNamespace(protocol: ProtocolModel, maps: readonly MethodMap[] = methodMaps(protocol)): Promise<string> {
  const body = `${await buildDeclarations(protocol)}\n${maps.map(mapSource).join("")}`;
  return formatTypeScript(`${namespaceDoc(protocol)}export declare namespace ${revisionNamespace(protocol.revision)} {\n${body}}\n`);
}

const mapDocs: Record<keyof typeof mapNames, string> = {
  clientRequests: "Client requests",
  serverRequests: "Server-to-client requests",
  inputRequests: "Input requests",
  clientNotifications: "Client notifications",
  serverNotifications: "Server notifications",
};

const fits = (line: string) => fitsWidth(line, printWidth);

/**
 * The head of protocol.gen.ts (the revisions and the merged method maps) in prettier's
 * layout: a list or a type argument on one line when it fits, else one entry per line.
 * Undefined when a line would not fit even so (not modelled).
 */
export function protocolHead(revisions: readonly string[], merge: string, namespaces: readonly string[]): string | undefined {
  const out: string[] = [docComment("The protocol revisions this code serves and speaks, preferred first.").trimEnd()];
  const literals = revisions.map(stringLiteral);
  const list = `export const revisions = [${literals.join(", ")}] as const;`;
  out.push(...(fits(list) ? [list] : ["export const revisions = [", ...literals.map((l) => `  ${l},`), "] as const;"]));
  out.push("export type Revision = (typeof revisions)[number];", "");
  for (const [key, name] of Object.entries(mapNames)) {
    out.push(docComment(`${mapDocs[key as keyof typeof mapNames]} of every revision above, by method; params and results are unions over the revisions that have the method.`).trimEnd());
    const members = namespaces.map((ns) => `${ns}.${name}`);
    const line = `export type ${name} = ${merge}<${members.join(" | ")}>;`;
    if (fits(line)) out.push(line);
    else if (fits(`  ${members.join(" | ")}`)) out.push(`export type ${name} = ${merge}<`, `  ${members.join(" | ")}`, ">;");
    else out.push(`export type ${name} = ${merge}<`, ...members.map((m) => `  | ${m}`), ">;");
  }
  // (doc comments are never broken)
  if (!out.every((line) => line.startsWith("/**") || fits(line))) return undefined;
  return `${out.join("\n")}\n`;
}

export async function emitProtocol(file: GeneratedFile, protocols: readonly ProtocolModel[], runtime: string): Promise<void> {
  const merge = file.type(runtime, "MergeMethods");
  const namespaces = protocols.map((p) => revisionNamespace(p.revision));
  const head = protocolHead(
    protocols.map((p) => p.revision),
    merge,
    namespaces,
  );
  if (head !== undefined) file.tail.push({ text: head, formatted: true });
  else {
    const w = file.writer;
    w.write(docComment("The protocol revisions this code serves and speaks, preferred first."));
    w.write(`export const revisions = [${protocols.map((p) => stringLiteral(p.revision)).join(", ")}] as const;`).newLine();
    w.write(`export type Revision = (typeof revisions)[number];`).blankLine();
    for (const [key, name] of Object.entries(mapNames)) {
      w.write(docComment(`${mapDocs[key as keyof typeof mapNames]} of every revision above, by method; params and results are unions over the revisions that have the method.`));
      w.write(`export type ${name} = ${merge}<${namespaces.map((ns) => `${ns}.${name}`).join(" | ")}>;`).newLine();
    }
  }
  // The namespaces come last, formatted once per revision and cached.
  for (const protocol of protocols) file.tail.push({ text: await revisionNamespaceText(protocol), formatted: true });
}
