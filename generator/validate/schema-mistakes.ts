// Mistakes inside a valid JSON Schema that no meta-schema catches, because the schema still
// means something, just not what its author meant:
// - an unknown keyword is ignored by JSON Schema, so it checks nothing: a warning; extension
//   keys (`x-…`) and keys inside data keywords (`default`, `examples`, …) and inside name
//   maps (`properties`, …) are not keywords. Unknown keywords that look like slips are errors
//   (warnings with `lenientSchemas: true`, which pulled manifests set): a YAML indentation
//   slip that leaves valid YAML (a property dedented out of `properties` holds a schema; a
//   manifest key such as `output` indented into the schema above it) and a misspelt keyword
//   (`requird`). So is a keyword indented into `properties` as a property of its name;
// - a `required` name that `properties` lacks, under `additionalProperties: false`, can never
//   be satisfied (for a tool input: a tool that can never be called): an error;
// - a `default` its own schema rejects: an error (the validator would fill in a value that
//   fails validation).
import { createRequire } from "node:module";
import type { Ajv, ValidateFunction } from "ajv";
import { didYouMean, editDistance, quote, warning, type Diagnostic } from "../diagnostics.js";
import type { Dialect } from "../load/revisions.js";
import type { ResolvedSchema } from "../load/schema-refs.js";
import { childPointer, type JsonValue } from "../load/source.js";
import { hasJsonType } from "./schema-check.js";

type JsonObject = { [key: string]: JsonValue };

/** Keywords of JSON Schema 2020-12 and draft-07 (both: the other dialect's keywords are reported by the compiler's checks). */
export const knownKeywords: ReadonlySet<string> = new Set([
  // core
  "$schema",
  "$id",
  "$ref",
  "$anchor",
  "$dynamicRef",
  "$dynamicAnchor",
  "$recursiveRef",
  "$recursiveAnchor",
  "$vocabulary",
  "$comment",
  "$defs",
  "definitions",
  // applicators
  "allOf",
  "anyOf",
  "oneOf",
  "not",
  "if",
  "then",
  "else",
  "dependentSchemas",
  "dependencies",
  "prefixItems",
  "items",
  "additionalItems",
  "contains",
  "properties",
  "patternProperties",
  "additionalProperties",
  "propertyNames",
  "unevaluatedItems",
  "unevaluatedProperties",
  // validation
  "type",
  "enum",
  "const",
  "multipleOf",
  "maximum",
  "exclusiveMaximum",
  "minimum",
  "exclusiveMinimum",
  "maxLength",
  "minLength",
  "pattern",
  "maxItems",
  "minItems",
  "uniqueItems",
  "maxContains",
  "minContains",
  "maxProperties",
  "minProperties",
  "required",
  "dependentRequired",
  // annotations, format and content
  "title",
  "description",
  "default",
  "deprecated",
  "readOnly",
  "writeOnly",
  "examples",
  "format",
  "contentEncoding",
  "contentMediaType",
  "contentSchema",
]);

export const isObject = (value: JsonValue | undefined): value is JsonObject =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/**
 * The candidate `word` is probably a misspelling of. Stricter than didYouMean: short names
 * ("foo", "b") are near some keyword or property by chance, and a wrong hint misleads.
 */
function misspeltOf(word: string, candidates: Iterable<string>): string | undefined {
  const near = didYouMean(word, candidates);
  if (near === undefined) return undefined;
  const [a, b] = [word.toLowerCase(), near.toLowerCase()];
  // Swapped letters ("naem") count as one slip.
  const swapped = a.length === b.length && [...a].sort().join("") === [...b].sort().join("");
  return swapped || editDistance(a, b) <= Math.floor(word.length / 3) ? near : undefined;
}

/** Where a schema stands in the manifest, for naming the indentation slips around it. */
export interface SchemaPlace {
  /** The manifest key holding the schema: "input", "output", "schema". */
  readonly field: string;
  /** What declares it: "tool", "elicitation form". */
  readonly owner: string;
  /** The keys the owner takes beside `field` in the manifest. */
  readonly ownerKeys: ReadonlySet<string>;
  /** Slips are warnings, not errors (`lenientSchemas: true`). */
  readonly lenient: boolean;
}

/** Keywords that make a mapping a schema (annotations alone do not). */
const definingKeywords: ReadonlySet<string> = new Set([
  "type",
  "$ref",
  "enum",
  "const",
  "properties",
  "patternProperties",
  "additionalProperties",
  "required",
  "items",
  "prefixItems",
  "allOf",
  "anyOf",
  "oneOf",
  "not",
  "format",
  "pattern",
  "minimum",
  "maximum",
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
]);

/** A mapping made of JSON Schema keywords only (x-… aside), one of them saying what the value is: a schema, not a custom keyword's data. */
function looksLikeSchema(value: JsonValue | undefined): boolean {
  if (!isObject(value)) return false;
  const keys = Object.keys(value);
  return (
    keys.some((key) => definingKeywords.has(key)) && keys.every((key) => knownKeywords.has(key) || key.startsWith("x-"))
  );
}

/** `what` names the schema: "input schema of tool \"get_forecast\""; `objects` are its schemaObjects(); `place` is where the manifest holds it. */
export function schemaMistakes(
  schema: ResolvedSchema,
  objects: readonly [string, JsonObject][],
  dialect: Dialect,
  what: string,
  isToolInput: boolean,
  place?: SchemaPlace,
): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const keyAt = (pointer: string) => (schema.locateKey ?? schema.locate)(pointer);
  const defaults = new DefaultChecker(schema.value, dialect);
  /** Reports a likely slip at the key `pointer` names: an error, unless the manifest is lenient. `keyword`: the key could be a custom keyword. */
  const slip = (pointer: string, message: string, keyword: boolean) => {
    const text = `${what}: ${message}`;
    const unless = keyword
      ? "if it is a custom keyword, name it x-… or set `lenientSchemas: true` in the manifest"
      : "if it is meant, set `lenientSchemas: true` in the manifest";
    diagnostics.push(
      place?.lenient ? warning(keyAt(pointer), text) : { location: keyAt(pointer), message: `${text} (${unless})` },
    );
  };
  /** Properties reported as a misplaced manifest key: their keywords are the key's fields, not worth a report each. */
  const misplaced = new Set<string>();
  const ownerKey = (key: string) => place !== undefined && place.ownerKeys.has(key) && !knownKeywords.has(key);
  for (const [pointer, node] of objects) {
    for (const keyword of Object.keys(node)) {
      if (knownKeywords.has(keyword) || keyword.startsWith("x-") || misplaced.has(pointer)) continue;
      const suggestion = misspeltOf(keyword, knownKeywords);
      const at = childPointer(pointer, keyword);
      const didYouMean = suggestion ? ` (did you mean ${quote(suggestion)}?)` : "";
      if (pointer === "" && ownerKey(keyword)) {
        slip(
          at,
          `${quote(keyword)} is inside ${quote(place!.field)}'s schema, where it is no JSON Schema keyword; it looks indented one level too far: dedent it to the ${place!.owner}'s level, beside ${quote(place!.field)}`,
          false,
        );
      } else if (looksLikeSchema(node[keyword])) {
        slip(
          at,
          `${quote(keyword)} at ${at} holds a schema but is no JSON Schema keyword${didYouMean}; it looks like a property indented one level too far left: move it under \`properties\``,
          true,
        );
      } else if (suggestion) {
        slip(
          at,
          `unknown keyword ${quote(keyword)} at ${at}${didYouMean}; JSON Schema ignores it, so it checks nothing`,
          true,
        );
      } else {
        diagnostics.push(
          warning(
            keyAt(at),
            `${what}: unknown keyword ${quote(keyword)} at ${at}; JSON Schema ignores it, so it checks nothing (name your own annotations x-…)`,
          ),
        );
      }
    }
    if (isObject(node.properties)) {
      for (const [name, value] of Object.entries(node.properties)) {
        const at = childPointer(childPointer(pointer, "properties"), name);
        // `additionalProperties: false` one level too deep forbids a property of that name, and nothing else.
        if (typeof value === "boolean" && knownKeywords.has(name)) {
          slip(
            at,
            `${quote(name)} under \`properties\` at ${at} declares a property of that name, not the keyword; it looks indented one level too far: dedent it beside \`properties\``,
            false,
          );
        } else if (pointer === "" && ownerKey(name) && isObject(value) && !looksLikeSchema(value)) {
          slip(
            at,
            `${quote(name)} under \`properties\` at ${at} looks like the ${place!.owner}'s ${quote(name)} indented two levels too far: dedent it to the ${place!.owner}'s level, beside ${quote(place!.field)}`,
            false,
          );
          misplaced.add(at);
        }
      }
    }
    // draft-07 ignores every keyword next to $ref.
    if (dialect === "draft-07" && "$ref" in node) continue;
    diagnostics.push(...unsatisfiableRequired(schema, node, pointer, what, isToolInput && pointer === ""));
    if ("default" in node) {
      const problem = defaults.problem(pointer, node, node.default!);
      if (problem !== undefined) {
        diagnostics.push({
          location: schema.locate(childPointer(pointer, "default")),
          message: `${what}: the default at ${childPointer(pointer, "default")} does not match its own schema (${problem}); fix the default or the schema`,
        });
      }
    }
  }
  return diagnostics;
}

/** `required` names no property can fill: absent from `properties` and `patternProperties`, with `additionalProperties: false`. */
function unsatisfiableRequired(
  schema: ResolvedSchema,
  node: JsonObject,
  pointer: string,
  what: string,
  toolRoot: boolean,
): Diagnostic[] {
  if (node.additionalProperties !== false || !Array.isArray(node.required)) return [];
  const properties = isObject(node.properties) ? Object.keys(node.properties) : [];
  const patterns = isObject(node.patternProperties) ? Object.keys(node.patternProperties) : [];
  const matchesPattern = (name: string) =>
    patterns.some((source) => {
      try {
        return new RegExp(source, "u").test(name);
      } catch {
        return false; // reported by the pattern check
      }
    });
  const diagnostics: Diagnostic[] = [];
  node.required.forEach((name, i) => {
    if (typeof name !== "string" || properties.includes(name) || matchesPattern(name)) return;
    const at = childPointer(childPointer(pointer, "required"), i);
    const suggestion = misspeltOf(name, properties);
    const consequence = toolRoot
      ? "so no arguments are valid and the tool can never be called"
      : "so no value can match this schema";
    diagnostics.push({
      location: schema.locate(at),
      message: `${what}: required property ${quote(name)} at ${at} is not in properties, and additionalProperties is false, ${consequence}; ${suggestion ? `did you mean ${quote(suggestion)}?` : "add it to properties or remove it from required"}`,
    });
  });
  return diagnostics;
}

const require = createRequire(import.meta.url);

/**
 * Checks defaults with ajv. A subschema without references is compiled alone (and shared
 * between equal subschemas, which large manifests repeat); one with references is compiled
 * as part of the whole schema, so they resolve. ajv loads only when some default exists.
 */
class DefaultChecker {
  /** ajv per dialect for subschemas compiled alone, and their validators by dialect and text. */
  private static readonly shared = new Map<Dialect, Ajv>();
  private static readonly alone = new Map<string, ValidateFunction>();
  /** ajv holding this schema's root, for subschemas with references. */
  private rootAjv: Ajv | undefined;

  constructor(
    private readonly root: JsonValue,
    private readonly dialect: Dialect,
  ) {}

  private newAjv(): Ajv {
    const module = (this.dialect === "draft-07" ? require("ajv") : require("ajv/dist/2020")) as {
      default: new (options: object) => Ajv;
    };
    // The schema already passed its meta-schema: ajv need not compile the meta-schema again to check it.
    return new module.default({
      strict: false,
      validateFormats: false,
      allErrors: false,
      validateSchema: false,
      addUsedSchema: false,
    });
  }

  private validator(pointer: string, subschema: JsonObject): ValidateFunction | undefined {
    if (!JSON.stringify(subschema).includes('"$ref"')) {
      const { default: _default, ...rest } = subschema;
      const key = `${this.dialect}\n${JSON.stringify(rest)}`;
      let validate = DefaultChecker.alone.get(key);
      if (!validate) {
        let ajv = DefaultChecker.shared.get(this.dialect);
        if (!ajv) DefaultChecker.shared.set(this.dialect, (ajv = this.newAjv()));
        validate = ajv.compile(rest);
        // Bounded, for long runs (watch mode) over ever-changing schemas.
        if (DefaultChecker.alone.size >= 10_000) {
          DefaultChecker.alone.clear();
          DefaultChecker.shared.clear(); // ajv keeps what it compiled, too
        }
        DefaultChecker.alone.set(key, validate);
      }
      return validate;
    }
    const id = "mcp-gen:schema";
    if (!this.rootAjv) {
      this.rootAjv = this.newAjv();
      const { $id: _id, ...root } = this.root as JsonObject;
      this.rootAjv.addSchema(root, id);
    }
    return this.rootAjv.getSchema(`${id}#${encodeURI(pointer)}`);
  }

  /** Why `value` fails `subschema` (at `pointer`), or undefined (also when the schema cannot be compiled: other checks report that). */
  problem(pointer: string, subschema: JsonObject, value: JsonValue): string | undefined {
    // Most defaults sit in small schemas that plainly accept them; only the others (and
    // every default that fails, for ajv's message) pay for compiling an ajv validator.
    if (plainlyAccepts(subschema, value)) return undefined;
    let validate: ValidateFunction | undefined;
    try {
      validate = this.validator(pointer, subschema);
    } catch {
      return undefined;
    }
    if (!validate || validate(value)) return undefined;
    const error = validate.errors?.[0];
    return error
      ? `${error.instancePath === "" ? "it" : error.instancePath} ${error.message ?? "is invalid"}`
      : "it is invalid";
  }
}

/** Keywords that never reject a value here: annotations, and `format` (asserted by neither ajv here nor mcp-gen). */
const inertKeywords: ReadonlySet<string> = new Set([
  "title",
  "description",
  "default",
  "examples",
  "deprecated",
  "readOnly",
  "writeOnly",
  "$comment",
  "format",
]);

const isScalar = (value: JsonValue): value is string | number | boolean | null =>
  value === null || typeof value !== "object";

/**
 * True only when `schema` certainly accepts `value`, judged as ajv (strict: false, no
 * formats) judges it, for schemas made of the plain keywords below alone; false means
 * "not certain" (any other keyword, a value this cannot judge, or a rejection), and ajv
 * decides. Each keyword applies to values of its type only, as in JSON Schema.
 */
export function plainlyAccepts(schema: JsonValue, value: JsonValue): boolean {
  if (schema === true) return true;
  if (!isObject(schema)) return false;
  for (const [keyword, expected] of Object.entries(schema)) {
    if (inertKeywords.has(keyword) || keyword.startsWith("x-")) continue;
    if (!keywordAccepts(keyword, expected, value)) return false;
  }
  return true;
}

function keywordAccepts(keyword: string, expected: JsonValue, value: JsonValue): boolean {
  switch (keyword) {
    case "type":
      return (Array.isArray(expected) ? expected : [expected]).some(
        (type) => typeof type === "string" && hasJsonType(value, type),
      );
    case "enum":
      return Array.isArray(expected) && isScalar(value) && expected.includes(value);
    case "const":
      return isScalar(value) && expected === value;
    case "pattern": {
      if (typeof value !== "string") return true;
      if (typeof expected !== "string") return false;
      try {
        return new RegExp(expected, "u").test(value); // ajv's unicodeRegExp default
      } catch {
        return false;
      }
    }
    case "minLength":
    case "maxLength": {
      if (typeof value !== "string") return true;
      if (typeof expected !== "number") return false;
      const length = [...value].length; // code points, as ajv counts them
      return keyword === "minLength" ? length >= expected : length <= expected;
    }
    case "minimum":
    case "maximum":
    case "exclusiveMinimum":
    case "exclusiveMaximum":
    case "multipleOf":
      if (typeof value !== "number") return true;
      if (typeof expected !== "number") return false;
      if (keyword === "minimum") return value >= expected;
      if (keyword === "maximum") return value <= expected;
      if (keyword === "exclusiveMinimum") return value > expected;
      if (keyword === "exclusiveMaximum") return value < expected;
      // ajv's own test (without multipleOfPrecision)
      return expected !== 0 && value / expected === parseInt(String(value / expected));
    case "items":
      if (!Array.isArray(value)) return true;
      return !Array.isArray(expected) && value.every((item) => plainlyAccepts(expected, item));
    case "minItems":
    case "maxItems":
      if (!Array.isArray(value)) return true;
      if (typeof expected !== "number") return false;
      return keyword === "minItems" ? value.length >= expected : value.length <= expected;
    case "uniqueItems":
      if (!Array.isArray(value) || expected === false) return true;
      return expected === true && value.every(isScalar) && new Set(value).size === value.length;
    default:
      return false;
  }
}
