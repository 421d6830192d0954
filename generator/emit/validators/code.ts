// Building blocks for the validator compiler's output: code fragments that know whether
// they end in an unconditional exit, instance-path expressions, and a scanner that tells
// whether generated code mentions an identifier (used to drop unused bindings, labels,
// constants and helper functions, so the output passes --noUnusedLocals).

import { stringLiteral } from "../escape.js";

/**
 * A list of statements. Nested blocks are separate fragments appended with `block`, so
 * braces always balance. Once an unconditional `return`/`break` is written (`end`), the
 * fragment is `terminated` and further statements are dropped as unreachable.
 */
export class Code {
  private readonly lines: string[] = [];
  private strippedCache: string | undefined;
  /** True when the fragment ends with an unconditional exit (nothing after it would run). */
  terminated = false;

  get isEmpty(): boolean {
    return this.lines.length === 0;
  }

  /** Appends one statement (or comment) unless the fragment already terminated. */
  line(text: string): void {
    if (this.terminated) return;
    this.lines.push(text);
    this.strippedCache = undefined;
  }

  /** Appends an unconditional exit (`return …;` or `break label;`). */
  end(text: string): void {
    this.line(text);
    this.terminated = true;
  }

  /** `head {` body `}`; the body's termination does not propagate (the head is a condition or loop). */
  block(head: string, body: Code): void {
    if (this.terminated) return;
    this.lines.push(`${head} {`);
    for (const line of body.lines) this.lines.push(line === "" ? "" : `  ${line}`);
    this.lines.push("}");
    this.strippedCache = undefined;
  }

  /** `if (condition) { then } else { otherwise }`; terminated only if both branches are. */
  ifElse(condition: string, then: Code, otherwise: Code): void {
    if (this.terminated) return;
    this.lines.push(`if (${condition}) {`);
    for (const line of then.lines) this.lines.push(line === "" ? "" : `  ${line}`);
    this.lines.push("} else {");
    for (const line of otherwise.lines) this.lines.push(line === "" ? "" : `  ${line}`);
    this.lines.push("}");
    this.strippedCache = undefined;
    if (then.terminated && otherwise.terminated) this.terminated = true;
  }

  /** Appends another fragment's statements at this level; its termination carries over. */
  append(other: Code): void {
    if (this.terminated) return;
    this.lines.push(...other.lines);
    this.strippedCache = undefined;
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
    this.strippedCache ??= stripLiteralsAndComments(this.lines.join("\n"));
    return mentionsIn(this.strippedCache, identifier);
  }

  /** The statements indented by `indent`. */
  render(indent: string): string {
    return this.lines.map((line) => (line === "" ? "" : indent + line)).join("\n");
  }
}

// All string literals in generated code come from JSON.stringify (double quotes, no raw
// line breaks) and comments are `//` lines the compiler writes itself, so this regular
// expression finds every literal and comment exactly; what remains is identifiers,
// keywords and punctuation.
const literalOrComment = /"(?:[^"\\\n]|\\.)*"|\/\/[^\n]*/g;

export function stripLiteralsAndComments(code: string): string {
  return code.replace(literalOrComment, '""');
}

/** `identifier` as a whole word in code already stripped of literals and comments. */
export function mentionsIn(strippedCode: string, identifier: string): boolean {
  const escaped = identifier.replace(/\$/g, "\\$");
  return new RegExp(`(?<![\\w$])${escaped}(?![\\w$])`).test(strippedCode);
}

/** One step of an instance path: a fixed property or index, an index variable, or a key variable. */
export type PathPart =
  | { readonly kind: "static"; readonly token: string }
  | { readonly kind: "index"; readonly variable: string }
  | { readonly kind: "key"; readonly variable: string };

/** Escapes a JSON pointer token at generation time (the same rule as runtime pointerToken). */
export function escapePointerToken(token: string): string {
  return token.replace(/~/g, "~0").replace(/\//g, "~1");
}

/**
 * A JS expression for the instance path, e.g. `"/days/" + index3 + "/name"`. It is only
 * evaluated when an issue is created, so building it costs nothing on the success path.
 */
export function pathExpression(parts: readonly PathPart[]): string {
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

/** Hands out function-local names; every name ends with a number, so none can clash with globals or `value`. */
export class LocalNames {
  private next = 0;

  fresh(hint: string): string {
    return `${hint}${this.next++}`;
  }
}
