// TypeScript types from JSON Schema through json-schema-to-typescript, after normalising
// the schema so the output is what a person would write: every $ref becomes a reference
// to a named type (no inlined copies, no `Annotations1…7`), nested titles do not mint
// types, objects without declared shape stay open, and optional properties accept
// `undefined` (friendly to exactOptionalPropertyTypes).
//
// json-schema-to-typescript and TypeScript (for ts-morph) take most of a second to load, so
// they are loaded on first use: the schemas of a manifest's tools usually take the direct
// path (./types/schema-types.ts) and never need them.
import type { JSONSchema } from "json-schema-to-typescript";
import type { ts as TypeScript } from "ts-morph";
import { schemaDeclaration } from "./types/schema-types.js";

type Schema = Record<string, unknown>;

export interface NormaliseOptions {
  /** Maps a local `$ref` (e.g. "#/$defs/Tool") to the TypeScript name of its type. */
  readonly refName: (ref: string) => string | undefined;
  /** Rewrites description text (e.g. to absolutise spec links). */
  readonly describe?: (text: string) => string;
}

/** Keywords whose value is a map of name → schema. */
const schemaMaps = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);
/** Keywords whose value is one schema. */
const schemaSlots = new Set(["additionalProperties", "items", "additionalItems", "not", "if", "then", "else", "contains", "propertyNames", "unevaluatedProperties", "unevaluatedItems"]);
/** Keywords whose value is a list of schemas. */
const schemaLists = new Set(["allOf", "anyOf", "oneOf", "prefixItems"]);
/** Keywords from which json-schema-to-typescript derives a type; a schema without any accepts every value. */
const typeShaping = new Set(["type", "properties", "patternProperties", "additionalProperties", "items", "additionalItems", "prefixItems", "enum", "const", "allOf", "anyOf", "oneOf", "tsType"]);

/**
 * Rewrites a schema for json-schema-to-typescript. `root` marks the top of a named
 * definition, whose title may name the type; deeper titles become part of the doc.
 */
export function normaliseSchema(node: unknown, options: NormaliseOptions, root = true): unknown {
  if (typeof node === "boolean") return node ? {} : { tsType: "never" };
  if (node === null || typeof node !== "object" || Array.isArray(node)) return node;
  const schema = node as Schema;
  const describe = (text: unknown) => (typeof text === "string" && options.describe ? options.describe(text) : text);
  if (typeof schema.$ref === "string") {
    const name = options.refName(schema.$ref);
    const out: Schema = { tsType: name ?? "unknown" };
    if (typeof schema.description === "string") out.description = describe(schema.description);
    return out;
  }
  const out: Schema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === "title" && !root) continue;
    if (key === "$defs" || key === "definitions") continue; // emitted as their own types
    if (key === "description") out.description = describe(value);
    else if (key === "default" || key === "examples") continue; // not types, and they bloat docs
    else if (schemaMaps.has(key) && value && typeof value === "object")
      out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normaliseSchema(v, options, false)]));
    // json-schema-to-typescript reads `additionalProperties: false` (and the like) itself.
    else if (schemaSlots.has(key)) out[key] = typeof value === "boolean" ? value : normaliseSchema(value, options, false);
    else if (schemaLists.has(key) && Array.isArray(value)) out[key] = value.map((v) => normaliseSchema(v, options, false));
    else out[key] = value;
  }
  // A schema with no type-shaping keyword (only annotations such as `description`)
  // accepts any JSON value, but json-schema-to-typescript reads it as an object: e.g.
  // 2026-07-28 CallToolResult.structuredContent, which may be an array or a string.
  if (!Object.keys(out).some((key) => typeShaping.has(key))) out.tsType = "unknown";
  // Object schemas that declare no shape at all are open maps; declared shapes are
  // closed unless they say otherwise (json-schema-to-typescript runs with
  // additionalProperties: false as the default).
  const isObject = out.type === "object" || (out.type === undefined && out.properties !== undefined);
  if (isObject && out.properties === undefined && out.additionalProperties === undefined && out.patternProperties === undefined) {
    out.additionalProperties = {};
  }
  // 2020-12 tuple form: json-schema-to-typescript reads draft-07's items array.
  if (Array.isArray(out.prefixItems)) {
    const rest = out.items;
    out.items = out.prefixItems;
    delete out.prefixItems;
    out.additionalItems = rest === undefined ? {} : rest;
  }
  if (out.type === undefined && out.const !== undefined && typeof out.const !== "object") {
    // `const` without `type` compiles to the literal type; nothing to add.
  }
  return out;
}

/** One declaration (interface or type alias) for `schema`, exported under `name`, still to be formatted. */
export async function schemaToDeclaration(name: string, schema: unknown): Promise<string> {
  // Most definitions have the shapes the direct path reads (the same declaration, already formatted).
  const direct = schemaDeclaration(name, schema);
  if (direct !== undefined) return direct;
  const [text, { ts }] = await Promise.all([compileDeclaration(name, schema), import("ts-morph")]);
  return addUndefinedToOptionals(ts, text);
}

/**
 * The same declaration as a top-level unit: already in prettier's layout (`formatted`)
 * when the layout printer models all of it, else as text still to be formatted.
 */
export async function schemaToUnit(name: string, schema: unknown): Promise<{ text: string; formatted: boolean }> {
  const direct = schemaDeclaration(name, schema);
  return direct === undefined ? compiledUnit(name, schema) : { text: direct, formatted: true };
}

/** The unit through json-schema-to-typescript: any schema (and the reference the direct path is tested against). */
export async function compiledUnit(name: string, schema: unknown): Promise<{ text: string; formatted: boolean }> {
  const [text, { layoutDeclarations }, { ts }] = await Promise.all([compileDeclaration(name, schema), import("./layout/types.js"), import("ts-morph")]);
  const laidOut = layoutDeclarations(text);
  return laidOut === undefined ? { text: addUndefinedToOptionals(ts, text), formatted: false } : { text: laidOut, formatted: true };
}

async function compileDeclaration(name: string, schema: unknown): Promise<string> {
  const { compile } = await import("json-schema-to-typescript");
  const input = (typeof schema === "object" && schema !== null ? { ...(schema as Schema) } : { tsType: "unknown" }) as JSONSchema;
  delete (input as Schema).title;
  const text = await compile(input, name, {
    bannerComment: "",
    declareExternallyReferenced: true,
    unreachableDefinitions: false,
    format: false,
    additionalProperties: false,
    strictIndexSignatures: false,
    enableConstEnums: false,
    inferStringEnumKeysFromValues: false,
    ignoreMinAndMaxItems: true,
    unknownAny: true,
    customName: () => undefined,
  });
  return text;
}

/**
 * `foo?: T` → `foo?: T | undefined` in every property signature, so the types accept
 * explicit undefined under exactOptionalPropertyTypes (as STYLE.md asks).
 */
export function addUndefinedToOptionals(ts: typeof TypeScript, text: string): string {
  const source = ts.createSourceFile("x.ts", text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const edits: { at: number; insert: string }[] = [];
  const visit = (node: TypeScript.Node) => {
    if (ts.isPropertySignature(node) && node.questionToken && node.type) {
      const type = node.type;
      const alreadyUndefined = ts.isUnionTypeNode(type) && type.types.some((t) => t.kind === ts.SyntaxKind.UndefinedKeyword);
      if (!alreadyUndefined && type.kind !== ts.SyntaxKind.UnknownKeyword && type.kind !== ts.SyntaxKind.AnyKeyword) {
        const needsParens = ts.isFunctionTypeNode(type) || ts.isConstructorTypeNode(type) || ts.isConditionalTypeNode(type);
        if (needsParens) edits.push({ at: type.getStart(source), insert: "(" });
        edits.push({ at: type.getEnd(), insert: needsParens ? ") | undefined" : " | undefined" });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  edits.sort((a, b) => b.at - a.at);
  let out = text;
  for (const edit of edits) out = out.slice(0, edit.at) + edit.insert + out.slice(edit.at);
  return out;
}
