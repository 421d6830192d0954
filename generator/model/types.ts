// The model's types: the one intermediate representation between the manifest and the
// emitters. Types only; the modules beside this one build the values (server.ts puts them
// together), and emitters, docs and packaging read them.
import type { SourceLocation } from "../diagnostics.js";
import type { Dialect, Revision } from "../load/revisions.js";
import type { ResolvedSchema } from "../load/schema-refs.js";
import type { JsonValue } from "../load/source.js";
import type {
  ManifestAsks,
  ManifestCacheHint,
  ManifestGenerate,
  ManifestIcon,
  ManifestMeta,
  ManifestResourceAnnotations,
  ManifestSetting,
  ManifestTool,
  ManifestToolAnnotations,
} from "../manifest.gen.js";
import type { TemplatePart } from "../validate/prompt-template.js";
import type { SchemaAnalysis } from "../validate/schema-check.js";
import type { UriTemplate } from "../validate/uri-template.js";

export type JsonObject = { [key: string]: JsonValue };

/** What a handler may ask the client (`asks:`); `clientAsks` of ./declarations.ts gives each one's request and first revision. */
export type ClientAsk = ManifestAsks[number];

/** The part of a declaration every kind shares. */
export interface Declared {
  /** The MCP name (tool and prompt names; for resources and templates the manifest key). */
  readonly key: string;
  /** camelCase member of generated handler and client objects. */
  readonly member: string;
  /** PascalCase prefix of generated type names. */
  readonly typeBase: string;
  readonly title?: string;
  readonly description?: string;
  readonly icons?: readonly Icon[];
  /** What its handler may ask the client through ctx.input / ctx.request (`asks:`). */
  readonly asks: readonly ClientAsk[];
  /** OAuth scopes a call needs on top of `auth.requiredScopes` (`scopes:`). */
  readonly scopes: readonly string[];
  /** `_meta` of its list entry (`_meta:`), keys checked against the specification's rule. */
  readonly meta?: Readonly<ManifestMeta>;
}

export type Icon = Readonly<ManifestIcon>;

/** `cache:` of the manifest: a 2026-07-28 result's `ttlMs` and `cacheScope`. */
export type CacheHintModel = Readonly<ManifestCacheHint>;

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
  readonly annotations?: Readonly<ManifestToolAnnotations>;
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
  readonly support: NonNullable<ManifestTool["task"]>;
  readonly ttlMs?: number;
  readonly pollIntervalMs?: number;
}

/** What a resource and a resource template declare alike. */
export interface ResourceFields extends Declared {
  readonly name: string;
  readonly mimeType?: string;
  readonly annotations?: Readonly<ManifestResourceAnnotations>;
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
  readonly importExtension: NonNullable<ManifestGenerate["importExtension"]>;
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

export interface AppModel {
  /** The `apps:` key, or the tool name for an app declared inline in a tool's `ui:`. */
  readonly key: string;
  readonly uri: string;
  /** MCP name of the resource (resources/list). */
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  /** The HTML file's text (checked: UTF-8, at most maxAppHtmlBytes). */
  readonly html: string;
  /** The HTML file relative to the manifest's folder, with forward slashes (the generated code names it). */
  readonly source: string;
  /** `_meta.ui` of the resource: csp, permissions, domain, prefersBorder (empty when none is declared). */
  readonly meta: JsonObject;
  readonly location: SourceLocation;
}

/** A tool's `_meta.ui`: the app that renders its results and who may call it. */
export interface ToolUiModel {
  readonly resourceUri: string;
  readonly visibility?: readonly ("model" | "app")[];
}

export type SettingType = NonNullable<ManifestSetting["type"]>;

export interface SettingModel {
  /** The manifest key: the .mcpb user_config key. */
  readonly key: string;
  readonly title: string;
  readonly description: string;
  /** The environment variable the server reads. */
  readonly env: string;
  readonly type: SettingType;
  readonly required: boolean;
  readonly secret: boolean;
  readonly default?: string | number | boolean;
}
