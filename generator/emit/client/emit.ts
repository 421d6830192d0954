// client.gen.ts: a typed client for the manifest's server. Each tool, resource,
// template and prompt becomes a method; tool results with an output schema are
// validated with the same compiled validator the server uses.
import type { ProtocolModel } from "../../model/protocol.js";
import { revisionNamespace } from "../../model/protocol.js";
import { paramHeaderDeclarations, type ServerModel } from "../../model/server.js";
import { codeLiteral, docComment, propertyKey, stringLiteral } from "../escape.js";
import type { GeneratedFile } from "../file.js";
import { toolTypeNames } from "../types/emit.js";
import { validatorNames } from "../validators/emit.js";

export function clientNames(model: ServerModel): { client: string; create: string; connect: string; options: string; serverRequests: string } {
  const base = model.typeBase;
  return { client: `${base}Client`, create: `create${base}Client`, connect: `connect${base}Client`, options: `${base}ClientOptions`, serverRequests: `${base}ServerRequests` };
}

function summary(...parts: (string | undefined)[]): string {
  return parts.filter((s): s is string => s !== undefined && s !== "").join(". ");
}

export function emitClient(file: GeneratedFile, model: ServerModel, protocols: readonly ProtocolModel[]): void {
  const w = file.writer;
  const rt = model.generate.runtime;
  const names = clientNames(model);
  const protocol = file.local("protocol.gen");
  const types = file.local("types.gen");
  const validators = file.local("validators.gen");
  const union = (def: string) => protocols.map((p) => `${file.type(protocol, revisionNamespace(p.revision))}.${def}`).join(" | ");
  const callOptions = file.type(rt, "CallOptions");
  const session = `${file.type(rt, "ClientSession")}<${file.type(protocol, "ClientRequestMap")}>`;

  if (model.tools.length > 0) {
    w.write(docComment("A content block of a tool result, in any of the revisions this client speaks."));
    w.write(`export type ToolResultContent = ${protocols.map((p) => `${file.type(protocol, revisionNamespace(p.revision))}.CallToolResult["content"][number]`).join(" | ")};`).blankLine();
  }
  const readResult = model.resources.length + model.resourceTemplates.length > 0 ? union("ReadResourceResult") : "";
  const promptResult = model.prompts.length > 0 ? union("GetPromptResult") : "";

  w.write(docComment(`A typed client for ${model.info.name}.`));
  w.write(`export interface ${names.client} {`).newLine();
  w.indent().write(docComment("The underlying session: era, revision, server description, and every protocol request.", "  ").trimStart());
  w.indent().write(`readonly session: ${session};`).newLine();
  const group = (key: string, members: () => void) => {
    w.indent().write(`readonly ${key}: {`).newLine();
    members();
    w.indent().write("};").newLine();
  };
  const member = (doc: string, signature: string) => {
    if (doc) w.write(docComment(doc, "    "));
    w.indent(2).write(`${signature};`).newLine();
  };
  if (model.tools.length > 0) {
    group("tools", () => {
      for (const tool of model.tools) {
        const t = toolTypeNames(tool);
        const result = tool.output
          ? `${file.type(rt, "ToolCallResult")}<${file.type(types, t.output)}, ToolResultContent>`
          : `${file.type(rt, "PlainToolCallResult")}<ToolResultContent>`;
        const optionalArgs = !hasRequiredInput(tool.input.schema.value);
        member(
          summary(`Calls tool ${stringLiteral(tool.key)}`, tool.title, tool.description, tool.output ? "Structured content is validated against the tool's output schema" : undefined),
          `${propertyKey(tool.member)}(args${optionalArgs ? "?" : ""}: ${file.type(types, t.input)}, options?: ${callOptions}): Promise<${result}>`,
        );
      }
    });
  }
  if (model.resources.length > 0) {
    group("resources", () => {
      for (const r of model.resources) member(summary(`Reads ${r.uri}`, r.title, r.description), `${propertyKey(r.member)}(options?: ${callOptions}): Promise<${readResult}>`);
    });
  }
  if (model.resourceTemplates.length > 0) {
    group("resourceTemplates", () => {
      for (const t of model.resourceTemplates) {
        member(summary(`Reads ${t.uriTemplate} with the variables filled in`, t.title, t.description), `${propertyKey(t.member)}(variables: ${file.type(types, `${t.typeBase}Variables`)}, options?: ${callOptions}): Promise<${readResult}>`);
      }
    });
  }
  if (model.prompts.length > 0) {
    group("prompts", () => {
      for (const p of model.prompts) {
        const optionalArgs = !p.arguments.some((a) => a.required);
        member(summary(`Gets prompt ${stringLiteral(p.key)}`, p.title, p.description), `${propertyKey(p.member)}(args${optionalArgs ? "?" : ""}: ${file.type(types, `${p.typeBase}PromptArgs`)}, options?: ${callOptions}): Promise<${promptResult}>`);
      }
    });
  }
  w.indent().write(docComment("Ends the session (and the server process, over stdio).", "  ").trimStart());
  w.indent().write("close(): Promise<void>;").newLine();
  w.write("}").blankLine();

  // createXClient
  w.write(docComment(`Wraps a connected session in the typed ${names.client}.`));
  w.write(`export function ${names.create}(session: ${session}): ${names.client} {`).newLine();
  w.indent().write("return {").newLine();
  w.indent(2).write("session,").newLine();
  if (model.tools.length > 0) {
    w.indent(2).write("tools: {").newLine();
    for (const tool of model.tools) {
      const t = toolTypeNames(tool);
      const validate = tool.output ? `, ${file.value(validators, validatorNames(tool.typeBase).output)}` : "";
      const cast = tool.output ? `${file.type(rt, "ToolCallResult")}<${t.output}, ToolResultContent>` : `${file.type(rt, "PlainToolCallResult")}<ToolResultContent>`;
      w.indent(3).write(`${propertyKey(tool.member)}: async (args, options) => (await ${file.value(rt, "callTool")}(session, ${stringLiteral(tool.key)}, args ?? {}, options${validate})) as unknown as ${cast},`).newLine();
    }
    w.indent(2).write("},").newLine();
  }
  const read = file.value.bind(file);
  if (model.resources.length > 0) {
    w.indent(2).write("resources: {").newLine();
    for (const r of model.resources) {
      w.indent(3).write(`${propertyKey(r.member)}: async (options) => (await ${read(rt, "readResource")}(session, ${stringLiteral(r.uri)}, options)) as unknown as ${readResult},`).newLine();
    }
    w.indent(2).write("},").newLine();
  }
  if (model.resourceTemplates.length > 0) {
    w.indent(2).write("resourceTemplates: {").newLine();
    for (const t of model.resourceTemplates) {
      const segments = `[${t.template.segments.map(stringLiteral).join(", ")}]`;
      w.indent(3)
        .write(
          `${propertyKey(t.member)}: async (variables, options) => (await ${read(rt, "readResource")}(session, ${read(rt, "expandUriTemplate")}(${segments}, { ...variables }), options)) as unknown as ${readResult},`,
        )
        .newLine();
    }
    w.indent(2).write("},").newLine();
  }
  if (model.prompts.length > 0) {
    w.indent(2).write("prompts: {").newLine();
    for (const p of model.prompts) {
      w.indent(3).write(`${propertyKey(p.member)}: async (args, options) => (await ${read(rt, "getPrompt")}(session, ${stringLiteral(p.key)}, { ...args }, options)) as unknown as ${promptResult},`).newLine();
    }
    w.indent(2).write("},").newLine();
  }
  w.indent(2).write("close: () => session.close(),").newLine();
  w.indent().write("};").newLine();
  w.write("}").blankLine();

  // connectXClient
  const clientOptions = file.type(rt, "ClientOptions");
  const revisionType = file.type(protocol, "Revision");
  const asks = names.serverRequests;
  w.write(docComment("What the server may ask of this client, by method: legacy server requests and 2026-07-28 input requests (answered the same way)."));
  w.write(`export type ${asks} = ${file.type(rt, "MergeMethods")}<${file.type(protocol, "ServerRequestMap")} | ${file.type(protocol, "InputRequestMap")}>;`).blankLine();
  w.write(
    docComment(
      `Options of ${names.connect}: those of a client session, with this manifest's revisions as the default; \`requests\` and \`notifications\` are typed by method.`,
    ),
  );
  w.write(
    `export type ${names.options} = Omit<${clientOptions}<${asks}, ${file.type(protocol, "ServerNotificationMap")}>, "revisions"> & { readonly revisions?: readonly ${revisionType}[] | undefined };`,
  ).blankLine();
  w.write(
    docComment(
      `Connects to a ${model.info.name} server over \`channel\` (stdioChannel, httpChannel, memoryChannel), detecting the protocol era: a server/discover probe first, the initialize handshake as fallback.`,
    ),
  );
  const mirrored = paramHeaderDeclarations(model);
  const hasMirrored = Object.keys(mirrored).length > 0;
  if (hasMirrored) {
    w.write(docComment("Tool arguments mirrored into Mcp-Param-* headers on 2026-07-28 HTTP requests (`x-mcp-header`): tool → argument → header."));
    w.write(`const paramHeaders: Readonly<Record<string, Readonly<Record<string, string>>>> = ${codeLiteral(mirrored)};`).blankLine();
  }
  w.write(`export async function ${names.connect}(channel: ${file.type(rt, "ClientChannel")}, options: ${names.options} = {}): Promise<${names.client}> {`).newLine();
  w.indent()
    .write(
      `const session = await ${file.value(rt, "connectSession")}<${file.type(protocol, "ClientRequestMap")}, ${asks}, ${file.type(protocol, "ServerNotificationMap")}>(channel, { ${hasMirrored ? "paramHeaders, " : ""}...options, revisions: options.revisions ?? ${file.value(protocol, "revisions")} });`,
    )
    .newLine();
  w.indent().write(`return ${names.create}(session);`).newLine();
  w.write("}").newLine();
}


/** Whether a tool's input schema requires some property (then the client must pass arguments). */
function hasRequiredInput(schema: unknown): boolean {
  if (!schema || typeof schema !== "object" || Array.isArray(schema)) return true;
  const s = schema as { required?: unknown; allOf?: unknown; anyOf?: unknown; oneOf?: unknown; $ref?: unknown };
  if (Array.isArray(s.required) && s.required.length > 0) return true;
  if (s.$ref !== undefined || s.anyOf !== undefined || s.oneOf !== undefined) return true;
  return Array.isArray(s.allOf) && s.allOf.some(hasRequiredInput);
}
