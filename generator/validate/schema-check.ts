// Checks a JSON Schema before it is compiled: every keyword the compiler relies on must
// have the right JSON type, every $ref must point into the same document, and features the
// compiler cannot express (dynamic refs, unevaluated*, anchors, nested $id) are reported as
// problems with a hint how to rewrite the schema. Also resolves $refs for the code
// validator compiler (emit/validators) and answers "does this subschema fill defaults?".

import { childPointer, pointerTokens, resolvePointer } from "../load/source.js";

// The validator compiler reads these from here, with the rest of the schema checks.
export { escapePointerToken, resolvePointer } from "../load/source.js";

export type JsonObject = Record<string, unknown>;

export type SchemaDialect = "2020-12" | "draft-07";

export interface SchemaProblem {
  /** JSON pointer into the schema, e.g. "/properties/a/pattern" */
  pointer: string;
  message: string;
}

/** A JSON object (not null, not an array). */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Whether a JSON value belongs to JSON Schema type `type` (false for a name that is not a type). */
export function hasJsonType(value: unknown, type: string): boolean {
  switch (type) {
    case "null":
      return value === null;
    case "boolean":
      return typeof value === "boolean";
    case "string":
      return typeof value === "string";
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "object":
      return isJsonObject(value);
    case "array":
      return Array.isArray(value);
    default:
      return false;
  }
}

/** Why `source` is not a valid regular expression with the u flag, or undefined when it is. */
function regExpError(source: string): string | undefined {
  try {
    new RegExp(source, "u");
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

export function hasOwn(object: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(object, key);
}

/** A schema is an object or a boolean. */
export function isSchema(value: unknown): value is JsonObject | boolean {
  return typeof value === "boolean" || isJsonObject(value);
}

/** In draft-07 a schema with $ref ignores all its other keywords (except containers we still resolve into). */
export function isRefOnly(schema: JsonObject, dialect: SchemaDialect): boolean {
  return dialect === "draft-07" && hasOwn(schema, "$ref");
}

/** "a string", "an array", … for messages. */
function describeJson(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  if (typeof value === "string") return `a string (${JSON.stringify(value)})`;
  if (typeof value === "number") return `a number (${value})`;
  if (typeof value === "boolean") return `a boolean (${value})`;
  return typeof value;
}

export const jsonTypeNames: ReadonlySet<string> = new Set([
  "null",
  "boolean",
  "object",
  "array",
  "number",
  "integer",
  "string",
]);

/** Keywords that carry no validation: documentation, metadata, and `format`. */
const annotationKeywords = new Set([
  "title",
  "description",
  "default",
  "examples",
  "deprecated",
  "readOnly",
  "writeOnly",
  "$comment",
  "$schema",
  "$vocabulary",
  // An $anchor alone is harmless; a $ref that uses it is reported.
  "$anchor",
  // `format` is an annotation in 2020-12 unless the format-assertion vocabulary is
  // required, and ajv without ajv-formats does not check it either; mcp-gen never asserts it.
  "format",
  "contentEncoding",
  "contentMediaType",
  "contentSchema",
]);

/** Keywords that require features the compiler does not implement, with how to do without them. */
const unsupportedKeywords: Record<string, string> = {
  $dynamicRef: "$dynamicRef is not supported by mcp-gen's validator compiler; use a plain $ref to a schema under $defs",
  $dynamicAnchor:
    "$dynamicAnchor is not supported by mcp-gen's validator compiler; remove it and use plain $refs to $defs",
  $recursiveRef:
    '$recursiveRef (draft 2019-09) is not supported by mcp-gen\'s validator compiler; use a plain $ref such as "#" or "#/$defs/Name"',
  $recursiveAnchor:
    "$recursiveAnchor (draft 2019-09) is not supported by mcp-gen's validator compiler; remove it and use plain $refs",
  unevaluatedProperties:
    "unevaluatedProperties is not supported by mcp-gen's validator compiler; express the constraint with additionalProperties (listing the allowed properties in properties)",
  unevaluatedItems:
    "unevaluatedItems is not supported by mcp-gen's validator compiler; express the constraint with items (and prefixItems)",
};

/** Keywords of the other dialect, reported rather than silently ignored. */
const otherDialectKeywords: Record<SchemaDialect, Record<string, string>> = {
  "2020-12": {
    additionalItems:
      "additionalItems is not part of JSON Schema 2020-12; list tuple items in prefixItems and put the schema for the remaining items in items",
  },
  "draft-07": {
    prefixItems:
      "prefixItems is a JSON Schema 2020-12 keyword; in draft-07 give items an array of schemas (and use additionalItems for the rest)",
    minContains:
      "minContains is a JSON Schema 2020-12 keyword and has no draft-07 equivalent; declare the schema as 2020-12",
    maxContains:
      "maxContains is a JSON Schema 2020-12 keyword and has no draft-07 equivalent; declare the schema as 2020-12",
    dependentSchemas:
      "dependentSchemas is a JSON Schema 2020-12 keyword; in draft-07 write the schema under dependencies",
  },
};

export interface SchemaAnalysis {
  readonly problems: readonly SchemaProblem[];
  /** Each $ref string (as written) → canonical JSON pointer of its target ("" is the root). */
  readonly refTargets: ReadonlyMap<string, string>;
  /** Whether some $ref points at the root schema. */
  readonly rootReferenced: boolean;
}

type Resolution = { readonly pointer: string; readonly target: unknown } | { readonly problem: string };

/**
 * Walks a schema, collecting problems and resolving $refs. The validate phase analyses each
 * user schema once and hands the analysis on with the schema (the model's `SchemaModel`), so
 * the validator compiler reuses it rather than walking the schema again.
 */
export function analyzeSchema(root: unknown, dialect: SchemaDialect): SchemaAnalysis {
  const checker = new SchemaChecker(root, dialect);
  checker.run();
  const rootReferenced = [...checker.refTargets.values()].includes("");
  return { problems: checker.problems, refTargets: checker.refTargets, rootReferenced };
}

class SchemaChecker {
  readonly problems: SchemaProblem[] = [];
  readonly refTargets = new Map<string, string>();
  private readonly seenProblems = new Set<string>();
  /** Why each pattern met so far is no valid regular expression (undefined: it is one). */
  private readonly regExpErrors = new Map<string, string | undefined>();
  /** Schema objects already checked. Manifest schemas are trees: an object stands at one pointer. */
  private readonly checked = new Set<object>();
  /** Where each `$anchor` was declared: a second one with the same name is an error. */
  private readonly anchors = new Map<string, string>();
  /** The schemas $refs point at, by canonical pointer, in the order they were met. */
  private readonly targets = new Map<string, unknown>();
  /** The root $id without fragment, so "https://x/schema.json#/$defs/A" counts as local. */
  private readonly rootBase: string | undefined;

  constructor(
    private readonly root: unknown,
    private readonly dialect: SchemaDialect,
  ) {
    const id = isJsonObject(root) ? root["$id"] : undefined;
    this.rootBase = typeof id === "string" && id !== "" ? id.split("#")[0] : undefined;
  }

  run(): void {
    this.checkSchema(this.root, "");
    // A $ref may point somewhere the walk above did not treat as a schema (e.g. inside an
    // unknown keyword); check those targets too (checking one may add more).
    for (const [pointer, target] of this.targets) this.checkSchema(target, pointer);
    this.checkRefCycles();
  }

  private problem(pointer: string, message: string): void {
    const key = `${pointer}\n${message}`;
    if (this.seenProblems.has(key)) return;
    this.seenProblems.add(key);
    this.problems.push({ pointer, message });
  }

  private checkSchema(schema: unknown, pointer: string): void {
    if (typeof schema === "boolean" || this.checked.has(schema as object)) return;
    if (!isJsonObject(schema)) {
      this.problem(pointer, `a schema must be an object or a boolean, not ${describeJson(schema)}`);
      return;
    }
    this.checked.add(schema);
    const anchor = schema["$anchor"];
    if (typeof anchor === "string" && this.dialect === "2020-12") {
      const first = this.anchors.get(anchor);
      // JSON Schema requires anchors to be unique within a schema; ajv (which many clients validate with) refuses the schema.
      if (first !== undefined)
        this.problem(
          childPointer(pointer, "$anchor"),
          `$anchor ${JSON.stringify(anchor)} is declared twice (first at ${JSON.stringify(first)}); anchors must be unique within a schema, so rename or remove one`,
        );
      else this.anchors.set(anchor, pointer);
    }
    const refOnly = isRefOnly(schema, this.dialect);
    for (const keyword of Object.keys(schema)) {
      // draft-07 ignores the siblings of $ref; only definitions containers stay reachable.
      if (refOnly && keyword !== "$ref" && keyword !== "definitions" && keyword !== "$defs") continue;
      if (!annotationKeywords.has(keyword))
        this.checkKeyword(keyword, schema[keyword], childPointer(pointer, keyword), pointer);
    }
  }

  private checkKeyword(keyword: string, value: unknown, pointer: string, schemaPointer: string): void {
    const unsupported = unsupportedKeywords[keyword];
    if (unsupported !== undefined && hasOwn(unsupportedKeywords, keyword)) {
      this.problem(pointer, unsupported);
      return;
    }
    const otherDialect = otherDialectKeywords[this.dialect];
    if (hasOwn(otherDialect, keyword)) {
      this.problem(pointer, otherDialect[keyword]!);
      return;
    }
    switch (keyword) {
      case "$id":
        if (schemaPointer !== "")
          this.problem(
            pointer,
            "$id inside a schema changes the base for $ref resolution, which mcp-gen's validator compiler does not support; remove it and reference the subschema by JSON pointer (e.g. #/$defs/Name)",
          );
        return;
      case "$ref":
        this.checkRef(value, pointer);
        return;
      case "$defs":
      case "definitions":
      case "properties":
      case "dependentSchemas":
        this.checkSchemaMap(keyword, value, pointer);
        return;
      case "patternProperties":
        this.checkPatternProperties(value, pointer);
        return;
      case "dependentRequired":
      case "dependencies":
        this.checkDependencies(keyword, value, pointer);
        return;
      case "items":
        this.checkItems(value, pointer);
        return;
      case "prefixItems":
        this.checkSchemaArray(keyword, value, pointer, false);
        return;
      case "allOf":
      case "anyOf":
      case "oneOf":
        this.checkSchemaArray(keyword, value, pointer, true);
        return;
      case "additionalItems":
      case "contains":
      case "propertyNames":
      case "additionalProperties":
      case "not":
      case "if":
      case "then":
      case "else":
        this.checkSchema(value, pointer);
        return;
      default:
        this.checkValueKeyword(keyword, value, pointer);
    }
  }

  /** The keywords whose value is data about the instance (types, limits, patterns), not a schema. */
  private checkValueKeyword(keyword: string, value: unknown, pointer: string): void {
    switch (keyword) {
      case "type":
        this.checkType(value, pointer);
        return;
      case "enum":
        if (!Array.isArray(value)) this.wrongType(keyword, "an array of allowed values", value, pointer);
        return;
      case "multipleOf":
        if (typeof value !== "number" || !Number.isFinite(value) || value <= 0)
          this.wrongType(keyword, "a number greater than 0", value, pointer);
        return;
      case "maximum":
      case "exclusiveMaximum":
      case "minimum":
      case "exclusiveMinimum":
        this.checkLimit(keyword, value, pointer);
        return;
      case "maxLength":
      case "minLength":
      case "maxItems":
      case "minItems":
      case "maxProperties":
      case "minProperties":
      case "minContains":
      case "maxContains":
        if (typeof value !== "number" || !Number.isInteger(value) || value < 0)
          this.wrongType(keyword, "a non-negative integer", value, pointer);
        return;
      case "pattern":
        if (typeof value !== "string") this.wrongType(keyword, "a string (a regular expression)", value, pointer);
        else this.checkRegExp(value, pointer, "pattern");
        return;
      case "uniqueItems":
        if (typeof value !== "boolean") this.wrongType(keyword, "a boolean", value, pointer);
        return;
      case "required":
        this.checkStringArray(keyword, value, pointer);
        return;
      default:
        // `const` takes any value; unknown keywords (including x-… extensions) are annotations.
        return;
    }
  }

  private checkPatternProperties(value: unknown, pointer: string): void {
    this.checkSchemaMap("patternProperties", value, pointer);
    if (!isJsonObject(value)) return;
    for (const pattern of Object.keys(value))
      this.checkRegExp(pattern, childPointer(pointer, pattern), "patternProperties key");
  }

  /** A numeric bound: a finite number (draft-04's boolean `exclusiveMaximum: true` gets its own hint). */
  private checkLimit(keyword: string, value: unknown, pointer: string): void {
    if (typeof value === "boolean" && keyword.startsWith("exclusive")) {
      this.problem(
        pointer,
        `${keyword} must be a number; the draft-04 boolean form is not supported, write ${keyword}: <limit> instead of ${keyword === "exclusiveMaximum" ? "maximum" : "minimum"} plus ${keyword}: true`,
      );
    } else if (typeof value !== "number" || !Number.isFinite(value)) {
      this.wrongType(keyword, "a number", value, pointer);
    }
  }

  /** `dependentRequired` (arrays of property names) and draft-07's `dependencies` (arrays or schemas). */
  private checkDependencies(keyword: "dependentRequired" | "dependencies", value: unknown, pointer: string): void {
    if (!isJsonObject(value)) {
      const values = keyword === "dependencies" ? "arrays of property names or schemas" : "arrays of property names";
      this.wrongType(keyword, `an object whose values are ${values}`, value, pointer);
      return;
    }
    for (const name of Object.keys(value)) {
      const dependency = value[name];
      if (keyword === "dependentRequired" || Array.isArray(dependency))
        this.checkStringArray(keyword, dependency, childPointer(pointer, name));
      else this.checkSchema(dependency, childPointer(pointer, name));
    }
  }

  /** `items`: a schema, or (draft-07 only) an array of tuple schemas. */
  private checkItems(value: unknown, pointer: string): void {
    if (!Array.isArray(value)) {
      this.checkSchema(value, pointer);
      return;
    }
    if (this.dialect === "2020-12") {
      this.problem(
        pointer,
        "items must be a schema in JSON Schema 2020-12, not an array; put tuple schemas in prefixItems (and the schema for the remaining items in items)",
      );
      return;
    }
    this.checkSchemaArray("items", value, pointer, false);
  }

  private wrongType(keyword: string, expected: string, value: unknown, pointer: string): void {
    this.problem(pointer, `${keyword} must be ${expected}, not ${describeJson(value)}; fix the value in the schema`);
  }

  private checkType(value: unknown, pointer: string): void {
    const names = typeof value === "string" ? [value] : value;
    if (!Array.isArray(names) || names.length === 0) {
      this.wrongType("type", "a type name or a non-empty array of type names", value, pointer);
      return;
    }
    names.forEach((name, index) => {
      const at = typeof value === "string" ? pointer : childPointer(pointer, index);
      if (typeof name !== "string" || !jsonTypeNames.has(name)) {
        this.problem(
          at,
          `type ${JSON.stringify(name)} is not a JSON Schema type; use one of "string", "number", "integer", "boolean", "object", "array", "null"`,
        );
      }
    });
  }

  private checkStringArray(keyword: string, value: unknown, pointer: string): void {
    if (!Array.isArray(value)) {
      this.wrongType(keyword, "an array of property names", value, pointer);
      return;
    }
    value.forEach((name, index) => {
      if (typeof name !== "string")
        this.wrongType(`${keyword} entry`, "a property name (string)", name, childPointer(pointer, index));
    });
  }

  private checkSchemaMap(keyword: string, value: unknown, pointer: string): void {
    if (!isJsonObject(value)) {
      this.wrongType(keyword, "an object whose values are schemas", value, pointer);
      return;
    }
    for (const name of Object.keys(value)) this.checkSchema(value[name], childPointer(pointer, name));
  }

  private checkSchemaArray(keyword: string, value: unknown, pointer: string, nonEmpty: boolean): void {
    if (!Array.isArray(value) || (nonEmpty && value.length === 0)) {
      this.wrongType(keyword, nonEmpty ? "a non-empty array of schemas" : "an array of schemas", value, pointer);
      return;
    }
    value.forEach((schema, index) => this.checkSchema(schema, childPointer(pointer, index)));
  }

  private checkRegExp(source: string, pointer: string, what: string): void {
    // A schema may repeat a pattern (an identifier's, say): each is compiled once per schema.
    if (!this.regExpErrors.has(source)) this.regExpErrors.set(source, regExpError(source));
    const error = this.regExpErrors.get(source);
    if (error === undefined) return;
    // V8's message repeats the source ("Invalid regular expression: /[A-Z/u: Unterminated character class").
    const reason = /^Invalid regular expression: \/.*\/[a-z]*: (.*)$/s.exec(error)?.[1] ?? error;
    this.problem(
      pointer,
      `${what} ${JSON.stringify(source)} is not a valid ECMAScript regular expression with the u flag (${reason}); fix the expression (with the u flag, escape only syntax characters, e.g. write - instead of \\-)`,
    );
  }

  private checkRef(value: unknown, pointer: string): void {
    if (typeof value !== "string") {
      this.wrongType("$ref", "a string", value, pointer);
      return;
    }
    // Schemas repeat their refs ("#/$defs/money" in every line item): each resolves once.
    if (this.refTargets.has(value)) return;
    const resolution = this.resolveRef(value);
    if ("problem" in resolution) {
      this.problem(pointer, resolution.problem);
      return;
    }
    this.refTargets.set(value, resolution.pointer);
    if (!this.targets.has(resolution.pointer)) this.targets.set(resolution.pointer, resolution.target);
  }

  private resolveRef(ref: string): Resolution {
    let fragment: string | undefined;
    if (ref.startsWith("#")) fragment = ref.slice(1);
    else if (ref === "")
      fragment = ""; // the document itself
    else if (this.rootBase !== undefined && ref === this.rootBase) fragment = "";
    else if (this.rootBase !== undefined && ref.startsWith(`${this.rootBase}#`))
      fragment = ref.slice(this.rootBase.length + 1);
    if (fragment === undefined) {
      return {
        problem: `$ref ${JSON.stringify(ref)} is not local; mcp-gen only follows references into the same schema ("#/…"): copy the referenced schema into $defs and use "#/$defs/Name"`,
      };
    }
    if (fragment !== "" && !fragment.startsWith("/")) {
      return {
        problem: `$ref ${JSON.stringify(ref)} refers to an anchor, which mcp-gen does not support; use a JSON pointer such as "#/$defs/Name"`,
      };
    }
    let decoded: string;
    try {
      decoded = decodeURIComponent(fragment);
    } catch {
      return { problem: `$ref ${JSON.stringify(ref)} has invalid percent-encoding; fix the reference` };
    }
    // The target's canonical pointer, as refTargets records it.
    const pointer = pointerTokens(decoded).reduce<string>((parent, token) => childPointer(parent, token), "");
    const target = resolvePointer(this.root, pointer);
    if (target === undefined) {
      return {
        problem: `$ref ${JSON.stringify(ref)} does not resolve: this schema has nothing at ${JSON.stringify(pointer)}; fix the reference or add the definition`,
      };
    }
    if (!isSchema(target)) {
      return {
        problem: `$ref ${JSON.stringify(ref)} points to ${describeJson(target)}, not to a schema; fix the reference`,
      };
    }
    return { pointer, target };
  }

  /**
   * A $ref cycle that never moves into a property or item (only through $ref, allOf,
   * anyOf, oneOf, not, if/then/else, dependentSchemas) would recurse forever at run time.
   */
  private checkRefCycles(): void {
    if (this.refTargets.size === 0) return; // no edges, no cycle
    const state = new Map<string, "active" | "done">();
    const visit = (node: string): void => {
      state.set(node, "active");
      for (const edge of this.sameInstanceRefs(node === "" ? this.root : this.targets.get(node), node)) {
        const targetState = state.get(edge.target);
        if (targetState === "active") {
          this.problem(
            edge.pointer,
            `$ref ${JSON.stringify(edge.ref)} forms a cycle that never descends into a property or item, so validation would recurse forever; put the recursion under properties, items or another keyword that moves into the value`,
          );
        } else if (targetState === undefined) {
          visit(edge.target);
        }
      }
      state.set(node, "done");
    };
    for (const node of ["", ...this.targets.keys()]) if (!state.has(node)) visit(node);
  }

  /** $refs reachable from `schema` while staying on the same instance location. */
  private sameInstanceRefs(schema: unknown, pointer: string): Array<{ pointer: string; ref: string; target: string }> {
    const found: Array<{ pointer: string; ref: string; target: string }> = [];
    const walk = (node: unknown, at: string): void => {
      if (!isJsonObject(node)) return;
      const ref = node["$ref"];
      if (typeof ref === "string") {
        const target = this.refTargets.get(ref);
        if (target !== undefined) found.push({ pointer: childPointer(at, "$ref"), ref, target });
      }
      if (isRefOnly(node, this.dialect)) return;
      for (const keyword of ["allOf", "anyOf", "oneOf"]) {
        const list = node[keyword];
        if (Array.isArray(list)) for (let i = 0; i < list.length; i++) walk(list[i], `${at}/${keyword}/${i}`);
      }
      for (const keyword of ["not", "if", "then", "else"]) walk(node[keyword], `${at}/${keyword}`);
      for (const keyword of ["dependentSchemas", "dependencies"]) {
        const map = node[keyword];
        if (isJsonObject(map))
          for (const name of Object.keys(map)) walk(map[name], childPointer(`${at}/${keyword}`, name));
      }
    };
    walk(schema, pointer);
    return found;
  }
}

/**
 * Whether validating against `schema` with defaults enabled would fill a default:
 * some `properties` subschema has `default`, directly or further along properties,
 * allOf or $ref (the places defaults flow into).
 */
export function fillsDefaults(
  root: unknown,
  schema: unknown,
  dialect: SchemaDialect,
  refTargets: ReadonlyMap<string, string>,
  visited = new Set<string>(),
): boolean {
  if (!isJsonObject(schema)) return false;
  const ref = schema["$ref"];
  if (typeof ref === "string") {
    const target = refTargets.get(ref);
    if (target !== undefined && !visited.has(target)) {
      visited.add(target);
      if (fillsDefaults(root, resolvePointer(root, target), dialect, refTargets, visited)) return true;
    }
  }
  if (isRefOnly(schema, dialect)) return false;
  const properties = schema["properties"];
  if (isJsonObject(properties)) {
    for (const name of Object.keys(properties)) {
      const sub = properties[name];
      if (hasDefault(sub, dialect)) return true;
      if (fillsDefaults(root, sub, dialect, refTargets, visited)) return true;
    }
  }
  const allOf = schema["allOf"];
  if (Array.isArray(allOf)) {
    for (const sub of allOf) if (fillsDefaults(root, sub, dialect, refTargets, visited)) return true;
  }
  return false;
}

/** A subschema's own `default` (ignored next to $ref in draft-07, like its other siblings). */
export function hasDefault(schema: unknown, dialect: SchemaDialect): schema is JsonObject {
  return isJsonObject(schema) && hasOwn(schema, "default") && !isRefOnly(schema, dialect);
}
