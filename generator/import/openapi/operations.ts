// The operations of an OpenAPI 3.1 document as mcp-gen tools: which are selected, their
// names, their input (parameters and body in one object) and output schemas, annotations,
// and the data the generated request code needs (operations.gen.ts).
import { createHash } from "node:crypto";
import { camelCase, identifierProblem, pascalCase } from "../../model/names.js";
import { escapePointer, refPointer, resolvePointer, type ImportWarnings } from "./document.js";
import type { BodySpec, OperationSpec, ParameterSpec, SecuritySpec } from "./project/request.js";
import { SchemaConverter, type Schema } from "./schemas.js";
import { acceptedTool } from "./tool-check.js";
import { matches, type Selection } from "./selection.js";

export interface ImportedTool {
  /** The MCP tool name. */
  readonly name: string;
  readonly title?: string | undefined;
  readonly description?: string | undefined;
  readonly input: Schema;
  readonly output?: Schema | undefined;
  readonly annotations: Readonly<Record<string, boolean>>;
  readonly operation: OperationSpec;
  /** The operation's tags (the catalog mode searches them). */
  readonly tags: readonly string[];
}

const methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;
type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The tool name for an operation without a usable operationId: method and path words, snake_case,
 * at most 128 characters (MCP's limit; a longer one ends in a hash of the whole, to stay unique).
 */
const methodPathName = (method: string, path: string) => {
  const name = methodPathWords(method, path);
  return name.length <= 128
    ? name
    : `${name.slice(0, 119)}_${createHash("sha256").update(name).digest("hex").slice(0, 8)}`;
};
const methodPathWords = (method: string, path: string) =>
  [
    method,
    ...path
      .split("/")
      .filter((s) => s !== "")
      .map((s) => (s.startsWith("{") ? `by ${s.slice(1, -1)}` : s)),
  ]
    .join(" ")
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== "")
    .join("_");

/** An operationId as an MCP tool name: characters outside A-Za-z0-9_.- become `_`, at most 64. */
const toolNameOf = (operationId: string) => operationId.replace(/[^A-Za-z0-9_.-]+/g, "_").slice(0, 64);

/** What the document's `servers` say the base URL is (its first entry, variables at their defaults). */
export function serverUrlOf(document: Json): string | undefined {
  const first = Array.isArray(document.servers) ? document.servers[0] : undefined;
  if (!isObject(first) || typeof first.url !== "string") return undefined;
  const variables = isObject(first.variables) ? first.variables : {};
  return first.url.replace(/\{([^}]+)\}/g, (whole, name: string) => {
    const variable = variables[name];
    return isObject(variable) && variable.default !== undefined ? String(variable.default) : whole;
  });
}

/**
 * Environment variable names for credentials: the server name and the scheme's, upper snake case,
 * at most 48 characters (settings have 64, and suffixes such as `_PASSWORD` follow): a long
 * server name is cut first.
 */
const envName = (server: string, scheme: string) => {
  const [a, b] = [server, scheme].map((p) =>
    p
      .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
      .replace(/[^A-Za-z0-9]+/g, "_")
      .replace(/^_|_$/g, "")
      .toUpperCase(),
  ) as [string, string];
  const tail = b.slice(0, 40);
  return `${a.slice(0, Math.max(1, 47 - tail.length)).replace(/_+$/, "")}_${tail}`;
};

export interface Credentials {
  readonly schemes: Readonly<Record<string, SecuritySpec>>;
  /** Environment variable → what it holds, for the manifest's `settings`. */
  readonly variables: ReadonlyMap<string, Setting>;
}

/** A credential setting: secret ones become sensitive bundle settings (`pack`). */
export interface Setting {
  readonly description: string;
  readonly secret: boolean;
  readonly default?: string | undefined;
}

/** The document's security schemes this code can satisfy, each read from environment variables. */
export function credentialsOf(document: Json, serverName: string, warnings: ImportWarnings): Credentials {
  const schemes: Record<string, SecuritySpec> = {};
  const variables = new Map<string, Setting>();
  const secret = (env: string, description: string) => variables.set(env, { description, secret: true });
  const declared =
    isObject(document.components) && isObject(document.components.securitySchemes)
      ? document.components.securitySchemes
      : {};
  for (const [name, raw] of Object.entries(declared).sort(([a], [b]) => (a < b ? -1 : 1))) {
    const pointer = `/components/securitySchemes/${escapePointer(name)}`;
    const scheme =
      isObject(raw) && typeof raw.$ref === "string" ? resolvePointer(document, refPointer(raw.$ref) ?? "#") : raw;
    if (!isObject(scheme)) continue;
    const env = envName(serverName, name);
    if (
      scheme.type === "apiKey" &&
      (scheme.in === "header" || scheme.in === "query" || scheme.in === "cookie") &&
      typeof scheme.name === "string"
    ) {
      schemes[name] = { type: "apiKey", in: scheme.in, name: scheme.name, env };
      secret(env, `API key for ${name} (sent in the ${scheme.in} ${scheme.name})`);
    } else if (scheme.type === "http" && typeof scheme.scheme === "string" && scheme.scheme.toLowerCase() === "basic") {
      schemes[name] = { type: "basic", userEnv: `${env}_USERNAME`, passwordEnv: `${env}_PASSWORD` };
      secret(`${env}_USERNAME`, `User name for ${name} (HTTP basic)`);
      secret(`${env}_PASSWORD`, `Password for ${name} (HTTP basic)`);
    } else if (
      scheme.type === "oauth2" &&
      isObject(scheme.flows) &&
      isObject(scheme.flows.clientCredentials) &&
      typeof scheme.flows.clientCredentials.tokenUrl === "string"
    ) {
      const { tokenUrl } = scheme.flows.clientCredentials;
      schemes[name] = {
        type: "clientCredentials",
        tokenUrl,
        tokenUrlEnv: `${env}_TOKEN_URL`,
        clientIdEnv: `${env}_CLIENT_ID`,
        clientSecretEnv: `${env}_CLIENT_SECRET`,
        authMethodEnv: `${env}_AUTH_METHOD`,
      };
      variables.set(`${env}_CLIENT_ID`, {
        description: `OAuth 2 client id for ${name} (client credentials)`,
        secret: false,
      });
      secret(`${env}_CLIENT_SECRET`, `OAuth 2 client secret for ${name} (client credentials)`);
      variables.set(`${env}_TOKEN_URL`, {
        description: `Token endpoint for ${name}`,
        secret: false,
        default: tokenUrl,
      });
      variables.set(`${env}_AUTH_METHOD`, {
        description: `How the client authenticates to the token endpoint of ${name}: client_secret_basic or client_secret_post`,
        secret: false,
        default: "client_secret_basic",
      });
    } else if (
      (scheme.type === "http" && typeof scheme.scheme === "string" && scheme.scheme.toLowerCase() === "bearer") ||
      scheme.type === "oauth2" ||
      scheme.type === "openIdConnect"
    ) {
      schemes[name] = { type: "bearer", env };
      secret(env, `Bearer token for ${name}`);
      if (scheme.type !== "http")
        warnings.add(
          pointer,
          `${String(scheme.type)} ${scheme.type === "oauth2" ? "flows other than clientCredentials are" : "is"} not run by the imported server: it sends the access token given in ${env} as a bearer token`,
        );
    } else {
      warnings.add(
        pointer,
        `security scheme of type ${JSON.stringify(scheme.type)}${scheme.scheme === undefined ? "" : ` (${String(scheme.scheme)})`} is not supported; operations that need only it are called without credentials`,
      );
    }
  }
  return { schemes, variables };
}

/** The media type the body is sent as, preferred in this order, and how it is encoded. */
function bodyEncoding(contentType: string): BodySpec["encoding"] | undefined {
  const type = contentType.split(";")[0]!.trim().toLowerCase();
  if (/^application\/(?:[\w.+-]*\+)?json$/.test(type) || type === "*/*") return "json";
  if (type === "application/x-www-form-urlencoded") return "form";
  if (type === "multipart/form-data") return "multipart";
  if (/^(?:application|text)\/(?:[\w.+-]*\+)?xml$/.test(type)) return "xml";
  if (type.startsWith("text/")) return "text";
  if (type === "application/octet-stream") return "binary";
  return undefined;
}
const bodyPreference: readonly BodySpec["encoding"][] = ["json", "form", "multipart", "text", "xml", "binary"];

/** The media type of a parameter described by `content` (its only entry), else undefined. */
const contentTypeOf = (parameter: Json): string | undefined =>
  isObject(parameter.content) ? Object.entries(parameter.content).find(([, media]) => isObject(media))?.[0] : undefined;

/** Styles each location allows, and its default (OpenAPI 3.1 §4.8.12.4). */
const defaultStyle = { path: "simple", query: "form", header: "simple", cookie: "form" } as const;
const allowedStyles: Record<ParameterSpec["in"], readonly ParameterSpec["style"][]> = {
  path: ["simple", "label", "matrix"],
  query: ["form", "spaceDelimited", "pipeDelimited", "deepObject"],
  header: ["simple"],
  cookie: ["form"],
};

export interface ImportResult {
  readonly tools: readonly ImportedTool[];
  readonly credentials: Credentials;
  readonly serverUrl: string | undefined;
  /** Operations the document has, before selection. */
  readonly total: number;
}

/** Every selected operation of the document as a tool, in document order. */
export function importOperations(
  document: Json,
  serverName: string,
  selection: Selection,
  warnings: ImportWarnings,
): ImportResult {
  const importer = new OperationImporter(document, serverName, selection, warnings);
  const paths = isObject(document.paths) ? document.paths : {};
  for (const [path, rawItem] of Object.entries(paths)) importer.pathItem(path, rawItem);
  const { tools, credentials, total } = importer;
  return { tools, credentials, serverUrl: serverUrlOf(document), total };
}

/** One operation of a path item, with the JSON pointers its warnings name. */
interface OperationAt {
  readonly path: string;
  readonly method: string;
  readonly item: Json;
  readonly itemPointer: string;
  readonly operation: Json;
  readonly pointer: string;
}

type SchemaSession = ReturnType<SchemaConverter["session"]>;

/** A tool's input being assembled: its argument schemas and how each reaches the request. */
interface InputParts {
  readonly properties: Record<string, Schema>;
  readonly required: string[];
  readonly specs: ParameterSpec[];
  bodySpec?: BodySpec;
}

/** Walks the document's operations, turning each selected one into a tool (warnings in document order). */
class OperationImporter {
  readonly tools: ImportedTool[] = [];
  readonly credentials: Credentials;
  total = 0;
  private readonly schemas: SchemaConverter;
  /** Tool names by identifier, to find clashes. */
  private readonly byIdentifier = new Map<string, string>();

  constructor(
    private readonly document: Json,
    serverName: string,
    private readonly selection: Selection,
    private readonly warnings: ImportWarnings,
  ) {
    const components =
      isObject(document.components) && isObject(document.components.schemas)
        ? Object.keys(document.components.schemas).map((n) => `/components/schemas/${escapePointer(n)}`)
        : [];
    this.schemas = new SchemaConverter(document, warnings, components);
    this.credentials = credentialsOf(document, serverName, warnings);
  }

  pathItem(path: string, rawItem: unknown): void {
    const itemPointer = `/paths/${escapePointer(path)}`;
    const item = this.deref(rawItem, itemPointer);
    if (!isObject(item)) return;
    for (const method of methods) {
      const operation = item[method];
      if (!isObject(operation)) continue;
      this.total++;
      const at: OperationAt = { path, method, item, itemPointer, operation, pointer: `${itemPointer}/${method}` };
      if (this.selected(at)) this.importOperation(at);
    }
  }

  /** Follows `$ref`s (at most 20) to what they name. */
  private deref<T>(value: T, at: string): T | undefined {
    let current: unknown = value;
    for (let hops = 0; isObject(current) && typeof current.$ref === "string" && hops < 20; hops++)
      current = this.schemas.resolve(current.$ref, at)?.value;
    return current as T | undefined;
  }

  private selected({ operation, path }: OperationAt): boolean {
    const tags = Array.isArray(operation.tags) ? operation.tags.filter((t): t is string => typeof t === "string") : [];
    const facts = { tags, operationId: operationIdOf(operation), path };
    if (operation.deprecated === true && !this.selection.includeDeprecated) return false;
    if (this.selection.include.length > 0 && !this.selection.include.some((p) => matches(p, facts))) return false;
    return !this.selection.exclude.some((p) => matches(p, facts));
  }

  private importOperation(at: OperationAt): void {
    const name = this.toolName(at);
    if (name === undefined) return;
    const parameters = this.parametersOf(at);
    const inputs = this.schemas.session("input");
    const parts: InputParts = { properties: {}, required: [], specs: [] };
    const body = this.deref(at.operation.requestBody, `${at.pointer}/requestBody`);
    const hasBody = isObject(body) && isObject(body.content);
    const refused =
      this.addParameters(parameters, hasBody, inputs, parts) ??
      (hasBody ? this.addBody(at.pointer, body, inputs, parts) : undefined);
    if (refused !== undefined) {
      this.warnings.add(at.pointer, `operation left out: ${refused}`);
      return;
    }
    const { output, wrap } = this.outputOf(at);
    const tool = acceptedTool(this.tool(at, name, inputs, parts, output, wrap), at.pointer, this.warnings);
    if (tool === undefined) return;
    this.byIdentifier.set(camelCase(name), name);
    this.tools.push(tool);
  }

  /** The name: the operationId's, unless it yields no identifier or one taken already; undefined when the operation is left out. */
  private toolName({ operation, method, path, pointer }: OperationAt): string | undefined {
    const operationId = operationIdOf(operation);
    const fallback = methodPathName(method, path);
    let name = operationId === undefined ? fallback : toolNameOf(operationId);
    const problem = identifierProblem(camelCase(name));
    const owner = this.byIdentifier.get(camelCase(name));
    if (operationId !== undefined && (problem !== undefined || owner !== undefined)) {
      this.warnings.add(
        `${pointer}/operationId`,
        `tool ${JSON.stringify(name)} ${problem ?? `has the identifier of tool ${JSON.stringify(owner)} (${camelCase(name)})`}: named ${JSON.stringify(fallback)} (method and path) instead`,
      );
      name = fallback;
    }
    const clash =
      identifierProblem(camelCase(name)) ??
      (this.byIdentifier.has(camelCase(name))
        ? `has the identifier of tool ${JSON.stringify(this.byIdentifier.get(camelCase(name)))}`
        : undefined);
    if (clash === undefined) return name;
    this.warnings.add(
      pointer,
      `operation left out: its tool name ${JSON.stringify(name)} ${clash}; give it an operationId`,
    );
    return undefined;
  }

  /** Parameters: the path item's, overridden by the operation's of the same name and location. */
  private parametersOf({
    item,
    itemPointer,
    operation,
    pointer,
  }: OperationAt): Map<string, { value: Json; at: string }> {
    const parameters = new Map<string, { value: Json; at: string }>();
    for (const [list, at] of [
      [item.parameters, `${itemPointer}/parameters`],
      [operation.parameters, `${pointer}/parameters`],
    ] as const) {
      if (!Array.isArray(list)) continue;
      list.forEach((raw, i) => {
        const value = this.deref(raw, `${at}/${i}`);
        if (isObject(value) && typeof value.name === "string" && typeof value.in === "string")
          parameters.set(`${value.in} ${value.name}`, { value, at: `${at}/${i}` });
      });
    }
    return parameters;
  }

  /** Each parameter as an argument and its serialization; the reason when the operation cannot be sent. */
  private addParameters(
    parameters: Map<string, { value: Json; at: string }>,
    hasBody: boolean,
    inputs: SchemaSession,
    parts: InputParts,
  ): string | undefined {
    const { properties, required, specs } = parts;
    for (const { value: parameter, at } of parameters.values()) {
      const location = parameter.in as string;
      const wireName = parameter.name as string;
      if (location !== "path" && location !== "query" && location !== "header" && location !== "cookie") continue;
      // OpenAPI: these headers are described elsewhere (content types, security) and ignored here.
      if (location === "header" && /^(?:accept|content-type|authorization)$/i.test(wireName)) continue;
      let arg = wireName;
      if (arg in properties || (hasBody && arg === "body")) {
        arg = `${location}_${wireName}`;
        this.warnings.add(
          at,
          `parameter ${JSON.stringify(wireName)} (in ${location}) clashes with another argument of the same name; its argument is ${JSON.stringify(arg)}`,
        );
        if (arg in properties) return `two parameters are both named ${JSON.stringify(wireName)} in ${location}`;
      }
      properties[arg] = this.parameterSchema(parameter, at, inputs);
      if (location === "path" || parameter.required === true) required.push(arg);
      const style = (
        typeof parameter.style === "string" ? parameter.style : defaultStyle[location]
      ) as ParameterSpec["style"];
      const contentType = parameter.schema === undefined ? contentTypeOf(parameter) : undefined;
      if (contentType === undefined && !allowedStyles[location].includes(style))
        return `parameter ${JSON.stringify(wireName)} has style ${JSON.stringify(style)}, which ${location} parameters cannot have`;
      specs.push({
        name: wireName,
        arg,
        in: location,
        style,
        explode: typeof parameter.explode === "boolean" ? parameter.explode : style === "form",
        ...(parameter.allowReserved === true && { allowReserved: true }),
        ...(contentType !== undefined && { contentType }),
      });
    }
    return undefined;
  }

  /** A parameter's schema (from `schema`, else its first `content`), with its description. */
  private parameterSchema(parameter: Json, at: string, inputs: SchemaSession): Schema {
    let schema: unknown = parameter.schema;
    let schemaAt = `${at}/schema`;
    const mediaType = schema === undefined ? contentTypeOf(parameter) : undefined;
    if (mediaType !== undefined) {
      const media = (parameter.content as Json)[mediaType];
      schema = isObject(media) ? media.schema : undefined;
      schemaAt = `${at}/content/${escapePointer(mediaType)}/schema`;
    }
    const converted = inputs.convert(schema ?? {}, schemaAt);
    return typeof parameter.description === "string" &&
      typeof converted === "object" &&
      converted.description === undefined
      ? { ...converted, description: parameter.description }
      : converted;
  }

  /** The request body as the argument `body`, in the media type the generated code sends best; the reason when none. */
  private addBody(pointer: string, body: Json, inputs: SchemaSession, parts: InputParts): string | undefined {
    const content = body.content as Json;
    const candidates = Object.keys(content).flatMap((type) => {
      const encoding = bodyEncoding(type);
      return encoding === undefined ? [] : [{ type, encoding }];
    });
    candidates.sort((a, b) => bodyPreference.indexOf(a.encoding) - bodyPreference.indexOf(b.encoding));
    const chosen = candidates[0];
    if (chosen === undefined)
      return `its request body is only ${Object.keys(content).join(", ") || "(no media type)"}, which the generated code cannot send yet (JSON, form, multipart, text and octet-stream bodies only)`;
    // A parameter named "body" was renamed above (`query_body`), so the body keeps its name.
    const arg = "body";
    const media = content[chosen.type];
    const schemaAt = `${pointer}/requestBody/content/${escapePointer(chosen.type)}/schema`;
    const files = chosen.encoding === "multipart" && isObject(media) ? this.multipartFiles(media, schemaAt) : undefined;
    let schema: Schema =
      chosen.encoding === "binary"
        ? { type: "string", contentEncoding: "base64" }
        : chosen.encoding === "xml"
          ? { type: "string", contentMediaType: chosen.type, description: "The XML document, sent as it is" }
          : files !== undefined
            ? this.multipartSchema(files, schemaAt, inputs)
            : inputs.convert(isObject(media) ? (media.schema ?? {}) : {}, schemaAt);
    if (chosen.encoding === "text" && typeof schema === "object" && schema.type === undefined)
      schema = { ...schema, type: "string" };
    parts.properties[arg] =
      typeof body.description === "string" && typeof schema === "object" && schema.description === undefined
        ? { ...schema, description: body.description }
        : schema;
    if (body.required === true) parts.required.push(arg);
    parts.bodySpec = {
      arg,
      contentType: chosen.type,
      encoding: chosen.encoding,
      ...(files !== undefined && {
        files: Object.fromEntries([...files.files].map(([field, { contentType }]) => [field, contentType])),
      }),
    };
    if (candidates.length < Object.keys(content).length)
      this.warnings.add(`${pointer}/requestBody/content`, `the body is sent as ${chosen.type} only`);
    return undefined;
  }

  /**
   * The fields of a multipart body sent as files: binary in the schema (3.0 `format: binary`,
   * which the upgrade makes `contentMediaType`, or `contentEncoding: base64`) or a part whose
   * `encoding.contentType` is not text; undefined when the schema has no such field or is not a
   * plain object (then every field is text).
   */
  private multipartFiles(
    media: Json,
    schemaAt: string,
  ): { schema: Json; files: Map<string, { contentType: string; schema: Json; list: boolean }> } | undefined {
    const schema = this.deref(media.schema, schemaAt);
    if (!isObject(schema) || !isObject(schema.properties)) return undefined;
    const encoding = isObject(media.encoding) ? media.encoding : {};
    const files = new Map<string, { contentType: string; schema: Json; list: boolean }>();
    for (const [field, raw] of Object.entries(schema.properties)) {
      const property = this.deref(raw, `${schemaAt}/properties/${escapePointer(field)}`);
      if (!isObject(property)) continue;
      const list = property.type === "array" || (property.type === undefined && property.items !== undefined);
      const item = list ? this.deref(property.items, `${schemaAt}/properties/${escapePointer(field)}/items`) : property;
      const declared = isObject(encoding[field]) ? encoding[field].contentType : undefined;
      // `image/png, image/jpeg` lists the types allowed: the first is sent; a wildcard is no one type.
      const partType = typeof declared === "string" ? declared.split(",")[0]!.trim() : undefined;
      const mediaType = isObject(item) && typeof item.contentMediaType === "string" ? item.contentMediaType : undefined;
      const binary =
        (isObject(item) && (item.contentEncoding === "base64" || item.format === "binary")) ||
        (mediaType !== undefined && !isTextual(mediaType)) ||
        (partType !== undefined && !isTextual(partType));
      if (!binary) continue;
      const contentType = [partType, mediaType].find((t) => t !== undefined && !t.includes("*"));
      files.set(field, { contentType: contentType ?? "application/octet-stream", schema: property, list });
    }
    return files.size === 0 ? undefined : { schema, files };
  }

  /** A multipart body's input schema: its text fields converted, its files base64 strings. */
  private multipartSchema(
    { schema, files }: NonNullable<ReturnType<OperationImporter["multipartFiles"]>>,
    schemaAt: string,
    inputs: SchemaSession,
  ): Schema {
    const properties: Record<string, Schema> = {};
    for (const [field, raw] of Object.entries(schema.properties as Json)) {
      const at = `${schemaAt}/properties/${escapePointer(field)}`;
      const file = files.get(field);
      if (file === undefined) {
        properties[field] = inputs.convert(raw, at);
        continue;
      }
      const one = {
        type: "string",
        contentEncoding: "base64",
        contentMediaType: file.contentType,
        description: `A file, in base64 (sent as ${file.contentType})`,
      };
      const described = typeof file.schema.description === "string" ? { description: file.schema.description } : {};
      properties[field] = file.list ? { type: "array", items: one, ...described } : { ...one, ...described };
    }
    return {
      type: "object",
      properties,
      ...(Array.isArray(schema.required) && { required: schema.required }),
      ...(typeof schema.description === "string" && { description: schema.description }),
    } as Schema;
  }

  /** Output: the first 2xx answer with a JSON schema; an object at the root, else wrapped. */
  private outputOf({ operation, pointer }: OperationAt): { output?: Schema; wrap?: string } {
    const responses = isObject(operation.responses) ? operation.responses : {};
    const success = Object.keys(responses)
      .filter((code) => /^2(?:\d\d|XX)$/i.test(code))
      .sort();
    for (const code of success) {
      const at = `${pointer}/responses/${code}`;
      const response = this.deref(responses[code], at);
      if (!isObject(response) || !isObject(response.content)) continue;
      const json = Object.keys(response.content).find((type) => bodyEncoding(type) === "json" && type !== "*/*");
      const media = json === undefined ? undefined : response.content[json];
      if (!isObject(media) || media.schema === undefined) continue;
      const outputs = this.schemas.session("output");
      const schema = outputs.convert(media.schema, `${at}/content/${escapePointer(json!)}/schema`, true);
      const result =
        typeof schema === "object" && schema.type === "object"
          ? { output: outputs.withDefs(schema) }
          : {
              wrap: "result",
              output: outputs.withDefs({ type: "object", properties: { result: schema }, required: ["result"] }),
            };
      if (success.some((other) => other !== code))
        this.warnings.add(
          `${pointer}/responses`,
          `several success answers (${success.join(", ")}): the output schema is ${code}'s`,
        );
      return result;
    }
    return {};
  }

  /** The security alternatives whose every scheme the import has credentials for, and the OAuth 2 scopes they ask for. */
  private securityOf(operation: Json): Pick<OperationSpec, "security" | "scopes"> {
    const alternatives = (
      Array.isArray(operation.security)
        ? operation.security
        : Array.isArray(this.document.security)
          ? this.document.security
          : []
    )
      .filter(isObject)
      .filter((alternative) => Object.keys(alternative).every((scheme) => scheme in this.credentials.schemes));
    const scopes: Record<string, string[]> = {};
    for (const alternative of alternatives)
      for (const [scheme, listed] of Object.entries(alternative))
        if (this.credentials.schemes[scheme]?.type === "clientCredentials" && Array.isArray(listed))
          for (const scope of listed)
            if (typeof scope === "string" && !(scopes[scheme] ??= []).includes(scope)) scopes[scheme].push(scope);
    return {
      security: alternatives.map((alternative) => Object.keys(alternative).sort()),
      ...(Object.keys(scopes).length > 0 && { scopes }),
    };
  }

  private tool(
    { operation, method, path }: OperationAt,
    name: string,
    inputs: SchemaSession,
    { properties, required, specs, bodySpec }: InputParts,
    output: Schema | undefined,
    wrap: string | undefined,
  ): ImportedTool {
    const summary =
      typeof operation.summary === "string" && operation.summary.trim() !== "" ? operation.summary.trim() : undefined;
    const description =
      typeof operation.description === "string" && operation.description.trim() !== ""
        ? operation.description.trim()
        : summary;
    return {
      name,
      ...(summary !== undefined && { title: summary }),
      ...(description !== undefined && { description }),
      input: inputs.withDefs({
        type: "object",
        properties,
        ...(required.length > 0 && { required }),
        additionalProperties: false,
      } as Schema),
      ...(output !== undefined && { output }),
      annotations: annotationsOf(method),
      tags: Array.isArray(operation.tags) ? operation.tags.filter((t): t is string => typeof t === "string") : [],
      operation: {
        tool: name,
        method,
        path,
        parameters: specs,
        ...(bodySpec !== undefined && { body: bodySpec }),
        ...(output !== undefined && { output: wrap === undefined ? {} : { wrap } }),
        ...this.securityOf(operation),
      },
    };
  }
}

/** Media types whose parts stay text in a multipart body. */
const isTextual = (type: string) =>
  /^text\//i.test(type) ||
  /^application\/(?:[\w.+-]*\+)?(?:json|xml)\b/i.test(type) ||
  /^application\/x-www-form-urlencoded\b/i.test(type);

const operationIdOf = (operation: Json): string | undefined =>
  typeof operation.operationId === "string" && operation.operationId !== "" ? operation.operationId : undefined;

/** Hints from the method: GET/HEAD read only, DELETE destructive, PUT/DELETE idempotent; every API is an open world. */
function annotationsOf(method: string): Record<string, boolean> {
  const upper = method.toUpperCase();
  return {
    ...((upper === "GET" || upper === "HEAD") && { readOnlyHint: true }),
    ...(upper === "DELETE" && { destructiveHint: true }),
    ...((upper === "PUT" || upper === "DELETE") && { idempotentHint: true }),
    openWorldHint: true,
  };
}

/** The type name base of a tool in the generated code (`list_pets` → `ListPets`). */
export const toolTypeBase = (name: string) => pascalCase(name);
