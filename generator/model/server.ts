// The user side of the model: a manifest turned into named, typed, checked declarations.
// Semantic checks happen while the model is built, so each problem is reported once, at
// the position of the declaration that causes it. Each kind of declaration has its own
// module (tools, resources, prompts, forms, auth); this one holds the model's types and
// puts the parts together.
import { dirname, resolve } from "node:path";
import { quote, type Diagnostic, type SourceLocation } from "../diagnostics.js";
import { knownRevisions, type Dialect, type Revision } from "../load/revisions.js";
import { maxInlinedSchemas, type RefContext, type ResolvedSchema } from "../load/schema-refs.js";
import type { JsonValue, PositionIndex } from "../load/source.js";
import type { TemplatePart } from "../validate/prompt-template.js";
import type { UriTemplate } from "../validate/uri-template.js";
import type { SchemaAnalysis } from "../validate/schema-check.js";
import { buildApps, type AppModel, type ToolUiModel } from "./apps.js";
import { authOf } from "./auth.js";
import { Declarations, icons, optional, str, type Declared, type JsonObject } from "./declarations.js";
import { buildForms } from "./forms.js";
import { serverTypeBase } from "./names.js";
import { buildPrompts } from "./prompts.js";
import { buildResources, buildResourceTemplates } from "./resources.js";
import { buildSettings, type SettingModel } from "./settings.js";
import { buildTools } from "./tools.js";

export { clientAsks, optional } from "./declarations.js";
export type { AppModel, ToolUiModel } from "./apps.js";
export type { ClientAsk, Declared } from "./declarations.js";

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

/** An elicitation form: `member` names its ctx.elicit method, `schema` is the requestedSchema. */
export interface FormModel extends Declared {
  readonly schema: JsonObject;
}

export interface SchemaModel {
  readonly schema: ResolvedSchema;
  readonly dialect: Dialect;
  /** What the validate phase found walking the schema (its $ref targets), for the validator compiler. */
  readonly analysis: SchemaAnalysis;
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
  /** The MCP App rendering its results (`ui:`): `_meta.ui` of its definition. */
  readonly ui?: ToolUiModel;
  /** The tool may run as a task (`task:`), with its tasks' default lifetime and poll interval. */
  readonly task?: TaskModel;
}

export interface TaskModel {
  readonly support: "optional" | "required";
  readonly ttlMs?: number;
  readonly pollIntervalMs?: number;
}

/** What a resource and a resource template declare alike. */
export interface ResourceFields extends Declared {
  readonly name: string;
  readonly mimeType?: string;
  readonly annotations?: JsonObject;
  /** Clients may subscribe to updates (of the resource, or of resources matching the template). */
  readonly subscribe: boolean;
  /** 2026-07-28 caching of resources/read results. */
  readonly cache?: CacheHintModel;
}

export interface ResourceModel extends ResourceFields {
  readonly uri: string;
  readonly size?: number;
}

export interface ResourceTemplateModel extends ResourceFields {
  readonly uriTemplate: string;
  readonly template: UriTemplate;
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
  /** MCP Apps (`apps:` and tools' inline `ui:`): ui:// resources with their HTML inlined. */
  readonly apps: readonly AppModel[];
  /** What the person installing the server configures (`settings:`), as environment variables. */
  readonly settings: readonly SettingModel[];
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

/**
 * Builds the model and reports every semantic problem. `broken` holds the JSON pointers of
 * the parts whose shape is invalid (a section such as `/auth`, or one entry such as
 * `/tools/x`): they are skipped, and checks that depend on them are not run, so problems
 * of the intact parts are reported alongside the shape errors. No model is returned then.
 */
export function buildServerModel(
  manifest: ManifestInput,
  outputOverride?: string,
  broken: ReadonlySet<string> = new Set(),
): { model?: ServerModel; diagnostics: Diagnostic[]; inputFiles?: readonly string[] } {
  if (broken.has("") || manifest.value === null || typeof manifest.value !== "object" || Array.isArray(manifest.value)) return { diagnostics: [] };
  const { positions } = manifest;
  const root = manifest.value;
  const manifestDir = dirname(manifest.absolutePath);
  const diagnostics: Diagnostic[] = [];

  const server = (broken.has("/server") ? {} : root.server ?? {}) as JsonObject;
  const info = {
    name: str(server, "name") ?? "",
    version: str(server, "version") ?? "",
    ...optional("title", str(server, "title")),
    ...optional("description", str(server, "description")),
    ...optional("websiteUrl", str(server, "websiteUrl")),
    ...optional("icons", icons(server)),
  };
  const typeBase = serverTypeBase(info.name);
  if (!broken.has("/server") && (typeBase === "" || /^[0-9]/.test(typeBase))) {
    diagnostics.push({
      location: positions.value("/server/name"),
      message: `server name ${quote(info.name)} cannot name the generated createXServer/XHandlers/XClient; use a name that starts with a letter`,
    });
  }
  const revisions = broken.has("/protocol") ? undefined : revisionsOf(root.protocol);
  const generate = generateSettingsOf(broken.has("/generate") ? {} : ((root.generate ?? {}) as JsonObject));
  const output = outputOverride ? resolve(outputOverride) : resolve(manifestDir, (broken.has("/output") ? undefined : str(root, "output")) ?? "./mcp");
  const auth = broken.has("/auth") ? "broken" : authOf(root, positions, info.title ?? info.name, diagnostics);

  const context = new Declarations({
    file: manifest.file,
    positions,
    root,
    refs: { root: manifestDir, display: manifest.display, cache: new Map(), budget: { left: maxInlinedSchemas } } satisfies RefContext,
    revisions,
    auth,
    broken,
  });
  context.inputFiles.add(manifest.absolutePath);
  const resources = buildResources(context);
  const { apps, toolUi } = buildApps(context, info.name, new Set(resources.map((r) => r.uri)));
  const tools = buildTools(context).map((tool) => (toolUi.has(tool.key) ? { ...tool, ui: toolUi.get(tool.key)! } : tool));
  const resourceTemplates = buildResourceTemplates(context);
  const prompts = buildPrompts(context);
  const forms = buildForms(context);
  diagnostics.push(...context.diagnostics);
  const settings = broken.has("/settings") ? [] : buildSettings(root.settings as JsonObject | undefined, positions, broken, diagnostics);

  // A failed model still names the files it read or tried to read (a $ref to a file not yet written): watch mode waits for them.
  if (broken.size > 0 || auth === "broken" || revisions === undefined || diagnostics.some((d) => d.severity !== "warning")) return { diagnostics, inputFiles: [...context.inputFiles].sort() };
  return {
    model: {
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
      apps,
      settings,
      inputFiles: [...context.inputFiles].sort(),
    },
    diagnostics,
  };
}

/** `protocol:` as a list, preferred first; every known revision when it is absent. */
export function revisionsOf(protocol: JsonValue | undefined): Revision[] {
  if (protocol === undefined) return [...knownRevisions().keys()];
  return (typeof protocol === "string" ? [protocol] : (protocol as string[])) as Revision[];
}

function generateSettingsOf(gen: JsonObject): GenerateSettings {
  return {
    importExtension: (str(gen, "importExtension") ?? ".js") as GenerateSettings["importExtension"],
    runtime: str(gen, "runtime") ?? "@mcp-gen/runtime",
    server: gen.server !== false,
    client: gen.client !== false,
  };
}

/** The manifest's `x-mcp-header` declarations (checked by the model): tool → argument → header name. */
export function paramHeaderDeclarations(model: ServerModel): Record<string, Readonly<Record<string, string>>> {
  // Null-prototype: tool names are user data and may be "__proto__".
  const declared: Record<string, Readonly<Record<string, string>>> = Object.create(null);
  for (const tool of model.tools) if (Object.keys(tool.paramHeaders).length > 0) declared[tool.key] = tool.paramHeaders;
  return declared;
}
