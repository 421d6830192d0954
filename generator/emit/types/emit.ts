// types.gen.ts: the types of what the manifest declares: each tool's input (as clients
// send it), arguments (as its handler receives them, defaults filled in) and output;
// each prompt's arguments; each resource template's variables.
import { setOwn, unescapePointerToken, type JsonValue } from "../../load/source.js";
import { pascalCase } from "../../model/names.js";
import type { ServerModel, ToolModel } from "../../model/types.js";
import { docLines, stringLiteral } from "../escape.js";
import type { GeneratedFile } from "../file.js";
import { normaliseSchema } from "./normalise.js";
import { schemaDeclaration, schemaDoc } from "./schema-type.js";
import { keyword, printDeclaration, reference, type TypeMember } from "./type-node.js";
import { isJsonObject } from "../../validate/schema-check.js";

type Json = { [key: string]: JsonValue };

export function toolTypeNames(tool: ToolModel): { input: string; args: string; output: string } {
  return { input: `${tool.typeBase}Input`, args: `${tool.typeBase}Args`, output: `${tool.typeBase}Output` };
}

/** A type to declare: its name, its normalised schema and its doc comment. */
export interface NamedSchema {
  readonly name: string;
  readonly schema: unknown;
  readonly doc: string | undefined;
}

/** The types a schema's local definitions become, by the ref that points at each ("#/$defs/money" → its type). */
type Definitions = ReadonlyMap<string, { readonly name: string; readonly schema: JsonValue }>;

/** The definitions under a schema's $defs/definitions, named after `owner` (`${owner}Money`). */
function definitionsOf(owner: string, schema: JsonValue): Definitions {
  const definitions = new Map<string, { name: string; schema: JsonValue }>();
  if (!isJsonObject(schema)) return definitions;
  for (const container of ["$defs", "definitions"] as const) {
    const map = schema[container];
    if (!isJsonObject(map)) continue;
    for (const [key, value] of Object.entries(map)) {
      definitions.set(`#/${container}/${key}`, { name: `${owner}${pascalCase(key) || "Def"}`, schema: value });
    }
  }
  return definitions;
}

/**
 * The named types of a schema, normalised: the root, then the definitions under its
 * $defs/definitions. `owner` names whose definitions local refs point at: the input type
 * for the args view, which declares its root only and shares the input's definitions.
 */
export function namedSchemas(
  rootName: string,
  schema: JsonValue,
  doc: string,
  owner = { name: rootName, definitions: definitionsOf(rootName, schema) },
): NamedSchema[] {
  const definitions = owner.definitions;
  // "#" (or "") is the owner itself: a recursive schema refers to its own named type.
  const refName = (ref: string): string | undefined => {
    if (ref === "#" || ref === "") return owner.name;
    // Decoded (URI fragment, then JSON pointer) only when it holds an escape.
    const decoded = ref.includes("%") || ref.includes("~") ? unescapePointerToken(decodeURIComponent(ref)) : ref;
    return (definitions.get(decoded) ?? definitions.get(ref))?.name;
  };
  const options = { refName };
  const root = normaliseSchema(schema, options);
  const rootDoc = [doc, schemaDoc(root, true)].filter((s): s is string => s !== undefined && s !== "").join("\n\n");
  const out: NamedSchema[] = [{ name: rootName, schema: root, doc: rootDoc }];
  if (owner.name !== rootName) return out;
  for (const definition of definitions.values()) {
    const normalised = normaliseSchema(definition.schema, options, true);
    out.push({ name: definition.name, schema: normalised, doc: schemaDoc(normalised, true) });
  }
  return out;
}

/** The declarations of namedSchemas(…). */
function schemaTypes(...args: Parameters<typeof namedSchemas>): string[] {
  return namedSchemas(...args).map((named) => schemaDeclaration(named.name, named.schema, 0, named.doc));
}

/**
 * The handler's view of an input schema: properties with a default are always present
 * once the validator has run. Followed through `properties` and `allOf`, as the
 * validator fills defaults; not through $ref, whose named type stays shared.
 */
export function withDefaultsRequired(schema: JsonValue): JsonValue {
  if (!isJsonObject(schema)) return schema;
  const out: Json = { ...schema };
  if (isJsonObject(schema.properties)) {
    const properties: Json = {};
    const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
    for (const [key, child] of Object.entries(schema.properties)) {
      if (isJsonObject(child) && "default" in child && child.$ref === undefined) required.add(key);
      setOwn(properties, key, withDefaultsRequired(child));
    }
    out.properties = properties;
    if (required.size > 0) out.required = [...required];
  }
  if (Array.isArray(schema.allOf)) out.allOf = schema.allOf.map(withDefaultsRequired);
  return out;
}

export function emitTypes(file: GeneratedFile, model: ServerModel): void {
  const declarations: string[] = [];
  for (const tool of model.tools) {
    const names = toolTypeNames(tool);
    const label = `tool ${stringLiteral(tool.key)}`;
    const input = tool.input.schema.value;
    const inputOwner = { name: names.input, definitions: definitionsOf(names.input, input) };
    declarations.push(...schemaTypes(names.input, input, `Arguments of ${label} as a client sends them.`, inputOwner));
    if (tool.inputHasDefaults) {
      // $defs types are shared with the input type; only the root differs.
      declarations.push(
        ...schemaTypes(
          names.args,
          withDefaultsRequired(stripDefs(input)),
          `Arguments of ${label} as its handler receives them: validated, with schema defaults filled in.`,
          inputOwner,
        ),
      );
    } else {
      declarations.push(
        printDeclaration(
          names.args,
          reference(names.input),
          `Arguments of ${label} as its handler receives them (validated).`,
        ),
      );
    }
    if (tool.output) {
      declarations.push(
        ...schemaTypes(names.output, tool.output.schema.value, `Structured result (structuredContent) of ${label}.`),
      );
    }
  }
  for (const prompt of model.prompts) {
    const members = prompt.arguments.map((argument) => {
      const doc = [argument.title, argument.description].filter((s): s is string => s !== undefined).join(": ");
      return { name: argument.name, doc, optional: !argument.required };
    });
    declarations.push(
      stringsRecord(`Arguments of prompt ${stringLiteral(prompt.key)}.`, `${prompt.typeBase}PromptArgs`, members),
    );
  }
  for (const template of model.resourceTemplates) {
    const members = template.template.variables.map((variable) => ({ name: variable, doc: "", optional: false }));
    declarations.push(
      stringsRecord(
        `Variables of resource template ${stringLiteral(template.key)}: ${template.uriTemplate}`,
        `${template.typeBase}Variables`,
        members,
      ),
    );
  }
  const w = file.writer;
  if (declarations.length === 0) {
    w.line(`// ${docLines("This manifest declares nothing that needs types.")[0]}`).line("export {};");
    return;
  }
  w.raw(declarations.join("\n"));
}

/**
 * `export type Name = { key: string; other?: string }` (prompt arguments, template variables):
 * an alias, not an interface, so that it relates to the runtime's `Record<string, string>`
 * and the server narrows the checked arguments with one `as`.
 */
function stringsRecord(
  doc: string,
  name: string,
  members: readonly { name: string; doc: string; optional: boolean }[],
): string {
  const typeMembers: TypeMember[] = members.map((m) => ({
    kind: "property",
    name: m.name,
    optional: m.optional,
    type: keyword("string"),
    doc: m.doc,
  }));
  return printDeclaration(name, { kind: "object", members: typeMembers }, doc, 0, "type");
}

/** The root of a schema without its definitions (emitted once, for the input type). */
function stripDefs(schema: JsonValue): JsonValue {
  if (!isJsonObject(schema)) return schema;
  const { $defs: _defs, definitions: _definitions, ...rest } = schema;
  return rest;
}
