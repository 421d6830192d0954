// Building blocks for the validator compiler's output: statement fragments that know whether
// they end in an unconditional exit and which identifiers their kept lines use (to drop
// unused bindings, labels, constants and helper functions, so the output passes
// --noUnusedLocals) and are written through the one printer (file.ts), instance-path
// expressions, and the names of locals.

import { stringLiteral } from "../escape.js";
import type { CodeWriter } from "../file.js";
import { escapePointerToken } from "../../validate/schema-check.js";
import { reservedIdentifiers } from "../../model/names.js";

/**
 * A list of statements. Nested blocks are separate fragments appended with `block`, so
 * braces always balance. Once an unconditional `return`/`break` is written (`end`), the
 * fragment is `terminated` and further statements are dropped as unreachable.
 *
 * Each statement comes with the identifiers it uses that may go unused (locals, labels,
 * module-level names, runtime helpers); a fragment knows them for all the lines it keeps.
 *
 * A nested fragment is kept by reference, not copied (fragments nest many levels deep
 * before a function is complete), so it must not change afterwards: it is frozen.
 */
export class Code {
  /** Own lines (unindented) and nested fragments, in order. */
  private readonly parts: (string | Nested)[] = [];
  /** The identifiers used by the kept lines, nested fragments included. */
  private readonly used = new Set<string>();
  private frozen = false;
  /** True when the fragment ends with an unconditional exit (nothing after it would run). */
  terminated = false;

  get isEmpty(): boolean {
    return this.parts.length === 0; // an empty fragment is never nested
  }

  /** Whether a kept line uses `identifier`. */
  uses(identifier: string): boolean {
    return this.used.has(identifier);
  }

  /** Appends one statement (or comment) unless the fragment already terminated. */
  line(text: string, uses: readonly string[] = []): void {
    if (this.terminated) return;
    this.push(text, uses);
  }

  /** Appends an unconditional exit (`return …;` or `break label;`). */
  end(text: string, uses: readonly string[] = []): void {
    this.line(text, uses);
    this.terminated = true;
  }

  /** Puts a declaration before the statements (once they show that it is needed). */
  declareFirst(text: string, uses: readonly string[]): void {
    this.mutable();
    this.parts.unshift(text);
    for (const identifier of uses) this.used.add(identifier);
  }

  /** `head {` body `}`; the body's termination does not propagate (the head is a condition or loop). */
  block(head: string, body: Code, headUses: readonly string[] = []): void {
    if (this.terminated) return;
    this.push(`${head} {`, headUses);
    this.nest(body, 1);
    this.push("}");
  }

  /** `if (condition) { then } else { otherwise }`; terminated only if both branches are. */
  ifElse(condition: string, then: Code, otherwise: Code, conditionUses: readonly string[]): void {
    if (this.terminated) return;
    this.push(`if (${condition}) {`, conditionUses);
    this.nest(then, 1);
    this.push("} else {");
    this.nest(otherwise, 1);
    this.push("}");
    if (then.terminated && otherwise.terminated) this.terminated = true;
  }

  /** Appends another fragment's statements at this level; its termination carries over. */
  append(other: Code): void {
    if (this.terminated) return;
    this.nest(other, 0);
    if (other.terminated) this.terminated = true;
  }

  /**
   * `label: { body }` when the body breaks to `label`; otherwise the body can only fall
   * through or exit elsewhere, so it is inlined without the (unused) label.
   */
  labeled(label: string, body: Code): void {
    if (body.uses(label)) this.block(`${label}:`, body);
    else this.append(body);
  }

  /**
   * Writes `head {`, the statements one level deeper (nested fragments one more level each)
   * and `}` through the printer at its indentation, as one piece: a file of validators has
   * hundreds of thousands of lines, and one piece per line costs more in garbage collection
   * than the rest of the writing.
   */
  writeBlock(writer: CodeWriter, head: string): void {
    const lines = [`${head} {`];
    this.render(lines, [""], 1);
    lines.push("}");
    writer.line(lines.join("\n"));
  }

  private render(lines: string[], pads: string[], depth: number): void {
    // Two spaces a level, as the printer indents.
    while (pads.length <= depth) pads.push(`${pads[pads.length - 1]!}  `);
    for (const part of this.parts) {
      if (typeof part !== "string") part.code.render(lines, pads, depth + part.extraDepth);
      else lines.push(part === "" ? "" : pads[depth]! + part);
    }
  }

  private push(text: string, uses: readonly string[] = []): void {
    this.mutable();
    this.parts.push(text);
    for (const identifier of uses) this.used.add(identifier);
  }

  private nest(code: Code, extraDepth: number): void {
    this.mutable();
    code.frozen = true;
    if (code.isEmpty) return;
    this.parts.push({ code, extraDepth });
    for (const identifier of code.used) this.used.add(identifier);
  }

  private mutable(): void {
    if (this.frozen) throw new Error("Code: a fragment changed after it was nested in another");
  }
}

interface Nested {
  readonly code: Code;
  readonly extraDepth: number;
}

const literalOrComment = /"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|\/\/[^\n]*/g;

/** The code with string literals emptied and comments replaced (for tests that look for constructs in the code). */
export function stripLiteralsAndComments(code: string): string {
  return code.replace(literalOrComment, '""');
}

/** One step of an instance path: a fixed property or index, an index variable, or a key variable. */
export type PathPart =
  | { readonly kind: "static"; readonly token: string }
  | { readonly kind: "index"; readonly variable: string }
  | { readonly kind: "key"; readonly variable: string };

/**
 * A JS expression for the instance path, e.g. `"/days/" + index3 + "/name"`. It is only
 * evaluated when an issue is created, so building it costs nothing on the success path.
 */
export function pathExpression(parts: readonly PathPart[]): string {
  let expression = pathExpressions.get(parts);
  if (expression === undefined) {
    expression = buildPathExpression(parts);
    pathExpressions.set(parts, expression);
  }
  return expression;
}

// Every check of a value reports the same path: it is built once per path (paths are never changed).
const pathExpressions = new WeakMap<readonly PathPart[], string>();

function buildPathExpression(parts: readonly PathPart[]): string {
  const pieces: string[] = [];
  let pending = "";
  for (const part of parts) {
    if (part.kind === "static") {
      pending += `/${escapePointerToken(part.token)}`;
      continue;
    }
    pieces.push(stringLiteral(`${pending}/`));
    pending = "";
    pieces.push(part.kind === "index" ? part.variable : `pointerToken(${part.variable})`);
  }
  if (pending !== "" || pieces.length === 0) pieces.push(stringLiteral(pending));
  return pieces.join(" + ");
}

/**
 * Words a local of a generated function must not be named: keywords, the globals and
 * runtime helpers the generated code calls, and the property names of issues.
 */
const unavailable = new Set([
  // The identifier rule's reserved words (keywords and Object.prototype's names), plus words that read badly as locals.
  ...reservedIdentifiers,
  ...["async", "of", "as", "NaN", "Infinity"],
  ...["Object", "Array", "Number", "Math", "Map", "Set", "RegExp", "String", "JSON", "Symbol", "globalThis"],
  ...["deepEqual", "codePointLength", "pointerToken", "ValidationIssue", "value", "_value", "path", "message"],
]);

/**
 * Hands out the local names of one generated function, named after what they hold: a
 * property's value after the property (`city`), an item `item`, an object's record
 * `record`. A name already taken in the function (or unavailable) is qualified by the value
 * it derives from (`addressCity`, `daysLength`), then numbered in order of use within the
 * function, so names depend only on the schema.
 */
export class LocalNames {
  private readonly taken = new Set<string>();

  /**
   * A fresh name for `hint` (an identifier). `owner` is the local the new one derives from;
   * with `derived`, the qualified form comes first (`cityLength` rather than `length`).
   */
  fresh(hint: string, owner?: string, derived = false): string {
    const qualified =
      owner === undefined || owner === "value" ? undefined : `${owner}${hint.charAt(0).toUpperCase()}${hint.slice(1)}`;
    // The preferred form, then the other one, then the preferred form numbered.
    const first = derived && qualified !== undefined ? qualified : hint;
    if (this.take(first)) return first;
    const second = first === hint ? qualified : hint;
    if (second !== undefined && this.take(second)) return second;
    for (let n = 2; ; n++) if (this.take(`${first}${n}`)) return `${first}${n}`;
  }

  private take(name: string): boolean {
    if (this.taken.has(name) || unavailable.has(name)) return false;
    this.taken.add(name);
    return true;
  }
}

/**
 * A local-name hint from a property name: its words in camelCase (`first-name` →
 * `firstName`; a keyword or other unavailable word gains `Property`: `classProperty`), or
 * "property" for names without a short readable form.
 */
export function propertyNameHint(name: string): string {
  // Most names are one word already: only the first letter may change.
  if (readableHint.test(name)) return available(name.charAt(0).toLowerCase() + name.slice(1));
  const words = name.split(/[^A-Za-z0-9]+/).filter((word) => word !== "");
  const hint = words
    .map((word, i) =>
      i === 0 ? word.charAt(0).toLowerCase() + word.slice(1) : word.charAt(0).toUpperCase() + word.slice(1),
    )
    .join("");
  return readableHint.test(hint) ? available(hint) : "property";
}

const readableHint = /^[A-Za-z][A-Za-z0-9]{0,23}$/;

const available = (hint: string) => (unavailable.has(hint) ? `${hint}Property` : hint);
