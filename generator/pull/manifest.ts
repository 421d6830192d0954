// Turns what a live server listed into a client manifest (generate.server: false): tools keep
// their input and output schemas exactly as listed (x-mcp-header declarations live inside
// them); the other fields are copied when the manifest schema has a place for them, and
// anything dropped is noted. Key order is fixed here, so the same listing always gives the
// same YAML, whatever order the server's JSON had.
import { stringify } from "yaml";
import { schemaKeywords, schemaMapKeywords } from "../load/schema-refs.js";
import { metaKeyProblem } from "../model/declarations.js";
import { camelCase, identifierProblem } from "../model/names.js";
import type { ServerListing } from "./listing.js";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonRecord = { [key: string]: Json };

export interface PulledManifest {
  /** The manifest, its keys in the order they are written. */
  readonly document: JsonRecord;
  /** What the server listed that the manifest cannot hold, one line each. */
  readonly notes: readonly string[];
}

const isRecord = (value: unknown): value is JsonRecord =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const isString = (value: unknown): value is string => typeof value === "string";

/** MCP Apps' keys of a tool's `_meta`: the manifest's `ui:` sets them. */
const appsMetaKeys = new Set(["ui", "ui/resourceUri"]);

/**
 * An entry's `_meta` without the keys a manifest cannot declare in it (those breaking the
 * specification's rule for `_meta` keys, and MCP Apps' `ui` keys), each dropped with a note.
 */
function meta(value: Json | undefined, where: string, notes: string[]): JsonRecord | undefined {
  if (value === undefined) return undefined;
  if (!isRecord(value)) {
    notes.push(`${where}: _meta is not an object; dropped`);
    return undefined;
  }
  const kept: JsonRecord = {};
  for (const [key, item] of Object.entries(value)) {
    const problem = appsMetaKeys.has(key) ? "is MCP Apps' (a manifest sets it with `ui:`)" : metaKeyProblem(key);
    if (problem === undefined) kept[key] = item;
    else notes.push(`${where}: _meta key ${JSON.stringify(key)} ${problem}; dropped`);
  }
  return Object.keys(kept).length > 0 ? kept : undefined;
}

/** Copies `fields` of `from` that pass `accept`, in the order of `fields`. */
function pick(
  from: JsonRecord,
  fields: readonly string[],
  accept: (field: string, value: Json) => boolean = () => true,
): JsonRecord {
  const picked: JsonRecord = {};
  for (const field of fields) {
    const value = from[field];
    if (value !== undefined && accept(field, value)) picked[field] = value;
  }
  return picked;
}

const stringFields = new Set([
  "title",
  "description",
  "mimeType",
  "uri",
  "uriTemplate",
  "name",
  "src",
  "lastModified",
  "version",
  "websiteUrl",
  "instructions",
]);

function acceptScalar(field: string, value: Json): boolean {
  if (stringFields.has(field)) return isString(value);
  if (field.endsWith("Hint")) return typeof value === "boolean";
  if (field === "size") return Number.isInteger(value) && (value as number) >= 0;
  if (field === "priority") return typeof value === "number" && value >= 0 && value <= 1;
  if (field === "required") return typeof value === "boolean";
  return true;
}

function icons(value: Json | undefined, where: string, notes: string[]): Json[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) {
    notes.push(`${where}: icons is not an array; dropped`);
    return undefined;
  }
  const kept: Json[] = [];
  for (const icon of value) {
    if (!isRecord(icon) || !isString(icon.src) || icon.src === "") {
      notes.push(`${where}: an icon without src; dropped`);
      continue;
    }
    const copy = pick(icon, ["src", "mimeType", "sizes", "theme"], (field, v) =>
      field === "sizes"
        ? Array.isArray(v) && v.every(isString)
        : field === "theme"
          ? v === "light" || v === "dark"
          : acceptScalar(field, v),
    );
    kept.push(copy);
  }
  return kept.length > 0 ? kept : undefined;
}

function annotations(
  value: Json | undefined,
  fields: readonly string[],
  where: string,
  notes: string[],
): JsonRecord | undefined {
  if (value === undefined) return undefined;
  if (!isRecord(value)) {
    notes.push(`${where}: annotations is not an object; dropped`);
    return undefined;
  }
  const copy = pick(value, fields, (field, v) =>
    field === "audience"
      ? Array.isArray(v) && v.every((a) => a === "user" || a === "assistant") && new Set(v).size === v.length
      : acceptScalar(field, v),
  );
  const dropped = Object.keys(value).filter((k) => !(k in copy));
  if (dropped.length > 0)
    notes.push(
      `${where}: annotations ${dropped.join(", ")} not kept (the manifest has no place for them, or their value is invalid)`,
    );
  return Object.keys(copy).length > 0 ? copy : undefined;
}

/**
 * Gives every entry a key that is unique in its section, and an `identifier:` when the key's
 * camelCase is not a usable member name or collides with an earlier one.
 */
class Namer {
  private readonly keys = new Set<string>();
  private readonly identifiers = new Set<string>();

  constructor(private readonly fallback: string) {}

  key(wanted: string): string {
    let key = wanted.slice(0, 128) || this.fallback;
    for (let n = 2; this.keys.has(key); n++) key = `${wanted.slice(0, 120)}_${n}`;
    this.keys.add(key);
    return key;
  }

  /** The identifier to declare for `key`, or undefined when the derived one is fine. */
  identifier(key: string): string | undefined {
    const derived = camelCase(key);
    if (identifierProblem(derived) === undefined && !this.identifiers.has(derived)) {
      this.identifiers.add(derived);
      return undefined;
    }
    let base =
      derived === ""
        ? this.fallback
        : /^[0-9]/.test(derived)
          ? `${this.fallback}${derived.charAt(0).toUpperCase()}${derived.slice(1)}`
          : derived;
    if (identifierProblem(base) !== undefined)
      base = `${base}${this.fallback.charAt(0).toUpperCase()}${this.fallback.slice(1)}`;
    let identifier = base;
    for (let n = 2; this.identifiers.has(identifier) || identifierProblem(identifier) !== undefined; n++)
      identifier = `${base}${n}`;
    this.identifiers.add(identifier);
    return identifier;
  }
}

/** Puts `identifier` first, then the fields, leaving out undefined ones. */
function entry(identifier: string | undefined, fields: Record<string, Json | undefined>): JsonRecord {
  const out: JsonRecord = {};
  if (identifier !== undefined) out.identifier = identifier;
  for (const [field, value] of Object.entries(fields)) if (value !== undefined) out[field] = value;
  return out;
}

// JSON Schema keywords in the order they are written; others follow alphabetically. Maps of
// names (properties, $defs, ...) keep the server's order: it is the order of generated fields.
const keywordOrder = [
  "$schema",
  "$id",
  "$anchor",
  "$ref",
  "$dynamicRef",
  "$comment",
  "title",
  "description",
  "type",
  "enum",
  "const",
  "default",
  "examples",
  "format",
  "pattern",
  "minLength",
  "maxLength",
  "minimum",
  "exclusiveMinimum",
  "maximum",
  "exclusiveMaximum",
  "multipleOf",
  "items",
  "prefixItems",
  "additionalItems",
  "contains",
  "minContains",
  "maxContains",
  "minItems",
  "maxItems",
  "uniqueItems",
  "unevaluatedItems",
  "properties",
  "patternProperties",
  "additionalProperties",
  "unevaluatedProperties",
  "propertyNames",
  "required",
  "minProperties",
  "maxProperties",
  "dependentRequired",
  "dependentSchemas",
  "allOf",
  "anyOf",
  "oneOf",
  "not",
  "if",
  "then",
  "else",
  "$defs",
  "definitions",
];
const keywordRank = new Map(keywordOrder.map((k, i) => [k, i]));

/** `schema` with its keywords in a fixed order, at every level; values that are data (enum, default, x-*) untouched. */
export function orderSchema(schema: Json): Json {
  if (!isRecord(schema)) return schema;
  const keys = Object.keys(schema).sort(
    (a, b) =>
      (keywordRank.get(a) ?? keywordOrder.length) - (keywordRank.get(b) ?? keywordOrder.length) ||
      (a < b ? -1 : a > b ? 1 : 0),
  );
  const out: JsonRecord = {};
  for (const key of keys) {
    const value = schema[key]!;
    // The generator's own tables of where subschemas stand (load/schema-refs.ts); everything else is data.
    if (schemaMapKeywords.has(key) && isRecord(value))
      out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, orderSchema(sub)]));
    else if (schemaKeywords.has(key)) out[key] = Array.isArray(value) ? value.map(orderSchema) : orderSchema(value);
    else out[key] = value;
  }
  return out;
}

const text = (value: Json | undefined): string | undefined => (isString(value) ? value : undefined);

function tools(listed: readonly JsonRecord[], notes: string[]): JsonRecord | undefined {
  if (listed.length === 0) return undefined;
  const namer = new Namer("tool");
  const out: JsonRecord = {};
  for (const tool of listed) {
    if (!isString(tool.name) || tool.name === "") {
      notes.push("a tool without a name; skipped");
      continue;
    }
    const key = namer.key(tool.name);
    if (key !== tool.name)
      notes.push(`tool ${JSON.stringify(tool.name)}: listed more than once or too long; kept as ${key}`);
    const where = `tool ${key}`;
    const input = tool.inputSchema;
    const output = tool.outputSchema;
    if (input !== undefined && !isRecord(input)) notes.push(`${where}: inputSchema is not an object; dropped`);
    if (output !== undefined && !isRecord(output)) notes.push(`${where}: outputSchema is not an object; dropped`);
    const execution = isRecord(tool.execution) ? tool.execution : {};
    const task =
      execution.taskSupport === "optional" || execution.taskSupport === "required" ? execution.taskSupport : undefined;
    out[key] = entry(namer.identifier(key), {
      title: text(tool.title),
      description: text(tool.description),
      input: isRecord(input) ? orderSchema(input) : undefined,
      output: isRecord(output) ? orderSchema(output) : undefined,
      annotations: annotations(
        tool.annotations,
        ["title", "readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"],
        where,
        notes,
      ),
      icons: icons(tool.icons, where, notes),
      _meta: meta(tool._meta, where, notes),
      task,
    });
  }
  return out;
}

const resourceAnnotationFields = ["audience", "priority", "lastModified"] as const;

function resources(
  listed: readonly JsonRecord[],
  kind: "resource" | "template",
  notes: string[],
): JsonRecord | undefined {
  if (listed.length === 0) return undefined;
  const locator = kind === "resource" ? "uri" : "uriTemplate";
  const namer = new Namer(kind);
  const out: JsonRecord = {};
  for (const resource of listed) {
    const location = resource[locator];
    if (!isString(location) || location === "") {
      notes.push(`a ${kind} without ${locator}; skipped`);
      continue;
    }
    const name = isString(resource.name) && resource.name !== "" ? resource.name : location;
    const key = namer.key(name);
    const where = `${kind} ${key}`;
    out[key] = entry(namer.identifier(key), {
      [locator]: location,
      name,
      title: text(resource.title),
      description: text(resource.description),
      mimeType: text(resource.mimeType),
      size:
        kind === "resource" && Number.isInteger(resource.size) && (resource.size as number) >= 0
          ? resource.size
          : undefined,
      annotations: annotations(resource.annotations, resourceAnnotationFields, where, notes),
      icons: icons(resource.icons, where, notes),
      _meta: meta(resource._meta, where, notes),
    });
  }
  return out;
}

function prompts(listed: readonly JsonRecord[], notes: string[]): JsonRecord | undefined {
  if (listed.length === 0) return undefined;
  const namer = new Namer("prompt");
  const out: JsonRecord = {};
  for (const prompt of listed) {
    if (!isString(prompt.name) || prompt.name === "") {
      notes.push("a prompt without a name; skipped");
      continue;
    }
    const key = namer.key(prompt.name);
    const where = `prompt ${key}`;
    let args: JsonRecord | undefined;
    if (Array.isArray(prompt.arguments) && prompt.arguments.length > 0) {
      args = {};
      for (const argument of prompt.arguments) {
        if (!isRecord(argument) || !isString(argument.name) || argument.name === "" || argument.name in args) {
          notes.push(`${where}: an argument without a name, or listed twice; skipped`);
          continue;
        }
        args[argument.name] = pick(argument, ["title", "description", "required"], acceptScalar);
      }
    }
    out[key] = entry(namer.identifier(key), {
      title: text(prompt.title),
      description: text(prompt.description),
      icons: icons(prompt.icons, where, notes),
      _meta: meta(prompt._meta, where, notes),
      arguments: args,
    });
  }
  return out;
}

/** The client manifest for what `listing` describes. */
export function buildManifest(listing: ServerListing): PulledManifest {
  const notes: string[] = [];
  const info = isRecord(listing.info) ? listing.info : {};
  const name = isString(info.name) && info.name !== "" ? info.name : "server";
  const version = isString(info.version) && info.version !== "" ? info.version : "0.0.0";
  if (name !== info.name) notes.push('the server reported no name; using "server"');
  if (version !== info.version) notes.push("the server reported no version; using 0.0.0");
  const server = entry(undefined, {
    name,
    version,
    title: text(info.title),
    description: text(info.description),
    websiteUrl: text(info.websiteUrl),
    icons: icons(info.icons, "server", notes),
    instructions: listing.instructions,
  });
  const document = entry(undefined, {
    mcpgen: 1,
    server,
    output: "./mcp",
    generate: { server: false },
    // The schemas are the server's, as listed: keys that look like slips in them are not the user's to fix.
    lenientSchemas: true,
    tools: tools(listing.tools as JsonRecord[], notes),
    resources: resources(listing.resources as JsonRecord[], "resource", notes),
    resourceTemplates: resources(listing.resourceTemplates as JsonRecord[], "template", notes),
    prompts: prompts(listing.prompts as JsonRecord[], notes),
  });
  return { document, notes };
}

/** The manifest as YAML, with a header saying where it came from. */
export function renderManifest(manifest: PulledManifest, source: string, revision: string): string {
  const header = [
    `# Pulled by \`mcp-gen pull\` from ${source.replace(/[\r\n]+/g, " ")} (negotiated ${revision}).`,
    "# `mcp-gen pull --check` with the same source tells whether the server still matches it.",
  ];
  // lineWidth 0: long descriptions stay on one line, so a one-word change is a one-line diff.
  return `${header.join("\n")}\n${stringify(manifest.document, { lineWidth: 0, aliasDuplicateObjects: false })}`;
}
