// client.gen.ts: a typed client for the manifest's server. Each tool, resource,
// template and prompt becomes a method; tool results with an output schema are
// validated with the same compiled validator the server uses.
import type { ProtocolModel } from "../../model/protocol.js";
import { revisionNamespace } from "../../model/protocol.js";
import { paramHeaderDeclarations, type ServerModel } from "../../model/server.js";
import { Verbatim, codeLiteral, propertyKey, stringLiteral } from "../escape.js";
import type { GeneratedFile } from "../file.js";
import { toolTypeNames } from "../types/emit.js";
import { validatorNames } from "../validators/emit.js";

export function clientNames(model: ServerModel): {
  client: string;
  create: string;
  connect: string;
  options: string;
  serverRequests: string;
  toolCalls: string;
  toolTasks: string;
} {
  const base = model.typeBase;
  const lowerBase = `${base.charAt(0).toLowerCase()}${base.slice(1)}`;
  return {
    client: `${base}Client`,
    create: `create${base}Client`,
    connect: `connect${base}Client`,
    options: `${base}ClientOptions`,
    serverRequests: `${base}ServerRequests`,
    toolCalls: `${lowerBase}ToolCalls`,
    toolTasks: `${lowerBase}ToolTasks`,
  };
}

/** Sentences joined by ". ", without doubling the period of a part that ends with one. */
function summary(...parts: (string | undefined)[]): string {
  const present = parts.filter((s): s is string => s !== undefined && s !== "");
  return present.map((part, i) => (i === present.length - 1 ? part : part.endsWith(".") ? `${part} ` : `${part}. `)).join("");
}

export function emitClient(file: GeneratedFile, model: ServerModel, protocols: readonly ProtocolModel[]): void {
  const w = file.writer;
  const rt = model.generate.runtime;
  const names = clientNames(model);
  const protocol = file.local("protocol.gen");
  const types = file.local("types.gen");
  const validators = file.local("validators.gen");
  const callOptions = file.type(rt, "CallOptions");
  const session = `${file.type(rt, "ClientSession")}<${file.type(protocol, "ClientRequestMap")}>`;

  // `export type Name = A | B;`, one member per line when it is too long.
  const unionAlias = (doc: string, name: string, members: readonly string[]) => {
    w.doc(doc).union(`export type ${name} =`, members).line();
  };
  // The results the client returns, as the union over the revisions it speaks: named once.
  const revisionUnion = (type: string) => protocols.map((p) => `${file.type(protocol, revisionNamespace(p.revision))}.${type}`);
  const speaks = "in any of the revisions this client speaks";
  if (model.tools.length > 0) unionAlias(`A content block of a tool result, ${speaks}.`, "ToolResultContent", revisionUnion(`CallToolResult["content"][number]`));
  const readResult = "ReadResourceResult";
  const promptResult = "GetPromptResult";
  if (model.resources.length + model.resourceTemplates.length > 0) unionAlias(`What reading a resource returns, ${speaks}.`, readResult, revisionUnion(readResult));
  if (model.prompts.length > 0) unionAlias(`What getting a prompt returns, ${speaks}.`, promptResult, revisionUnion(promptResult));

  // The interface: a signature per tool, resource, template and prompt.
  // A block with a line or member per item, left out when there are no items.
  const each = <T>(head: string, items: readonly T[], write: (item: T) => void, close: string) => {
    if (items.length > 0) w.block(head, () => items.forEach((item) => write(item)), close);
  };
  const member = (doc: string, name: string, params: readonly string[], returns: string) => w.doc(doc).list(`${name}(`, params, `): ${returns};`);
  const options = `options?: ${callOptions}`;
  w.doc(`A typed client for ${model.info.name}.`);
  w.block(`export interface ${names.client}`, () => {
    w.doc("The underlying session: era, revision, server description, and every protocol request.");
    w.line(`readonly session: ${session};`);
    each("readonly tools:", model.tools, (tool) => {
      const t = toolTypeNames(tool);
      const result = tool.output
        ? `${file.type(rt, "ToolCallResult")}<${file.type(types, t.output)}, ToolResultContent>`
        : `${file.type(rt, "PlainToolCallResult")}<ToolResultContent>`;
      const optionalArgs = !hasRequiredInput(tool.input.schema.value);
      const args = `args${optionalArgs ? "?" : ""}: ${file.type(types, t.input)}`;
      const validated = tool.output ? "Structured content is validated against the tool's output schema" : undefined;
      if (!tool.task) {
        member(summary(`Calls tool ${stringLiteral(tool.key)}`, tool.title, tool.description, validated), propertyKey(tool.member), [args, options], `Promise<${result}>`);
        return;
      }
      // A tool that may run as a task: callable as the others, plus `.task(args)` for the task's handle.
      const asTask = tool.task.support === "required" ? "It runs as a task (required): the call waits for the task's result" : "It may run as a task";
      w.doc(summary(`Calls tool ${stringLiteral(tool.key)}`, tool.title, tool.description, validated, asTask));
      w.block(`readonly ${propertyKey(tool.member)}:`, () => {
        w.list("(", [args, options], `): Promise<${result}>;`);
        w.doc(`Calls tool ${stringLiteral(tool.key)} as a task: resolves with the task's handle once the server has created it (\`wait()\` for the result, \`cancel()\`)`);
        w.list("task(", [args, `options?: ${file.type(rt, "TaskCallOptions")}`], `): Promise<${file.type(rt, "ToolTask")}<${result}>>;`);
      }, "};");
    }, "};");
    each("readonly resources:", model.resources, (r) => {
      member(summary(`Reads ${r.uri}`, r.title, r.description), propertyKey(r.member), [options], `Promise<${readResult}>`);
    }, "};");
    each("readonly resourceTemplates:", model.resourceTemplates, (t) => {
      const params = [`variables: ${file.type(types, `${t.typeBase}Variables`)}`, options];
      member(summary(`Reads ${t.uriTemplate} with the variables filled in`, t.title, t.description), propertyKey(t.member), params, `Promise<${readResult}>`);
    }, "};");
    each("readonly prompts:", model.prompts, (p) => {
      const optionalArgs = !p.arguments.some((a) => a.required);
      const params = [`args${optionalArgs ? "?" : ""}: ${file.type(types, `${p.typeBase}PromptArgs`)}`, options];
      member(summary(`Gets prompt ${stringLiteral(p.key)}`, p.title, p.description), propertyKey(p.member), params, `Promise<${promptResult}>`);
    }, "};");
    w.doc("Ends the session (and the server process, over stdio).");
    w.line("close(): Promise<void>;");
  });
  w.line();

  // The tools' calls as a table (member → tool name and output validator): a line per tool
  // instead of a function per tool.
  const toolCalls = names.toolCalls;
  if (model.tools.length > 0) {
    const table: Record<string, unknown> = {};
    for (const tool of model.tools) {
      const validate = tool.output ? [new Verbatim(file.value(validators, validatorNames(tool.typeBase).output))] : [];
      table[tool.member] = [tool.key, ...validate];
    }
    const validated = model.tools.some((tool) => tool.output);
    w.doc(`What each tool method calls: the tool's name${validated ? " and the validator of its structured output, if it declares one" : ""}.`);
    w.line(`const ${toolCalls}: ${file.type(rt, "ToolCallTable")} = ${codeLiteral(table)};`).line();
  }
  const taskTools = model.tools.filter((tool) => tool.task);
  const toolTasks = names.toolTasks;
  if (taskTools.length > 0) {
    const table = Object.fromEntries(taskTools.map((tool) => [tool.member, tool.task!.support]));
    w.doc("The tools that may run as tasks (`execution.taskSupport`), by method: `optional` or `required`.");
    w.line(`const ${toolTasks}: ${file.type(rt, "ToolTaskTable")} = ${codeLiteral(table)};`).line();
  }

  // createXClient
  const read = (name: string) => file.value(rt, name);
  w.doc(`Wraps a connected session in the typed ${names.client}.`);
  w.block(`export function ${names.create}(session: ${session}): ${names.client}`, () => {
    w.block("return", () => {
      w.line("session,");
      const tasks = taskTools.length > 0 ? `, { tools: ${toolTasks}, callAsTask: ${read("callToolAsTask")} }` : "";
      if (model.tools.length > 0) w.line(`tools: ${read("toolMethods")}<${names.client}["tools"]>(session, ${toolCalls}${tasks}),`);
      each("resources:", model.resources, (r) => {
        w.line(`${propertyKey(r.member)}: (options) => ${read("readResource")}<${readResult}>(session, ${stringLiteral(r.uri)}, options),`);
      }, "},");
      each("resourceTemplates:", model.resourceTemplates, (t) => {
        const segments = `[${t.template.segments.map(stringLiteral).join(", ")}]`;
        w.line(`${propertyKey(t.member)}: (variables, options) =>`);
        w.indented(() => w.line(`${read("readResource")}<${readResult}>(session, ${read("expandUriTemplate")}(${segments}, { ...variables }), options),`));
      }, "},");
      each("prompts:", model.prompts, (p) => {
        w.line(`${propertyKey(p.member)}: (args, options) => ${read("getPrompt")}<${promptResult}>(session, ${stringLiteral(p.key)}, { ...args }, options),`);
      }, "},");
      w.line("close: () => session.close(),");
    }, "};");
  });
  w.line();

  // connectXClient
  const clientOptions = file.type(rt, "ClientOptions");
  const revisionType = file.type(protocol, "Revision");
  const asks = names.serverRequests;
  const notifications = file.type(protocol, "ServerNotificationMap");
  w.doc("What the server may ask of this client, by method: legacy server requests and 2026-07-28 input requests (answered the same way).");
  w.line(`export type ${asks} = ${file.type(rt, "MergeMethods")}<${file.type(protocol, "ServerRequestMap")} | ${file.type(protocol, "InputRequestMap")}>;`).line();
  w.doc(`Options of ${names.connect}: those of a client session, with this manifest's revisions as the default; \`requests\` and \`notifications\` are typed by method.`);
  w.line(`export type ${names.options} = Omit<${clientOptions}<${asks}, ${notifications}>, "revisions"> & {`);
  w.indented(() => w.line(`readonly revisions?: readonly ${revisionType}[] | undefined;`)).line("};").line();
  const mirrored = paramHeaderDeclarations(model);
  const hasMirrored = Object.keys(mirrored).length > 0;
  if (hasMirrored) {
    w.doc("Tool arguments mirrored into Mcp-Param-* headers on 2026-07-28 HTTP requests (`x-mcp-header`): tool -> argument -> header.");
    w.line(`const paramHeaders: Readonly<Record<string, Readonly<Record<string, string>>>> = ${codeLiteral(mirrored)};`).line();
  }
  w.doc(
    `Connects to a ${model.info.name} server over \`channel\` (stdioChannel, httpChannel, memoryChannel), detecting the protocol era: a server/discover probe first, the initialize handshake as fallback.`,
  );
  w.list(`export async function ${names.connect}(`, [`channel: ${file.type(rt, "ClientChannel")}`, `options: ${names.options} = {}`], `): Promise<${names.client}> {`);
  w.indented(() => {
    const connect = `${file.value(rt, "connectSession")}<${file.type(protocol, "ClientRequestMap")}, ${asks}, ${notifications}>`;
    w.list(`const session = await ${connect}(`, ["channel", `{ ${hasMirrored ? "paramHeaders, " : ""}...options, revisions: options.revisions ?? ${file.value(protocol, "revisions")} }`], ");");
    w.line(`return ${names.create}(session);`);
  });
  w.line("}");
}

/** Whether a tool's input schema requires some property (then the client must pass arguments). */
function hasRequiredInput(schema: unknown): boolean {
  if (!schema || typeof schema !== "object" || Array.isArray(schema)) return true;
  const s = schema as { required?: unknown; allOf?: unknown; anyOf?: unknown; oneOf?: unknown; $ref?: unknown };
  if (Array.isArray(s.required) && s.required.length > 0) return true;
  if (s.$ref !== undefined || s.anyOf !== undefined || s.oneOf !== undefined) return true;
  return Array.isArray(s.allOf) && s.allOf.some(hasRequiredInput);
}
