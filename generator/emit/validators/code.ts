// Building blocks for the validator compiler's output: code fragments that know whether
// they end in an unconditional exit, instance-path expressions, and the identifiers each
// fragment mentions (used to drop unused bindings, labels, constants and helper
// functions, so the output passes --noUnusedLocals).

import { stringLiteral } from "../escape.js";
import { escapePointerToken } from "../../validate/schema-check.js";

/**
 * A list of statements. Nested blocks are separate fragments appended with `block`, so
 * braces always balance. Once an unconditional `return`/`break` is written (`end`), the
 * fragment is `terminated` and further statements are dropped as unreachable.
 *
 * A nested fragment is kept by reference, not copied (fragments nest many levels deep
 * before a function is complete), so it must not change afterwards: it is frozen.
 */
export class Code {
  /** Own lines (unindented) and nested fragments, in order. */
  private readonly parts: (string | Nested)[] = [];
  /** The own lines, one per line of text: what `mentions` searches (joined when first searched). */
  private ownText: string | undefined = "";
  private readonly nested: Code[] = [];
  private lineCount = 0;
  private frozen = false;
  /** True when the fragment ends with an unconditional exit (nothing after it would run). */
  terminated = false;

  get isEmpty(): boolean {
    return this.lineCount === 0;
  }

  /** Appends one statement (or comment) unless the fragment already terminated. */
  line(text: string): void {
    if (this.terminated) return;
    this.push(text);
  }

  /** Appends an unconditional exit (`return …;` or `break label;`). */
  end(text: string): void {
    this.line(text);
    this.terminated = true;
  }

  /** `head {` body `}`; the body's termination does not propagate (the head is a condition or loop). */
  block(head: string, body: Code): void {
    if (this.terminated) return;
    this.push(`${head} {`);
    this.nest(body, 1);
    this.push("}");
  }

  /** `if (condition) { then } else { otherwise }`; terminated only if both branches are. */
  ifElse(condition: string, then: Code, otherwise: Code): void {
    if (this.terminated) return;
    this.push(`if (${condition}) {`);
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
    if (body.mentions(label)) this.block(`${label}:`, body);
    else this.append(body);
  }

  /** Whether `identifier` occurs in the code outside string literals and comments. */
  mentions(identifier: string): boolean {
    this.ownText ??= this.parts.filter((part): part is string => typeof part === "string").join("\n");
    if (mentionsIn(this.ownText, identifier)) return true;
    for (const code of this.nested) if (code.mentions(identifier)) return true;
    return false;
  }

  /** The statements' lines, each prefixed with `indent` once per nesting level. */
  renderLines(indent: string): string[] {
    const lines: string[] = [];
    this.renderInto(lines, [indent], 0);
    return lines;
  }

  private renderInto(lines: string[], pads: string[], depth: number): void {
    while (pads.length <= depth) pads.push(pads[pads.length - 1]! + pads[0]!);
    for (const part of this.parts) {
      if (typeof part !== "string") part.code.renderInto(lines, pads, depth + part.extraDepth);
      else lines.push(part === "" ? "" : pads[depth]! + part);
    }
  }

  private push(text: string): void {
    this.mutable();
    this.parts.push(text);
    this.lineCount++;
    this.ownText = undefined;
  }

  private nest(code: Code, extraDepth: number): void {
    this.mutable();
    code.frozen = true;
    if (code.lineCount === 0) return;
    this.parts.push({ code, extraDepth });
    this.nested.push(code);
    this.lineCount += code.lineCount;
  }

  private mutable(): void {
    if (this.frozen) throw new Error("Code: a fragment changed after it was nested in another");
  }
}

interface Nested {
  readonly code: Code;
  readonly extraDepth: number;
}

// ---------------------------------------------------------------------------------------
// Identifiers in generated code. String literals in generated code are single-line (JSON
// escapes line breaks) and comments are `//` lines the compiler writes itself, so a scan
// of one line from its start finds them exactly.

const isWordChar = (c: number) =>
  (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 36;

/** Whether `identifier` occurs in `code` as a whole word outside string literals and comments. */
export function mentionsIn(code: string, identifier: string): boolean {
  for (let at = code.indexOf(identifier); at !== -1; at = code.indexOf(identifier, at + 1)) {
    if (isWordChar(code.charCodeAt(at - 1)) || isWordChar(code.charCodeAt(at + identifier.length))) continue;
    // `x.length` reads a property, not a local named `length` (a spread `...length` does).
    if (code.charCodeAt(at - 1) === 46 && code.charCodeAt(at - 2) !== 46) continue;
    if (isCode(code, at)) return true;
  }
  return false;
}

/**
 * The identifiers starting with `prefix` that `code` mentions (in mentionsIn's sense): one
 * scan answers mentionsIn for every such name at once.
 */
export function mentionedWithPrefix(code: string, prefix: string): Set<string> {
  const found = new Set<string>();
  for (let at = code.indexOf(prefix); at !== -1; at = code.indexOf(prefix, at + 1)) {
    if (isWordChar(code.charCodeAt(at - 1))) continue;
    if (code.charCodeAt(at - 1) === 46 && code.charCodeAt(at - 2) !== 46) continue;
    let end = at + prefix.length;
    while (isWordChar(code.charCodeAt(end))) end++;
    const word = code.slice(at, end);
    if (!found.has(word) && isCode(code, at)) found.add(word);
  }
  return found;
}

/** Whether position `at` of `code` lies outside string literals and comments. */
function isCode(code: string, at: number): boolean {
  let lineEnd = code.indexOf("\n", at);
  if (lineEnd === -1) lineEnd = code.length;
  let i = code.lastIndexOf("\n", at - 1) + 1;
  while (i < at) {
    const c = code.charCodeAt(i);
    if (c === 34 || c === 39) {
      const end = afterString(code, i, lineEnd);
      if (end > at) return false;
      i = end;
    } else if (c === 47 && code.charCodeAt(i + 1) === 47) {
      return false;
    } else {
      i++;
    }
  }
  return true;
}

/** The index after the string literal opening at `start`, or `start + 1` when it is not closed before `lineEnd`. */
function afterString(code: string, start: number, lineEnd: number): number {
  const quote = code.charCodeAt(start);
  for (let j = start + 1; j < lineEnd; j++) {
    const c = code.charCodeAt(j);
    if (c === quote) return j + 1;
    if (c === 92) {
      // An escape never continues onto another line.
      const next = code.charCodeAt(j + 1);
      if (j + 1 >= lineEnd || next === 13 || next === 0x2028 || next === 0x2029) return start + 1;
      j++;
    }
  }
  return start + 1;
}

const literalOrComment = /"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|\/\/[^\n]*/g;

/** The code with string literals emptied and comments replaced (what `mentions` looks at). */
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
  ...["break", "case", "catch", "class", "const", "continue", "debugger", "default", "delete", "do", "else", "enum", "export", "extends"],
  ...["false", "finally", "for", "function", "if", "import", "in", "instanceof", "new", "null", "return", "super", "switch", "this"],
  ...["throw", "true", "try", "typeof", "var", "void", "while", "with", "yield", "let", "static", "implements", "interface", "package"],
  ...["private", "protected", "public", "await", "async", "of", "as", "arguments", "eval", "undefined", "NaN", "Infinity"],
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
    const qualified = owner === undefined || owner === "value" ? undefined : `${owner}${hint.charAt(0).toUpperCase()}${hint.slice(1)}`;
    const candidates = derived && qualified !== undefined ? [qualified, hint] : qualified === undefined ? [hint] : [hint, qualified];
    for (const candidate of candidates) if (this.take(candidate)) return candidate;
    const base = candidates[0]!;
    for (let n = 2; ; n++) if (this.take(`${base}${n}`)) return `${base}${n}`;
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
  const words = name.split(/[^A-Za-z0-9]+/).filter((word) => word !== "");
  const hint = words.map((word, i) => (i === 0 ? word.charAt(0).toLowerCase() + word.slice(1) : word.charAt(0).toUpperCase() + word.slice(1))).join("");
  if (!/^[A-Za-z][A-Za-z0-9]{0,23}$/.test(hint)) return "property";
  return unavailable.has(hint) ? `${hint}Property` : hint;
}
