// client.gen.ts: a typed client for the manifest's server. Each tool, resource,
// template and prompt becomes a method; tool results with an output schema are
// validated with the same compiled validator the server uses.
import type { ProtocolModel } from "../../model/protocol.js";
import { revisionNamespace } from "../../model/protocol.js";
import { paramHeaderDeclarations } from "../../model/server.js";
import type { ServerModel, ToolModel } from "../../model/types.js";
import { Verbatim, codeLiteral, propertyKey, stringLiteral } from "../escape.js";
import type { CodeWriter, GeneratedFile } from "../file.js";
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
  return present
    .map((part, i) => (i === present.length - 1 ? part : part.endsWith(".") ? `${part} ` : `${part}. `))
    .join("");
}

export function emitClient(file: GeneratedFile, model: ServerModel, protocols: readonly ProtocolModel[]): void {
  const client = new ClientEmitter(file, model, protocols);
  client.resultUnions();
  client.clientInterface();
  client.toolTables();
  client.createFunction();
  client.connectFunction();
}

const readResult = "ReadResourceResult";
const promptResult = "GetPromptResult";

/** client.gen.ts section by section: the result unions, the client interface, the tool tables, `createXClient`, `connectXClient`. */
class ClientEmitter {
  private readonly w: CodeWriter;
  private readonly rt: string;
  private readonly names: ReturnType<typeof clientNames>;
  private readonly protocol: string;
  private readonly types: string;
  private readonly validators: string;
  private readonly session: string;
  private readonly options: string;
  private readonly taskTools: readonly ToolModel[];

  constructor(
    private readonly file: GeneratedFile,
    private readonly model: ServerModel,
    private readonly protocols: readonly ProtocolModel[],
  ) {
    this.w = file.writer;
    this.rt = model.generate.runtime;
    this.names = clientNames(model);
    this.protocol = file.local("protocol.gen");
    this.types = file.local("types.gen");
    this.validators = file.local("validators.gen");
    this.options = `options?: ${file.type(this.rt, "CallOptions")}`;
    this.session = `${file.type(this.rt, "ClientSession")}<${file.type(this.protocol, "ClientRequestMap")}>`;
    this.taskTools = model.tools.filter((tool) => tool.task);
  }

  /** The results the client returns, as the union over the revisions it speaks: named once. */
  resultUnions(): void {
    const speaks = "in any of the revisions this client speaks";
    const { model } = this;
    if (model.tools.length > 0) {
      this.unionAlias(
        `A content block of a tool result, ${speaks}.`,
        "ToolResultContent",
        this.revisionUnion(`CallToolResult["content"][number]`),
      );
    }
    if (model.resources.length + model.resourceTemplates.length > 0) {
      this.unionAlias(`What reading a resource returns, ${speaks}.`, readResult, this.revisionUnion(readResult));
    }
    if (model.prompts.length > 0)
      this.unionAlias(`What getting a prompt returns, ${speaks}.`, promptResult, this.revisionUnion(promptResult));
  }

  /** `export type Name = A | B;`, one member per line when it is too long. */
  private unionAlias(doc: string, name: string, members: readonly string[]): void {
    this.w.doc(doc).union(`export type ${name} =`, members).line();
  }

  private revisionUnion(type: string): string[] {
    return this.protocols.map((p) => `${this.file.type(this.protocol, revisionNamespace(p.revision))}.${type}`);
  }

  /** A block with a line or member per item, left out when there are no items. */
  private each<T>(head: string, items: readonly T[], write: (item: T) => void, close: string): void {
    if (items.length > 0) this.w.block(head, () => items.forEach((item) => write(item)), close);
  }

  private member(doc: string, name: string, params: readonly string[], returns: string): void {
    this.w.doc(doc).list(`${name}(`, params, `): ${returns};`);
  }

  /** The interface: a signature per tool, resource, template and prompt. */
  clientInterface(): void {
    const { w, model, file, types, options } = this;
    w.doc(`A typed client for ${model.info.name}.`);
    w.block(`export interface ${this.names.client}`, () => {
      w.doc("The underlying session: era, revision, server description, and every protocol request.");
      w.line(`readonly session: ${this.session};`);
      this.each("readonly tools:", model.tools, (tool) => this.toolMember(tool), "};");
      this.each(
        "readonly resources:",
        model.resources,
        (r) => {
          this.member(
            summary(`Reads ${r.uri}`, r.title, r.description),
            propertyKey(r.member),
            [options],
            `Promise<${readResult}>`,
          );
        },
        "};",
      );
      this.each(
        "readonly resourceTemplates:",
        model.resourceTemplates,
        (t) => {
          const params = [`variables: ${file.type(types, `${t.typeBase}Variables`)}`, options];
          this.member(
            summary(`Reads ${t.uriTemplate} with the variables filled in`, t.title, t.description),
            propertyKey(t.member),
            params,
            `Promise<${readResult}>`,
          );
        },
        "};",
      );
      this.each(
        "readonly prompts:",
        model.prompts,
        (p) => {
          const optionalArgs = !p.arguments.some((a) => a.required);
          const params = [`args${optionalArgs ? "?" : ""}: ${file.type(types, `${p.typeBase}PromptArgs`)}`, options];
          this.member(
            summary(`Gets prompt ${stringLiteral(p.key)}`, p.title, p.description),
            propertyKey(p.member),
            params,
            `Promise<${promptResult}>`,
          );
        },
        "};",
      );
      w.doc("Ends the session (and the server process, over stdio).");
      w.line("close(): Promise<void>;");
    });
    w.line();
  }

  private toolMember(tool: ToolModel): void {
    const { w, file, rt, types, options } = this;
    const t = toolTypeNames(tool);
    const result = tool.output
      ? `${file.type(rt, "ToolCallResult")}<${file.type(types, t.output)}, ToolResultContent>`
      : `${file.type(rt, "PlainToolCallResult")}<ToolResultContent>`;
    const optionalArgs = !hasRequiredInput(tool.input.schema.value);
    const args = `args${optionalArgs ? "?" : ""}: ${file.type(types, t.input)}`;
    const validated = tool.output ? "Structured content is validated against the tool's output schema" : undefined;
    if (!tool.task) {
      this.member(
        summary(`Calls tool ${stringLiteral(tool.key)}`, tool.title, tool.description, validated),
        propertyKey(tool.member),
        [args, options],
        `Promise<${result}>`,
      );
      return;
    }
    // A tool that may run as a task: callable as the others, plus `.task(args)` for the task's handle.
    const asTask =
      tool.task.support === "required"
        ? "It runs as a task (required): the call waits for the task's result"
        : "It may run as a task";
    w.doc(summary(`Calls tool ${stringLiteral(tool.key)}`, tool.title, tool.description, validated, asTask));
    w.block(
      `readonly ${propertyKey(tool.member)}:`,
      () => {
        w.list("(", [args, options], `): Promise<${result}>;`);
        w.doc(
          `Calls tool ${stringLiteral(tool.key)} as a task: resolves with the task's handle once the server has created it (\`wait()\` for the result, \`cancel()\`)`,
        );
        w.list(
          "task(",
          [args, `options?: ${file.type(rt, "TaskCallOptions")}`],
          `): Promise<${file.type(rt, "ToolTask")}<${result}>>;`,
        );
      },
      "};",
    );
  }

  /**
   * The tools' calls as a table (member → tool name and output validator): a line per tool
   * instead of a function per tool; and the tools that may run as tasks.
   */
  toolTables(): void {
    const { w, model, file, rt } = this;
    if (model.tools.length > 0) {
      const table: Record<string, unknown> = {};
      for (const tool of model.tools) {
        const validate = tool.output
          ? [new Verbatim(file.value(this.validators, validatorNames(tool.typeBase).output))]
          : [];
        table[tool.member] = [tool.key, ...validate];
      }
      const validated = model.tools.some((tool) => tool.output);
      w.doc(
        `What each tool method calls: the tool's name${validated ? " and the validator of its structured output, if it declares one" : ""}.`,
      );
      w.line(`const ${this.names.toolCalls}: ${file.type(rt, "ToolCallTable")} = ${codeLiteral(table)};`).line();
    }
    if (this.taskTools.length > 0) {
      const table = Object.fromEntries(this.taskTools.map((tool) => [tool.member, tool.task!.support]));
      w.doc("The tools that may run as tasks (`execution.taskSupport`), by method: `optional` or `required`.");
      w.line(`const ${this.names.toolTasks}: ${file.type(rt, "ToolTaskTable")} = ${codeLiteral(table)};`).line();
    }
  }

  /** `createXClient`: wraps a connected session, a method per tool, resource, template and prompt. */
  createFunction(): void {
    const { w, model, names } = this;
    const read = (name: string) => this.file.value(this.rt, name);
    w.doc(`Wraps a connected session in the typed ${names.client}.`);
    w.block(`export function ${names.create}(session: ${this.session}): ${names.client}`, () => {
      w.block(
        "return",
        () => {
          w.line("session,");
          const tasks =
            this.taskTools.length > 0 ? `, { tools: ${names.toolTasks}, callAsTask: ${read("callToolAsTask")} }` : "";
          if (model.tools.length > 0)
            w.line(`tools: ${read("toolMethods")}<${names.client}["tools"]>(session, ${names.toolCalls}${tasks}),`);
          this.each(
            "resources:",
            model.resources,
            (r) => {
              w.line(
                `${propertyKey(r.member)}: (options) => ${read("readResource")}<${readResult}>(session, ${stringLiteral(r.uri)}, options),`,
              );
            },
            "},",
          );
          this.each(
            "resourceTemplates:",
            model.resourceTemplates,
            (t) => {
              const segments = `[${t.template.segments.map(stringLiteral).join(", ")}]`;
              w.line(`${propertyKey(t.member)}: (variables, options) =>`);
              w.indented(() =>
                w.line(
                  `${read("readResource")}<${readResult}>(session, ${read("expandUriTemplate")}(${segments}, { ...variables }), options),`,
                ),
              );
            },
            "},",
          );
          this.each(
            "prompts:",
            model.prompts,
            (p) => {
              w.line(
                `${propertyKey(p.member)}: (args, options) => ${read("getPrompt")}<${promptResult}>(session, ${stringLiteral(p.key)}, { ...args }, options),`,
              );
            },
            "},",
          );
          w.line("close: () => session.close(),");
        },
        "};",
      );
    });
    w.line();
  }

  /** `connectXClient` with its options type, what the server may ask, and the mirrored parameter headers. */
  connectFunction(): void {
    const { w, model, file, rt, protocol, names } = this;
    const clientOptions = file.type(rt, "ClientOptions");
    const revisionType = file.type(protocol, "Revision");
    const asks = names.serverRequests;
    const notifications = file.type(protocol, "ServerNotificationMap");
    w.doc(
      "What the server may ask of this client, by method: legacy server requests and 2026-07-28 input requests (answered the same way).",
    );
    w.line(
      `export type ${asks} = ${file.type(rt, "MergeMethods")}<${file.type(protocol, "ServerRequestMap")} | ${file.type(protocol, "InputRequestMap")}>;`,
    ).line();
    w.doc(
      `Options of ${names.connect}: those of a client session, with this manifest's revisions as the default; \`requests\` and \`notifications\` are typed by method.`,
    );
    w.line(`export type ${names.options} = Omit<${clientOptions}<${asks}, ${notifications}>, "revisions"> & {`);
    w.indented(() => w.line(`readonly revisions?: readonly ${revisionType}[] | undefined;`))
      .line("};")
      .line();
    const mirrored = paramHeaderDeclarations(model);
    const hasMirrored = Object.keys(mirrored).length > 0;
    if (hasMirrored) {
      w.doc(
        "Tool arguments mirrored into Mcp-Param-* headers on 2026-07-28 HTTP requests (`x-mcp-header`): tool -> argument -> header.",
      );
      w.line(
        `const paramHeaders: Readonly<Record<string, Readonly<Record<string, string>>>> = ${codeLiteral(mirrored)};`,
      ).line();
    }
    w.doc(
      `Connects to a ${model.info.name} server over \`channel\` (stdioChannel, httpChannel, memoryChannel), detecting the protocol era: a server/discover probe first, the initialize handshake as fallback.`,
    );
    w.list(
      `export async function ${names.connect}(`,
      [`channel: ${file.type(rt, "ClientChannel")}`, `options: ${names.options} = {}`],
      `): Promise<${names.client}> {`,
    );
    w.indented(() => {
      const connect = `${file.value(rt, "connectSession")}<${file.type(protocol, "ClientRequestMap")}, ${asks}, ${notifications}>`;
      w.list(
        `const session = await ${connect}(`,
        [
          "channel",
          `{ ${hasMirrored ? "paramHeaders, " : ""}...options, revisions: options.revisions ?? ${file.value(protocol, "revisions")} }`,
        ],
        ");",
      );
      w.line(`return ${names.create}(session);`);
    });
    w.line("}");
  }
}

/** Whether a tool's input schema requires some property (then the client must pass arguments). */
function hasRequiredInput(schema: unknown): boolean {
  if (!schema || typeof schema !== "object" || Array.isArray(schema)) return true;
  const s = schema as { required?: unknown; allOf?: unknown; anyOf?: unknown; oneOf?: unknown; $ref?: unknown };
  if (Array.isArray(s.required) && s.required.length > 0) return true;
  if (s.$ref !== undefined || s.anyOf !== undefined || s.oneOf !== undefined) return true;
  return Array.isArray(s.allOf) && s.allOf.some(hasRequiredInput);
}
