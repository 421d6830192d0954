// The user side of the model: a manifest turned into named, typed, checked declarations.
// Semantic checks happen while the model is built, so each problem is reported once,
// at the position of the declaration that causes it.
import { dirname, resolve } from "node:path";
import { quote, type Diagnostic, type SourceLocation } from "../diagnostics.js";
import { knownRevisions, type Dialect, type Revision } from "../load/revisions.js";
import { resolveSchema, type RefContext, type ResolvedSchema } from "../load/schema-refs.js";
import { childPointer, type JsonValue, type PositionIndex } from "../load/source.js";
import { checkJsonSchema, isObjectSchema } from "../validate/json-schema.js";
import { parsePromptTemplate, type TemplatePart } from "../validate/prompt-template.js";
import { parseUriTemplate, type UriTemplate } from "../validate/uri-template.js";
import { camelCase, identifierProblem, reservedIdentifiers, serverTypeBase } from "./names.js";

type JsonObject = { [key: string]: JsonValue };

export interface Icon {
  readonly src: string;
  readonly mimeType?: string;
  readonly sizes?: readonly string[];
  readonly theme?: "light" | "dark";
}

/** `cache:` of the manifest: a 2026-07-28 result's `ttlMs` and `cacheScope`. */
export interface CacheHintModel {
  readonly ttlMs: number;
  readonly scope?: "public" | "private";
}

export type ListKindName = "tools" | "prompts" | "resources";

/** What a handler may ask the client (`asks:`), and the request method and first revision of each. */
export const clientAsks = {
  elicitation: { method: "elicitation/create", since: "2025-06-18" },
  sampling: { method: "sampling/createMessage", since: "2024-11-05" },
  roots: { method: "roots/list", since: "2024-11-05" },
} as const satisfies Record<string, { method: string; since: Revision }>;
export type ClientAsk = keyof typeof clientAsks;

/** An elicitation form: `member` names its ctx.elicit method, `schema` is the requestedSchema. */
export interface FormModel {
  readonly key: string;
  readonly member: string;
  readonly location: SourceLocation;
  readonly description?: string;
  readonly schema: JsonObject;
}

export interface SchemaModel {
  readonly schema: ResolvedSchema;
  readonly dialect: Dialect;
}

interface Declared {
  /** The MCP name (tool and prompt names; for resources and templates the manifest key). */
  readonly key: string;
  /** camelCase member of generated handler and client objects. */
  readonly member: string;
  /** PascalCase prefix of generated type names. */
  readonly typeBase: string;
  readonly location: SourceLocation;
  readonly title?: string;
  readonly description?: string;
  readonly icons?: readonly Icon[];
  /** What its handler may ask the client through ctx.input / ctx.request (`asks:`). */
  readonly asks: readonly ClientAsk[];
  /** OAuth scopes a call needs on top of `auth.requiredScopes` (`scopes:`). */
  readonly scopes: readonly string[];
}

/** `auth:` of the manifest: how the HTTP bindings protect the server. */
export interface AuthModel {
  readonly authorizationServers: readonly string[];
  readonly scopesSupported: readonly string[];
  readonly requiredScopes: readonly string[];
  readonly resource?: string;
  readonly resourceName: string;
  readonly documentation?: string;
}

export interface ToolModel extends Declared {
  readonly input: SchemaModel;
  readonly output?: SchemaModel;
  readonly annotations?: Readonly<Record<string, string | boolean>>;
  /** Whether some input property has a default the validator fills in. */
  readonly inputHasDefaults: boolean;
  /** Arguments mirrored into Mcp-Param-* headers over 2026-07-28 HTTP (`x-mcp-header`): argument → header name. */
  readonly paramHeaders: Readonly<Record<string, string>>;
}

export interface ResourceModel extends Declared {
  readonly uri: string;
  readonly name: string;
  readonly mimeType?: string;
  readonly size?: number;
  readonly annotations?: JsonObject;
  /** Clients may subscribe to updates (`subscribe: true`). */
  readonly subscribe: boolean;
  /** 2026-07-28 caching of resources/read results. */
  readonly cache?: CacheHintModel;
}

export interface ResourceTemplateModel extends Declared {
  readonly uriTemplate: string;
  readonly template: UriTemplate;
  readonly name: string;
  readonly mimeType?: string;
  readonly annotations?: JsonObject;
  /** Clients may subscribe to updates of matching resources (`subscribe: true`). */
  readonly subscribe: boolean;
  /** 2026-07-28 caching of resources/read results. */
  readonly cache?: CacheHintModel;
  /** Variables declared `complete: true`, in template order. */
  readonly completable: readonly string[];
}

export interface PromptArgumentModel {
  readonly name: string;
  /** Property name in the generated argument type. */
  readonly title?: string;
  readonly description?: string;
  readonly required: boolean;
  /** Offers completion/complete (`complete: true`). */
  readonly complete: boolean;
}

export interface PromptMessageModel {
  readonly role: "user" | "assistant";
  readonly parts: readonly TemplatePart[];
}

export interface PromptModel extends Declared {
  readonly arguments: readonly PromptArgumentModel[];
  /** Present for declarative prompts, rendered by generated code. */
  readonly messages?: readonly PromptMessageModel[];
}

export interface GenerateSettings {
  readonly importExtension: ".js" | ".ts" | "";
  readonly runtime: string;
  readonly server: boolean;
  readonly client: boolean;
}

export interface ServerModel {
  /** The manifest path as shown to users (relative to the working directory). */
  readonly manifestFile: string;
  readonly manifestDir: string;
  readonly info: {
    readonly name: string;
    readonly version: string;
    readonly title?: string;
    readonly description?: string;
    readonly websiteUrl?: string;
    readonly icons?: readonly Icon[];
  };
  readonly instructions?: string;
  /** Lists whose changes the server announces (`server.listChanged`). */
  readonly listChanged: readonly ListKindName[];
  /** 2026-07-28 caching of lists and server/discover (`server.cache`). */
  readonly listCache?: CacheHintModel;
  /** OAuth protection of the HTTP bindings (`auth:`). */
  readonly auth?: AuthModel;
  /** Preferred first. */
  readonly revisions: readonly Revision[];
  readonly revisionsLocation: SourceLocation;
  /** Absolute output folder. */
  readonly output: string;
  readonly generate: GenerateSettings;
  /** PascalCase name used for createXServer, XHandlers, XClient. */
  readonly typeBase: string;
  readonly tools: readonly ToolModel[];
  readonly resources: readonly ResourceModel[];
  readonly resourceTemplates: readonly ResourceTemplateModel[];
  readonly prompts: readonly PromptModel[];
  /** Elicitation forms (`elicitations:`), for ctx.elicit. */
  readonly forms: readonly FormModel[];
  /** Every file read (manifest and referenced schemas), absolute, sorted. */
  readonly inputFiles: readonly string[];
}

export interface ManifestInput {
  readonly file: string;
  readonly absolutePath: string;
  readonly value: JsonValue;
  readonly positions: PositionIndex;
  readonly display: (absolute: string) => string;
}

/** Type-name suffixes per kind; every generated type name is registered to catch collisions. */
const typeSuffixes = {
  tool: ["Input", "Args", "Output"],
  prompt: ["PromptArgs"],
  template: ["Variables"],
  resource: [] as string[],
  form: [] as string[],
} as const;

export function buildServerModel(manifest: ManifestInput, outputOverride?: string): { model?: ServerModel; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const { positions } = manifest;
  const root = manifest.value as JsonObject;
  const manifestDir = dirname(manifest.absolutePath);
  const refs: RefContext = { root: manifestDir, display: manifest.display, cache: new Map() };
  const inputFiles = new Set<string>([manifest.absolutePath]);
  const typeNames = new Map<string, { location: SourceLocation; what: string }>();

  const str = (o: JsonObject | undefined, k: string): string | undefined => (typeof o?.[k] === "string" ? (o[k] as string) : undefined);
  const icons = (o: JsonObject | undefined): readonly Icon[] | undefined => (Array.isArray(o?.icons) ? (o.icons as unknown as Icon[]) : undefined);

  const server = root.server as JsonObject;
  const info = {
    name: str(server, "name")!,
    version: str(server, "version")!,
    ...optional("title", str(server, "title")),
    ...optional("description", str(server, "description")),
    ...optional("websiteUrl", str(server, "websiteUrl")),
    ...optional("icons", icons(server)),
  };
  const known = [...knownRevisions().keys()];
  const protocol = root.protocol;
  const revisions = (protocol === undefined ? known : typeof protocol === "string" ? [protocol] : (protocol as string[])) as Revision[];
  const gen = (root.generate ?? {}) as JsonObject;
  const generate: GenerateSettings = {
    importExtension: (str(gen, "importExtension") ?? ".js") as GenerateSettings["importExtension"],
    runtime: str(gen, "runtime") ?? "@mcp-gen/runtime",
    server: gen.server !== false,
    client: gen.client !== false,
  };
  const output = outputOverride ? resolve(outputOverride) : resolve(manifestDir, str(root, "output") ?? "./mcp");

  const typeBase = serverTypeBase(info.name);
  if (typeBase === "" || /^[0-9]/.test(typeBase)) {
    diagnostics.push({
      location: positions.value("/server/name"),
      message: `server name ${quote(info.name)} cannot name the generated createXServer/XHandlers/XClient; use a name that starts with a letter`,
    });
  }

  /** Member name for a declaration, honouring an explicit `identifier:`; reports collisions within one kind. */
  const members = new Map<string, Map<string, { key: string; location: SourceLocation }>>();
  const declare = (kind: keyof typeof typeSuffixes, group: string, key: string, decl: JsonObject, pointer: string): Declared | undefined => {
    const location = positions.key(pointer);
    const explicit = str(decl, "identifier");
    const member = explicit ?? camelCase(key);
    const problem = identifierProblem(member);
    if (problem) {
      diagnostics.push({
        location: explicit ? positions.value(childPointer(pointer, "identifier")) : location,
        message:
          explicit && reservedIdentifiers.has(member)
            ? `identifier ${quote(member)} of ${kind} ${quote(key)} is a reserved word; choose another identifier`
            : `${kind} name ${quote(key)} ${problem}; rename it or set \`identifier:\` to the name its handler should have`,
      });
      return undefined;
    }
    const seen = members.get(group) ?? new Map();
    members.set(group, seen);
    const other = seen.get(member);
    if (other) {
      diagnostics.push({
        location,
        message: `${kind} ${quote(key)} and ${kind} ${quote(other.key)} (at ${other.location.line}:${other.location.col}) both become the identifier ${quote(member)}; rename one or set \`identifier:\``,
      });
      return undefined;
    }
    seen.set(member, { key, location });
    const typeBaseName = member.charAt(0).toUpperCase() + member.slice(1);
    for (const suffix of typeSuffixes[kind]) {
      const typeName = typeBaseName + suffix;
      const clash = typeNames.get(typeName);
      if (clash) {
        diagnostics.push({
          location,
          message: `${kind} ${quote(key)} needs the type name ${typeName}, which ${clash.what} (at ${clash.location.line}:${clash.location.col}) already uses; rename one or set \`identifier:\``,
        });
        return undefined;
      }
      typeNames.set(typeName, { location, what: `${kind} ${quote(key)}` });
    }
    return {
      key,
      member,
      typeBase: typeBaseName,
      location,
      ...optional("title", str(decl, "title")),
      ...optional("description", str(decl, "description")),
      ...optional("icons", icons(decl)),
      asks: asksOf(decl, pointer),
      scopes: scopesOf(decl, pointer, `${kind} ${quote(key)}`),
    };
  };

  const auth = authOf(root, positions, info.title ?? info.name, diagnostics);
  /** An entry's `scopes:`, each of which `auth.scopesSupported` must list. */
  const scopesOf = (decl: JsonObject, pointer: string, what: string): string[] => {
    const scopes = Array.isArray(decl.scopes) ? (decl.scopes as string[]) : [];
    const at = childPointer(pointer, "scopes");
    if (scopes.length > 0 && !auth) {
      diagnostics.push({ location: positions.key(at), message: `${what} declares scopes, but the manifest has no \`auth:\` section; add one (authorizationServers, scopesSupported) or remove \`scopes\`` });
      return [];
    }
    scopes.forEach((scope, i) => {
      const problem = auth && scopeProblem(scope, auth.scopesSupported);
      if (problem) diagnostics.push({ location: positions.value(childPointer(at, i)), message: `${what}: ${problem}` });
    });
    return scopes;
  };

  const asksOf = (decl: JsonObject, pointer: string): ClientAsk[] => {
    const asks = Array.isArray(decl.asks) ? (decl.asks as ClientAsk[]) : [];
    asks.forEach((ask, i) => {
      const since = clientAsks[ask].since;
      if (!revisions.some((r) => r >= since)) {
        diagnostics.push({
          location: positions.value(childPointer(childPointer(pointer, "asks"), i)),
          message: `asks: ${quote(ask)} needs protocol ${since} or later, but the manifest generates for ${revisions.join(", ")}; add a later revision to \`protocol\` or remove it`,
        });
      }
    });
    return asks;
  };

  const schemaAt = (decl: JsonObject, pointer: string, field: string, what: string): SchemaModel | undefined => {
    const value = decl[field];
    if (value === undefined) return undefined;
    const resolved = resolveSchema(value, childPointer(pointer, field), { file: manifest.file, positions }, refs);
    diagnostics.push(...resolved.diagnostics);
    if (!resolved.schema) return undefined;
    for (const f of resolved.schema.files) inputFiles.add(f);
    const checked = checkJsonSchema(resolved.schema, what);
    diagnostics.push(...checked.diagnostics);
    return checked.dialect ? { schema: resolved.schema, dialect: checked.dialect } : undefined;
  };

  const entries = (field: string): [string, JsonObject, string][] => {
    const map = root[field];
    if (!map || typeof map !== "object" || Array.isArray(map)) return [];
    return Object.entries(map).map(([k, v]) => [k, (v ?? {}) as JsonObject, childPointer(`/${field}`, k)]);
  };

  const tools: ToolModel[] = [];
  for (const [name, decl, pointer] of entries("tools")) {
    const declared = declare("tool", "tools", name, decl, pointer);
    const what = `input schema of tool ${quote(name)}`;
    const input = decl.input === undefined ? defaultInput(pointer, positions) : schemaAt(decl, pointer, "input", what);
    const output = schemaAt(decl, pointer, "output", `output schema of tool ${quote(name)}`);
    if (input && !isObjectSchema(input.schema.value)) {
      diagnostics.push({ location: input.schema.locate(""), message: `${what} must have \`type: object\` at its root: tool arguments are always a JSON object` });
      continue;
    }
    if (output && !isObjectSchema(output.schema.value) && revisions.some((r) => r !== "2026-07-28")) {
      diagnostics.push({
        location: output.schema.locate(""),
        message: `output schema of tool ${quote(name)} must have \`type: object\` at its root for protocol revisions before 2026-07-28; wrap the value in an object or generate for 2026-07-28 only`,
      });
      continue;
    }
    const mirrored = input ? mirroredHeaders(input.schema, what) : undefined;
    if (mirrored) diagnostics.push(...mirrored.problems);
    if (!declared || !input || !mirrored || (decl.output !== undefined && !output)) continue;
    tools.push({
      ...declared,
      input,
      ...optional("output", output),
      ...optional("annotations", decl.annotations as Record<string, string | boolean> | undefined),
      inputHasDefaults: hasPropertyDefaults(input.schema.value),
      // Mirroring into Mcp-Param-* headers is part of the 2026-07-28 HTTP binding only.
      paramHeaders: revisions.includes("2026-07-28") ? mirrored.headers : {},
    });
  }

  const uris = new Map<string, SourceLocation>();
  const resources: ResourceModel[] = [];
  for (const [key, decl, pointer] of entries("resources")) {
    const declared = declare("resource", "resources", key, decl, pointer);
    const uri = str(decl, "uri")!;
    const uriAt = positions.value(childPointer(pointer, "uri"));
    if (!/^[A-Za-z][A-Za-z0-9+.-]*:/.test(uri)) {
      diagnostics.push({ location: uriAt, message: `resource uri ${quote(uri)} has no scheme; write an absolute URI such as "config://app" or "file:///path"` });
      continue;
    }
    const previous = uris.get(uri);
    if (previous) {
      diagnostics.push({ location: uriAt, message: `resource uri ${quote(uri)} is already declared at ${previous.line}:${previous.col}; each resource needs its own uri` });
      continue;
    }
    uris.set(uri, uriAt);
    if (!declared) continue;
    resources.push({
      ...declared,
      uri,
      name: str(decl, "name") ?? key,
      ...optional("mimeType", str(decl, "mimeType")),
      ...optional("size", typeof decl.size === "number" ? decl.size : undefined),
      ...optional("annotations", decl.annotations as JsonObject | undefined),
      subscribe: decl.subscribe === true,
      ...optional("cache", decl.cache as CacheHintModel | undefined),
    });
  }

  const resourceTemplates: ResourceTemplateModel[] = [];
  for (const [key, decl, pointer] of entries("resourceTemplates")) {
    const declared = declare("template", "resourceTemplates", key, decl, pointer);
    const uriTemplate = str(decl, "uriTemplate")!;
    const templatePointer = childPointer(pointer, "uriTemplate");
    const parsed = parseUriTemplate(uriTemplate);
    if (parsed.problem) {
      diagnostics.push({ location: positions.within(templatePointer, parsed.problem.snippet, parsed.problem.occurrence), message: `uriTemplate: ${parsed.problem.message}` });
      continue;
    }
    const template = parsed.template!;
    if (!/^[A-Za-z][A-Za-z0-9+.-]*:/.test(template.segments[0] ?? "")) {
      diagnostics.push({ location: positions.value(templatePointer), message: `uriTemplate ${quote(uriTemplate)} must start with a URI scheme such as "weather://"` });
      continue;
    }
    const badVariable = template.variables.find((v) => identifierProblem(v) !== undefined);
    if (badVariable) {
      diagnostics.push({
        location: positions.within(templatePointer, `{${badVariable}}`),
        message: `template variable ${quote(badVariable)} cannot be a property name of the generated Variables type; use letters, digits and _ and start with a letter`,
      });
      continue;
    }
    const variableSettings = (decl.variables ?? {}) as Record<string, JsonObject | null>;
    const strayVariable = Object.keys(variableSettings).find((v) => !template.variables.includes(v));
    if (strayVariable !== undefined) {
      diagnostics.push({
        location: positions.key(childPointer(childPointer(pointer, "variables"), strayVariable)),
        message: `variables: ${quote(strayVariable)} is not a variable of uriTemplate ${quote(uriTemplate)}${template.variables.length > 0 ? `; its variables are ${template.variables.map(quote).join(", ")}` : ", which has none"}`,
      });
      continue;
    }
    if (!declared) continue;
    resourceTemplates.push({
      ...declared,
      uriTemplate,
      template,
      name: str(decl, "name") ?? key,
      ...optional("mimeType", str(decl, "mimeType")),
      ...optional("annotations", decl.annotations as JsonObject | undefined),
      subscribe: decl.subscribe === true,
      ...optional("cache", decl.cache as CacheHintModel | undefined),
      completable: template.variables.filter((v) => variableSettings[v]?.complete === true),
    });
  }

  const prompts: PromptModel[] = [];
  for (const [name, decl, pointer] of entries("prompts")) {
    const declared = declare("prompt", "prompts", name, decl, pointer);
    const args: PromptArgumentModel[] = [];
    for (const [argName, argDecl] of Object.entries((decl.arguments ?? {}) as Record<string, JsonObject | null>)) {
      args.push({
        name: argName,
        ...optional("title", str(argDecl ?? undefined, "title")),
        ...optional("description", str(argDecl ?? undefined, "description")),
        required: argDecl?.required === true,
        complete: argDecl?.complete === true,
      });
    }
    let ok = true;
    let messages: PromptMessageModel[] | undefined;
    if (Array.isArray(decl.messages) && Array.isArray(decl.asks)) {
      diagnostics.push({
        location: positions.key(childPointer(pointer, "asks")),
        message: `prompt ${quote(name)} has declarative \`messages\`, so no handler runs to ask the client anything; remove \`asks\` or write a handler instead of \`messages\``,
      });
      ok = false;
    }
    if (Array.isArray(decl.messages)) {
      messages = [];
      const declaredArgs = new Set(args.map((a) => a.name));
      (decl.messages as JsonObject[]).forEach((message, i) => {
        const textPointer = childPointer(childPointer(childPointer(pointer, "messages"), i), "text");
        const parsed = parsePromptTemplate(String(message.text), declaredArgs);
        for (const problem of parsed.problems) {
          diagnostics.push({ location: positions.within(textPointer, problem.snippet, problem.occurrence), message: problem.message });
          ok = false;
        }
        if (parsed.parts) messages!.push({ role: message.role as "user" | "assistant", parts: parsed.parts });
      });
    }
    if (!declared || !ok) continue;
    prompts.push({ ...declared, arguments: args, ...optional("messages", messages) });
  }

  const forms: FormModel[] = [];
  for (const [key, decl, pointer] of entries("elicitations")) {
    const declared = declare("form", "elicitations", key, decl, pointer);
    const schema = schemaAt(decl, pointer, "schema", `schema of elicitation form ${quote(key)}`);
    if (!declared || !schema) continue;
    const problems = formSchemaProblems(schema.schema, key);
    if (problems.length > 0) {
      diagnostics.push(...problems);
      continue;
    }
    if (!revisions.some((r) => r >= clientAsks.elicitation.since)) {
      diagnostics.push({ location: declared.location, message: `elicitation form ${quote(key)} needs protocol ${clientAsks.elicitation.since} or later; add it to \`protocol\` or remove the form` });
      continue;
    }
    forms.push({ key, member: declared.member, location: declared.location, ...optional("description", str(decl, "description")), schema: schema.schema.value as JsonObject });
  }

  if (diagnostics.length > 0) return { diagnostics };
  return {
    model: {
      manifestFile: manifest.file,
      manifestDir,
      info,
      ...optional("instructions", str(server, "instructions")),
      listChanged: Array.isArray(server.listChanged) ? (server.listChanged as ListKindName[]) : [],
      ...optional("listCache", server.cache as CacheHintModel | undefined),
      ...optional("auth", auth),
      revisions,
      revisionsLocation: positions.value("/protocol"),
      output,
      generate,
      typeBase,
      tools,
      resources,
      resourceTemplates,
      prompts,
      forms,
      inputFiles: [...inputFiles].sort(),
    },
    diagnostics,
  };
}

/** Why `scope` cannot be used, if it cannot. */
function scopeProblem(scope: string, supported: readonly string[]): string | undefined {
  if (scope === "offline_access") {
    return "scope \"offline_access\" is for the authorization server to grant (refresh tokens); a resource never asks for it (clients add it themselves when the authorization server supports it)";
  }
  if (!supported.includes(scope)) {
    return `scope ${quote(scope)} is not in auth.scopesSupported${supported.length > 0 ? ` (${supported.map(quote).join(", ")})` : ""}; add it there or fix the name`;
  }
  return undefined;
}

/** Whether `url` is an https URL, or http on a loopback host (development). */
function isSecureUrl(url: URL): boolean {
  return url.protocol === "https:" || (url.protocol === "http:" && ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname));
}

/** The `auth:` section, checked: URLs well-formed and secure, scopes known. */
function authOf(root: JsonObject, positions: PositionIndex, defaultName: string, diagnostics: Diagnostic[]): AuthModel | undefined {
  const auth = root.auth as JsonObject | undefined;
  if (auth === undefined) return undefined;
  const strings = (key: string) => (Array.isArray(auth[key]) ? (auth[key] as string[]) : []);
  const urlProblem = (value: string, what: string): string | undefined => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      return `${what} ${quote(value)} is not an absolute URL`;
    }
    if (!isSecureUrl(url)) return `${what} ${quote(value)} must use https (http is allowed on localhost only)`;
    if (url.hash !== "" || value.includes("#")) return `${what} ${quote(value)} must not have a fragment`;
    return undefined;
  };
  const listed = strings("scopesSupported");
  listed.forEach((scope, i) => {
    if (scope === "offline_access") diagnostics.push({ location: positions.value(`/auth/scopesSupported/${i}`), message: `auth.scopesSupported: ${scopeProblem(scope, listed)!}` });
  });
  const scopesSupported = listed.filter((s) => s !== "offline_access");
  const requiredScopes = strings("requiredScopes");
  requiredScopes.forEach((scope, i) => {
    const problem = scopeProblem(scope, scopesSupported);
    if (problem) diagnostics.push({ location: positions.value(`/auth/requiredScopes/${i}`), message: `auth.requiredScopes: ${problem}` });
  });
  const authorizationServers = strings("authorizationServers");
  authorizationServers.forEach((issuer, i) => {
    const problem = urlProblem(issuer, "authorization server") ?? (issuer.includes("?") ? `authorization server ${quote(issuer)} must not have a query (an issuer identifier has none)` : undefined);
    if (problem) diagnostics.push({ location: positions.value(`/auth/authorizationServers/${i}`), message: problem });
  });
  const resource = typeof auth.resource === "string" ? auth.resource : undefined;
  const resourceProblem = resource === undefined ? undefined : urlProblem(resource, "auth.resource");
  if (resourceProblem) diagnostics.push({ location: positions.value("/auth/resource"), message: `${resourceProblem}; it is this server's canonical URI, e.g. https://mcp.example.com/mcp` });
  const documentation = typeof auth.documentation === "string" ? auth.documentation : undefined;
  return {
    authorizationServers,
    scopesSupported,
    requiredScopes,
    ...optional("resource", resource),
    resourceName: typeof auth.resourceName === "string" ? auth.resourceName : defaultName,
    ...optional("documentation", documentation),
  };
}

/** `{ key: value }` when value is defined, `{}` otherwise: keeps optional fields absent, not undefined. */
export function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return value === undefined ? {} : ({ [key]: value } as { [P in K]: V });
}

function defaultInput(pointer: string, positions: PositionIndex): SchemaModel {
  const value: JsonValue = { type: "object", properties: {} };
  return {
    dialect: "2020-12",
    schema: { value, pointer: childPointer(pointer, "input"), locate: () => positions.key(pointer), files: [] },
  };
}

/** True when an object schema (following properties and allOf) declares a default for some property. */
function hasPropertyDefaults(schema: JsonValue): boolean {
  if (!schema || typeof schema !== "object" || Array.isArray(schema)) return false;
  const properties = schema.properties;
  if (properties && typeof properties === "object" && !Array.isArray(properties)) {
    for (const child of Object.values(properties)) {
      if (child && typeof child === "object" && !Array.isArray(child) && ("default" in child || hasPropertyDefaults(child))) return true;
    }
  }
  return Array.isArray(schema.allOf) && schema.allOf.some(hasPropertyDefaults);
}

/** Header names `x-mcp-header` may give (RFC 9110 token characters). */
const headerToken = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Argument types a client can mirror into a header; numbers are excluded by SEP-2243. */
const mirrorableTypes = new Set(["string", "integer", "boolean"]);

/**
 * The `x-mcp-header` declarations of a tool's input schema (2026-07-28 HTTP binding: the
 * argument is mirrored into an `Mcp-Param-<name>` header), argument → header name. Clients
 * must drop a tool whose declarations are invalid, so every such mistake is an error here.
 */
function mirroredHeaders(schema: ResolvedSchema, what: string): { headers: Record<string, string>; problems: Diagnostic[] } {
  const problems: Diagnostic[] = [];
  // Null-prototype: argument names are user data and may be "__proto__".
  const headers: Record<string, string> = Object.create(null);
  const properties = (schema.value as JsonObject).properties;
  if (!properties || typeof properties !== "object" || Array.isArray(properties)) return { headers, problems };
  const seen = new Map<string, string>();
  for (const [argument, property] of Object.entries(properties)) {
    if (!property || typeof property !== "object" || Array.isArray(property) || !("x-mcp-header" in property)) continue;
    const name = property["x-mcp-header"];
    const at = schema.locate(childPointer(childPointer("/properties", argument), "x-mcp-header"));
    const type = property.type;
    if (typeof name !== "string" || !headerToken.test(name)) {
      problems.push({ location: at, message: `x-mcp-header of argument ${quote(argument)} in the ${what} must be a non-empty header name of letters, digits and !#$%&'*+-.^_\`|~ (it becomes Mcp-Param-<name>)` });
    } else if (typeof type !== "string" || !mirrorableTypes.has(type)) {
      problems.push({ location: at, message: `argument ${quote(argument)} in the ${what} has x-mcp-header but its type is ${typeof type === "string" ? quote(type) : "not declared"}; only string, integer and boolean arguments can be mirrored into a header` });
    } else if (seen.has(name.toLowerCase())) {
      problems.push({ location: at, message: `x-mcp-header ${quote(name)} of argument ${quote(argument)} in the ${what} is already used by argument ${quote(seen.get(name.toLowerCase())!)} (header names ignore case); give each argument its own header` });
    } else {
      seen.set(name.toLowerCase(), argument);
      headers[argument] = name;
    }
  }
  return { headers, problems };
}

/** The manifest's `x-mcp-header` declarations (checked by the model): tool → argument → header name. */
export function paramHeaderDeclarations(model: ServerModel): Record<string, Readonly<Record<string, string>>> {
  // Null-prototype: tool names are user data and may be "__proto__".
  const declared: Record<string, Readonly<Record<string, string>>> = Object.create(null);
  for (const tool of model.tools) if (Object.keys(tool.paramHeaders).length > 0) declared[tool.key] = tool.paramHeaders;
  return declared;
}

/** Field types an elicitation form may have (the protocol's PrimitiveSchemaDefinition). */
const formFieldTypes = new Set(["string", "number", "integer", "boolean"]);

/**
 * Problems of an elicitation form's schema: the protocol restricts requestedSchema to an
 * object of flat primitive fields (strings with optional enum or format, numbers, booleans,
 * and lists of enum choices), so clients can render it as a form.
 */
function formSchemaProblems(schema: ResolvedSchema, key: string): Diagnostic[] {
  const value = schema.value as JsonObject;
  const what = `elicitation form ${quote(key)}`;
  if (value.type !== "object" || !value.properties || typeof value.properties !== "object" || Array.isArray(value.properties)) {
    return [{ location: schema.locate(""), message: `${what} must be \`type: object\` with \`properties\` (one per form field)` }];
  }
  const problems: Diagnostic[] = [];
  for (const [name, field] of Object.entries(value.properties as JsonObject)) {
    const f = (field ?? {}) as JsonObject;
    const items = (f.items ?? {}) as JsonObject;
    const choiceList = f.type === "array" && (Array.isArray(items.enum) || Array.isArray(items.anyOf));
    if (!choiceList && !(typeof f.type === "string" && formFieldTypes.has(f.type))) {
      problems.push({
        location: schema.locate(childPointer(childPointer("/properties", name), "type")),
        message: `field ${quote(name)} of ${what} must be a string, number, integer or boolean (or a list of enum choices); forms have no nested objects`,
      });
    }
  }
  return problems;
}