// types.gen.ts: the types of what the manifest declares: each tool's input (as clients
// send it), arguments (as its handler receives them, defaults filled in) and output;
// each prompt's arguments; each resource template's variables.
import { setOwn, type JsonValue } from "../../load/source.js";
import { pascalCase } from "../../model/names.js";
import type { ServerModel, ToolModel } from "../../model/server.js";
import { docComment, docLines, propertyKey, stringLiteral } from "../escape.js";
import type { GeneratedFile } from "../file.js";
import { normaliseSchema, schemaToUnit } from "../json-schema-types.js";
import { Unsupported } from "../layout/expression.js";
import { bareKey } from "../layout/literals.js";
import { printString, type Unit } from "../layout/print.js";
import { printDeclaration, type Declaration, type TypeMember } from "../layout/type-doc.js";

type Json = { [key: string]: JsonValue };

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function toolTypeNames(tool: ToolModel): { input: string; args: string; output: string } {
  return { input: `${tool.typeBase}Input`, args: `${tool.typeBase}Args`, output: `${tool.typeBase}Output` };
}

/**
 * Named types for a schema and the definitions under its $defs/definitions. `owner`
 * names whose definitions local refs point at (the input type, for the args view).
 */
async function schemaTypes(rootName: string, schema: JsonValue, doc: string, owner = { name: rootName, schema }): Promise<Unit[]> {
  const defs = new Map<string, string>();
  const ownerSchema = owner.schema;
  const containers = isObject(ownerSchema) ? (["$defs", "definitions"] as const).filter((k) => isObject(ownerSchema[k])) : [];
  for (const container of containers) {
    for (const key of Object.keys((ownerSchema as Json)[container] as Json)) defs.set(`#/${container}/${key}`, `${owner.name}${pascalCase(key) || "Def"}`);
  }
  const emitDefs = owner.schema === schema;
  const refName = (ref: string): string | undefined => {
    if (ref === "#") return owner.name;
    return defs.get(decodeURIComponent(ref).replace(/~1/g, "/").replace(/~0/g, "~")) ?? defs.get(ref);
  };
  const options = { refName };
  const root = normaliseSchema(schema, options) as Json;
  const withDoc = { ...root, description: [doc, typeof root.description === "string" ? root.description : ""].filter((s) => s !== "").join("\n\n") };
  const out = [await schemaToUnit(rootName, withDoc)];
  if (!emitDefs) return out;
  for (const container of containers) {
    for (const [key, value] of Object.entries((schema as Json)[container] as Json)) {
      out.push(await schemaToUnit(defs.get(`#/${container}/${key}`)!, normaliseSchema(value, options, true)));
    }
  }
  return out;
}

/**
 * The handler's view of an input schema: properties with a default are always present
 * once the validator has run. Followed through `properties` and `allOf`, as the
 * validator fills defaults; not through $ref, whose named type stays shared.
 */
export function withDefaultsRequired(schema: JsonValue): JsonValue {
  if (!isObject(schema)) return schema;
  const out: Json = { ...schema };
  if (isObject(schema.properties)) {
    const properties: Json = {};
    const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
    for (const [key, child] of Object.entries(schema.properties)) {
      if (isObject(child) && "default" in child && child.$ref === undefined) required.add(key);
      setOwn(properties, key, withDefaultsRequired(child));
    }
    out.properties = properties;
    if (required.size > 0) out.required = [...required];
  }
  if (Array.isArray(schema.allOf)) out.allOf = schema.allOf.map(withDefaultsRequired);
  return out;
}

export async function emitTypes(file: GeneratedFile, model: ServerModel): Promise<void> {
  // Every declaration is a unit of the file's tail: the per-tool types of a large manifest
  // arrive in prettier's layout and skip the formatter.
  const units = file.tail;
  for (const tool of model.tools) {
    const names = toolTypeNames(tool);
    const label = `tool ${stringLiteral(tool.key)}`;
    units.push(...(await schemaTypes(names.input, tool.input.schema.value, `Arguments of ${label} as a client sends them.`)));
    if (tool.inputHasDefaults) {
      // $defs types are shared with the input type; only the root differs.
      const [args] = await schemaTypes(
        names.args,
        withDefaultsRequired(stripDefs(tool.input.schema.value)),
        `Arguments of ${label} as its handler receives them: validated, with schema defaults filled in.`,
        { name: names.input, schema: tool.input.schema.value },
      );
      units.push(args!);
    } else {
      const doc = `Arguments of ${label} as its handler receives them (validated).`;
      units.push(
        declarationUnit(
          { kind: "alias", comments: comments(doc), name: names.args, type: { kind: "reference", name: names.input } },
          `${docComment(doc)}export type ${names.args} = ${names.input};\n`,
        ),
      );
    }
    if (tool.output) {
      units.push(...(await schemaTypes(names.output, tool.output.schema.value, `Structured result (structuredContent) of ${label}.`)));
    }
  }
  for (const prompt of model.prompts) {
    const members = prompt.arguments.map((argument) => {
      const doc = [argument.title, argument.description].filter((s): s is string => s !== undefined).join(": ");
      return { name: argument.name, doc, optional: !argument.required };
    });
    units.push(stringsInterface(`Arguments of prompt ${stringLiteral(prompt.key)}.`, `${prompt.typeBase}PromptArgs`, members));
  }
  for (const template of model.resourceTemplates) {
    const members = template.template.variables.map((variable) => ({ name: variable, doc: "", optional: false }));
    units.push(stringsInterface(`Variables of resource template ${stringLiteral(template.key)}: ${template.uriTemplate}`, `${template.typeBase}Variables`, members));
  }
  if (units.length === 0) {
    file.writer.write(`// ${docLines("This manifest declares nothing that needs types.")[0]}`).newLine().write("export {};").newLine();
  }
}

/** A doc comment as a declaration's comments (none for empty text). */
function comments(doc: string): string[] {
  const text = docComment(doc);
  return text === "" ? [] : [text.trimEnd()];
}

/** A declaration in prettier's layout (see layout/type-doc.ts), or `source` for prettier where that layout declines it. */
function declarationUnit(declaration: Declaration, source: string): Unit {
  try {
    return { text: printDeclaration(declaration), formatted: true };
  } catch (error) {
    if (!(error instanceof Unsupported)) throw error;
  }
  return { text: source, formatted: false };
}

/** `export interface Name { key: string; other?: string | undefined }` (prompt arguments, template variables). */
function stringsInterface(doc: string, name: string, members: readonly { name: string; doc: string; optional: boolean }[]): Unit {
  const lines = [`export interface ${name} {`];
  for (const m of members) {
    if (m.doc) lines.push(docComment(m.doc, "  ").trimEnd());
    lines.push(`  ${propertyKey(m.name)}${m.optional ? "?" : ""}: ${m.optional ? "string | undefined" : "string"};`);
  }
  const source = `${docComment(doc)}${lines.join("\n")}\n}\n`;
  // keys prettier may or may not unquote are left to it
  const keys = members.map((m) => bareKey(m.name));
  if (keys.some((bare) => bare === undefined)) return { text: source, formatted: false };
  const typeMembers: TypeMember[] = members.map((m, i) => ({
    comments: m.doc === "" ? [] : [docComment(m.doc, "  ").trim()],
    key: keys[i] ? m.name : printString(stringLiteral(m.name)),
    optional: m.optional,
    type: { kind: "keyword", text: "string" },
  }));
  return declarationUnit({ kind: "interface", comments: comments(doc), name, members: typeMembers }, source);
}

/** The root of a schema without its definitions (emitted once, for the input type). */
function stripDefs(schema: JsonValue): JsonValue {
  if (!isObject(schema)) return schema;
  const { $defs: _defs, definitions: _definitions, ...rest } = schema;
  return rest;
}
