// protocol.gen.ts: the protocol's own types for each selected revision, one namespace
// per revision (V2026_07_28, …), with method-keyed maps so that a request that does not
// exist in a revision is a compile error.
import type { ProtocolModel, ProtocolMethod } from "../../model/protocol.js";
import { revisionNamespace, refName } from "../../model/protocol.js";
import { docComment, stringLiteral } from "../escape.js";
import { newWriter, type GeneratedFile } from "../file.js";
import { formatTypeScript } from "../format.js";
import { cachedNamespace } from "./cache.js";
import { normaliseSchema, schemaToDeclaration } from "../json-schema-types.js";

const specSite = "https://modelcontextprotocol.io";

/** Site-relative spec links in descriptions become absolute, so they work in an editor. */
export function absoluteSpecLinks(text: string): string {
  return text.replace(/\]\((\/(?:specification|docs|seps|community|extensions)\/[^)\s]*)\)/g, `](${specSite}$1)`);
}

async function buildDeclarations(protocol: ProtocolModel): Promise<string> {
  const options = { refName: (ref: string) => refName(ref), describe: absoluteSpecLinks };
  const parts: string[] = [];
  for (const [name, definition] of Object.entries(protocol.schema.definitions)) {
    parts.push(await schemaToDeclaration(name, normaliseSchema(definition, options)));
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

function mapBody(methods: readonly ProtocolMethod[], kind: "request" | "notification"): string {
  if (methods.length === 0) return "{}";
  const lines = methods.map((m) => {
    const params = m.hasParams ? `${m.message}["params"]` : "undefined";
    const value = kind === "request" ? `{ params: ${params}; result: ${m.results.join(" | ")} }` : params;
    return `  ${stringLiteral(m.method)}: ${value};`;
  });
  return `{\n${lines.join("\n")}\n}`;
}

/** The namespace of one revision, formatted: it depends on nothing but the revision's schema. */
function revisionNamespaceText(protocol: ProtocolModel): Promise<string> {
  return cachedNamespace([protocol.revision, protocol.schema.sha256, ...protocol.schema.patches], async () => {
    const ns = revisionNamespace(protocol.revision);
    const defined = new Set(Object.keys(protocol.schema.definitions));
    for (const name of Object.values(mapNames)) {
      if (defined.has(name)) throw new Error(`protocol ${protocol.revision} defines ${name}, which mcp-gen uses for its method maps`);
    }
    const byDirection = (direction: ProtocolMethod["direction"], kind: ProtocolMethod["kind"]) =>
      protocol.methods.filter((m) => m.direction === direction && m.kind === kind);
    const w = newWriter();
    w.write(
      docComment(
        `Types of MCP protocol revision ${protocol.revision} (${protocol.era} era), generated from its official schema.json.` +
          (protocol.schema.patches.length > 0 ? `\n\nPatched at load: ${protocol.schema.patches.join(" ")}` : ""),
      ),
    );
    w.write(`export declare namespace ${ns} {`).newLine();
    w.write(await buildDeclarations(protocol)).newLine();
    w.write(docComment("Requests the client sends, by method: their params and possible results.")).write(`export interface ${mapNames.clientRequests} `).write(mapBody(byDirection("client-to-server", "request"), "request")).newLine();
    w.write(docComment("Requests the server sends to the client over a session (legacy era), by method.")).write(`export interface ${mapNames.serverRequests} `).write(mapBody(byDirection("server-to-client", "request"), "request")).newLine();
    w.write(docComment("Requests a server embeds in an input_required result (multi round-trip requests), by method.")).write(`export interface ${mapNames.inputRequests} `).write(mapBody(protocol.inputRequests, "request")).newLine();
    w.write(docComment("Notifications the client sends, by method: their params.")).write(`export interface ${mapNames.clientNotifications} `).write(mapBody(byDirection("client-to-server", "notification"), "notification")).newLine();
    w.write(docComment("Notifications the server sends, by method: their params.")).write(`export interface ${mapNames.serverNotifications} `).write(mapBody(byDirection("server-to-client", "notification"), "notification")).newLine();
    w.write("}").newLine();
    return formatTypeScript(w.toString());
  });
}

export async function emitProtocol(file: GeneratedFile, protocols: readonly ProtocolModel[], runtime: string): Promise<void> {
  const w = file.writer;
  const merge = file.type(runtime, "MergeMethods");
  const union = (map: string) => protocols.map((p) => `${revisionNamespace(p.revision)}.${map}`).join(" | ");
  w.write(docComment("The protocol revisions this code serves and speaks, preferred first."));
  w.write(`export const revisions = [${protocols.map((p) => stringLiteral(p.revision)).join(", ")}] as const;`).newLine();
  w.write(`export type Revision = (typeof revisions)[number];`).blankLine();
  for (const [key, name] of Object.entries(mapNames)) {
    const what = {
      clientRequests: "Client requests",
      serverRequests: "Server-to-client requests",
      inputRequests: "Input requests",
      clientNotifications: "Client notifications",
      serverNotifications: "Server notifications",
    }[key as keyof typeof mapNames];
    w.write(docComment(`${what} of every revision above, by method; params and results are unions over the revisions that have the method.`));
    w.write(`export type ${name} = ${merge}<${union(name)}>;`).newLine();
  }
  // The namespaces come last, formatted once per revision and cached.
  for (const protocol of protocols) file.tail.push({ text: await revisionNamespaceText(protocol), formatted: true });
}
