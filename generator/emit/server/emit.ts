// server.gen.ts: the handler interface the user implements, and the generated half of
// the server: routing tables that call handlers with typed arguments, list payloads
// projected onto each revision's types, and declarative prompt renderers.
import { hasFeature } from "../../load/revisions.js";
import type { ProtocolModel } from "../../model/protocol.js";
import { revisionNamespace } from "../../model/protocol.js";
import { clientAsks } from "../../model/declarations.js";
import { paramHeaderDeclarations } from "../../model/server.js";
import type { CacheHintModel, ClientAsk, PromptModel, ServerModel, ToolModel } from "../../model/types.js";
import type { TemplatePart } from "../../validate/prompt-template.js";
import { Verbatim, codeLiteral, propertyAccess, propertyKey, sameLiteral, stringLiteral } from "../escape.js";
import type { CodeWriter, GeneratedFile } from "../file.js";
import { emitAnswerValidators } from "./answers.js";
import { appExtensions, appListing, appResourceEntry, toolUiMeta } from "./apps.js";
import { inParts } from "./array-parts.js";
import { writeListings, type RevisionListing } from "./listings.js";
import { toolTypeNames } from "../types/emit.js";
import { validatorNames } from "../validators/emit.js";

type Json = { [key: string]: unknown };

/** Keeps the fields a revision's definition declares, in the order given. */
function project(value: Json, fields: ReadonlySet<string>): Json {
  const out: Json = {};
  for (const [key, v] of Object.entries(value)) if (v !== undefined && fields.has(key)) out[key] = v;
  return out;
}

export function serverNames(model: ServerModel): {
  handlers: string;
  create: string;
  definition: string;
  names: string;
  forms: string;
  formsValue: string;
} {
  const base = model.typeBase;
  const lower = `${base.charAt(0).toLowerCase()}${base.slice(1)}`;
  return {
    forms: `${base}Forms`,
    formsValue: `${lower}Forms`,
    handlers: `${base}Handlers`,
    create: `create${base}Server`,
    definition: `${lower}ServerDefinition`,
    names: `${base}Names`,
  };
}

/** Prompts whose messages the generator renders; the others need a handler. */
const isDeclarative = (prompt: PromptModel): boolean => prompt.messages !== undefined;

/** "Tool "x". Title: description" — the label, then whatever the manifest says about it. */
function labelled(label: string, title: string | undefined, description: string | undefined): string {
  const text = [title, description].filter((s): s is string => s !== undefined && s !== "").join(": ");
  return text === "" ? label : `${label}. ${text}`;
}

/** A completable prompt or resource template: its completers in the handler interface and its entry in the completion table. */
interface CompletionTarget {
  readonly group: "prompts" | "resourceTemplates";
  readonly ref: Json;
  readonly member: string;
  readonly doc: string;
  /** Name of the generated type of its arguments or variables. */
  readonly args: string;
  readonly all: readonly string[];
  /** The arguments or variables declared `complete: true`. */
  readonly names: readonly string[];
  readonly what: string;
  readonly owner: string;
}

/** What every step of server.gen.ts reads: the file, the model, and the names and imports the steps share. */
interface ServerEmit {
  readonly file: GeneratedFile;
  readonly w: CodeWriter;
  readonly model: ServerModel;
  readonly protocols: readonly ProtocolModel[];
  readonly rt: string;
  readonly names: ReturnType<typeof serverNames>;
  readonly types: string;
  readonly awaitable: string;
  /** Prompts without declarative messages: they need a handler. */
  readonly handlerPrompts: readonly PromptModel[];
  readonly completable: readonly CompletionTarget[];
}

const code = (text: string) => new Verbatim(text);

/** How the MissingHandlersError of createServer names a declaration: `tool "get_forecast"`. */
const declared = (kind: string, key: string) => `${kind} ${JSON.stringify(key)}`;

export function emitServer(file: GeneratedFile, model: ServerModel, protocols: readonly ProtocolModel[]): void {
  const s = serverEmit(file, model, protocols);
  emitAliases(s);
  emitHandlerInterface(s);
  const listingOf = emitListings(s, emitSchemas(s));
  const subscribable = emitDefinition(s, listingOf);
  emitNames(s, subscribable);
  emitCreate(s);
}

function serverEmit(file: GeneratedFile, model: ServerModel, protocols: readonly ProtocolModel[]): ServerEmit {
  const rt = model.generate.runtime;
  const types = file.local("types.gen");
  const awaitable = file.type(rt, "Awaitable");
  return {
    file,
    w: file.writer,
    model,
    protocols,
    rt,
    names: serverNames(model),
    types,
    awaitable,
    handlerPrompts: model.prompts.filter((p) => !isDeclarative(p)),
    completable: completionTargets(model),
  };
}

/** The completable prompt arguments and template variables: the handler interface's completers and the definition's completion table, by group. */
function completionTargets(model: ServerModel): CompletionTarget[] {
  return [
    ...model.prompts.map((p) => ({
      group: "prompts" as const,
      ref: { type: "ref/prompt", name: p.key },
      member: p.member,
      doc: `Prompt ${stringLiteral(p.key)}.`,
      args: `${p.typeBase}PromptArgs`,
      all: p.arguments.map((a) => a.name),
      names: p.arguments.filter((a) => a.complete).map((a) => a.name),
      what: "argument",
      owner: declared("prompt", p.key),
    })),
    ...model.resourceTemplates.map((t) => ({
      group: "resourceTemplates" as const,
      ref: { type: "ref/resource", uri: t.uriTemplate },
      member: t.member,
      doc: `Resource template ${t.uriTemplate}.`,
      args: `${t.typeBase}Variables`,
      all: t.template.variables,
      names: t.completable,
      what: "variable",
      owner: declared("resource template", t.key),
    })),
  ].filter((target) => target.names.length > 0);
}

/** A handler's context type: ctx.input/ctx.request for exactly what its `asks:` declares. */
function handlerContext({ file, rt, model, names }: ServerEmit, name: string, asks: readonly ClientAsk[]): string {
  return `${file.type(rt, name)}<Asks<${asks.length === 0 ? "never" : asks.map((a) => stringLiteral(clientAsks[a].method)).join(" | ")}>${
    asks.includes("elicitation") && model.forms.length > 0 ? `, ${names.forms}` : ""
  }>`;
}

function completionContext({ file, rt, types }: ServerEmit, args: string): string {
  return `${file.type(rt, "CompletionContext")}<Partial<${file.type(types, args)}>, Asks<never>>`;
}

/** Content types from the preferred revision (the richest one the user writes for), what handlers may ask, and the elicitation forms. */
function emitAliases(s: ServerEmit): void {
  const { file, w, model, protocols, rt, names } = s;
  const preferred = file.type(file.local("protocol.gen"), revisionNamespace(protocols[0]!.revision));
  // What handlers may ask the client (ctx.input in both eras, ctx.request in legacy sessions), typed by method.
  const requests = "ClientRequests";
  const alias = (doc: string, name: string, type: string) => w.doc(doc).line(`export type ${name} = ${type};`).line();
  if (model.tools.length > 0)
    alias(
      `A content block of a tool result (protocol ${protocols[0]!.revision}).`,
      "ToolContent",
      `${preferred}.CallToolResult["content"][number]`,
    );
  if (model.prompts.length > 0)
    alias(`A message of a prompt (protocol ${protocols[0]!.revision}).`, "PromptMessage", `${preferred}.PromptMessage`);
  const protocol = file.local("protocol.gen");
  alias(
    "Requests handlers may send the client, by method: `ctx.input` (every revision) and `ctx.request` (legacy sessions).",
    requests,
    `${file.type(rt, "MergeMethods")}<${file.type(protocol, "ServerRequestMap")} | ${file.type(protocol, "InputRequestMap")}>`,
  );
  alias(
    "What a handler may ask the client: the methods its `asks:` declares in the manifest (`never`: nothing).",
    "Asks<Method extends string>",
    `Pick<${requests}, Method & keyof ${requests}>`,
  );
  if (model.forms.length > 0) {
    const forms = Object.create(null) as Record<string, unknown>;
    for (const form of model.forms) forms[form.member] = form.schema;
    w.doc("The manifest's elicitation forms: the requestedSchema each ctx.elicit method sends, by identifier.");
    w.line(`export const ${names.formsValue} = ${codeLiteral(forms)} as const;`).line();
    w.doc(
      "ctx.elicit of handlers that declare `asks: [elicitation]`: one method per form, its answer typed by the form.",
    );
    w.line(`export type ${names.forms} = typeof ${names.formsValue};`).line();
  }
}

const group = (w: CodeWriter, key: string, doc: string, members: () => void) =>
  w.doc(doc).block(`readonly ${key}:`, members, "};");
const member = (w: CodeWriter, doc: string | undefined, name: string, params: readonly string[], ret: string) =>
  w.doc(doc).list(`${name}(`, params, `): ${ret};`);

/** A group of handlers, when there are any: each takes its parameters and a context typed by what it asks. */
function handlerGroup<T extends { readonly member: string; readonly asks: readonly ClientAsk[] }>(
  s: ServerEmit,
  key: string,
  doc: string,
  items: readonly T[],
  contextName: string,
  signature: (item: T) => { label: string; params: string[]; ret: string },
): void {
  if (items.length === 0) return;
  group(s.w, key, doc, () => {
    for (const item of items) {
      const { label, params, ret } = signature(item);
      member(
        s.w,
        label,
        propertyKey(item.member),
        [...params, `ctx: ${handlerContext(s, contextName, item.asks)}`],
        `${s.awaitable}<${ret}>`,
      );
    }
  });
}

/** The handler interface, one member per tool, resource, template and prompt, and the completers. */
function emitHandlerInterface(s: ServerEmit): void {
  const { file, w, model, rt, names, types, handlerPrompts } = s;
  w.doc(
    `What ${model.info.name} needs from you: one handler per tool, resource, resource template and prompt of the manifest.`,
  );
  w.block(`export interface ${names.handlers}`, () => {
    handlerGroup(s, "tools", "Tools, by the identifier of their name.", model.tools, "ToolContext", (tool) => {
      const t = toolTypeNames(tool);
      const ret = tool.output
        ? `${file.type(rt, "StructuredToolReturn")}<${file.type(types, t.output)}, ToolContent>`
        : `${file.type(rt, "ToolReturn")}<ToolContent>`;
      const label = labelled(`Tool ${stringLiteral(tool.key)}`, tool.title, tool.description);
      return { label, params: [`args: ${file.type(types, t.args)}`], ret };
    });
    handlerGroup(
      s,
      "resources",
      "Resources: each reads the body of its fixed URI.",
      model.resources,
      "ResourceContext",
      (r) => ({
        label: labelled(`Resource ${r.uri}`, r.title, r.description),
        params: [],
        ret: file.type(rt, "ResourceReturn"),
      }),
    );
    const templatesDoc = "Resource templates: each reads a URI that matched its template, given the decoded variables.";
    handlerGroup(s, "resourceTemplates", templatesDoc, model.resourceTemplates, "ResourceContext", (t) => ({
      label: labelled(`Resource template ${t.uriTemplate}`, t.title, t.description),
      params: [`variables: ${file.type(types, `${t.typeBase}Variables`)}`],
      ret: file.type(rt, "ResourceReturn"),
    }));
    handlerGroup(s, "prompts", "Prompts without declarative messages.", handlerPrompts, "PromptContext", (p) => ({
      label: labelled(`Prompt ${stringLiteral(p.key)}`, p.title, p.description),
      params: [`args: ${file.type(types, `${p.typeBase}PromptArgs`)}`],
      ret: `${file.type(rt, "PromptReturn")}<PromptMessage>`,
    }));
    emitCompleters(s);
  });
  w.line();
}

/** Completers (completion/complete) of the handler interface, by group, then by prompt or template. */
function emitCompleters(s: ServerEmit): void {
  const { file, w, rt, completable, awaitable } = s;
  if (completable.length > 0) {
    const ret = `${awaitable}<${file.type(rt, "CompletionReturn")}>`;
    group(
      w,
      "completions",
      "Completers (completion/complete) of the prompt arguments and template variables declared `complete: true`.",
      () => {
        const groupDocs = {
          prompts: "Prompt arguments, by prompt.",
          resourceTemplates: "Resource template variables, by template.",
        };
        for (const [key, doc] of Object.entries(groupDocs)) {
          const targets = completable.filter((target) => target.group === key);
          if (targets.length === 0) continue;
          group(w, key, doc, () => {
            for (const target of targets) {
              group(w, propertyKey(target.member), target.doc, () => {
                for (const name of target.names) {
                  const doc = `Candidate values for ${target.what} ${stringLiteral(name)}, given what the user typed so far.`;
                  member(
                    w,
                    doc,
                    propertyKey(name),
                    ["value: string", `ctx: ${completionContext(s, target.args)}`],
                    ret,
                  );
                }
              });
            }
          });
        }
      },
    );
  }
}

/** Tool schemas, once each, shared by every revision's listing. */
function emitSchemas({ w, model }: ServerEmit): Map<ToolModel, { input: string; output?: string }> {
  const schemaConst = new Map<ToolModel, { input: string; output?: string }>();
  for (const tool of model.tools) {
    const input = `${tool.member}InputSchema`;
    w.line(`const ${input} = ${codeLiteral(tool.input.schema.value)};`).line();
    let output: string | undefined;
    if (tool.output) {
      output = `${tool.member}OutputSchema`;
      w.line(`const ${output} = ${codeLiteral(tool.output.schema.value)};`).line();
    }
    schemaConst.set(tool, output ? { input, output } : { input });
  }
  return schemaConst;
}

/** Listings, projected onto each revision; identical ones (and identical entries) are shared. Returns each revision's listing const. */
function emitListings(
  { file, model, protocols, rt }: ServerEmit,
  schemaConst: ReadonlyMap<ToolModel, { input: string; output?: string }>,
): Map<string, string> {
  const listings: RevisionListing[] = [];
  for (const protocol of protocols) {
    // An entry with the fields the revision's `def` declares, its annotations projected onto `annotationsDef`.
    const listed = (value: Json, def: string, annotationsDef?: string): Json => {
      const entry = project(value, protocol.fields(def));
      const annotations = entry.annotations as Json | undefined;
      if (annotationsDef === undefined || annotations === undefined) return entry;
      const projected = project(annotations, protocol.fields(annotationsDef));
      return { ...entry, annotations: Object.keys(projected).length > 0 ? projected : undefined };
    };
    const listing = {
      tools: model.tools.map((tool) => {
        const schemas = schemaConst.get(tool)!;
        const outputSchema = schemas.output === undefined ? undefined : new Verbatim(schemas.output);
        const { title, description, annotations, icons } = tool;
        const inputSchema = new Verbatim(schemas.input);
        const _meta =
          tool.meta === undefined && tool.ui === undefined ? undefined : { ...tool.meta, ...toolUiMeta(tool.ui) };
        // Revisions whose Tool has `execution` (2025-11-25) say which tools may run as tasks.
        const execution = tool.task ? { taskSupport: tool.task.support } : undefined;
        return listed(
          { name: tool.key, title, description, inputSchema, outputSchema, annotations, icons, execution, _meta },
          "Tool",
          "ToolAnnotations",
        );
      }),
      resources: [
        ...model.resources.map(({ uri, name, title, description, mimeType, size, annotations, icons, meta }) =>
          listed(
            { uri, name, title, description, mimeType, size, annotations, icons, _meta: meta },
            "Resource",
            "Annotations",
          ),
        ),
        ...model.apps.map((app) => listed(appListing(app), "Resource")),
      ],
      resourceTemplates: model.resourceTemplates.map(
        ({ uriTemplate, name, title, description, mimeType, annotations, icons, meta }) =>
          listed(
            { uriTemplate, name, title, description, mimeType, annotations, icons, _meta: meta },
            "ResourceTemplate",
            "Annotations",
          ),
      ),
      prompts: model.prompts.map((p) => {
        const args = p.arguments.map(({ name, title, description, required }) =>
          listed({ name, title, description, required }, "PromptArgument"),
        );
        const { title, description, icons, meta } = p;
        return listed(
          { name: p.key, title, description, arguments: args.length === 0 ? undefined : args, icons, _meta: meta },
          "Prompt",
        );
      }),
    };
    listings.push({ revision: protocol.revision, listing });
  }
  return writeListings(file, model, listings, file.type(rt, "Listing"));
}

/** The routing tables of the definition: tools, resources, templates, prompts and completions, their functions Verbatim leaves. */
function definitionTables(s: ServerEmit) {
  const { file, model, types, completable } = s;
  const validators = file.local("validators.gen");
  const tools = model.tools.map((tool) => {
    const v = validatorNames(tool.typeBase);
    return {
      name: tool.key,
      validateInput: code(file.value(validators, v.input)),
      validateOutput: tool.output ? code(file.value(validators, v.output)) : undefined,
      call: code(
        `(handlers, args, ctx) => handlers.tools.${tool.member}(args as ${file.type(types, toolTypeNames(tool).args)}, ctx)`,
      ),
      taskSupport: tool.task?.support,
      ttlMs: tool.task?.ttlMs,
      pollIntervalMs: tool.task?.pollIntervalMs,
    };
  });
  const resources: Json[] = [
    ...model.resources.map((r) => ({
      uri: r.uri,
      mimeType: r.mimeType,
      subscribe: r.subscribe ? true : undefined,
      cache: r.cache ? cacheHint(r.cache, "private") : undefined,
      read: code(`(handlers, ctx) => handlers.resources.${r.member}(ctx)`),
    })),
    ...model.apps.map((app) => appResourceEntry(file, app)),
  ];
  const templates = model.resourceTemplates.map((t) => {
    const variableNames = t.template.variables;
    const variables =
      variableNames.length === 0
        ? "{}"
        : `{ ${variableNames.map((name) => `${propertyKey(name)}: ${propertyAccess("v", name)} ?? ""`).join(", ")} }`;
    return {
      name: t.name,
      pattern: code(`new RegExp(${stringLiteral(t.template.pattern)})`),
      variables: t.template.variables,
      mimeType: t.mimeType,
      subscribe: t.subscribe ? true : undefined,
      cache: t.cache ? cacheHint(t.cache, "private") : undefined,
      read: code(
        `(handlers, ${variableNames.length > 0 ? "v" : "_v"}, ctx) => handlers.resourceTemplates.${t.member}(${variables}, ctx)`,
      ),
    };
  });
  const prompts = model.prompts.map((p) => {
    // A declarative prompt reads its arguments from the runtime's record as they are (the
    // runtime checked the required ones); a handler gets them typed.
    const get = isDeclarative(p)
      ? code(`(_handlers, args) => ${renderPrompt(p, "args")}`)
      : code(
          `(handlers, args, ctx) => handlers.prompts.${p.member}(args as ${file.type(types, `${p.typeBase}PromptArgs`)}, ctx)`,
        );
    return { name: p.key, arguments: p.arguments.map((a) => ({ name: a.name, required: a.required })), get };
  });
  const completions = completable.map((target) => ({
    ref: target.ref,
    arguments: target.all,
    completers: target.names.map((name) => ({
      argument: name,
      complete: code(
        `(handlers, value, ctx) => ${propertyAccess(`handlers.completions.${target.group}.${target.member}`, name)}(value, ctx as ${completionContext(s, target.args)})`,
      ),
    })),
  }));
  return { tools, resources, templates, prompts, completions };
}

/**
 * The definition: everything the runtime needs besides the handlers, one data literal
 * (with the answer validators it names written before it). Returns whether anything is subscribable.
 */
function emitDefinition(s: ServerEmit, listingOf: ReadonlyMap<string, string>): boolean {
  const { file, w, model, protocols, rt, names, handlerPrompts, completable } = s;
  const H = names.handlers;
  const { tools, resources, templates, prompts, completions } = definitionTables(s);
  // Every handler the interface above declares, checked when the server is created.
  const handlerPaths = [
    ...model.tools.map((t) => ({ path: ["tools", t.member], of: declared("tool", t.key) })),
    ...model.resources.map((r) => ({ path: ["resources", r.member], of: declared("resource", r.key) })),
    ...model.resourceTemplates.map((t) => ({
      path: ["resourceTemplates", t.member],
      of: declared("resource template", t.key),
    })),
    ...handlerPrompts.map((p) => ({ path: ["prompts", p.member], of: declared("prompt", p.key) })),
    ...completable.flatMap((target) =>
      target.names.map((name) => ({
        path: ["completions", target.group, target.member, name],
        of: `completer of ${target.what} ${JSON.stringify(name)} of ${target.owner}`,
      })),
    ),
  ];
  // Optional runtime parts, imported only when the manifest uses them so that bundlers drop the rest.
  const asked = new Set(
    [...model.tools, ...model.resources, ...model.resourceTemplates, ...handlerPrompts].flatMap((decl) => decl.asks),
  );
  const handlersAsk = asked.size > 0;
  // Checks of the client's answers to what handlers ask, for exactly the methods `asks:` uses.
  const answers = handlersAsk ? emitAnswerValidators(file, asked, protocols, rt) : undefined;
  const subscribable = model.resources.some((r) => r.subscribe) || model.resourceTemplates.some((t) => t.subscribe);
  const features: Json = {};
  const feature = (key: string, used: boolean, name: string) => {
    if (used) features[key] = code(file.value(rt, name));
  };
  feature(
    "resources",
    model.resources.length + model.resourceTemplates.length + model.apps.length > 0,
    "resourcesFeature",
  );
  feature("prompts", model.prompts.length > 0, "promptsFeature");
  feature("completion", completions.length > 0, "completionFeature");
  feature("input", handlersAsk, "inputFeature");
  feature("subscriptions", subscribable, "subscriptionsFeature");
  feature("listChanges", model.listChanged.length > 0, "listChangesFeature");
  // JSON-RPC batches exist in 2025-03-26 alone.
  feature(
    "batches",
    protocols.some((p) => hasFeature(p.revision, "batches")),
    "batchesFeature",
  );
  const mirrored = paramHeaderDeclarations(model);
  const projectedInfo = protocols
    .map((p) => [p.revision, project(model.info as unknown as Json, p.fields("Implementation"))] as const)
    .filter(([, info]) => !sameLiteral(info, model.info));
  // Tables long enough to be written in parts (array-parts.ts) are written before the definition.
  const definitionType = `${file.type(rt, "ServerDefinition")}<${H}>`;
  const table = (key: string, entries: readonly unknown[]) =>
    inParts(
      w,
      `${names.definition}${key.charAt(0).toUpperCase()}${key.slice(1)}`,
      `NonNullable<${definitionType}["${key}"]>`,
      entries,
    );
  const definition: Json = {
    info: model.info,
    instructions: model.instructions,
    revisions: protocols.map((p) => p.revision),
    // Only where a revision's Implementation type leaves part of `info` out (the runtime falls back to `info`).
    infoByRevision: projectedInfo.length > 0 ? Object.fromEntries(projectedInfo) : undefined,
    tools: table("tools", tools),
    resources: table("resources", resources),
    resourceTemplates: table("resourceTemplates", templates),
    prompts: table("prompts", prompts),
    completions: completions.length > 0 ? table("completions", completions) : undefined,
    listings: Object.fromEntries(protocols.map((p) => [p.revision, code(listingOf.get(p.revision)!)])),
    features: Object.keys(features).length > 0 ? features : undefined,
    handlerPaths: handlerPaths.length > 0 ? handlerPaths : undefined,
    listChanged:
      model.listChanged.length > 0 ? Object.fromEntries(model.listChanged.map((kind) => [kind, true])) : undefined,
    // With auth, an undeclared scope is left to the runtime: private for authenticated callers.
    listCache: model.listCache ? cacheHint(model.listCache, model.auth ? undefined : "public") : undefined,
    auth: model.auth ? authPolicy(model) : undefined,
    forms: model.forms.length > 0 ? code(names.formsValue) : undefined,
    answers,
    paramHeaders: Object.keys(mirrored).length > 0 ? mirrored : undefined,
    extensions: appExtensions(model),
  };
  w.doc(`${model.info.name} as the runtime serves it: routing tables, validators and list payloads.`);
  w.line(`export const ${names.definition}: ${definitionType} = ${codeLiteral(definition)};`).line();
  return subscribable;
}

/** What setEnabled takes, then what the manifest declares for change notifications. */
function emitNames({ file, w, model, rt, names }: ServerEmit, subscribable: boolean): void {
  // What setEnabled takes, then what the manifest declares for change notifications: the
  // lists declared `listChanged` (notifyListChanged, setEnabled) and whether anything
  // declares `subscribe: true` (notifyResourceUpdated); `never` makes those calls compile
  // errors that say what to declare. A union too long for one line takes one member per line.
  const unionMember = (key: string, values: readonly string[]) => {
    w.union(`readonly ${key}:`, values.length === 0 ? ["never"] : values.map(stringLiteral));
  };
  w.doc(
    `What server.setEnabled takes for ${model.info.name}: tools and prompts by name, resources by URI, resource templates by name; and the lists notifyListChanged announces (\`listChanged\`) and the URIs notifyResourceUpdated takes (\`subscribe: true\`).`,
  );
  w.block(`export interface ${names.names} extends ${file.type(rt, "ServerNames")}`, () => {
    unionMember(
      "tools",
      model.tools.map((t) => t.key),
    );
    unionMember(
      "prompts",
      model.prompts.map((p) => p.key),
    );
    unionMember("resources", [...model.resources.map((r) => r.uri), ...model.apps.map((app) => app.uri)]);
    unionMember(
      "resourceTemplates",
      model.resourceTemplates.map((t) => t.name),
    );
    unionMember("listChanged", [...model.listChanged]);
    w.line(`readonly subscribable: ${subscribable ? "string" : "never"};`);
  });
  w.line();
}

function emitCreate({ file, w, model, rt, names }: ServerEmit): void {
  const H = names.handlers;
  const server = file.type(rt, "McpServer");
  const options = file.type(rt, "ServerOptions");
  w.doc(
    `Creates the ${model.info.name} server. Serve it with \`serveStdio(server)\` or \`listenHttp(server, { port })\` from ${nodeEntry(rt)}, or \`createWebHandler(server)\` for any fetch-style host.`,
  );
  w.list(
    `export function ${names.create}(`,
    [`handlers: ${H}`, `options?: ${options}`],
    `): ${server}<${H}, ${names.names}> {`,
  );
  // Tools declared `task:` need the TaskServer (tasks/*, the capabilities that announce them); other servers never load it.
  const create = model.tools.some((t) => t.task) ? "createTaskServer" : "createServer";
  w.indented(() =>
    w.line(`return ${file.value(rt, create)}<${H}, ${names.names}>(${names.definition}, handlers, options);`),
  ).line("}");
}

/** The manifest's `auth:` as the runtime's AuthPolicy: metadata fields and, per entry kind, the scopes of entries that declare any. */
function authPolicy(model: ServerModel): Record<string, unknown> {
  const auth = model.auth!;
  // Per entry kind, the scopes of the entries that declare any, by name (URI for resources).
  const scopes: Record<string, unknown> = {};
  type Scoped = { readonly scopes: readonly string[] };
  const table = <T extends Scoped>(kind: string, entries: readonly T[], keyOf: (entry: T) => string) => {
    const scoped = entries.filter((entry) => entry.scopes.length > 0);
    if (scoped.length > 0) scopes[kind] = Object.fromEntries(scoped.map((entry) => [keyOf(entry), entry.scopes]));
  };
  table("tools", model.tools, (t) => t.key);
  table("prompts", model.prompts, (p) => p.key);
  table("resources", model.resources, (r) => r.uri);
  table("resourceTemplates", model.resourceTemplates, (t) => t.name);
  return {
    authorizationServers: auth.authorizationServers,
    scopesSupported: auth.scopesSupported,
    ...(auth.requiredScopes.length > 0 ? { requiredScopes: auth.requiredScopes } : {}),
    ...(auth.resource !== undefined ? { resource: auth.resource } : {}),
    resourceName: auth.resourceName,
    ...(auth.documentation !== undefined ? { documentation: auth.documentation } : {}),
    ...(Object.keys(scopes).length > 0 ? { scopes } : {}),
  };
}

/** A `cache:` declaration as a CacheHint literal, its scope defaulted. */
function cacheHint(cache: CacheHintModel, defaultScope: "public" | "private" | undefined): Json {
  return { ttlMs: cache.ttlMs, scope: cache.scope ?? defaultScope };
}

/**
 * A declarative prompt as an expression building its messages by string concatenation
 * (an array, one message per line; the data-literal writer indents it). Inside `{{#if name}}` the argument is known to be present, so it is
 * used as is there.
 */
function renderPrompt(prompt: PromptModel, args: string): string {
  const required = new Set(prompt.arguments.filter((a) => a.required).map((a) => a.name));
  const text = (parts: readonly TemplatePart[], present: ReadonlySet<string>): string => {
    const pieces = parts.map((part): string => {
      switch (part.kind) {
        case "text":
          return stringLiteral(part.text);
        case "arg":
          // Required arguments are checked by the runtime before rendering.
          return required.has(part.name) || present.has(part.name)
            ? propertyAccess(args, part.name)
            : `(${propertyAccess(args, part.name)} ?? "")`;
        case "if": {
          const [truthy, falsy] = part.negate ? [part.otherwise, part.then] : [part.then, part.otherwise];
          return `(${propertyAccess(args, part.name)} ? ${text(truthy, new Set([...present, part.name]))} : ${text(falsy, present)})`;
        }
      }
    });
    return pieces.length === 0 ? '""' : pieces.join(" + ");
  };
  const messages = (prompt.messages ?? []).map(
    (m) => `  { role: ${stringLiteral(m.role)}, content: { type: "text", text: ${text(m.parts, new Set())} } },\n`,
  );
  return messages.length === 0 ? "[]" : `[\n${messages.join("")}]`;
}

/** Where the Node entry of the runtime is, for doc comments: `<package>/node`, or node.js beside a runtime imported by path. */
function nodeEntry(runtime: string): string {
  if (!runtime.startsWith(".") && !runtime.startsWith("/")) return stringLiteral(`${runtime}/node`);
  return `node.js beside ${stringLiteral(runtime)}`;
}
