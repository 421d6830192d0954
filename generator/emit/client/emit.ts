// client.gen.ts: a typed client for the manifest's server. Each tool, resource,
// template and prompt becomes a method; tool results with an output schema are
// validated with the same compiled validator the server uses.
import type { ProtocolModel } from "../../model/protocol.js";
import { revisionNamespace } from "../../model/protocol.js";
import { paramHeaderDeclarations, type ServerModel } from "../../model/server.js";
import { codeLiteral, docComment, propertyKey, stringLiteral } from "../escape.js";
import { newWriter, type GeneratedFile } from "../file.js";
import { InterfaceUnit } from "../layout/interface-unit.js";
import { stringCode } from "../layout/literals.js";
import { printWidth } from "../layout/print.js";
import { toolTypeNames } from "../types/emit.js";
import { validatorNames } from "../validators/emit.js";

export function clientNames(model: ServerModel): { client: string; create: string; connect: string; options: string; serverRequests: string; toolCalls: string } {
  const base = model.typeBase;
  return {
    client: `${base}Client`,
    create: `create${base}Client`,
    connect: `connect${base}Client`,
    options: `${base}ClientOptions`,
    serverRequests: `${base}ServerRequests`,
    toolCalls: `${base.charAt(0).toLowerCase()}${base.slice(1)}ToolCalls`,
  };
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

  // The interface (a signature per tool, resource, template and prompt) and the tool call
  // table are units of the file's tail, written in prettier's layout: a large manifest
  // makes them most of the file.
  const iface = new InterfaceUnit();
  const i = iface.writer;
  i.write(docComment(`A typed client for ${model.info.name}.`));
  i.write(`export interface ${names.client} {`).newLine();
  i.indent().write(docComment("The underlying session: era, revision, server description, and every protocol request.", "  ").trimStart());
  i.indent().write(`readonly session: ${session};`).newLine();
  const group = (key: string, members: () => void) => {
    i.indent().write(`readonly ${key}: {`).newLine();
    members();
    i.indent().write("};").newLine();
  };
  const member = (doc: string, name: string, params: readonly string[], returns: string) => {
    if (doc) i.write(docComment(doc, "    "));
    iface.signature(2, name, params, returns);
  };
  const options = `options?: ${callOptions}`;
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
          propertyKey(tool.member),
          [`args${optionalArgs ? "?" : ""}: ${file.type(types, t.input)}`, options],
          `Promise<${result}>`,
        );
      }
    });
  }
  if (model.resources.length > 0) {
    group("resources", () => {
      for (const r of model.resources) member(summary(`Reads ${r.uri}`, r.title, r.description), propertyKey(r.member), [options], `Promise<${readResult}>`);
    });
  }
  if (model.resourceTemplates.length > 0) {
    group("resourceTemplates", () => {
      for (const t of model.resourceTemplates) {
        member(summary(`Reads ${t.uriTemplate} with the variables filled in`, t.title, t.description), propertyKey(t.member), [`variables: ${file.type(types, `${t.typeBase}Variables`)}`, options], `Promise<${readResult}>`);
      }
    });
  }
  if (model.prompts.length > 0) {
    group("prompts", () => {
      for (const p of model.prompts) {
        const optionalArgs = !p.arguments.some((a) => a.required);
        member(summary(`Gets prompt ${stringLiteral(p.key)}`, p.title, p.description), propertyKey(p.member), [`args${optionalArgs ? "?" : ""}: ${file.type(types, `${p.typeBase}PromptArgs`)}`, options], `Promise<${promptResult}>`);
      }
    });
  }
  i.indent().write(docComment("Ends the session (and the server process, over stdio).", "  ").trimStart());
  i.indent().write("close(): Promise<void>;").newLine();
  i.write("}").newLine();
  file.tail.push(iface.unit());

  // The tools' calls as a table (member → tool name and output validator), laid out one
  // entry per line; a line too long for that, or not printable ASCII (whose keys and widths
  // prettier might treat otherwise), leaves the unit to prettier.
  const toolCalls = names.toolCalls;
  if (model.tools.length > 0) {
    const entries = model.tools.map((tool) => {
      const validate = tool.output ? `, ${file.value(validators, validatorNames(tool.typeBase).output)}` : "";
      return `  ${propertyKey(tool.member)}: [${stringCode(tool.key)}${validate}],`;
    });
    const lines = [`const ${toolCalls}: ${file.type(rt, "ToolCallTable")} = {`, ...entries, "};"];
    const text = `${docComment("What each tool method calls: the tool's name and the validator of its structured output.")}${lines.join("\n")}\n`;
    file.tail.push({ text, formatted: lines.every((line) => line.length <= printWidth && !/[^\x20-\x7e]/.test(line)) });
  }

  // createXClient
  const c = newWriter();
  c.write(docComment(`Wraps a connected session in the typed ${names.client}.`));
  c.write(`export function ${names.create}(session: ${session}): ${names.client} {`).newLine();
  c.indent().write("return {").newLine();
  c.indent(2).write("session,").newLine();
  if (model.tools.length > 0) c.indent(2).write(`tools: ${file.value(rt, "toolMethods")}<${names.client}["tools"]>(session, ${toolCalls}),`).newLine();
  const read = file.value.bind(file);
  if (model.resources.length > 0) {
    c.indent(2).write("resources: {").newLine();
    for (const r of model.resources) {
      c.indent(3).write(`${propertyKey(r.member)}: async (options) => (await ${read(rt, "readResource")}(session, ${stringLiteral(r.uri)}, options)) as unknown as ${readResult},`).newLine();
    }
    c.indent(2).write("},").newLine();
  }
  if (model.resourceTemplates.length > 0) {
    c.indent(2).write("resourceTemplates: {").newLine();
    for (const t of model.resourceTemplates) {
      const segments = `[${t.template.segments.map(stringLiteral).join(", ")}]`;
      c.indent(3)
        .write(
          `${propertyKey(t.member)}: async (variables, options) => (await ${read(rt, "readResource")}(session, ${read(rt, "expandUriTemplate")}(${segments}, { ...variables }), options)) as unknown as ${readResult},`,
        )
        .newLine();
    }
    c.indent(2).write("},").newLine();
  }
  if (model.prompts.length > 0) {
    c.indent(2).write("prompts: {").newLine();
    for (const p of model.prompts) {
      c.indent(3).write(`${propertyKey(p.member)}: async (args, options) => (await ${read(rt, "getPrompt")}(session, ${stringLiteral(p.key)}, { ...args }, options)) as unknown as ${promptResult},`).newLine();
    }
    c.indent(2).write("},").newLine();
  }
  c.indent(2).write("close: () => session.close(),").newLine();
  c.indent().write("};").newLine();
  c.write("}").blankLine();

  // connectXClient
  const clientOptions = file.type(rt, "ClientOptions");
  const revisionType = file.type(protocol, "Revision");
  const asks = names.serverRequests;
  c.write(docComment("What the server may ask of this client, by method: legacy server requests and 2026-07-28 input requests (answered the same way)."));
  c.write(`export type ${asks} = ${file.type(rt, "MergeMethods")}<${file.type(protocol, "ServerRequestMap")} | ${file.type(protocol, "InputRequestMap")}>;`).blankLine();
  c.write(
    docComment(
      `Options of ${names.connect}: those of a client session, with this manifest's revisions as the default; \`requests\` and \`notifications\` are typed by method.`,
    ),
  );
  c.write(
    `export type ${names.options} = Omit<${clientOptions}<${asks}, ${file.type(protocol, "ServerNotificationMap")}>, "revisions"> & { readonly revisions?: readonly ${revisionType}[] | undefined };`,
  ).blankLine();
  const mirrored = paramHeaderDeclarations(model);
  const hasMirrored = Object.keys(mirrored).length > 0;
  if (hasMirrored) {
    c.write(docComment("Tool arguments mirrored into Mcp-Param-* headers on 2026-07-28 HTTP requests (`x-mcp-header`): tool -> argument -> header."));
    c.write(`const paramHeaders: Readonly<Record<string, Readonly<Record<string, string>>>> = ${codeLiteral(mirrored)};`).blankLine();
  }
  c.write(
    docComment(
      `Connects to a ${model.info.name} server over \`channel\` (stdioChannel, httpChannel, memoryChannel), detecting the protocol era: a server/discover probe first, the initialize handshake as fallback.`,
    ),
  );
  c.write(`export async function ${names.connect}(channel: ${file.type(rt, "ClientChannel")}, options: ${names.options} = {}): Promise<${names.client}> {`).newLine();
  c.indent()
    .write(
      `const session = await ${file.value(rt, "connectSession")}<${file.type(protocol, "ClientRequestMap")}, ${asks}, ${file.type(protocol, "ServerNotificationMap")}>(channel, { ${hasMirrored ? "paramHeaders, " : ""}...options, revisions: options.revisions ?? ${file.value(protocol, "revisions")} });`,
    )
    .newLine();
  c.indent().write(`return ${names.create}(session);`).newLine();
  c.write("}").newLine();
  file.tail.push({ text: c.toString(), formatted: false });
}


/** Whether a tool's input schema requires some property (then the client must pass arguments). */
function hasRequiredInput(schema: unknown): boolean {
  if (!schema || typeof schema !== "object" || Array.isArray(schema)) return true;
  const s = schema as { required?: unknown; allOf?: unknown; anyOf?: unknown; oneOf?: unknown; $ref?: unknown };
  if (Array.isArray(s.required) && s.required.length > 0) return true;
  if (s.$ref !== undefined || s.anyOf !== undefined || s.oneOf !== undefined) return true;
  return Array.isArray(s.allOf) && s.allOf.some(hasRequiredInput);
}
