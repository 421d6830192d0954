// The validate pass: the parsed manifest in, what is wrong with it and what the checks
// found out about it back. The model builds from this result and calls nothing here; the
// checks that need the model's naming (identifier and type-name clashes) stay in the model,
// which owns that rule.
import { quote, type Diagnostic } from "../diagnostics.js";
import type { Dialect } from "../load/revisions.js";
import { resolveSchema, type RefContext, type ResolvedSchema } from "../load/schema-refs.js";
import { childPointer, type JsonValue, type PositionIndex } from "../load/source.js";
import type { IntactManifest } from "../manifest.js";
import type { ManifestJsonSchema } from "../manifest.gen.js";
import { checkJsonSchema } from "./json-schema.js";
import { checkManifestShape, manifestKeys } from "./manifest-shape.js";
import type { SchemaAnalysis } from "./schema-check.js";
import { parsePromptTemplate, type TemplatePart } from "./prompt-template.js";
import { parseUriTemplate, type UriTemplate } from "./uri-template.js";

/** A declared JSON Schema, its file references resolved, checked under its dialect. */
export interface CheckedSchema {
  readonly schema: ResolvedSchema;
  readonly dialect: Dialect;
  /** What the check found walking the schema (its $ref targets), for the validator compiler. */
  readonly analysis: SchemaAnalysis;
}

/** What the checks computed that the model needs, keyed by the JSON pointer of the checked value. */
export interface ManifestAnalysis {
  /** Each declared schema (a tool's `input` and `output`, a form's `schema`), checked; absent when invalid (reported). */
  readonly schemas: ReadonlyMap<string, CheckedSchema>;
  /** The files the schemas' `$ref`s read or tried to read (a file not yet written is watched too). */
  readonly schemaFiles: ReadonlySet<string>;
  /** Each declarative prompt message's `text`, parsed; absent when it has problems (reported). */
  readonly promptTemplates: ReadonlyMap<string, readonly TemplatePart[]>;
  /** Each resource template's `uriTemplate`, parsed; absent when it has a problem (reported). */
  readonly uriTemplates: ReadonlyMap<string, UriTemplate>;
}

export interface ValidatedManifest {
  readonly diagnostics: readonly Diagnostic[];
  /** The manifest typed, without its broken parts; undefined when broken as a whole. */
  readonly manifest: IntactManifest | undefined;
  /** JSON pointers of the parts whose shape is invalid (a section, or one entry of a section). */
  readonly broken: ReadonlySet<string>;
  readonly analysis: ManifestAnalysis;
}

/** Where the manifest is, for reading the files its schemas' `$ref`s name. */
export interface ManifestPlace {
  readonly file: string;
  readonly positions: PositionIndex;
  readonly refs: RefContext;
}

export function validateManifest(value: JsonValue, place: ManifestPlace): ValidatedManifest {
  const { positions } = place;
  const shape = checkManifestShape(value, positions);
  const diagnostics: Diagnostic[] = [...shape.diagnostics];
  const promptTemplates = new Map<string, readonly TemplatePart[]>();
  const uriTemplates = new Map<string, UriTemplate>();
  const schemas = new Map<string, CheckedSchema>();
  const schemaFiles = new Set<string>();
  const manifest = shape.manifest;
  const lenient = manifest?.lenientSchemas === true;
  /** Resolves and checks the schema at `field` of the declaration at `pointer`, owned by `owner` (a manifest schema definition). */
  const checkSchema = (
    schema: ManifestJsonSchema | undefined,
    pointer: string,
    field: string,
    what: string,
    owner: { owner: string; definition: string },
  ) => {
    if (schema === undefined) return;
    const at = childPointer(pointer, field);
    const resolved = resolveSchema(schema, at, { file: place.file, positions }, place.refs);
    diagnostics.push(...resolved.diagnostics);
    for (const f of resolved.attempted) schemaFiles.add(f);
    if (!resolved.schema) return;
    const where = { field, owner: owner.owner, ownerKeys: manifestKeys(owner.definition), lenient };
    const checked = checkJsonSchema(resolved.schema, what, { toolInput: field === "input", place: where });
    diagnostics.push(...checked.diagnostics);
    if (checked.checked) schemas.set(at, { schema: resolved.schema, ...checked.checked });
  };
  // Tools before forms, each tool's input before its output: the order $ref files are read in (and the inlining budget spent).
  for (const [key, tool] of Object.entries(manifest?.tools ?? {})) {
    const pointer = childPointer("/tools", key);
    checkSchema(tool.input, pointer, "input", `input schema of tool ${quote(key)}`, {
      owner: "tool",
      definition: "tool",
    });
    checkSchema(tool.output, pointer, "output", `output schema of tool ${quote(key)}`, {
      owner: "tool",
      definition: "tool",
    });
  }
  for (const [key, form] of Object.entries(manifest?.elicitations ?? {})) {
    checkSchema(form.schema, childPointer("/elicitations", key), "schema", `schema of elicitation form ${quote(key)}`, {
      owner: "elicitation form",
      definition: "elicitation",
    });
  }
  for (const [key, prompt] of Object.entries(manifest?.prompts ?? {})) {
    const declaredArgs = new Set(Object.keys(prompt.arguments ?? {}));
    prompt.messages?.forEach((message, i) => {
      const textPointer = childPointer(
        childPointer(childPointer(childPointer("/prompts", key), "messages"), i),
        "text",
      );
      const parsed = parsePromptTemplate(message.text, declaredArgs);
      for (const problem of parsed.problems)
        diagnostics.push({
          location: positions.within(textPointer, problem.snippet, problem.occurrence),
          message: problem.message,
        });
      if (parsed.parts && parsed.problems.length === 0) promptTemplates.set(textPointer, parsed.parts);
    });
  }
  for (const [key, template] of Object.entries(manifest?.resourceTemplates ?? {})) {
    const templatePointer = childPointer(childPointer("/resourceTemplates", key), "uriTemplate");
    const parsed = parseUriTemplate(template.uriTemplate);
    if (parsed.problem) {
      diagnostics.push({
        location: positions.within(templatePointer, parsed.problem.snippet, parsed.problem.occurrence),
        message: `uriTemplate: ${parsed.problem.message}`,
      });
    } else if (parsed.template) uriTemplates.set(templatePointer, parsed.template);
  }
  return {
    diagnostics,
    manifest,
    broken: shape.broken,
    analysis: { schemas, schemaFiles, promptTemplates, uriTemplates },
  };
}
