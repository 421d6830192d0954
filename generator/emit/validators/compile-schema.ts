// Ahead-of-time JSON Schema → TypeScript validator compiler.
//
// Each schema becomes a plain function `(value: unknown) => ValidationIssue | undefined`
// made of straight-line checks: no schema interpretation, no `new Function`, no runtime
// dependency beyond the three helpers in runtime/validation.ts. The function returns the
// first issue it finds (ajv-style message, JSON pointer path) and allocates nothing when
// the value is valid.
//
// How the generated code is shaped:
// - Keywords are emitted in ajv's order: type, $ref, const/enum, the in-place applicators
//   (allOf, anyOf, oneOf, not, if/then/else), then number, string, array and object
//   keywords, each family behind a type guard unless `type` already settled it.
// - A check fails either by returning an issue ("return" mode) or, inside a schema that is
//   only being tried (an anyOf branch, `not`, `if`, `contains`, `propertyNames`), by
//   `break`ing out of a labeled block ("break" mode).
// - Every $ref target is compiled once into a private helper function (so recursive
//   schemas work); the caller prefixes the helper's issue path with its own location.
//   Validators of one file share a helper when its code would be the same (see SharedHelpers).
// - Instance paths are built only when an issue is created.
// - Each emitted statement records the identifiers it uses: a binding, label, constant or
//   helper that no kept statement uses is left out, so the output passes --noUnusedLocals.
// - Comparisons against const/enum literals are written `(value as unknown) === …` so
//   TypeScript does not narrow the value to a literal type that later checks contradict.
//
// `format` is treated as an annotation: in 2020-12 it only asserts when a format-assertion
// vocabulary is required, and mcp-gen never validates formats.

import { docComment, inlineLiteral, numberLiteral, stringLiteral } from "../escape.js";
import { Code, LocalNames, pathExpression, propertyNameHint, type PathPart } from "./code.js";
import { pointerTokens } from "../../load/source.js";
import {
  analyzeSchema,
  fillsDefaults,
  hasDefault,
  hasOwn,
  isJsonObject,
  isRefOnly,
  resolvePointer,
  type JsonObject,
  type SchemaAnalysis,
  type SchemaDialect,
} from "../../validate/schema-check.js";

export interface ValidatorSpec {
  /** Name of the exported function, e.g. "validateGetForecastInput" (a valid identifier; caller guarantees uniqueness). */
  name: string;
  /** The schema as plain JSON. Only local refs ("#", "#/$defs/X", "#/definitions/X", any JSON pointer into this schema) remain. */
  schema: unknown;
  dialect: SchemaDialect;
  /** Fill missing object properties from `default` (like ajv useDefaults). */
  applyDefaults: boolean;
  /** Optional doc comment text (plain text) for the function. */
  doc?: string;
  /** Whether the function is exported (default true); module-private otherwise. */
  exported?: boolean;
  /** The $ref helpers earlier validators of the same file emitted: used instead of compiling identical ones. */
  sharedHelpers?: SharedHelpers;
  /** The validate phase's analysis of `schema` (a user schema); protocol schemas, never validated, are analysed here. */
  analysis?: SchemaAnalysis;
}

/**
 * The $ref helpers emitted so far in one generated file, by the canonical text of what
 * their code depends on (see `sharingKey`): the first validator to need a helper names
 * and emits it, later ones with the same target call it.
 */
export type SharedHelpers = Map<string, string>;

export type RuntimeHelper = "deepEqual" | "codePointLength" | "pointerToken";

export interface CompiledValidator {
  /** TypeScript source, final as written: module-level constants, the exported function, then private helper functions. */
  readonly code: string;
  /** Runtime helpers the code uses; the caller writes the import (and imports the type ValidationIssue itself). */
  readonly helpers: ReadonlySet<RuntimeHelper>;
  /** Whether the code calls a helper that an earlier validator emitted (from `sharedHelpers`). */
  readonly callsSharedHelpers: boolean;
}

const runtimeHelpers: readonly RuntimeHelper[] = ["deepEqual", "codePointLength", "pointerToken"];

export function compileValidator(spec: ValidatorSpec): CompiledValidator {
  if (!/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(spec.name)) {
    throw new TypeError(`compileValidator: ${JSON.stringify(spec.name)} is not a valid function name`);
  }
  const analysis = spec.analysis ?? analyzeSchema(spec.schema, spec.dialect);
  // The validate phase reports schema problems (schema-check.ts) before anything is emitted.
  if (analysis.problems.length > 0) {
    throw new Error(`compileValidator: ${spec.name}: the schema was not checked before emit: ${analysis.problems.map((p) => `${p.pointer} ${p.message}`).join("; ")}`);
  }
  return new ValidatorCompiler(spec, analysis).compile();
}

// ---------------------------------------------------------------------------------------
// JSON types the value may still have at a point of the generated code, as a bit set.
// "number" is INTEGER | FRACTION, so `type: "integer"` narrows precisely.

const NULL = 1;
const BOOLEAN = 2;
const OBJECT = 4;
const ARRAY = 8;
const STRING = 16;
const INTEGER = 32;
const FRACTION = 64;
const NUMBER = INTEGER | FRACTION;
const ANY = NULL | BOOLEAN | OBJECT | ARRAY | STRING | NUMBER;

const typeNameMasks = new Map([
  ["null", NULL],
  ["boolean", BOOLEAN],
  ["object", OBJECT],
  ["array", ARRAY],
  ["string", STRING],
  ["integer", INTEGER],
]);

/** The types a `type` keyword (one name or a list of names) allows. */
function typeMask(type: string | readonly unknown[]): number {
  if (typeof type === "string") return typeNameMasks.get(type) ?? NUMBER;
  return type.reduce((mask: number, name) => mask | (typeNameMasks.get(String(name)) ?? NUMBER), 0);
}

/** The type of a JSON value (for enum/const members). */
function valueMask(value: unknown): number {
  if (value === null) return NULL;
  if (Array.isArray(value)) return ARRAY;
  switch (typeof value) {
    case "boolean":
      return BOOLEAN;
    case "string":
      return STRING;
    case "number":
      return Number.isInteger(value) ? INTEGER : FRACTION;
    default:
      return OBJECT;
  }
}

/**
 * A condition that is true when `value` is NOT of any type in `allowed`. Written with
 * typeof/Array.isArray so TypeScript narrows the value after the check.
 */
function notOfTypes(value: string, allowed: number): string {
  const parts: string[] = [];
  if (allowed & OBJECT) {
    // typeof null and typeof [] are "object" too.
    if (allowed & NULL && allowed & ARRAY) parts.push(`typeof ${value} !== "object"`);
    else if (allowed & ARRAY) parts.push(`typeof ${value} !== "object" || ${value} === null`);
    else if (allowed & NULL) parts.push(`typeof ${value} !== "object" || Array.isArray(${value})`);
    else parts.push(`typeof ${value} !== "object" || ${value} === null || Array.isArray(${value})`);
  } else {
    if (allowed & ARRAY) parts.push(`!Array.isArray(${value})`);
    if (allowed & NULL) parts.push(`${value} !== null`);
  }
  if (allowed & BOOLEAN) parts.push(`typeof ${value} !== "boolean"`);
  if (allowed & STRING) parts.push(`typeof ${value} !== "string"`);
  if ((allowed & NUMBER) === NUMBER) parts.push(`typeof ${value} !== "number"`);
  else if (allowed & INTEGER) parts.push(`typeof ${value} !== "number" || !Number.isInteger(${value})`);
  if (parts.length === 1) return parts[0]!;
  return parts.map((part) => (part.includes("||") ? `(${part})` : part)).join(" && ");
}

/** Guard for a keyword family when the value may also be of other types. */
function familyGuard(value: string, family: number, possible: number): string {
  switch (family) {
    case STRING:
      return `typeof ${value} === "string"`;
    case NUMBER:
      return `typeof ${value} === "number"`;
    case ARRAY:
      return `Array.isArray(${value})`;
    default: {
      // Drop the null/array tests when the value cannot be null/an array here.
      let guard = `typeof ${value} === "object"`;
      if (possible & NULL) guard += ` && ${value} !== null`;
      if (possible & ARRAY) guard += ` && !Array.isArray(${value})`;
      return guard;
    }
  }
}

// ---------------------------------------------------------------------------------------

/** `context` with some fields replaced, written out field by field: every context has one shape (spreading one is slower). */
function within(context: Context, changes: Partial<Context>): Context {
  return {
    names: context.names,
    value: changes.value ?? context.value,
    path: changes.path ?? context.path,
    mode: changes.mode ?? context.mode,
    defaults: changes.defaults ?? context.defaults,
    types: changes.types ?? context.types,
  };
}

type Mode = { readonly kind: "return" } | { readonly kind: "break"; readonly label: string };

/** Where the code being generated stands. */
interface Context {
  readonly names: LocalNames;
  /** Identifier holding the instance. */
  readonly value: string;
  /** Instance location, for issue paths. */
  readonly path: readonly PathPart[];
  readonly mode: Mode;
  /** Whether `default`s are filled here (only along properties, allOf and $ref). */
  readonly defaults: boolean;
  /** JSON types the value may still have (a bit set); TypeScript's view is never wider. */
  readonly types: number;
}

interface HelperFunction {
  readonly name: string;
  readonly pointer: string;
  readonly defaults: boolean;
  /** Its key in `sharedHelpers`, when it can be shared. */
  readonly sharingKey: string | undefined;
  /** Whether an earlier validator emitted it: it is called, not compiled here. */
  readonly emittedElsewhere: boolean;
  /** The function's body, once compiled. */
  body?: Code;
}

/** A $ref target's schema as exact JSON text, and the targets of the $refs in it. */
interface TargetText {
  readonly text: string;
  readonly refTargets: readonly string[];
}

interface Constant {
  readonly name: string;
  readonly declaration: string;
}

/** The keywords of each type-specific family; a schema without any of them emits no guard for it. */
const numberKeywords = ["maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum", "multipleOf"];
const stringKeywords = ["maxLength", "minLength", "pattern"];
const arrayKeywords = ["maxItems", "minItems", "items", "prefixItems", "additionalItems", "uniqueItems", "contains"];
const objectKeywords = [
  "properties",
  "required",
  "maxProperties",
  "minProperties",
  "dependentRequired",
  "dependencies",
  "dependentSchemas",
  "propertyNames",
  "patternProperties",
  "additionalProperties",
];

const familyOfKeyword = new Map<string, number>([
  ...numberKeywords.map((keyword) => [keyword, NUMBER] as const),
  ...stringKeywords.map((keyword) => [keyword, STRING] as const),
  ...arrayKeywords.map((keyword) => [keyword, ARRAY] as const),
  ...objectKeywords.map((keyword) => [keyword, OBJECT] as const),
]);

/**
 * The keyword families (NUMBER, STRING, ARRAY, OBJECT) the schema has keywords of, found
 * in one pass over its own keys (a number keyword counts only with a number value).
 */
function keywordFamilies(schema: JsonObject): number {
  let families = 0;
  for (const key of Object.keys(schema)) {
    const family = familyOfKeyword.get(key);
    if (family !== undefined && (family !== NUMBER || typeof schema[key] === "number")) families |= family;
  }
  return families;
}

/** A `"$ref": "…"` member in JSON text (the value still escaped). */
const refMember = /"\$ref":"((?:[^"\\]|\\.)*)"/g;

/** Whether JSON.stringify writes `value` exactly: it writes -0 as 0 and non-finite numbers as null. */
function hasExactJson(value: unknown): boolean {
  if (typeof value === "number") return Number.isFinite(value) && !Object.is(value, -0);
  if (value === null || typeof value !== "object") return true;
  return (Array.isArray(value) ? value : Object.values(value)).every(hasExactJson);
}

/** Longer one-line checks are written as blocks (the width of the statement, not counting its indentation). */
const statementWidth = 100;

/** Item types for which uniqueItems may compare with a Map (SameValueZero equals deepEqual on them). */
const SCALAR = NULL | BOOLEAN | STRING | NUMBER;

/** Above this length, uniqueItems over scalar items uses a Map instead of comparing all pairs. */
const uniqueItemsMapThreshold = 16;

/** Mutable per-compilation state: constants and helper functions shared by the generated functions. */
class ValidatorCompiler {
  /** By what they hold, in order of creation (Maps keep insertion order). */
  private readonly constants = new Map<string, Constant>();
  private readonly helpers = new Map<string, HelperFunction>();
  private readonly usedModuleNames = new Set<string>();
  private readonly fillsDefaultsAt = new Map<string, boolean>();
  private readonly targetTexts = new Map<string, TargetText>();
  /** Whether JSON.stringify writes the schema exactly (worked out when a helper may be shared). */
  private exactJson: boolean | undefined;

  constructor(
    private readonly spec: ValidatorSpec,
    private readonly analysis: SchemaAnalysis,
  ) {}

  compile(): CompiledValidator {
    const { spec } = this;
    const rootDefaults = spec.applyDefaults && this.fillsDefaults("");
    let mainBody: Code;
    if (this.analysis.rootReferenced) {
      // The root is also a $ref target: share one compiled body.
      mainBody = new Code();
      const helper = this.helperFor("", rootDefaults);
      mainBody.end(`return ${helper}(value);`, [helper, "value"]);
    } else {
      mainBody = this.functionBody(spec.schema, rootDefaults);
    }

    // Compile helpers until no new ones are requested (compiling one may request others).
    // (A Map's iteration also visits the entries added while it runs.)
    for (const helper of this.helpers.values()) {
      if (helper.emittedElsewhere) continue;
      helper.body = this.functionBody(resolvePointer(spec.schema, helper.pointer), helper.defaults);
    }

    // Keep only what the exported function reaches: code generated for a branch that was
    // later found to be always true may have requested helpers or constants nobody uses.
    // (Asking the few reached bodies is cheaper than copying their identifiers into one set.)
    const reachedBodies = [mainBody];
    const used = (name: string) => reachedBodies.some((body) => body.uses(name));
    const reached = new Set<HelperFunction>();
    for (let grew = true; grew; ) {
      grew = false;
      for (const helper of this.helpers.values()) {
        if (reached.has(helper) || !used(helper.name)) continue;
        reached.add(helper);
        grew = true;
        if (helper.body !== undefined) reachedBodies.push(helper.body);
      }
    }

    // The constants, the doc comment, the exported function, then the helpers, joined once.
    const lines: string[] = [];
    for (const constant of this.constants.values()) if (used(constant.name)) lines.push(constant.declaration);
    if (lines.length > 0) lines.push("");
    const doc = docComment(spec.doc);
    if (doc !== "") lines.push(doc.slice(0, -1));
    this.renderFunction(`${spec.exported === false ? "" : "export "}function ${spec.name}`, mainBody, lines);
    let callsSharedHelpers = false;
    for (const helper of this.helpers.values()) {
      if (!reached.has(helper)) continue;
      if (helper.emittedElsewhere) {
        callsSharedHelpers = true;
        continue;
      }
      lines.push("");
      this.renderFunction(`function ${helper.name}`, helper.body!, lines);
      // Offered to later validators only once emitted (a helper nothing reached is left out).
      if (helper.sharingKey !== undefined) spec.sharedHelpers?.set(helper.sharingKey, helper.name);
    }
    lines.push(""); // the final line break
    const helpers = new Set(runtimeHelpers.filter(used));
    return { code: lines.join("\n"), helpers, callsSharedHelpers };
  }

  /** Appends `head(parameter): ValidationIssue | undefined { body }` to `lines`. */
  private renderFunction(head: string, body: Code, lines: string[]): void {
    // `_value` when the body never looks at the value (e.g. schema `true`).
    lines.push(`${head}(${body.uses("value") ? "value" : "_value"}: unknown): ValidationIssue | undefined {`);
    body.render(lines, "  ");
    lines.push("}");
  }

  private functionBody(schema: unknown, defaults: boolean): Code {
    const body = new Code();
    const context: Context = {
      names: new LocalNames(),
      value: "value",
      path: [],
      mode: { kind: "return" },
      defaults,
      types: ANY,
    };
    this.emitSchema(schema, context, body);
    if (!body.terminated) body.line("return undefined;");
    return body;
  }

  // -------------------------------------------------------------------------------------
  // Module-level names

  /**
   * A module-level name for this validator's constants and helpers: the validator's name,
   * `_`, then what it holds (the `_` keeps it apart from every tool's validator name, which
   * has none). Taken names are numbered in order of use.
   */
  private moduleName(base: string): string {
    let name = `${this.spec.name}_${base}`;
    for (let n = 2; this.usedModuleNames.has(name); n++) name = `${this.spec.name}_${base}${n}`;
    this.usedModuleNames.add(name);
    return name;
  }

  /** A hoisted module-level constant, shared by identical declarations; named after the value it first checks. */
  private constant(kind: string, key: string, initializer: string, owner: string, typeAnnotation = ""): string {
    const dedupeKey = `${kind}\n${key}`;
    const existing = this.constants.get(dedupeKey);
    if (existing !== undefined) return existing.name;
    const name = this.moduleName(owner === "value" ? kind : `${owner}${kind.charAt(0).toUpperCase()}${kind.slice(1)}`);
    const constant = { name, declaration: `const ${name}${typeAnnotation} = ${initializer};` };
    this.constants.set(dedupeKey, constant);
    return name;
  }

  /** A module-level `ReadonlySet<type>` of the `literals`. */
  private setConstant(kind: string, type: string, literals: readonly string[], owner: string): string {
    return this.constant(kind, literals.join(","), `new Set<${type}>([${literals.join(", ")}])`, owner, `: ReadonlySet<${type}>`);
  }

  private regExpConstant(pattern: string, owner: string): string {
    return this.constant("pattern", pattern, `new RegExp(${stringLiteral(pattern)}, "u")`, owner);
  }

  /** The helper function validating the subschema at `pointer` (compiled later, once per variant). */
  private helperFor(pointer: string, defaults: boolean): string {
    const key = `${defaults ? "defaults" : "plain"}\n${pointer}`;
    const existing = this.helpers.get(key);
    if (existing !== undefined) return existing.name;
    const { sharedHelpers } = this.spec;
    const sharingKey = sharedHelpers === undefined ? undefined : this.sharingKey(pointer, defaults);
    const shared = sharingKey === undefined ? undefined : sharedHelpers?.get(sharingKey);
    if (shared !== undefined) {
      this.helpers.set(key, { name: shared, pointer, defaults, sharingKey, emittedElsewhere: true });
      return shared;
    }
    const tokens = pointerTokens(pointer);
    // Named after the definition (`validateGetForecastOutput_day`), or the pointer's tokens.
    let base: string;
    if (tokens.length === 0) base = "root";
    else if (tokens.length === 2 && (tokens[0] === "$defs" || tokens[0] === "definitions")) base = sanitizeName(tokens[1]!);
    else base = sanitizeName(tokens.join("_"));
    // A target that fills defaults gets a second variant for places defaults must not reach.
    if (!defaults && this.spec.applyDefaults && this.fillsDefaults(pointer)) {
      base += "_withoutDefaults";
    }
    const name = this.moduleName(base);
    const helper: HelperFunction = { name, pointer, defaults, sharingKey, emittedElsewhere: false };
    this.helpers.set(key, helper);
    return name;
  }

  /**
   * The canonical text of everything the helper for `pointer` compiles from: the dialect,
   * whether it fills defaults, and the pointer and JSON of its target and of every target
   * its $refs reach (in the order found, with where each $ref resolves). Constants and
   * locals are named per function, so equal keys mean the same code up to names.
   * Undefined when the schema's JSON text would not be exact (-0, non-finite numbers): never shared.
   */
  private sharingKey(pointer: string, defaults: boolean): string | undefined {
    this.exactJson ??= hasExactJson(this.spec.schema);
    if (!this.exactJson) return undefined;
    const parts = [this.spec.dialect, defaults ? "defaults" : "plain"];
    const reached = new Set([pointer]);
    for (const target of reached) {
      // (A Set's iteration also visits the entries added while it runs.)
      const targetText = this.targetText(target);
      parts.push(JSON.stringify(target), targetText.text);
      for (const next of targetText.refTargets) reached.add(next);
    }
    return parts.join("\n");
  }

  private targetText(pointer: string): TargetText {
    let targetText = this.targetTexts.get(pointer);
    if (targetText !== undefined) return targetText;
    const text = JSON.stringify(resolvePointer(this.spec.schema, pointer));
    // Every "$ref" member with a string value (a match inside a longer key only adds a target: never shares wrongly).
    const refTargets: string[] = [];
    const references: string[] = [];
    for (const match of text.matchAll(refMember)) {
      const ref = JSON.parse(`"${match[1]!}"`) as string;
      const target = this.analysis.refTargets.get(ref);
      if (target === undefined) continue;
      refTargets.push(target);
      references.push(`${JSON.stringify(ref)} -> ${JSON.stringify(target)}`);
    }
    // Where each $ref resolves is part of the text: the same $ref may mean another target elsewhere.
    targetText = { text: `${text}\n${references.join("\n")}`, refTargets };
    this.targetTexts.set(pointer, targetText);
    return targetText;
  }

  /** Whether the subschema at `pointer` fills defaults (worked out once per $ref target). */
  private fillsDefaults(pointer: string): boolean {
    let fills = this.fillsDefaultsAt.get(pointer);
    if (fills === undefined) {
      const { schema, dialect } = this.spec;
      fills = fillsDefaults(schema, resolvePointer(schema, pointer), dialect, this.analysis.refTargets);
      this.fillsDefaultsAt.set(pointer, fills);
    }
    return fills;
  }

  // -------------------------------------------------------------------------------------
  // Failing

  /** The statement that reports a failed check, and the identifiers it uses. */
  private fail(context: Context, message: string): { exit: string; uses: readonly string[] } {
    if (context.mode.kind === "break") return { exit: `break ${context.mode.label};`, uses: [context.mode.label] };
    const exit = `return { path: ${pathExpression(context.path)}, message: ${message} };`;
    return { exit, uses: pathUses(context.path) };
  }

  /**
   * `if (condition) fail;` on one line, or as a block when that line would pass
   * `statementWidth`. `uses` are the identifiers of the condition.
   */
  private failIf(out: Code, context: Context, condition: string, message: string, uses: readonly string[] = []): void {
    const { exit, uses: exitUses } = this.fail(context, message);
    const line = `if (${condition}) ${exit}`;
    if (line.length <= statementWidth) {
      out.line(line, [...uses, ...exitUses]);
      return;
    }
    const body = new Code();
    body.line(exit, exitUses);
    out.block(`if (${condition})`, body, uses);
  }

  private failAlways(out: Code, context: Context, message: string): void {
    const { exit, uses } = this.fail(context, message);
    out.end(exit, uses);
  }

  // -------------------------------------------------------------------------------------
  // Schemas

  /**
   * Emits the checks of `schema` for `context.value` into `out`. Returns the types the
   * value may have after these checks (narrowed by `type`), for code that follows in the
   * same block.
   */
  private emitSchema(schema: unknown, context: Context, out: Code): number {
    if (schema === true) return context.types;
    if (!isJsonObject(schema)) {
      this.failAlways(out, context, stringLiteral("boolean schema is false"));
      return 0;
    }
    if (isRefOnly(schema, this.spec.dialect)) {
      // draft-07: $ref replaces the whole schema; siblings are ignored.
      this.emitRef(schema["$ref"] as string, context, out);
      return context.types;
    }
    let current = context;
    if (schema["type"] !== undefined) {
      current = within(current, { types: this.emitType(schema["type"], current, out) });
    }
    // Keywords in ajv's order; each is skipped once the code so far always exits.
    if (typeof schema["$ref"] === "string" && !out.terminated) this.emitRef(schema["$ref"], current, out);
    if (!out.terminated && hasOwn(schema, "const")) this.emitEqualsOneOf([schema["const"]], current, out, "must be equal to constant");
    if (!out.terminated && Array.isArray(schema["enum"])) {
      this.emitEqualsOneOf(schema["enum"], current, out, "must be equal to one of the allowed values");
    }
    if (!out.terminated) current = this.emitAllOf(schema, current, out);
    if (!out.terminated) this.emitAnyOf(schema, current, out);
    if (!out.terminated) this.emitOneOf(schema, current, out);
    if (!out.terminated) this.emitNot(schema, current, out);
    if (!out.terminated) this.emitConditional(schema, current, out);
    const families = keywordFamilies(schema);
    for (const family of [NUMBER, STRING, ARRAY, OBJECT]) {
      if (families & family && !out.terminated) this.emitFamily(family, schema, current, out);
    }
    return out.terminated ? 0 : current.types;
  }

  /**
   * The checks of `schema` for the value `container[member]` (a property or item), which
   * is bound to a fresh local only if the checks use it.
   */
  private emitForNewValue(
    schema: unknown,
    container: string,
    member: string,
    nameHint: string,
    path: readonly PathPart[],
    context: Context,
    defaults: boolean,
  ): Code {
    const variable = context.names.fresh(nameHint, context.value);
    const checks = new Code();
    this.emitSchema(schema, within(context, { value: variable, path, defaults, types: ANY }), checks);
    if (checks.uses(variable)) checks.declareFirst(`const ${variable} = ${container}[${member}];`, [container]);
    return checks;
  }

  /**
   * Emits `schema` in break mode: the returned fragment breaks to `label` when the value
   * does not match. `canFail` is false when nothing can break (always matches),
   * `canPass` false when it always breaks.
   */
  private tryMatch(
    schema: unknown,
    context: Context,
    labelHint: string,
  ): { label: string; body: Code; types: number; canFail: boolean; canPass: boolean } {
    const label = context.names.fresh(labelHint);
    const body = new Code();
    // Defaults are never filled while only trying a schema: a failed try must leave no trace.
    const types = this.emitSchema(schema, within(context, { mode: { kind: "break", label }, defaults: false }), body);
    return { label, body, types, canFail: body.uses(label), canPass: !body.terminated };
  }

  // -------------------------------------------------------------------------------------
  // type, $ref, const, enum

  private emitType(type: unknown, context: Context, out: Code): number {
    const names = (typeof type === "string" ? [type] : (type as string[])).filter((n) => typeof n === "string");
    const allowed = typeMask(names);
    if ((context.types & ~allowed) === 0) return context.types; // already known to hold
    const message = stringLiteral(`must be ${names.join(",")}`);
    if ((context.types & allowed) === 0) {
      this.failAlways(out, context, message);
      return 0;
    }
    this.failIf(out, context, notOfTypes(context.value, allowed), message, [context.value]);
    return context.types & allowed;
  }

  private emitRef(ref: string, context: Context, out: Code): void {
    const pointer = this.analysis.refTargets.get(ref)!;
    const defaults = context.defaults && this.fillsDefaults(pointer);
    const helper = this.helperFor(pointer, defaults);
    if (context.mode.kind === "break") {
      const label = context.mode.label;
      out.line(`if (${helper}(${context.value}) !== undefined) break ${label};`, [helper, context.value, label]);
      return;
    }
    const issue = context.names.fresh("issue", context.value);
    out.line(`const ${issue} = ${helper}(${context.value});`, [helper, context.value]);
    if (context.path.length === 0) {
      out.line(`if (${issue} !== undefined) return ${issue};`);
    } else {
      // The helper reports paths relative to the referenced value; prefix ours.
      out.line(
        `if (${issue} !== undefined) return { path: ${pathExpression(context.path)} + ${issue}.path, message: ${issue}.message };`,
        pathUses(context.path),
      );
    }
  }

  private emitEqualsOneOf(members: readonly unknown[], context: Context, out: Code, message: string): void {
    // Members whose type the value can no longer have cannot match.
    const candidates = members.filter((m) => (valueMask(m) & context.types) !== 0);
    if (candidates.length === 0) {
      this.failAlways(out, context, stringLiteral(message));
      return;
    }
    const primitives = candidates.filter((m) => m === null || typeof m !== "object");
    const structured = candidates.filter((m) => m !== null && typeof m === "object");
    const value = context.value;
    const conditions: string[] = [];
    const uses = [value];
    if (primitives.length > 4) {
      const set = this.setConstant("values", "unknown", primitives.map((m) => inlineLiteral(m)), context.value);
      conditions.push(`!${set}.has(${value})`);
      uses.push(set);
    } else {
      for (const member of primitives) conditions.push(`(${value} as unknown) !== ${inlineLiteral(member)}`);
    }
    for (const member of structured) {
      const literal = this.constant("value", JSON.stringify(member), inlineLiteral(member), context.value, ": unknown");
      conditions.push(`!deepEqual(${value}, ${literal})`);
      uses.push("deepEqual", literal);
    }
    this.failIf(out, context, conditions.join(" && "), stringLiteral(message), uses);
  }

  // -------------------------------------------------------------------------------------
  // allOf, anyOf, oneOf, not, if/then/else (all apply to the same value)

  /** Returns the context after allOf, whose branches may have narrowed the types. */
  private emitAllOf(schema: JsonObject, context: Context, out: Code): Context {
    const branches = schema["allOf"];
    if (!Array.isArray(branches)) return context;
    let types = context.types;
    for (const branch of branches) {
      if (out.terminated) break;
      // Every branch must hold, so a branch's checks are simply inlined; defaults flow in.
      types = this.emitSchema(branch, within(context, { types }), out);
    }
    return within(context, { types });
  }

  private emitAnyOf(schema: JsonObject, context: Context, out: Code): void {
    const branches = schema["anyOf"];
    if (!Array.isArray(branches)) return;
    const anyOfLabel = context.names.fresh("anyOf");
    const tries = [];
    for (const branch of branches) {
      const attempt = this.tryMatch(branch, context, "branch");
      if (!attempt.canFail) return; // this branch always matches, so anyOf holds
      if (!attempt.canPass) continue; // this branch never matches
      attempt.body.end(`break ${anyOfLabel};`, [anyOfLabel]); // matched
      tries.push(attempt);
    }
    const message = stringLiteral("must match a schema in anyOf");
    if (tries.length === 0) {
      this.failAlways(out, context, message);
      return;
    }
    // anyOf: { branch: { ...checks; break anyOf (matched) } ...; fail }
    const block = new Code();
    for (const attempt of tries) block.labeled(attempt.label, attempt.body);
    this.failAlways(block, context, message);
    out.labeled(anyOfLabel, block);
  }

  private emitOneOf(schema: JsonObject, context: Context, out: Code): void {
    const branches = schema["oneOf"];
    if (!Array.isArray(branches)) return;
    const matches = context.names.fresh("matches");
    let alwaysMatching = 0;
    const tries = [];
    for (const branch of branches) {
      const attempt = this.tryMatch(branch, context, "branch");
      if (!attempt.canFail) alwaysMatching++;
      else if (attempt.canPass) {
        attempt.body.line(`${matches}++;`);
        tries.push(attempt);
      }
    }
    const message = stringLiteral("must match exactly one schema in oneOf");
    if (alwaysMatching > 1 || (tries.length === 0 && alwaysMatching === 0)) {
      this.failAlways(out, context, message);
      return;
    }
    if (tries.length === 0) return; // exactly one branch, always matching
    // Count the matching branches; exactly one may match.
    out.line(`let ${matches} = ${alwaysMatching};`);
    for (const attempt of tries) out.labeled(attempt.label, attempt.body);
    this.failIf(out, context, `${matches} !== 1`, message);
  }

  private emitNot(schema: JsonObject, context: Context, out: Code): void {
    if (!hasOwn(schema, "not")) return;
    const attempt = this.tryMatch(schema["not"], context, "not");
    const message = stringLiteral("must NOT be valid");
    if (!attempt.canFail) {
      this.failAlways(out, context, message);
      return;
    }
    if (!attempt.canPass) return;
    // not: { ...checks (break when the value does not match); fail (it matched) }
    this.failAlways(attempt.body, context, message);
    out.labeled(attempt.label, attempt.body);
  }

  private emitConditional(schema: JsonObject, context: Context, out: Code): void {
    if (!hasOwn(schema, "if")) return;
    const hasThen = hasOwn(schema, "then");
    const hasElse = hasOwn(schema, "else");
    if (!hasThen && !hasElse) return;
    // then/else apply for real (their issue is reported as is), but never fill defaults:
    // which branch applies depends on the value, like anyOf.
    const branchContext = within(context, { defaults: false });
    const attempt = this.tryMatch(schema["if"], context, "if");
    if (!attempt.canFail) {
      if (hasThen) this.emitSchema(schema["then"], branchContext, out);
      return;
    }
    if (!attempt.canPass) {
      if (hasElse) this.emitSchema(schema["else"], branchContext, out);
      return;
    }
    // The "then" checks run inside the "if" block, where the value is narrowed like "if" left it.
    if (hasThen) this.emitSchema(schema["then"], { ...branchContext, types: attempt.types }, attempt.body);
    if (!hasElse) {
      // if: { ...if checks (break when not matching); ...then checks }
      out.labeled(attempt.label, attempt.body);
      return;
    }
    // conditional: { if: { ...if checks; ...then checks; break conditional } ...else checks }
    const conditionalLabel = context.names.fresh("conditional");
    attempt.body.end(`break ${conditionalLabel};`, [conditionalLabel]);
    const block = new Code();
    block.labeled(attempt.label, attempt.body);
    this.emitSchema(schema["else"], branchContext, block);
    out.labeled(conditionalLabel, block);
  }

  // -------------------------------------------------------------------------------------
  // Type-specific keyword families

  /**
   * Emits one family's keywords. They only constrain values of that type, so unless the
   * value is known to have it they go behind a guard.
   */
  private emitFamily(family: number, schema: JsonObject, context: Context, out: Code): void {
    if ((context.types & family) === 0) return;
    const body = new Code();
    const familyContext = within(context, { types: context.types & family });
    if (family === NUMBER) this.emitNumberKeywords(schema, familyContext, body);
    else if (family === STRING) this.emitStringKeywords(schema, familyContext, body);
    else if (family === ARRAY) this.emitArrayKeywords(schema, familyContext, body);
    else this.emitObjectKeywords(schema, familyContext, body);
    if (body.isEmpty) return;
    if ((context.types & ~family) === 0) out.append(body);
    else out.block(`if (${familyGuard(context.value, family, context.types)})`, body, [context.value]);
  }

  private emitNumberKeywords(schema: JsonObject, context: Context, out: Code): void {
    const value = context.value;
    const limits: Array<[keyword: string, failsWhen: string, message: string]> = [
      ["maximum", ">", "<="],
      ["exclusiveMaximum", ">=", "<"],
      ["minimum", "<", ">="],
      ["exclusiveMinimum", "<=", ">"],
    ];
    for (const [keyword, failsWhen, requirement] of limits) {
      const limit = schema[keyword];
      if (typeof limit !== "number") continue;
      const message = stringLiteral(`must be ${requirement} ${limit}`);
      this.failIf(out, context, `${value} ${failsWhen} ${numberLiteral(limit)}`, message, [value]);
    }
    const divisor = schema["multipleOf"];
    if (typeof divisor === "number") {
      const message = stringLiteral(`must be multiple of ${divisor}`);
      if (Number.isInteger(divisor)) {
        // Exact for any finite value: % on doubles does not round.
        this.failIf(out, context, `${value} % ${numberLiteral(divisor)} !== 0`, message, [value]);
      } else {
        // A fractional divisor such as 0.01 has no exact binary form, so value / divisor
        // is an integer only up to rounding: allow a few units in the last place.
        const quotient = context.names.fresh("quotient", value, true);
        out.line(`const ${quotient} = ${value} / ${numberLiteral(divisor)};`, [value]);
        this.failIf(
          out,
          context,
          `Math.abs(${quotient} - Math.round(${quotient})) > Math.abs(${quotient}) * 4 * Number.EPSILON`,
          message,
        );
      }
    }
  }

  private emitStringKeywords(schema: JsonObject, context: Context, out: Code): void {
    const value = context.value;
    const maxLength = schema["maxLength"];
    const minLength = schema["minLength"];
    const needsLength = typeof maxLength === "number" || (typeof minLength === "number" && minLength > 0);
    if (needsLength) {
      // Lengths count code points: a surrogate pair is two UTF-16 units but one character.
      // A string has between length/2 and length code points, so only strings in between
      // the bounds need counting. (The cast keeps this valid where TypeScript narrowed more.)
      const length = context.names.fresh("length", value, true);
      out.line(`const ${length} = (${value} as string).length;`, [value]);
      if (typeof maxLength === "number") {
        const message = stringLiteral(`must NOT have more than ${maxLength} characters`);
        this.failIf(
          out,
          context,
          `${length} > ${numberLiteral(maxLength)} && (${length} > ${numberLiteral(2 * maxLength)} || codePointLength(${value}) > ${numberLiteral(maxLength)})`,
          message,
          [length, "codePointLength", value],
        );
      }
      if (typeof minLength === "number" && minLength > 0) {
        const message = stringLiteral(`must NOT have fewer than ${minLength} characters`);
        if (minLength === 1) {
          this.failIf(out, context, `${length} === 0`, message, [length]);
        } else {
          const condition =
            `${length} < ${numberLiteral(minLength)} || (${length} < ${numberLiteral(2 * minLength)} && codePointLength(${value}) < ${numberLiteral(minLength)})`;
          this.failIf(out, context, condition, message, [length, "codePointLength", value]);
        }
      }
    }
    const pattern = schema["pattern"];
    if (typeof pattern === "string") {
      const regExp = this.regExpConstant(pattern, value);
      this.failIf(out, context, `!${regExp}.test(${value})`, stringLiteral(`must match pattern "${pattern}"`), [regExp, value]);
    }
  }

  private emitArrayKeywords(schema: JsonObject, context: Context, out: Code): void {
    const names = context.names;
    const array = names.fresh("array", context.value, true);
    const length = names.fresh("length", context.value, true);
    const body = new Code();
    this.emitCountBounds(schema["maxItems"], schema["minItems"], length, length, "items", context, body);

    // Tuple schemas for the first items, then one schema for the rest.
    let tuple: readonly unknown[] = [];
    let rest: unknown = true;
    if (this.spec.dialect === "2020-12") {
      if (Array.isArray(schema["prefixItems"])) tuple = schema["prefixItems"];
      if (hasOwn(schema, "items")) rest = schema["items"];
    } else if (Array.isArray(schema["items"])) {
      tuple = schema["items"];
      if (hasOwn(schema, "additionalItems")) rest = schema["additionalItems"];
    } else if (hasOwn(schema, "items")) {
      rest = schema["items"];
    }
    tuple.forEach((itemSchema, index) => {
      const path = [...context.path, { kind: "static", token: String(index) } as const];
      const itemCode = this.emitForNewValue(itemSchema, array, String(index), "item", path, context, false);
      if (!itemCode.isEmpty) body.block(`if (${length} > ${index})`, itemCode, [length]);
    });
    if (rest === false) {
      this.emitCountBounds(tuple.length, undefined, length, length, "items", context, body);
    } else if (rest !== true) {
      const index = names.fresh("index", context.value);
      const path = [...context.path, { kind: "index", variable: index } as const];
      const itemCode = this.emitForNewValue(rest, array, index, "item", path, context, false);
      if (!itemCode.isEmpty)
        body.block(`for (let ${index} = ${tuple.length}; ${index} < ${length}; ${index}++)`, itemCode, [length]);
    }

    if (schema["uniqueItems"] === true) {
      // items ran first, so a scalar `type` on them is already guaranteed here.
      const restType = isJsonObject(rest) && !isRefOnly(rest, this.spec.dialect) ? rest["type"] : undefined;
      const restMask = typeof restType === "string" || Array.isArray(restType) ? typeMask(restType) : ANY;
      const scalarItems = tuple.length === 0 && (restMask & ~SCALAR) === 0;
      this.emitUniqueItems(array, length, scalarItems, context, body);
    }
    if (hasOwn(schema, "contains")) this.emitContains(schema, array, length, context, body);

    if (body.uses(array) || body.uses(length))
      out.line(`const ${array} = ${context.value} as readonly unknown[];`, [context.value]);
    if (body.uses(length)) out.line(`const ${length} = ${array}.length;`, [array]);
    out.append(body);
  }

  /** maxItems/minItems or maxProperties/minProperties: `count` (using `countOf`) is how many `noun` the value has. */
  private emitCountBounds(max: unknown, min: unknown, count: string, countOf: string, noun: string, context: Context, out: Code): void {
    if (typeof max === "number") {
      this.failIf(out, context, `${count} > ${numberLiteral(max)}`, stringLiteral(`must NOT have more than ${max} ${noun}`), [countOf]);
    }
    if (typeof min === "number" && min > 0) {
      this.failIf(out, context, `${count} < ${numberLiteral(min)}`, stringLiteral(`must NOT have fewer than ${min} ${noun}`), [countOf]);
    }
  }

  /** Reports the first later item equal to an earlier one, as "items ## later and earlier". */
  private emitUniqueItems(array: string, length: string, scalarItems: boolean, context: Context, out: Code): void {
    const later = context.names.fresh("later");
    const earlier = context.names.fresh("earlier");
    const message = `"must NOT have duplicate items (items ## " + ${later} + " and " + ${earlier} + " are identical)"`;
    const inner = new Code();
    this.failIf(inner, context, `deepEqual(${array}[${later}], ${array}[${earlier}])`, message, ["deepEqual", array]);
    const pairs = new Code();
    const outer = new Code();
    outer.block(`for (let ${earlier} = 0; ${earlier} < ${later}; ${earlier}++)`, inner);
    pairs.block(`for (let ${later} = 1; ${later} < ${length}; ${later}++)`, outer, [length]);
    if (!scalarItems) {
      out.append(pairs);
      return;
    }
    // Scalar items: comparing all pairs is quadratic, so long arrays use a Map from item to
    // its first index (SameValueZero matches deepEqual on strings, numbers, booleans, null).
    const firstIndex = context.names.fresh("firstIndex");
    const viaMap = new Code();
    viaMap.line(`const ${firstIndex} = new Map<unknown, number>();`);
    const loop = new Code();
    loop.line(`const ${earlier} = ${firstIndex}.get(${array}[${later}]);`, [array]);
    this.failIf(loop, context, `${earlier} !== undefined`, message);
    loop.line(`${firstIndex}.set(${array}[${later}], ${later});`, [array]);
    viaMap.block(`for (let ${later} = 0; ${later} < ${length}; ${later}++)`, loop, [length]);
    out.ifElse(`${length} > ${uniqueItemsMapThreshold}`, viaMap, pairs, [length]);
  }

  private emitContains(schema: JsonObject, array: string, length: string, context: Context, out: Code): void {
    const is2020 = this.spec.dialect === "2020-12";
    const min = is2020 && typeof schema["minContains"] === "number" ? schema["minContains"] : 1;
    const max = is2020 && typeof schema["maxContains"] === "number" ? schema["maxContains"] : undefined;
    const tooFew = stringLiteral(`must contain at least ${min} valid item(s)`);
    const tooMany = stringLiteral(`must contain at most ${max} valid item(s)`);
    const index = context.names.fresh("index", context.value);
    const path = [...context.path, { kind: "index", variable: index } as const];
    const label = context.names.fresh("contains");
    const attemptContext = within(context, { path, mode: { kind: "break", label } });
    const attempt = this.emitForNewValue(schema["contains"], array, index, "item", path, attemptContext, false);
    if (!attempt.uses(label)) {
      // Every item matches: the count is the length.
      if (min > 0) this.failIf(out, context, `${length} < ${numberLiteral(min)}`, tooFew, [length]);
      if (max !== undefined) this.failIf(out, context, `${length} > ${numberLiteral(max)}`, tooMany, [length]);
      return;
    }
    if (attempt.terminated) {
      // No item can match.
      if (min > 0) this.failAlways(out, context, tooFew);
      return;
    }
    if (min === 0 && max === undefined) return;
    const matches = context.names.fresh("matches");
    attempt.line(`${matches}++;`);
    // Without maxContains, stop counting as soon as enough items matched.
    if (max === undefined) attempt.line(`if (${matches} === ${numberLiteral(min)}) break;`);
    const loopBody = new Code();
    loopBody.labeled(label, attempt);
    out.line(`let ${matches} = 0;`);
    out.block(`for (let ${index} = 0; ${index} < ${length}; ${index}++)`, loopBody, [length]);
    if (min > 0) this.failIf(out, context, `${matches} < ${numberLiteral(min)}`, tooFew);
    if (max !== undefined) this.failIf(out, context, `${matches} > ${numberLiteral(max)}`, tooMany);
  }

  private emitObjectKeywords(schema: JsonObject, context: Context, out: Code): void {
    const names = context.names;
    const record = names.fresh("record", context.value, true);
    const keys = names.fresh("keys", context.value, true);
    const has = (name: string, literal = stringLiteral(name)) => `Object.prototype.hasOwnProperty.call(${record}, ${literal})`;
    let body = new Code();
    const properties = isJsonObject(schema["properties"]) ? schema["properties"] : {};
    const propertyNames = Object.keys(properties);

    // Defaults first, so that required sees them (as in ajv).
    // A property that `required` or a default guarantees needs no presence test later.
    const guaranteed = new Set<string>();
    if (context.defaults) {
      for (const name of propertyNames) {
        const sub = properties[name];
        if (!hasDefault(sub, this.spec.dialect)) continue;
        body.line(`if (!${has(name)}) ${assignProperty(record, name, inlineLiteral(sub["default"]))}`, [record]);
        guaranteed.add(name);
      }
    }

    const required = Array.isArray(schema["required"])
      ? schema["required"].filter((n): n is string => typeof n === "string")
      : [];
    for (const name of required) {
      if (guaranteed.has(name)) continue; // filled from its default just above
      this.failIf(body, context, `!${has(name)}`, stringLiteral(`must have required property '${name}'`), [record]);
      guaranteed.add(name);
    }

    // The rest sees the keys after defaults were filled; they are listed only if needed.
    const head = body;
    body = new Code();

    this.emitCountBounds(schema["maxProperties"], schema["minProperties"], `${keys}.length`, keys, "properties", context, body);

    // dependentRequired, and the array form of draft-07 dependencies.
    const dependencyLists: Array<[string, readonly unknown[]]> = [];
    const dependencySchemas: Array<[string, unknown]> = [];
    for (const keyword of ["dependentRequired", "dependencies", "dependentSchemas"]) {
      const map = schema[keyword];
      if (!isJsonObject(map)) continue;
      for (const name of Object.keys(map)) {
        const dependency = map[name];
        if (Array.isArray(dependency)) dependencyLists.push([name, dependency]);
        else dependencySchemas.push([name, dependency]);
      }
    }
    for (const [name, dependents] of dependencyLists) {
      const checks = new Code();
      for (const dependent of dependents) {
        if (typeof dependent !== "string") continue;
        const message = stringLiteral(`must have property '${dependent}' when property '${name}' is present`);
        this.failIf(checks, context, `!${has(dependent)}`, message, [record]);
      }
      if (!checks.isEmpty) body.block(`if (${has(name)})`, checks, [record]);
    }

    if (hasOwn(schema, "propertyNames")) this.emitPropertyNames(schema["propertyNames"], keys, context, body);

    for (const name of propertyNames) {
      const path = [...context.path, { kind: "static", token: name } as const];
      const literal = stringLiteral(name);
      const hint = propertyNameHint(name);
      const checks = this.emitForNewValue(properties[name], record, literal, hint, path, context, context.defaults);
      if (checks.isEmpty) continue;
      if (guaranteed.has(name)) body.append(checks);
      else body.block(`if (${has(name, literal)})`, checks, [record]);
    }

    this.emitOtherProperties(schema, propertyNames, record, keys, context, body);

    // dependentSchemas, and the schema form of draft-07 dependencies: they apply to this
    // same object when the property is present.
    for (const [name, dependency] of dependencySchemas) {
      const checks = new Code();
      this.emitSchema(dependency, within(context, { defaults: false }), checks);
      if (!checks.isEmpty) body.block(`if (${has(name)})`, checks, [record]);
    }

    if (head.uses(record) || body.uses(record) || body.uses(keys)) {
      out.line(`const ${record} = ${context.value} as Record<string, unknown>;`, [context.value]);
    }
    out.append(head);
    // Object.keys, not for…in: it lists only own properties, including a JSON "__proto__" key.
    if (body.uses(keys)) out.line(`const ${keys} = Object.keys(${record});`, [record]);
    out.append(body);
  }

  private emitPropertyNames(schema: unknown, keys: string, context: Context, out: Code): void {
    const key = context.names.fresh("key", context.value);
    const label = context.names.fresh("name");
    const attempt = new Code();
    // The key is a string, so the name schema starts out knowing that.
    this.emitSchema(
      schema,
      within(context, { value: key, types: STRING, mode: { kind: "break", label }, defaults: false }),
      attempt,
    );
    if (!attempt.uses(label)) return; // every name is valid
    const loopBody = new Code();
    if (!attempt.terminated) {
      // name: { ...checks (break when the name is invalid); continue } fail
      attempt.end("continue;");
      loopBody.labeled(label, attempt);
    }
    this.failAlways(loopBody, context, `"property name '" + ${key} + "' must be valid"`);
    out.block(`for (const ${key} of ${keys})`, loopBody, [keys]);
  }

  /** patternProperties and additionalProperties, in one pass over the keys. */
  private emitOtherProperties(
    schema: JsonObject,
    declared: readonly string[],
    record: string,
    keys: string,
    context: Context,
    out: Code,
  ): void {
    if (!hasOwn(schema, "patternProperties") && !hasOwn(schema, "additionalProperties")) return;
    const key = context.names.fresh("key", context.value);
    const keyPath = [...context.path, { kind: "key", variable: key } as const];
    const patternProperties = isJsonObject(schema["patternProperties"]) ? schema["patternProperties"] : {};
    const patterns = Object.keys(patternProperties).map((pattern) => {
      const checks = this.emitForNewValue(patternProperties[pattern], record, key, "property", keyPath, context, false);
      return { regExp: this.regExpConstant(pattern, context.value === "value" ? "key" : `${context.value}Key`), checks };
    });

    const additionalChecks = new Code();
    const additional = hasOwn(schema, "additionalProperties") ? schema["additionalProperties"] : true;
    if (additional === false) {
      this.failAlways(additionalChecks, context, `"must NOT have additional property '" + ${key} + "'"`);
    } else {
      additionalChecks.append(this.emitForNewValue(additional, record, key, "property", keyPath, context, false));
    }

    const loopBody = new Code();
    const matchedFlag = context.names.fresh("matchedPattern");
    // A pattern with checks records its match in a flag so additionalProperties need not test it again.
    const useFlag = !additionalChecks.isEmpty && patterns.some((p) => !p.checks.isEmpty);
    if (useFlag) loopBody.line(`let ${matchedFlag} = false;`);
    for (const { regExp, checks } of patterns) {
      if (checks.isEmpty) continue;
      const withFlag = new Code();
      if (useFlag) withFlag.line(`${matchedFlag} = true;`);
      withFlag.append(checks);
      loopBody.block(`if (${regExp}.test(${key}))`, withFlag, [regExp]);
    }
    if (!additionalChecks.isEmpty) {
      const isAdditional: string[] = [];
      const uses: string[] = [];
      if (useFlag) isAdditional.push(`!${matchedFlag}`);
      if (declared.length > 6) {
        const set = this.setConstant("names", "string", declared.map((name) => stringLiteral(name)), context.value);
        isAdditional.push(`!${set}.has(${key})`);
        uses.push(set);
      } else {
        for (const name of declared) isAdditional.push(`${key} !== ${stringLiteral(name)}`);
      }
      for (const { regExp, checks } of patterns) {
        if (useFlag && !checks.isEmpty) continue;
        isAdditional.push(`!${regExp}.test(${key})`);
        uses.push(regExp);
      }
      if (isAdditional.length === 0) loopBody.append(additionalChecks);
      else loopBody.block(`if (${isAdditional.join(" && ")})`, additionalChecks, uses);
    }
    if (loopBody.isEmpty) return;
    out.block(`for (const ${key} of ${keys})`, loopBody, [keys]);
  }
}

// ---------------------------------------------------------------------------------------

/** An identifier fragment for helper names derived from a JSON pointer. */
function sanitizeName(text: string): string {
  const cleaned = text
    .replace(/[^A-Za-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, 40);
  return cleaned === "" ? "schema" : cleaned;
}

/** The runtime helpers an instance path's expression calls. */
function pathUses(path: readonly PathPart[]): readonly string[] {
  return path.some((part) => part.kind === "key") ? ["pointerToken"] : [];
}

/** `record["name"] = value;`, except for "__proto__", where plain assignment would replace the prototype. */
function assignProperty(record: string, name: string, valueExpression: string): string {
  if (name === "__proto__") {
    return `Object.defineProperty(${record}, "__proto__", { value: ${valueExpression}, enumerable: true, configurable: true, writable: true });`;
  }
  return `${record}[${stringLiteral(name)}] = ${valueExpression};`;
}
