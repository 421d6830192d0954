// Ahead-of-time JSON Schema → TypeScript validator compiler.
//
// Each schema becomes a plain function `(value: unknown) => ValidationIssue | undefined`
// made of straight-line checks: no schema interpretation, no `new Function`, no runtime
// dependency beyond the three helpers in runtime/validation.ts. The function returns the
// first issue it finds (ajv-style message, JSON pointer path) and allocates nothing when
// the value is valid. The code is written through the one printer (file.ts).
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
//   Validators of one file share a helper when its code would be the same (module-scope.ts).
// - Instance paths are built only when an issue is created.
// - Each emitted statement records the identifiers it uses: a binding, label, constant or
//   helper that no kept statement uses is left out, so the output passes --noUnusedLocals.
// - Comparisons against const/enum literals are written `(value as unknown) === …` so
//   TypeScript does not narrow the value to a literal type that later checks contradict.
//
// The parts:
// - this file: the entry point, the order of keywords, failing, trying a schema;
// - keywords/: one compiler per keyword group — types.ts (type, const, enum), refs.ts
//   ($ref), combinators.ts (allOf, anyOf, oneOf, not, if/then/else), numbers.ts,
//   strings.ts, arrays.ts, objects.ts; formats have none: `format` is an annotation (in
//   2020-12 it only asserts when a format-assertion vocabulary is required, and mcp-gen
//   never validates formats);
// - json-types.ts: the JSON types a value may still have, and the keyword families;
// - emitter.ts: the context keyword compilers work in, and the services they call;
// - module-scope.ts: hoisted constants and $ref helper functions, shared across a file;
// - canonical.ts: what a schema's code depends on, to share identical helpers;
// - code.ts: statement fragments, instance paths, local names.

import { CodeWriter } from "../file.js";
import { stringLiteral } from "../escape.js";
import { Code, LocalNames, pathExpression, type PathPart } from "./code.js";
import { pathUses, within, type Attempt, type Context, type SchemaEmitter } from "./emitter.js";
import { ANY, ARRAY, NUMBER, OBJECT, STRING, familyGuard, keywordFamilies } from "./json-types.js";
import { ModuleScope, type HelperFunction, type HelperNamer, type SharedHelpers } from "./module-scope.js";
import { emitArrayKeywords } from "./keywords/arrays.js";
import { emitAllOf, emitAnyOf, emitConditional, emitNot, emitOneOf } from "./keywords/combinators.js";
import { emitNumberKeywords } from "./keywords/numbers.js";
import { emitObjectKeywords } from "./keywords/objects.js";
import { emitRef } from "./keywords/refs.js";
import { emitStringKeywords } from "./keywords/strings.js";
import { emitEqualsOneOf, emitType } from "./keywords/types.js";
import {
  analyzeSchema,
  hasOwn,
  isJsonObject,
  isRefOnly,
  resolvePointer,
  type JsonObject,
  type SchemaAnalysis,
  type SchemaDialect,
} from "../../validate/schema-check.js";

export type { HelperNamer, SharedHelpers } from "./module-scope.js";

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
  /** Names the $ref helpers this validator is the first of its file to emit (default: `<name>_<definition>`). */
  helperName?: HelperNamer;
}

export type RuntimeHelper = "deepEqual" | "codePointLength" | "pointerToken";

export interface CompiledValidator {
  /** Writes the validator at the writer's position: module-level constants, the function, then private helper functions. */
  write(writer: CodeWriter): void;
  /** What `write` writes at the top level of a file (for comparing validators, and for tests). */
  readonly code: string;
  /** Runtime helpers the code uses; the caller imports them (and the type ValidationIssue). */
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
    throw new Error(
      `compileValidator: ${spec.name}: the schema was not checked before emit: ${analysis.problems.map((p) => `${p.pointer} ${p.message}`).join("; ")}`,
    );
  }
  return new ValidatorCompiler(spec, analysis).compile();
}

/** Longer one-line checks are written as blocks (the width of the statement, not counting its indentation). */
const statementWidth = 100;

/** A function to write: `head(value: unknown): ValidationIssue | undefined { body }`. */
interface FunctionText {
  readonly head: string;
  readonly body: Code;
}

/** Per-compilation state: the module scope (constants, helpers) and the keyword order. */
class ValidatorCompiler implements SchemaEmitter {
  readonly scope: ModuleScope;
  readonly dialect: SchemaDialect;

  constructor(
    private readonly spec: ValidatorSpec,
    private readonly analysis: SchemaAnalysis,
  ) {
    this.scope = new ModuleScope(spec, analysis);
    this.dialect = spec.dialect;
  }

  compile(): CompiledValidator {
    const { spec, scope } = this;
    const rootDefaults = spec.applyDefaults && scope.fillsDefaults("");
    let mainBody: Code;
    if (this.analysis.rootReferenced) {
      // The root is also a $ref target: share one compiled body.
      mainBody = new Code();
      const helper = scope.helperFor("", rootDefaults);
      mainBody.end(`return ${helper}(value);`, [helper, "value"]);
    } else {
      mainBody = this.functionBody(spec.schema, rootDefaults);
    }
    // Compile helpers until no new ones are requested (compiling one may request others).
    // (A Map's iteration also visits the entries added while it runs.)
    for (const helper of scope.helperFunctions()) {
      if (helper.emittedElsewhere) continue;
      helper.body = this.functionBody(resolvePointer(spec.schema, helper.pointer), helper.defaults);
    }
    const { reached, used } = reachedFrom(mainBody, [...scope.helperFunctions()]);
    const functions: FunctionText[] = [
      { head: `${spec.exported === false ? "" : "export "}function ${spec.name}`, body: mainBody },
    ];
    let callsSharedHelpers = false;
    for (const helper of scope.helperFunctions()) {
      if (!reached.has(helper)) continue;
      if (helper.emittedElsewhere) {
        callsSharedHelpers = true;
        continue;
      }
      functions.push({ head: `function ${helper.name}`, body: helper.body! });
      // Offered to later validators only once emitted (a helper nothing reached is left out).
      if (helper.sharingKey !== undefined) spec.sharedHelpers?.set(helper.sharingKey, helper.name);
    }
    const helpers = new Set(runtimeHelpers.filter(used));
    return new Compiled(scope.constantDeclarations(used), spec.doc, functions, helpers, callsSharedHelpers);
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
  failIf(out: Code, context: Context, condition: string, message: string, uses: readonly string[] = []): void {
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

  failAlways(out: Code, context: Context, message: string): void {
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
  emitSchema(schema: unknown, context: Context, out: Code): number {
    if (schema === true) return context.types;
    if (!isJsonObject(schema)) {
      this.failAlways(out, context, stringLiteral("boolean schema is false"));
      return 0;
    }
    if (isRefOnly(schema, this.dialect)) {
      // draft-07: $ref replaces the whole schema; siblings are ignored.
      emitRef(this, schema["$ref"] as string, context, out);
      return context.types;
    }
    let current = context;
    if (schema["type"] !== undefined) {
      current = within(current, { types: emitType(this, schema["type"], current, out) });
    }
    // Keywords in ajv's order; each is skipped once the code so far always exits.
    if (typeof schema["$ref"] === "string" && !out.terminated) emitRef(this, schema["$ref"], current, out);
    if (!out.terminated && hasOwn(schema, "const"))
      emitEqualsOneOf(this, [schema["const"]], current, out, "must be equal to constant");
    if (!out.terminated && Array.isArray(schema["enum"])) {
      emitEqualsOneOf(this, schema["enum"], current, out, "must be equal to one of the allowed values");
    }
    if (!out.terminated) current = emitAllOf(this, schema, current, out);
    if (!out.terminated) emitAnyOf(this, schema, current, out);
    if (!out.terminated) emitOneOf(this, schema, current, out);
    if (!out.terminated) emitNot(this, schema, current, out);
    if (!out.terminated) emitConditional(this, schema, current, out);
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
  emitForNewValue(
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
  tryMatch(schema: unknown, context: Context, labelHint: string): Attempt {
    const label = context.names.fresh(labelHint);
    const body = new Code();
    // Defaults are never filled while only trying a schema: a failed try must leave no trace.
    const types = this.emitSchema(schema, within(context, { mode: { kind: "break", label }, defaults: false }), body);
    return { label, body, types, canFail: body.uses(label), canPass: !body.terminated };
  }

  /**
   * Emits one family's keywords. They only constrain values of that type, so unless the
   * value is known to have it they go behind a guard.
   */
  private emitFamily(family: number, schema: JsonObject, context: Context, out: Code): void {
    if ((context.types & family) === 0) return;
    const body = new Code();
    const familyContext = within(context, { types: context.types & family });
    if (family === NUMBER) emitNumberKeywords(this, schema, familyContext, body);
    else if (family === STRING) emitStringKeywords(this, schema, familyContext, body);
    else if (family === ARRAY) emitArrayKeywords(this, schema, familyContext, body);
    else emitObjectKeywords(this, schema, familyContext, body);
    if (body.isEmpty) return;
    if ((context.types & ~family) === 0) out.append(body);
    else out.block(`if (${familyGuard(context.value, family, context.types)})`, body, [context.value]);
  }
}

/**
 * The helpers the main function reaches (directly or through other helpers), and whether
 * a name is used by a reached function: code generated for a branch that was later found
 * to be always true may have requested helpers or constants nobody uses.
 */
function reachedFrom(
  mainBody: Code,
  helpers: readonly HelperFunction[],
): { reached: Set<HelperFunction>; used: (name: string) => boolean } {
  // (Asking the few reached bodies is cheaper than copying their identifiers into one set.)
  const reachedBodies = [mainBody];
  const used = (name: string) => reachedBodies.some((body) => body.uses(name));
  const reached = new Set<HelperFunction>();
  for (let grew = true; grew;) {
    grew = false;
    for (const helper of helpers) {
      if (reached.has(helper) || !used(helper.name)) continue;
      reached.add(helper);
      grew = true;
      if (helper.body !== undefined) reachedBodies.push(helper.body);
    }
  }
  return { reached, used };
}

/**
 * A compiled validator, as a class: V8 keeps an object made by a literal with a getter (and
 * all it references: here every statement fragment of the validator) alive through minor
 * garbage collections until a full one, so a thousand such results made emitting the
 * composed catalog twice as slow, most of it in the scavenger.
 */
class Compiled implements CompiledValidator {
  constructor(
    private readonly constants: readonly string[],
    private readonly doc: string | undefined,
    private readonly functions: readonly FunctionText[],
    readonly helpers: ReadonlySet<RuntimeHelper>,
    readonly callsSharedHelpers: boolean,
  ) {}

  /** The constants, the doc comment, the function, then the helpers, a blank line between. */
  write(writer: CodeWriter): void {
    const { constants, functions } = this;
    for (const constant of constants) writer.line(constant);
    if (constants.length > 0) writer.line();
    writer.doc(this.doc);
    functions.forEach(({ head, body }, i) => {
      if (i > 0) writer.line();
      // `_value` when the body never looks at the value (e.g. schema `true`).
      body.writeBlock(
        writer,
        `${head}(${body.uses("value") ? "value" : "_value"}: unknown): ValidationIssue | undefined`,
      );
    });
  }

  get code(): string {
    const writer = new CodeWriter();
    this.write(writer);
    return writer.toString();
  }
}
