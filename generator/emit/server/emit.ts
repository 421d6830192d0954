// server.gen.ts: the handler interface the user implements, and the generated half of
// the server: routing tables that call handlers with typed arguments, list payloads
// projected onto each revision's types, and declarative prompt renderers.
import type { ProtocolModel } from "../../model/protocol.js";
import { revisionNamespace } from "../../model/protocol.js";
import { clientAsks, paramHeaderDeclarations, type CacheHintModel, type ClientAsk, type PromptModel, type ServerModel, type ToolModel } from "../../model/server.js";
import type { TemplatePart } from "../../validate/prompt-template.js";
import { Code, codeLiteral, docComment, propertyAccess, propertyKey, sameLiteral, stringLiteral } from "../escape.js";
import type { GeneratedFile } from "../file.js";
import { dataNode, dataUnit, type DataDeclaration } from "../layout/data.js";
import { printWidth } from "../layout/print.js";
import { fitsWidth } from "../layout/width.js";
import { emitAnswerValidators } from "./answers.js";
import { arrow, code, definitionUnit, json, list, record, string, token, type DefinitionValue } from "./definition.js";
import { functionDeclaration, namesInterface } from "./layout.js";
import { InterfaceUnit } from "../layout/interface-unit.js";
import { toolTypeNames } from "../types/emit.js";
import { validatorNames } from "../validators/emit.js";

type Json = { [key: string]: unknown };

/** Keeps the fields a revision's definition declares, in the order given. */
function project(value: Json, fields: ReadonlySet<string>): Json {
  const out: Json = {};
  for (const [key, v] of Object.entries(value)) if (v !== undefined && fields.has(key)) out[key] = v;
  return out;
}

export function serverNames(model: ServerModel): { handlers: string; create: string; definition: string; names: string; forms: string; formsValue: string } {
  const base = model.typeBase;
  const lower = `${base.charAt(0).toLowerCase()}${base.slice(1)}`;
  return {
    forms: `${base}Forms`,
    formsValue: `${lower}Forms`,
    handlers: `${base}Handlers`,
    create: `create${base}Server`,
    definition: `${base.charAt(0).toLowerCase()}${base.slice(1)}ServerDefinition`,
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

export function emitServer(file: GeneratedFile, model: ServerModel, protocols: readonly ProtocolModel[]): void {
  const w = file.writer;
  const rt = model.generate.runtime;
  const names = serverNames(model);
  const preferred = file.type(file.local("protocol.gen"), revisionNamespace(protocols[0]!.revision));
  const types = file.local("types.gen");
  const validators = file.local("validators.gen");
  const awaitable = file.type(rt, "Awaitable");
  const handlerPrompts = model.prompts.filter((p) => !isDeclarative(p));
  // What handlers may ask the client (ctx.input in both eras, ctx.request in legacy sessions), typed by method.
  const requests = "ClientRequests";
  // A handler's context offers ctx.input/ctx.request for exactly what its `asks:` declares.
  const context = (name: string, asks: readonly ClientAsk[]) =>
    `${file.type(rt, name)}<Asks<${asks.length === 0 ? "never" : asks.map((a) => stringLiteral(clientAsks[a].method)).join(" | ")}>${
      asks.includes("elicitation") && model.forms.length > 0 ? `, ${names.forms}` : ""
    }>`;
  const completablePrompts = model.prompts.filter((p) => p.arguments.some((a) => a.complete));
  const completableTemplates = model.resourceTemplates.filter((t) => t.completable.length > 0);

  // Content types come from the preferred revision, the richest one the user writes for.
  // One-line aliases (and their doc comments) are already in prettier's layout when they
  // fit; they open the tail then, and only elicitation forms leave the block to prettier.
  const aliases: { doc: string; line: string }[] = [];
  const alias = (doc: string, name: string, type: string) => aliases.push({ doc: docComment(doc), line: `export type ${name} = ${type};` });
  if (model.tools.length > 0) alias(`A content block of a tool result (protocol ${protocols[0]!.revision}).`, "ToolContent", `${preferred}.CallToolResult["content"][number]`);
  if (model.prompts.length > 0) alias(`A message of a prompt (protocol ${protocols[0]!.revision}).`, "PromptMessage", `${preferred}.PromptMessage`);
  const protocol = file.local("protocol.gen");
  alias(
    "Requests handlers may send the client, by method: `ctx.input` (every revision) and `ctx.request` (legacy sessions).",
    requests,
    `${file.type(rt, "MergeMethods")}<${file.type(protocol, "ServerRequestMap")} | ${file.type(protocol, "InputRequestMap")}>`,
  );
  alias("What a handler may ask the client: the methods its `asks:` declares in the manifest (`never`: nothing).", "Asks<Method extends string>", `Pick<${requests}, Method & keyof ${requests}>`);
  const aliasTexts = aliases.map(({ doc, line }) => `${doc}${line}\n`);
  if (model.forms.length === 0 && aliases.every(({ line }) => fitsWidth(line, printWidth))) file.tail.push({ text: aliasTexts.join("\n"), formatted: true });
  else {
    for (const text of aliasTexts) w.write(text).blankLine();
    if (model.forms.length > 0) {
      const forms = Object.create(null) as Record<string, unknown>;
      for (const form of model.forms) forms[form.member] = form.schema;
      w.write(docComment("The manifest's elicitation forms: the requestedSchema each ctx.elicit method sends, by identifier."));
      w.write(`export const ${names.formsValue} = ${codeLiteral(forms)} as const;`).blankLine();
      w.write(docComment("ctx.elicit of handlers that declare `asks: [elicitation]`: one method per form, its answer typed by the form."));
      w.write(`export type ${names.forms} = typeof ${names.formsValue};`).blankLine();
    }
  }

  // The handler interface, one member per tool, resource, template and prompt: written in
  // prettier's layout (a unit of the file's tail), or left to prettier when a signature
  // is too long for the layout this emitter knows.
  const handlerInterface = new InterfaceUnit();
  const iface = handlerInterface.writer;
  const signature = (level: number, name: string, params: readonly string[], ret: string) => handlerInterface.signature(level, name, params, ret);
  iface.write(docComment(`What ${model.info.name} needs from you: one handler per tool, resource, resource template and prompt of the manifest.`));
  iface.write(`export interface ${names.handlers} {`).newLine();
  const group = (key: string, doc: string, members: () => void) => {
    iface.indent().write(docComment(doc, "  ").trimStart());
    iface.indent().write(`readonly ${key}: {`).newLine();
    members();
    iface.indent().write("};").newLine();
  };
  const member = (doc: string | undefined, name: string, params: readonly string[], ret: string) => {
    if (doc) iface.write(docComment(doc, "    "));
    signature(2, name, params, ret);
  };
  if (model.tools.length > 0) {
    group("tools", "Tools, by the identifier of their name.", () => {
      for (const tool of model.tools) {
        const ctx = context("ToolContext", tool.asks);
        const t = toolTypeNames(tool);
        const ret = tool.output
          ? `${file.type(rt, "StructuredToolReturn")}<${file.type(types, t.output)}, ToolContent>`
          : `${file.type(rt, "ToolReturn")}<ToolContent>`;
        member(labelled(`Tool ${stringLiteral(tool.key)}`, tool.title, tool.description), propertyKey(tool.member), [`args: ${file.type(types, t.args)}`, `ctx: ${ctx}`], `${awaitable}<${ret}>`);
      }
    });
  }
  if (model.resources.length > 0) {
    const ret = file.type(rt, "ResourceReturn");
    group("resources", "Resources: each reads the body of its fixed URI.", () => {
      for (const resource of model.resources) {
        const ctx = context("ResourceContext", resource.asks);
        member(labelled(`Resource ${resource.uri}`, resource.title, resource.description), propertyKey(resource.member), [`ctx: ${ctx}`], `${awaitable}<${ret}>`);
      }
    });
  }
  if (model.resourceTemplates.length > 0) {
    const ret = file.type(rt, "ResourceReturn");
    group("resourceTemplates", "Resource templates: each reads a URI that matched its template, given the decoded variables.", () => {
      for (const template of model.resourceTemplates) {
        const ctx = context("ResourceContext", template.asks);
        member(
          labelled(`Resource template ${template.uriTemplate}`, template.title, template.description),
          propertyKey(template.member),
          [`variables: ${file.type(types, `${template.typeBase}Variables`)}`, `ctx: ${ctx}`],
          `${awaitable}<${ret}>`,
        );
      }
    });
  }
  if (handlerPrompts.length > 0) {
    const ret = `${file.type(rt, "PromptReturn")}<PromptMessage>`;
    group("prompts", "Prompts without declarative messages.", () => {
      for (const prompt of handlerPrompts) {
        const ctx = context("PromptContext", prompt.asks);
        member(
          labelled(`Prompt ${stringLiteral(prompt.key)}`, prompt.title, prompt.description),
          propertyKey(prompt.member),
          [`args: ${file.type(types, `${prompt.typeBase}PromptArgs`)}`, `ctx: ${ctx}`],
          `${awaitable}<${ret}>`,
        );
      }
    });
  }
  if (completablePrompts.length + completableTemplates.length > 0) {
    const ret = `${awaitable}<${file.type(rt, "CompletionReturn")}>`;
    const ctx = (args: string) => `${file.type(rt, "CompletionContext")}<Partial<${file.type(types, args)}>, Asks<never>>`;
    const completers = (key: string, doc: string, targets: { member: string; doc: string; args: string; names: readonly string[]; what: string }[]) => {
      iface.indent(2).write(docComment(doc, "    ").trimStart());
      iface.indent(2).write(`readonly ${key}: {`).newLine();
      for (const target of targets) {
        iface.indent(3).write(docComment(target.doc, "      ").trimStart());
        iface.indent(3).write(`readonly ${propertyKey(target.member)}: {`).newLine();
        for (const name of target.names) {
          iface.indent(4).write(docComment(`Candidate values for ${target.what} ${stringLiteral(name)}, given what the user typed so far.`, "        ").trimStart());
          signature(4, propertyKey(name), ["value: string", `ctx: ${ctx(target.args)}`], ret);
        }
        iface.indent(3).write("};").newLine();
      }
      iface.indent(2).write("};").newLine();
    };
    group("completions", "Completers (completion/complete) of the prompt arguments and template variables declared `complete: true`.", () => {
      if (completablePrompts.length > 0) {
        completers(
          "prompts",
          "Prompt arguments, by prompt.",
          completablePrompts.map((p) => ({
            member: p.member,
            doc: `Prompt ${stringLiteral(p.key)}.`,
            args: `${p.typeBase}PromptArgs`,
            names: p.arguments.filter((a) => a.complete).map((a) => a.name),
            what: "argument",
          })),
        );
      }
      if (completableTemplates.length > 0) {
        completers(
          "resourceTemplates",
          "Resource template variables, by template.",
          completableTemplates.map((t) => ({ member: t.member, doc: `Resource template ${t.uriTemplate}.`, args: `${t.typeBase}Variables`, names: t.completable, what: "variable" })),
        );
      }
    });
  }
  iface.write("}").newLine();
  file.tail.push(handlerInterface.unit());

  // Schemas, once each, shared by every revision's listing.
  const schemaConst = new Map<ToolModel, { input: string; output?: string }>();
  const schemaDeclarations: DataDeclaration[] = [];
  for (const tool of model.tools) {
    const base = tool.member;
    const input = `${base}InputSchema`;
    schemaDeclarations.push({ head: `const ${input}`, value: tool.input.schema.value });
    let output: string | undefined;
    if (tool.output) {
      output = `${base}OutputSchema`;
      schemaDeclarations.push({ head: `const ${output}`, value: tool.output.schema.value });
    }
    schemaConst.set(tool, output ? { input, output } : { input });
  }
  if (schemaDeclarations.length > 0) file.tail.push(dataUnit("", schemaDeclarations));

  // Listings and server info, projected onto each revision; identical ones are shared.
  const listingsWritten: { readonly value: unknown; readonly name: string }[] = [];
  const listingOf = new Map<string, string>();
  const infoOf = new Map<string, DefinitionValue>();
  for (const protocol of protocols) {
    const fields = (def: string) => protocol.fields(def);
    const withAnnotations = (value: Json, def: string): Json => {
      const annotations = value.annotations as Json | undefined;
      if (annotations === undefined) return value;
      const projected = project(annotations, fields(def));
      return { ...value, annotations: Object.keys(projected).length > 0 ? projected : undefined };
    };
    const listing = {
      tools: model.tools.map((tool) => {
        const schemas = schemaConst.get(tool)!;
        const full: Json = {
          name: tool.key,
          title: tool.title,
          description: tool.description,
          inputSchema: new Code(schemas.input),
          outputSchema: schemas.output === undefined ? undefined : new Code(schemas.output),
          annotations: tool.annotations,
          icons: tool.icons,
        };
        return withAnnotations(project(full, fields("Tool")), "ToolAnnotations");
      }),
      resources: model.resources.map((r) =>
        withAnnotations(
          project(
            { uri: r.uri, name: r.name, title: r.title, description: r.description, mimeType: r.mimeType, size: r.size, annotations: r.annotations, icons: r.icons },
            fields("Resource"),
          ),
          "Annotations",
        ),
      ),
      resourceTemplates: model.resourceTemplates.map((t) =>
        withAnnotations(
          project(
            { uriTemplate: t.uriTemplate, name: t.name, title: t.title, description: t.description, mimeType: t.mimeType, annotations: t.annotations, icons: t.icons },
            fields("ResourceTemplate"),
          ),
          "Annotations",
        ),
      ),
      prompts: model.prompts.map((p) =>
        project(
          {
            name: p.key,
            title: p.title,
            description: p.description,
            arguments: p.arguments.length === 0 ? undefined : p.arguments.map((a) => project({ name: a.name, title: a.title, description: a.description, required: a.required }, fields("PromptArgument"))),
            icons: p.icons,
          },
          fields("Prompt"),
        ),
      ),
    };
    let name = listingsWritten.find((written) => sameLiteral(written.value, listing))?.name;
    if (!name) {
      name = `listing${revisionNamespace(protocol.revision).slice(1)}`;
      listingsWritten.push({ value: listing, name });
      const comment = docComment(`List results${protocols.length > 1 ? ` for protocol ${protocol.revision}` : ""}, projected onto its types.`);
      file.tail.push(dataUnit(comment, [{ head: `const ${name}: ${file.type(rt, "Listing")}`, value: listing }]));
    }
    listingOf.set(protocol.revision, name);
    infoOf.set(protocol.revision, json(project(model.info as unknown as Json, fields("Implementation"))));
  }

  // The definition: everything the runtime needs besides the handlers.
  const H = names.handlers;
  const tools = model.tools.map((tool) => {
    const v = validatorNames(tool.typeBase);
    return record([
      ["name", string(tool.key)],
      ["validateInput", token(file.value(validators, v.input))],
      ["validateOutput", tool.output ? token(file.value(validators, v.output)) : undefined],
      ["call", arrow("(handlers, args, ctx)", `handlers.tools.${tool.member}(args as ${file.type(types, toolTypeNames(tool).args)}, ctx)`)],
    ]);
  });
  const resources = model.resources.map((r) =>
    record([
      ["uri", string(r.uri)],
      ["mimeType", r.mimeType === undefined ? undefined : string(r.mimeType)],
      ["subscribe", r.subscribe ? token("true") : undefined],
      ["cache", r.cache ? cacheHint(r.cache, "private") : undefined],
      ["read", arrow("(handlers, ctx)", `handlers.resources.${r.member}(ctx)`)],
    ]),
  );
  const templates = model.resourceTemplates.map((t) => {
    const variableNames = t.template.variables;
    const variables = variableNames.length === 0 ? "{}" : `{ ${variableNames.map((name) => `${propertyKey(name)}: ${propertyAccess("v", name)} ?? ""`).join(", ")} }`;
    return record([
      ["name", string(t.name)],
      ["pattern", code(`new RegExp(${stringLiteral(t.template.pattern)})`)],
      ["variables", list(t.template.variables.map(string))],
      ["mimeType", t.mimeType === undefined ? undefined : string(t.mimeType)],
      ["subscribe", t.subscribe ? token("true") : undefined],
      ["cache", t.cache ? cacheHint(t.cache, "private") : undefined],
      ["read", arrow(`(handlers, ${t.template.variables.length > 0 ? "v" : "_v"}, ctx)`, `handlers.resourceTemplates.${t.member}(${variables}, ctx)`)],
    ]);
  });
  const prompts = model.prompts.map((p) => {
    const argsType = file.type(types, `${p.typeBase}PromptArgs`);
    const get = isDeclarative(p)
      ? code(`(_handlers, input) => {\n const args = input as unknown as ${argsType};\n return ${renderPrompt(p, "args")};\n }`)
      : arrow("(handlers, args, ctx)", `handlers.prompts.${p.member}(args as unknown as ${argsType}, ctx)`);
    return record([
      ["name", string(p.key)],
      ["arguments", list(p.arguments.map((a) => record([["name", string(a.name)], ["required", token(String(a.required))]])))],
      ["get", get],
    ]);
  });
  const completionEntry = (ref: DefinitionValue, group: string, member: string, args: string, all: readonly string[], names: readonly string[]) =>
    record([
      ["ref", ref],
      ["arguments", list(all.map(string))],
      [
        "completers",
        code(
          `[${names
            .map(
              (name) =>
                `{ argument: ${stringLiteral(name)}, complete: (handlers, value, ctx) => ${propertyAccess(`handlers.completions.${group}.${member}`, name)}(value, ctx as ${file.type(rt, "CompletionContext")}<Partial<${file.type(types, args)}>, Asks<never>>) }`,
            )
            .join(", ")}]`,
        ),
      ],
    ]);
  const completions = [
    ...completablePrompts.map((p) =>
      completionEntry(
        record([["type", string("ref/prompt")], ["name", string(p.key)]]),
        "prompts",
        p.member,
        `${p.typeBase}PromptArgs`,
        p.arguments.map((a) => a.name),
        p.arguments.filter((a) => a.complete).map((a) => a.name),
      ),
    ),
    ...completableTemplates.map((t) =>
      completionEntry(record([["type", string("ref/resource")], ["uri", string(t.uriTemplate)]]), "resourceTemplates", t.member, `${t.typeBase}Variables`, t.template.variables, t.completable),
    ),
  ];
  const byRevision = (value: (revision: string) => DefinitionValue) => record(protocols.map((p) => [p.revision, value(p.revision)] as const));
  // Optional runtime parts, imported only when the manifest uses them so that bundlers drop the rest.
  const asked = new Set([...model.tools, ...model.resources, ...model.resourceTemplates, ...handlerPrompts].flatMap((decl) => decl.asks));
  const handlersAsk = asked.size > 0;
  // Checks of the client's answers to what handlers ask, for exactly the methods `asks:` uses.
  const answers = handlersAsk ? emitAnswerValidators(file, asked, protocols, rt) : undefined;
  const subscribable = model.resources.some((r) => r.subscribe) || model.resourceTemplates.some((t) => t.subscribe);
  const feature = (key: string, used: boolean, name: string) => [key, used ? token(file.value(rt, name)) : undefined] as const;
  const features = [
    feature("resources", model.resources.length + model.resourceTemplates.length > 0, "resourcesFeature"),
    feature("prompts", model.prompts.length > 0, "promptsFeature"),
    feature("completion", completions.length > 0, "completionFeature"),
    feature("input", handlersAsk, "inputFeature"),
    feature("subscriptions", subscribable, "subscriptionsFeature"),
    feature("listChanges", model.listChanged.length > 0, "listChangesFeature"),
  ];
  const mirrored = paramHeaderDeclarations(model);
  file.tail.push(
    definitionUnit(docComment(`${model.info.name} as the runtime serves it: routing tables, validators and list payloads.`), `export const ${names.definition}: ${file.type(rt, "ServerDefinition")}<${H}>`, [
      ["info", json(model.info)],
      ["instructions", model.instructions === undefined ? undefined : string(model.instructions)],
      ["revisions", list(protocols.map((p) => string(p.revision)))],
      ["infoByRevision", byRevision((revision) => infoOf.get(revision)!)],
      ["tools", list(tools)],
      ["resources", list(resources)],
      ["resourceTemplates", list(templates)],
      ["prompts", list(prompts)],
      ["completions", completions.length > 0 ? list(completions) : undefined],
      ["listings", byRevision((revision) => token(listingOf.get(revision)!))],
      ["features", features.some(([, v]) => v !== undefined) ? record(features) : undefined],
      ["listChanged", model.listChanged.length > 0 ? record(model.listChanged.map((kind) => [kind, token("true")] as const)) : undefined],
      // With auth, an undeclared scope is left to the runtime: private for authenticated callers.
      ["listCache", model.listCache ? cacheHint(model.listCache, model.auth ? undefined : "public") : undefined],
      ["auth", model.auth ? json(authPolicy(model)) : undefined],
      ["forms", model.forms.length > 0 ? token(names.formsValue) : undefined],
      ["answers", answers],
      ["paramHeaders", Object.keys(mirrored).length > 0 ? { code: codeLiteral(mirrored, "  "), node: () => dataNode(mirrored, true) } : undefined],
    ]),
  );

  // What setEnabled takes: one union per list (unions of many names break), laid out here or left to prettier.
  const union = (values: readonly string[]) => (values.length === 0 ? "never" : values.map(stringLiteral).join(" | "));
  // Then what the manifest declares for change notifications: the lists declared `listChanged`
  // (notifyListChanged, setEnabled) and whether anything declares `subscribe: true`
  // (notifyResourceUpdated); `never` makes those calls compile errors that say what to declare.
  const namesComment = docComment(
    `What server.setEnabled takes for ${model.info.name}: tools and prompts by name, resources by URI, resource templates by name; and the lists notifyListChanged announces (\`listChanged\`) and the URIs notifyResourceUpdated takes (\`subscribe: true\`).`,
  );
  const namesHead = `export interface ${names.names} extends ${file.type(rt, "ServerNames")} {`;
  const unions: [string, string[]][] = [
    ["tools", model.tools.map((t) => t.key)],
    ["prompts", model.prompts.map((p) => p.key)],
    ["resources", model.resources.map((r) => r.uri)],
    ["resourceTemplates", model.resourceTemplates.map((t) => t.name)],
    ["listChanged", [...model.listChanged]],
  ];
  const subscribableLine = `  readonly subscribable: ${subscribable ? "string" : "never"};\n`;
  const namesText = namesInterface(namesComment, namesHead, unions);
  file.tail.push(
    namesText !== undefined
      ? { text: namesText.replace(/}\n$/, `${subscribableLine}}\n`), formatted: true }
      : { text: `${namesComment}${namesHead}\n${unions.map(([key, values]) => `  readonly ${key}: ${union(values)};\n`).join("")}${subscribableLine}}\n`, formatted: false },
  );

  const server = file.type(rt, "McpServer");
  const options = file.type(rt, "ServerOptions");
  const createComment = docComment(
    `Creates the ${model.info.name} server. Serve it with \`serveStdio(server)\` or \`listenHttp(server, { port })\` from "${rt}/node", or \`createWebHandler(server)\` for any fetch-style host.`,
  );
  const createParams = [`handlers: ${H}`, `options?: ${options}`];
  const createReturn = `${server}<${H}, ${names.names}>`;
  const createCall = { callee: file.value(rt, "createServer"), typeArguments: [H, names.names], args: [names.definition, "handlers", "options"] };
  const createText = functionDeclaration(createComment, names.create, createParams, createReturn, createCall);
  const createStatement = `return ${createCall.callee}<${createCall.typeArguments.join(", ")}>(${createCall.args.join(", ")});`;
  file.tail.push(
    createText !== undefined
      ? { text: createText, formatted: true }
      : { text: `${createComment}export function ${names.create}(${createParams.join(", ")}): ${createReturn} {\n  ${createStatement}\n}\n`, formatted: false },
  );
}

/** The manifest's `auth:` as the runtime's AuthPolicy: metadata fields and, per entry kind, the scopes of entries that declare any. */
function authPolicy(model: ServerModel): Record<string, unknown> {
  const auth = model.auth!;
  const table = (entries: readonly { readonly scopes: readonly string[] }[], keyOf: (index: number) => string) => {
    const scoped = entries.flatMap((entry, i) => (entry.scopes.length > 0 ? [[keyOf(i), entry.scopes] as const] : []));
    return scoped.length > 0 ? Object.fromEntries(scoped) : undefined;
  };
  const scopes = Object.fromEntries(
    (
      [
        ["tools", table(model.tools, (i) => model.tools[i]!.key)],
        ["prompts", table(model.prompts, (i) => model.prompts[i]!.key)],
        ["resources", table(model.resources, (i) => model.resources[i]!.uri)],
        ["resourceTemplates", table(model.resourceTemplates, (i) => model.resourceTemplates[i]!.name)],
      ] as const
    ).filter(([, value]) => value !== undefined),
  );
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
function cacheHint(cache: CacheHintModel, defaultScope: "public" | "private" | undefined): DefinitionValue {
  const scope = cache.scope ?? defaultScope;
  return record([
    ["ttlMs", { code: `${cache.ttlMs}`, node: () => dataNode(cache.ttlMs, false) }],
    ["scope", scope === undefined ? undefined : string(scope)],
  ]);
}

/** A declarative prompt as an expression building its messages by string concatenation. */
function renderPrompt(prompt: PromptModel, args: string): string {
  const required = new Set(prompt.arguments.filter((a) => a.required).map((a) => a.name));
  const text = (parts: readonly TemplatePart[]): string => {
    const pieces = parts.map((part): string => {
      switch (part.kind) {
        case "text":
          return stringLiteral(part.text);
        case "arg":
          // Required arguments are checked by the runtime before rendering.
          return required.has(part.name) ? propertyAccess(args, part.name) : `(${propertyAccess(args, part.name)} ?? "")`;
        case "if": {
          const test = `${propertyAccess(args, part.name)}`;
          const [yes, no] = part.negate ? [part.otherwise, part.then] : [part.then, part.otherwise];
          return `(${test} ? ${text(yes)} : ${text(no)})`;
        }
      }
    });
    return pieces.length === 0 ? '""' : pieces.join(" + ");
  };
  const messages = (prompt.messages ?? []).map((m) => `{ role: ${stringLiteral(m.role)} as const, content: { type: "text" as const, text: ${text(m.parts)} } }`);
  return `[${messages.join(", ")}]`;
}
