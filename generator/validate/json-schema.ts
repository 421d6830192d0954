// Checks user-declared JSON Schemas against their dialect's meta-schema (ajv, at
// generation time only) and the protocol's rules for where they are used.
import type { ErrorObject, ValidateFunction } from "ajv";
import { didYouMean, isWarning, quote, type Diagnostic } from "../diagnostics.js";
// The compiler's own schema checks (moving to validate/ with the file): run here, in the validate phase.
import { analyzeSchema, jsonTypeNames, type SchemaAnalysis } from "./schema-check.js";
import { isObject, knownKeywords, schemaMistakes, type SchemaPlace } from "./schema-mistakes.js";
import { schemaObjects, type ResolvedSchema } from "../load/schema-refs.js";
import type { JsonValue } from "../load/source.js";
import type { Dialect } from "../load/revisions.js";
import { cachedValidator } from "./ajv-cache.js";

const metaValidators = new Map<Dialect, ValidateFunction>();

/** The dialect a schema declares with $schema; 2020-12 when it declares none (as MCP specifies). `unsupported` is the value as written (JSON, shortened). */
export function schemaDialect(schema: unknown): Dialect | { unsupported: string } {
  const declared = schema && typeof schema === "object" ? (schema as Record<string, unknown>).$schema : undefined;
  if (declared === undefined) return "2020-12";
  if (typeof declared === "string") {
    if (/json-schema\.org\/draft\/2020-12\/schema#?$/.test(declared)) return "2020-12";
    if (/json-schema\.org\/draft-07\/schema#?$/.test(declared)) return "draft-07";
  }
  const written = JSON.stringify(declared) ?? String(declared);
  return { unsupported: written.length > 80 ? `${written.slice(0, 77)}...` : written };
}

/** The dialect's meta-schema validator (what ajv.validateSchema runs): read from the build's seed, or compiled, once per process; `seedInto`: see cachedValidator. */
export function metaValidator(dialect: Dialect, seedInto?: string): ValidateFunction {
  let validate = metaValidators.get(dialect);
  if (!validate || seedInto !== undefined) {
    const meta =
      dialect === "draft-07"
        ? "http://json-schema.org/draft-07/schema"
        : "https://json-schema.org/draft/2020-12/schema";
    validate = cachedValidator(
      dialect,
      { strict: false, allErrors: true, validateFormats: false, verbose: true },
      meta,
      (ajv) => ajv.getSchema(meta)!,
      seedInto,
    );
    metaValidators.set(dialect, validate);
  }
  return validate;
}

/** What the meta-schema requires of a keyword's value, for the keywords plainlyMetaValid judges. */
type ValueRule =
  | "schema"
  | "schemas"
  | "schemaMap"
  | "type"
  | "names"
  | "array"
  | "any"
  | "number"
  | "positive"
  | "count"
  | "string"
  | "boolean";

const sharedRules: Record<string, ValueRule> = {
  $schema: "string",
  $ref: "string",
  $comment: "string",
  title: "string",
  description: "string",
  format: "string",
  contentMediaType: "string",
  contentEncoding: "string",
  pattern: "string",
  default: "any",
  const: "any",
  examples: "array",
  readOnly: "boolean",
  uniqueItems: "boolean",
  type: "type",
  required: "names",
  multipleOf: "positive",
  maximum: "number",
  exclusiveMaximum: "number",
  minimum: "number",
  exclusiveMinimum: "number",
  maxLength: "count",
  minLength: "count",
  maxItems: "count",
  minItems: "count",
  maxProperties: "count",
  minProperties: "count",
  properties: "schemaMap",
  patternProperties: "schemaMap",
  definitions: "schemaMap",
  additionalProperties: "schema",
  propertyNames: "schema",
  contains: "schema",
  not: "schema",
  if: "schema",
  then: "schema",
  else: "schema",
  allOf: "schemas",
  anyOf: "schemas",
  oneOf: "schemas",
};

// draft-07's `items` may also be an array and its `enum` must hold distinct values: both are left to ajv.
const valueRules: Record<Dialect, Record<string, ValueRule>> = {
  "2020-12": {
    ...sharedRules,
    $defs: "schemaMap",
    dependentSchemas: "schemaMap",
    items: "schema",
    prefixItems: "schemas",
    enum: "array",
    deprecated: "boolean",
    writeOnly: "boolean",
  },
  "draft-07": sharedRules,
};

const distinct = (values: JsonValue[]) => new Set(values).size === values.length;

/**
 * True only when `schema` certainly passes its dialect's meta-schema, judged keyword by
 * keyword as the meta-schema does, for schemas made of the common keywords above (and
 * keywords neither dialect knows, which it leaves unconstrained). False means "not
 * certain": ajv decides, and its messages are the ones reported.
 */
export function plainlyMetaValid(schema: JsonValue, dialect: Dialect): boolean {
  if (typeof schema === "boolean") return true;
  if (!isObject(schema)) return false;
  const rules = valueRules[dialect];
  for (const keyword in schema) {
    const rule = rules[keyword];
    if (rule === undefined ? knownKeywords.has(keyword) : !valueFollows(rule, schema[keyword]!, dialect)) return false;
  }
  return true;
}

/** Whether `value` is a list of schemas plainlyMetaValid() accepts (a loop: called for every allOf/anyOf/oneOf). */
function allPlainlyMetaValid(values: JsonValue[], dialect: Dialect): boolean {
  for (const value of values) if (!plainlyMetaValid(value, dialect)) return false;
  return true;
}

function valueFollows(rule: ValueRule, value: JsonValue, dialect: Dialect): boolean {
  switch (rule) {
    case "schema":
      return plainlyMetaValid(value, dialect);
    case "schemas":
      return Array.isArray(value) && value.length > 0 && allPlainlyMetaValid(value, dialect);
    case "schemaMap":
      return isObject(value) && allPlainlyMetaValid(Object.values(value), dialect);
    case "number":
      return typeof value === "number";
    case "positive":
      return typeof value === "number" && value > 0;
    case "count":
      return Number.isInteger(value) && (value as number) >= 0;
    case "string":
      return typeof value === "string";
    case "boolean":
      return typeof value === "boolean";
    case "names":
      return Array.isArray(value) && value.every((name) => typeof name === "string") && distinct(value);
    case "type":
      if (typeof value === "string") return jsonTypeNames.has(value);
      if (!Array.isArray(value) || value.length === 0) return false;
      return value.every((name) => typeof name === "string" && jsonTypeNames.has(name)) && distinct(value);
    case "array":
      return Array.isArray(value);
    case "any":
      return true;
  }
}

function describe(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "type":
      return `must be ${String(params.type).replace(",", " or ")}`;
    case "enum": {
      const allowed = (params.allowedValues as unknown[]).map((v) => JSON.stringify(v));
      const suggestion =
        typeof error.data === "string"
          ? didYouMean(error.data, (params.allowedValues as unknown[]).map(String))
          : undefined;
      return `must be one of: ${allowed.join(", ")}${suggestion ? ` (did you mean ${quote(suggestion)}?)` : ""}`;
    }
    case "uniqueItems":
      return `must not list the same value twice (items ${String(params.j)} and ${String(params.i)})`;
    default:
      return error.message ?? "is invalid";
  }
}

/**
 * Problems of `schema`, located at the offending keyword: meta-schema violations, then
 * what mcp-gen's validator compiler cannot express, then mistakes that leave the schema
 * valid (schema-mistakes.ts; unknown keywords are warnings). The dialect and the analysis
 * (which the validator compiler builds on) are returned when there are no errors. `what`
 * names the schema: "input schema of tool get_forecast".
 */
export function checkJsonSchema(
  schema: ResolvedSchema,
  what: string,
  options: { toolInput?: boolean; place?: SchemaPlace } = {},
): { checked?: { dialect: Dialect; analysis: SchemaAnalysis }; diagnostics: Diagnostic[] } {
  const dialect = schemaDialect(schema.value);
  if (typeof dialect === "object") {
    const message = `${what} declares $schema ${dialect.unsupported}; mcp-gen supports JSON Schema 2020-12 (the default) and draft-07`;
    return { diagnostics: [{ location: schema.locate("/$schema"), message }] };
  }
  // ajv's validator (and its code) loads only for a schema the shortcut cannot judge.
  const validate = plainlyMetaValid(schema.value, dialect) ? undefined : metaValidator(dialect);
  if (validate && !validate(schema.value)) {
    // Report the deepest complaint per location; the meta-schema's own anyOf noise hides it otherwise.
    const errors = (validate.errors ?? []).filter(
      (e) => e.keyword !== "anyOf" && e.keyword !== "oneOf" && e.keyword !== "$dynamicRef",
    );
    const byPath = new Map<string, ErrorObject>();
    for (const error of errors) if (!byPath.has(error.instancePath)) byPath.set(error.instancePath, error);
    const diagnostics = [...byPath.values()].map((error) => ({
      location: schema.locate(error.instancePath),
      message: `${what} is not a valid JSON Schema ${dialect}: ${error.instancePath || "/"} ${describe(error)}`,
    }));
    if (diagnostics.length > 0) return { diagnostics };
  }
  // What the validator compiler cannot express or would reject (references that point
  // nowhere, patterns that are no regular expressions, dynamic refs, unevaluated*, …):
  // errors, all found by one walk here so that emitting never fails.
  const analysis = analyzeSchema(schema.value, dialect);
  const unsupported = analysis.problems.map((problem) => ({
    location: schema.locate(problem.pointer),
    message: `${what}: ${problem.message}`,
  }));
  if (unsupported.length > 0) return { diagnostics: unsupported };
  const mistakes = schemaMistakes(
    schema,
    schemaObjects(schema.value),
    dialect,
    what,
    options.toolInput === true,
    options.place,
  );
  return mistakes.some((d) => !isWarning(d))
    ? { diagnostics: mistakes }
    : { checked: { dialect, analysis }, diagnostics: mistakes };
}

/** The schema's root `type` when it is the single type "object". */
export function isObjectSchema(schema: unknown): boolean {
  return !!schema && typeof schema === "object" && (schema as Record<string, unknown>).type === "object";
}
