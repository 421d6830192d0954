// The module-level names one compiled validator adds to its file: hoisted constants
// (regular expressions, sets of allowed values, structured const/enum members) and the
// private helper function compiled once per $ref target (so recursive schemas work), which
// validators of one file share when their code would be the same (see `sharingKey`).
import { pointerTokens } from "../../load/source.js";
import { fillsDefaults, resolvePointer, type SchemaAnalysis, type SchemaDialect } from "../../validate/schema-check.js";
import { stringLiteral } from "../escape.js";
import { canonicalPointer, canonicalSchema, dialectKey } from "./canonical.js";
import type { Code } from "./code.js";

/**
 * The $ref helpers emitted so far in one generated file, by the canonical text of what
 * their code depends on (see `sharingKey`): the first validator to need a helper names
 * and emits it, later ones with the same target call it.
 */
export type SharedHelpers = Map<string, string>;

/**
 * Names the helper for a $ref target that no earlier validator of the file emitted:
 * `pointer` is the target's JSON pointer, `sharingKey` what its code depends on. Undefined
 * leaves the name to the compiler (`<validator>_<definition>`). The caller keeps the names
 * it returns apart from every other name of the file.
 */
export type HelperNamer = (pointer: string, sharingKey: string) => string | undefined;

/** What the scope needs of the validator being compiled. */
export interface ScopeSpec {
  readonly name: string;
  readonly schema: unknown;
  readonly dialect: SchemaDialect;
  readonly applyDefaults: boolean;
  readonly sharedHelpers?: SharedHelpers | undefined;
  readonly helperName?: HelperNamer | undefined;
}

export interface HelperFunction {
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

interface Constant {
  readonly name: string;
  readonly declaration: string;
}

/** A $ref target's canonical text, and the targets of the $refs in it. */
interface TargetText {
  readonly text: string;
  readonly refTargets: readonly string[];
  readonly dialectFree: boolean;
}

export class ModuleScope {
  /** By what they hold, in order of creation (Maps keep insertion order). */
  private readonly constants = new Map<string, Constant>();
  private readonly helpers = new Map<string, HelperFunction>();
  private readonly usedModuleNames = new Set<string>();
  private readonly fillsDefaultsAt = new Map<string, boolean>();
  private readonly targetTexts = new Map<string, TargetText>();
  /** Whether JSON.stringify writes the schema exactly (worked out when a helper may be shared). */
  private exactJson: boolean | undefined;

  constructor(
    private readonly spec: ScopeSpec,
    private readonly analysis: SchemaAnalysis,
  ) {}

  /** The helper functions requested so far, in order (the list grows while compiling them). */
  helperFunctions(): Iterable<HelperFunction> {
    return this.helpers.values();
  }

  /** The declarations of the constants `used` reports used, in order of creation. */
  constantDeclarations(used: (name: string) => boolean): string[] {
    return [...this.constants.values()]
      .filter((constant) => used(constant.name))
      .map((constant) => constant.declaration);
  }

  /** The JSON pointer a $ref of the schema resolves to (the validate phase resolved every one). */
  refTarget(ref: string): string {
    return this.analysis.refTargets.get(ref)!;
  }

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
  constant(kind: string, key: string, initializer: string, owner: string, typeAnnotation = ""): string {
    const dedupeKey = `${kind}\n${key}`;
    const existing = this.constants.get(dedupeKey);
    if (existing !== undefined) return existing.name;
    const name = this.moduleName(owner === "value" ? kind : `${owner}${kind.charAt(0).toUpperCase()}${kind.slice(1)}`);
    const constant = { name, declaration: `const ${name}${typeAnnotation} = ${initializer};` };
    this.constants.set(dedupeKey, constant);
    return name;
  }

  /** A module-level `ReadonlySet<type>` of the `literals`. */
  setConstant(kind: string, type: string, literals: readonly string[], owner: string): string {
    return this.constant(
      kind,
      literals.join(","),
      `new Set<${type}>([${literals.join(", ")}])`,
      owner,
      `: ReadonlySet<${type}>`,
    );
  }

  regExpConstant(pattern: string, owner: string): string {
    return this.constant("pattern", pattern, `new RegExp(${stringLiteral(pattern)}, "u")`, owner);
  }

  /** The helper function validating the subschema at `pointer` (compiled later, once per variant). */
  helperFor(pointer: string, defaults: boolean): string {
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
    const named = sharingKey === undefined ? undefined : this.spec.helperName?.(pointer, sharingKey);
    const name = named ?? this.moduleName(this.helperBase(pointer, defaults));
    this.helpers.set(key, { name, pointer, defaults, sharingKey, emittedElsewhere: false });
    return name;
  }

  /** Named after the definition (`day` in `validateGetForecastOutput_day`), or the pointer's tokens. */
  private helperBase(pointer: string, defaults: boolean): string {
    const tokens = pointerTokens(pointer);
    let base: string;
    if (tokens.length === 0) base = "root";
    else if (tokens.length === 2 && (tokens[0] === "$defs" || tokens[0] === "definitions"))
      base = sanitizeName(tokens[1]!);
    else base = sanitizeName(tokens.join("_"));
    // A target that fills defaults gets a second variant for places defaults must not reach.
    if (!defaults && this.spec.applyDefaults && this.fillsDefaults(pointer)) base += "_withoutDefaults";
    return base;
  }

  /**
   * The canonical text of everything the helper for `pointer` compiles from: the dialect
   * (unless no keyword there reads differently in the two), whether it fills defaults, and
   * the pointer and canonical form (canonical.ts) of its target and of every target its
   * $refs reach (in the order found, with where each $ref resolves). Constants and locals
   * are named per function, so equal keys mean the same code up to names. Undefined when
   * the schema's JSON text would not be exact (-0, non-finite numbers): never shared.
   */
  private sharingKey(pointer: string, defaults: boolean): string | undefined {
    this.exactJson ??= hasExactJson(this.spec.schema);
    if (!this.exactJson) return undefined;
    const parts = [defaults ? "defaults" : "plain"];
    let dialectFree = true;
    const reached = new Set([pointer]);
    for (const target of reached) {
      // (A Set's iteration also visits the entries added while it runs.)
      const targetText = this.targetText(target);
      parts.push(JSON.stringify(canonicalPointer(target)), targetText.text);
      dialectFree &&= targetText.dialectFree;
      for (const next of targetText.refTargets) reached.add(next);
    }
    return `${dialectKey(dialectFree, this.spec.dialect)}\n${parts.join("\n")}`;
  }

  private targetText(pointer: string): TargetText {
    let targetText = this.targetTexts.get(pointer);
    if (targetText !== undefined) return targetText;
    const canonical = canonicalSchema(resolvePointer(this.spec.schema, pointer));
    const refTargets: string[] = [];
    const references: string[] = [];
    for (const ref of canonical.refs) {
      const target = this.analysis.refTargets.get(ref);
      if (target === undefined) continue;
      refTargets.push(target);
      references.push(`${JSON.stringify(canonicalPointer(ref))} -> ${JSON.stringify(canonicalPointer(target))}`);
    }
    // Where each $ref resolves is part of the text: the same $ref may mean another target elsewhere.
    targetText = {
      text: `${canonical.text}\n${references.join("\n")}`,
      refTargets,
      dialectFree: canonical.dialectFree,
    };
    this.targetTexts.set(pointer, targetText);
    return targetText;
  }

  /** Whether the subschema at `pointer` fills defaults (worked out once per $ref target). */
  fillsDefaults(pointer: string): boolean {
    let fills = this.fillsDefaultsAt.get(pointer);
    if (fills === undefined) {
      const { schema, dialect } = this.spec;
      fills = fillsDefaults(schema, resolvePointer(schema, pointer), dialect, this.analysis.refTargets);
      this.fillsDefaultsAt.set(pointer, fills);
    }
    return fills;
  }
}

/** Whether JSON.stringify writes `value` exactly: it writes -0 as 0 and non-finite numbers as null. */
function hasExactJson(value: unknown): boolean {
  if (typeof value === "number") return Number.isFinite(value) && !Object.is(value, -0);
  if (value === null || typeof value !== "object") return true;
  return (Array.isArray(value) ? value : Object.values(value)).every(hasExactJson);
}

/** An identifier fragment for helper names derived from a JSON pointer. */
function sanitizeName(text: string): string {
  const cleaned = text
    .replace(/[^A-Za-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, 40);
  return cleaned === "" ? "schema" : cleaned;
}
