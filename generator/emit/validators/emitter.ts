// What a keyword compiler (keywords/*.ts) works with: the context of the code being
// generated (which value, at which instance path, how a failed check exits, which types
// the value may still have) and the compiler's services, behind an interface so that the
// keyword modules and the compiler that calls them do not import each other.
import type { SchemaDialect } from "../../validate/schema-check.js";
import type { Code, LocalNames, PathPart } from "./code.js";
import type { ModuleScope } from "./module-scope.js";

/** How a failed check exits: return an issue, or break out of a labeled block (a schema only being tried). */
export type Mode = { readonly kind: "return" } | { readonly kind: "break"; readonly label: string };

/** Where the code being generated stands. */
export interface Context {
  readonly names: LocalNames;
  /** Identifier holding the instance. */
  readonly value: string;
  /** Instance location, for issue paths. */
  readonly path: readonly PathPart[];
  readonly mode: Mode;
  /** Whether `default`s are filled here (only along properties, allOf and $ref). */
  readonly defaults: boolean;
  /** JSON types the value may still have (a bit set, json-types.ts); TypeScript's view is never wider. */
  readonly types: number;
}

/** `context` with some fields replaced, written out field by field: every context has one shape (spreading one is slower). */
export function within(context: Context, changes: Partial<Context>): Context {
  return {
    names: context.names,
    value: changes.value ?? context.value,
    path: changes.path ?? context.path,
    mode: changes.mode ?? context.mode,
    defaults: changes.defaults ?? context.defaults,
    types: changes.types ?? context.types,
  };
}

/** A schema compiled in break mode (see SchemaEmitter.tryMatch). */
export interface Attempt {
  readonly label: string;
  readonly body: Code;
  /** The types the value may have where the body falls through. */
  readonly types: number;
  /** False when nothing in the body can break (the schema always matches). */
  readonly canFail: boolean;
  /** False when the body always breaks (the schema never matches). */
  readonly canPass: boolean;
}

/** The compiler's services to the keyword compilers (implemented in compile-schema.ts). */
export interface SchemaEmitter {
  readonly dialect: SchemaDialect;
  readonly scope: ModuleScope;
  /** Emits the checks of `schema` for `context.value`; returns the types the value may have after them. */
  emitSchema(schema: unknown, context: Context, out: Code): number;
  /** The checks of `schema` for `container[member]`, bound to a fresh local (named after `nameHint`) only if used. */
  emitForNewValue(
    schema: unknown,
    container: string,
    member: string,
    nameHint: string,
    path: readonly PathPart[],
    context: Context,
    defaults: boolean,
  ): Code;
  /** `schema` in break mode: the body breaks to its label when the value does not match. */
  tryMatch(schema: unknown, context: Context, labelHint: string): Attempt;
  /** `if (condition) fail;` (`uses`: the identifiers of the condition). */
  failIf(out: Code, context: Context, condition: string, message: string, uses?: readonly string[]): void;
  /** An unconditional failure. */
  failAlways(out: Code, context: Context, message: string): void;
}

/** The runtime helpers an instance path's expression calls. */
export function pathUses(path: readonly PathPart[]): readonly string[] {
  return path.some((part) => part.kind === "key") ? ["pointerToken"] : [];
}
