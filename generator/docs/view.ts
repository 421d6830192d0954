// The catalog page's data: the model (what `generate` sees, schemas with every $ref file
// inlined) turned into plain rows and fields for the Handlebars templates. Pure and
// deterministic: declaration order, property order as written.
import type { JsonValue } from "../load/source.js";
import type { Icon, ServerModel, ToolModel } from "../model/types.js";

type Schema = { readonly [key: string]: JsonValue };

/** One line of a schema table: a property (`a.b`, `items[]`), its type, and its constraints. */
export interface SchemaRow {
  readonly path: string;
  readonly type: string;
  readonly required: boolean;
  readonly description?: string;
  readonly details: readonly string[];
}

/** A "try it" form field: simple inputs for scalar arguments, JSON text for the rest. */
export interface FormField {
  readonly name: string;
  readonly kind: "string" | "number" | "integer" | "boolean" | "enum" | "json";
  readonly required: boolean;
  readonly options: readonly string[];
  readonly placeholder: string;
}

/** How an icon is shown without fetching anything: data URIs inline, http(s) links as links. */
export interface IconView {
  readonly image?: string;
  readonly link?: string;
  readonly text?: string;
  readonly mimeType?: string;
}

const isSchema = (value: JsonValue | undefined): value is Schema =>
  value !== null && typeof value === "object" && !Array.isArray(value);
const json = (value: JsonValue | undefined) => JSON.stringify(value);

/** A readable type: `string`, `integer[]`, `Note` (a named $ref), `string | null`, unions of their members. */
export function typeOf(schema: JsonValue | undefined): string {
  if (schema === true || schema === undefined) return "any";
  if (!isSchema(schema)) return "never";
  if (typeof schema.$ref === "string") return schema.$ref.slice(schema.$ref.lastIndexOf("/") + 1) || "(root)";
  if (schema.const !== undefined) return `const ${json(schema.const)}`;
  const union = (["anyOf", "oneOf"] as const).find((key) => Array.isArray(schema[key]));
  if (union) return [...new Set((schema[union] as JsonValue[]).map(typeOf))].join(" | ");
  if (Array.isArray(schema.allOf)) return schema.allOf.map(typeOf).join(" & ");
  const types = Array.isArray(schema.type)
    ? schema.type.map(String)
    : typeof schema.type === "string"
      ? [schema.type]
      : [];
  const one = (type: string) =>
    type === "array" ? `${typeOf(Array.isArray(schema.items) ? { anyOf: schema.items } : schema.items)}[]` : type;
  if (types.length > 0) return types.map(one).join(" | ");
  if (schema.enum !== undefined) return "enum";
  return isSchema(schema.properties) ? "object" : "any";
}

/** Keywords shown as `keyword: value` in the details column, in this order. */
const constraintKeywords = [
  "format",
  "pattern",
  "minimum",
  "exclusiveMinimum",
  "maximum",
  "exclusiveMaximum",
  "multipleOf",
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
  "uniqueItems",
  "minProperties",
  "maxProperties",
  "contentMediaType",
  "deprecated",
  "readOnly",
  "writeOnly",
];

function details(schema: Schema): string[] {
  const shown: string[] = [];
  if (Array.isArray(schema.enum)) shown.push(`one of: ${schema.enum.map(json).join(", ")}`);
  if (schema.default !== undefined) shown.push(`default: ${json(schema.default)}`);
  for (const keyword of constraintKeywords)
    if (schema[keyword] !== undefined)
      shown.push(`${keyword}: ${typeof schema[keyword] === "string" ? schema[keyword] : json(schema[keyword])}`);
  if (schema.additionalProperties === false) shown.push("no other properties");
  if (Array.isArray(schema.examples)) shown.push(`examples: ${schema.examples.map(json).join(", ")}`);
  return shown;
}

/**
 * The rows of a schema table: the root's properties (or the root itself when it has none),
 * nested objects flattened as `a.b`, array items as `a[]`, union members as `a (option 2).b`.
 * Named definitions ($defs of recursive types) get rows of their own, as `$defs.Name`.
 */
export function schemaRows(root: JsonValue): SchemaRow[] {
  const rows: SchemaRow[] = [];
  const descend = (schema: JsonValue | undefined, prefix: string) => {
    if (!isSchema(schema)) return;
    const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
    if (isSchema(schema.properties)) {
      for (const [name, property] of Object.entries(schema.properties))
        visit(property, `${prefix}${name}`, required.has(name));
    }
    if (isSchema(schema.additionalProperties)) visit(schema.additionalProperties, `${prefix}*`, false);
    for (const union of ["anyOf", "oneOf"] as const) {
      const members = schema[union];
      if (!Array.isArray(members)) continue;
      members.forEach((member, i) => descend(member, `${prefix.replace(/\.$/, "")} (option ${i + 1}).`));
    }
    if (Array.isArray(schema.allOf)) for (const member of schema.allOf) descend(member, prefix);
  };
  const visit = (schema: JsonValue, path: string, required: boolean) => {
    const object = isSchema(schema) ? schema : {};
    rows.push({
      path,
      type: typeOf(schema),
      required,
      ...(typeof object.description === "string" ? { description: object.description } : {}),
      details: details(object),
    });
    descend(schema, `${path}.`);
    if (isSchema(object.items)) descend(object.items, `${path}[].`);
  };
  if (isSchema(root) && (isSchema(root.properties) || Array.isArray(root.anyOf) || Array.isArray(root.oneOf)))
    descend(root, "");
  else visit(root, "(value)", true);
  for (const container of ["$defs", "definitions"] as const) {
    const defs = isSchema(root) ? root[container] : undefined;
    if (isSchema(defs))
      for (const [name, definition] of Object.entries(defs)) visit(definition, `${container}.${name}`, false);
  }
  return rows;
}

/** The form of a tool's arguments; undefined when they are not a plain object of properties (one JSON field then). */
export function formFields(input: JsonValue): FormField[] | undefined {
  if (!isSchema(input) || input.anyOf !== undefined || input.oneOf !== undefined || input.allOf !== undefined)
    return undefined;
  const required = new Set(Array.isArray(input.required) ? input.required.map(String) : []);
  return Object.entries(isSchema(input.properties) ? input.properties : {}).map(([name, property]) => {
    const schema = isSchema(property) ? property : {};
    const type = typeOf(schema);
    const enumValues =
      Array.isArray(schema.enum) && schema.enum.every((v) => typeof v === "string")
        ? (schema.enum as string[])
        : undefined;
    const kind = enumValues
      ? "enum"
      : type === "string" || type === "number" || type === "integer" || type === "boolean"
        ? type
        : "json";
    const placeholder = schema.default !== undefined ? `default: ${json(schema.default)}` : kind === "json" ? type : "";
    return { name, kind, required: required.has(name), options: enumValues ?? [], placeholder };
  });
}

export function iconViews(icons: readonly Icon[] | undefined): IconView[] {
  return (icons ?? []).map((icon) => {
    const mime = icon.mimeType === undefined ? {} : { mimeType: icon.mimeType };
    if (/^data:image\//i.test(icon.src)) return { image: icon.src, ...mime };
    return /^https?:\/\//i.test(icon.src) ? { link: icon.src, ...mime } : { text: icon.src, ...mime };
  });
}

const entries = (record: object | undefined) =>
  Object.entries(record ?? {}).map(([key, value]) => ({
    key,
    value: typeof value === "string" ? value : json(value as JsonValue),
  }));
const link = (url: string | undefined) => (url !== undefined && /^https?:\/\//i.test(url) ? url : undefined);

function toolView(tool: ToolModel) {
  const fields = formFields(tool.input.schema.value);
  return {
    name: tool.key,
    title: tool.title,
    description: tool.description,
    icons: iconViews(tool.icons),
    annotations: entries(tool.annotations),
    asks: tool.asks,
    scopes: tool.scopes,
    task: tool.task?.support,
    input: schemaRows(tool.input.schema.value),
    output: tool.output && schemaRows(tool.output.schema.value),
    fields: fields ?? [],
    jsonArguments: fields === undefined,
    paramHeaders: json(tool.paramHeaders),
  };
}

/** Everything the page shows, in manifest order. */
export function catalogView(model: ServerModel) {
  const { info } = model;
  return {
    server: { ...info, websiteUrl: link(info.websiteUrl), icons: iconViews(info.icons) },
    instructions: model.instructions,
    revisions: model.revisions,
    tools: model.tools.map(toolView),
    resources: model.resources.map((r) => ({ ...r, icons: iconViews(r.icons), annotations: entries(r.annotations) })),
    templates: model.resourceTemplates.map((t) => ({
      ...t,
      icons: iconViews(t.icons),
      annotations: entries(t.annotations),
      variables: t.template.variables.map((name) => ({ name, complete: t.completable.includes(name) })),
    })),
    prompts: model.prompts.map((p) => ({ ...p, icons: iconViews(p.icons), declarative: p.messages !== undefined })),
  };
}
