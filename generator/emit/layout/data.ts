// JSON-like data (schema constants, list payloads, routing tables) printed straight in
// prettier's layout (printWidth 100, trailingComma all), without writing code text and
// parsing it back. The layout is decided by construction, mirroring what prettier does
// with these nodes:
//  - an object written expanded (a line break after its `{`, as codeLiteral writes every
//    non-empty object) stays expanded; other objects and arrays print flat when they fit
//    (with the "," or ";" that follows them), else one entry per line with a trailing comma;
//  - an expanded object breaks every group around it (prettier propagates the break);
//  - an array of two or more objects (or arrays) of two or more entries each breaks;
//  - `key: value` with a key narrower than 5 columns never breaks after the colon; with a
//    longer key a string too wide for the line moves to the next, an object or array stays
//    when its first line fits.
// Whatever this file does not model with certainty (arrays of numbers that do not fit,
// which prettier fills; lines that would overflow where prettier might break differently;
// keys prettier might unquote) makes it return undefined, and the caller falls back to
// the slower, general paths.
import { fitsWidth, textWidth } from "./width.js";
import { Code, codeLiteral, propertyKey } from "../escape.js";
import { bareKey, numberCode, stringCode } from "./literals.js";
import { printString, printWidth, statementsUnit, type Unit } from "./print.js";

/**
 * A layout node: unbreakable text (`string`: a string literal), an object, an array, an
 * arrow function `(a, b) => body` whose body is unbreakable text (a call on a member
 * chain with simple arguments), or code outside the model (any layout of it is unsure).
 */
export type DataNode =
  | { readonly kind: "text"; readonly text: string; readonly string: boolean }
  | { readonly kind: "object"; readonly entries: readonly (readonly [key: string, value: DataNode])[]; readonly expanded: boolean }
  | { readonly kind: "array"; readonly elements: readonly DataNode[] }
  | { readonly kind: "arrow"; readonly head: string; readonly body: string }
  | { readonly kind: "code"; readonly text: string };

/** Thrown inside this module when the layout is outside what it models. */
class Unsure extends Error {}

const fits = (text: string): boolean => fitsWidth(text, printWidth);

const identifier = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Text spliced as is (an identifier, a number, code): it must fit on its line. */
export function textNode(text: string): DataNode {
  return { kind: "text", text, string: false };
}

/** Code the layout does not model: printing it gives up (the caller takes the general path). */
export function codeNode(text: string): DataNode {
  return { kind: "code", text };
}

// `(a, b)` and `name.name(args)` with arguments free of brackets, strings and templates:
// prettier could only break such a body between its arguments, which is not modelled.
const arrowParams = /^\((?:[A-Za-z_$][\w$]*(?:, [A-Za-z_$][\w$]*)*)?\)$/;
const memberCall = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+\([^()[\]{}"'`\\]*\)$/;

/** `params => body` (params: `(a, b)`), or a code node when the body is not a plain call on a member chain. */
export function arrowNode(params: string, body: string): DataNode {
  return arrowParams.test(params) && memberCall.test(body) ? { kind: "arrow", head: `${params} =>`, body } : codeNode(`${params} => ${body}`);
}

// Schemas repeat the same strings ("string", "object", shared descriptions) many times.
const stringNodes = new Map<string, DataNode>();

/** A string literal as prettier prints it. */
export function stringNode(value: string): DataNode {
  let node = stringNodes.get(value);
  if (node === undefined) {
    node = { kind: "text", text: stringCode(value), string: true };
    if (stringNodes.size >= 100_000) stringNodes.clear();
    stringNodes.set(value, node);
  }
  return node;
}

/**
 * The node for data as codeLiteral writes it (`expanded`: non-empty objects written
 * expanded) or as jsonLiteral writes it (objects on one line). Code values must be
 * identifiers. Throws Unsure for what the layout does not model.
 */
export function dataNode(value: unknown, expanded: boolean): DataNode {
  if (value === null) return textNode("null");
  switch (typeof value) {
    case "string":
      return stringNode(value);
    case "boolean":
      return textNode(String(value));
    case "number":
      // JSON (and codeLiteral) write non-finite numbers as null
      return textNode(Number.isFinite(value) ? numberCode(value) : "null");
    case "object":
      break;
    default:
      throw new Unsure();
  }
  if (value instanceof Code) {
    if (!identifier.test(value.text)) throw new Unsure();
    return textNode(value.text);
  }
  if (Array.isArray(value)) return { kind: "array", elements: value.map((v) => dataNode(v, expanded)) };
  // Index loops: this runs over every schema once, mostly before the JIT has optimised it.
  const object = value as Record<string, unknown>;
  const keys = Object.keys(object);
  const entries: (readonly [string, DataNode])[] = [];
  for (let i = 0; i < keys.length; i++) {
    const v = object[keys[i]!];
    if (v !== undefined) entries.push([dataKey(keys[i]!), dataNode(v, expanded)]);
  }
  return { kind: "object", entries, expanded: expanded && entries.length > 0 };
}

/**
 * An object key as prettier prints it (quoteProps "as-needed"): identifiers bare, other
 * keys quoted. Keys prettier might unquote (non-ASCII identifier names) and `__proto__`
 * (written as a computed key) are not modelled.
 */
export function dataKey(key: string): string {
  let printed = dataKeys.get(key);
  if (printed === undefined) {
    const bare = bareKey(key);
    if (key === "__proto__" || bare === undefined) throw new Unsure();
    printed = bare ? key : printString(propertyKey(key));
    if (dataKeys.size >= 100_000) dataKeys.clear();
    dataKeys.set(key, printed);
  }
  return printed;
}

// Schemas repeat the same keys ("type", "properties", "description") many times.
const dataKeys = new Map<string, string>();

/** Whether the node is printed on several lines whatever the width (an expanded object inside). */
function forcedBreak(node: DataNode): boolean {
  if (node.kind === "text" || node.kind === "arrow" || node.kind === "code") return false;
  if (node.kind === "object") return node.expanded || node.entries.some(([, v]) => forcedBreak(v));
  if (node.elements.some(forcedBreak)) return true;
  // prettier breaks an array of two or more objects (or arrays) of two or more entries each
  const first = node.elements[0];
  const size = (n: DataNode) => (n.kind === "object" ? n.entries.length : n.kind === "array" ? n.elements.length : 0);
  return node.elements.length > 1 && node.elements.every((e) => e.kind !== "text" && e.kind === first!.kind && size(e) > 1);
}

/** The node on one line. */
function flat(node: DataNode): string {
  switch (node.kind) {
    case "text":
      return node.text;
    case "object":
      return node.entries.length === 0 ? "{}" : `{ ${node.entries.map(([k, v]) => `${k}: ${flat(v)}`).join(", ")} }`;
    case "array":
      return `[${node.elements.map(flat).join(", ")}]`;
    case "arrow":
      return `${node.head} ${node.body}`;
    case "code":
      throw new Unsure();
  }
}

const isNumberArray = (node: DataNode): boolean =>
  node.kind === "array" && node.elements.length > 0 && node.elements.every((e) => e.kind === "text" && /^-?[0-9]/.test(e.text));

/**
 * Appends the node's lines to `out`: its first line continues `lead` (the indentation and
 * whatever precedes the node on its line), `close` (one character: "," or ";") follows it.
 */
function print(node: DataNode, lead: string, pad: string, close: string, out: string[]): void {
  if (node.kind === "text") {
    const line = `${lead}${node.text}${close}`;
    // a string cannot break; other text (code) might, where it does not fit
    if (!node.string && !fits(line)) throw new Unsure();
    out.push(line);
    return;
  }
  if (node.kind === "code") throw new Unsure();
  if (node.kind === "arrow") {
    // as an element or a declaration's value: only on one line is it certain
    const line = `${lead}${flat(node)}${close}`;
    if (!fits(line)) throw new Unsure();
    out.push(line);
    return;
  }
  if (!forcedBreak(node)) {
    const line = `${lead}${flat(node)}${close}`;
    if (fits(line)) {
      out.push(line);
      return;
    }
    // prettier fills arrays of numbers, and `{}` or `[]` cannot break: not modelled
    if (isNumberArray(node) || flat(node).length === 2) throw new Unsure();
  }
  const isObject = node.kind === "object";
  const first = `${lead}${isObject ? "{" : "["}`;
  if (!fits(first)) throw new Unsure();
  out.push(first);
  const inner = `${pad}  `;
  if (isObject) {
    const entries = node.entries;
    for (let i = 0; i < entries.length; i++) property(entries[i]![0], entries[i]![1], inner, out);
  } else {
    const elements = node.elements;
    for (let i = 0; i < elements.length; i++) print(elements[i]!, inner, inner, ",", out);
  }
  out.push(`${pad}${isObject ? "}" : "]"}${close}`);
}

/** `key: value,` at `pad`, with prettier's assignment layouts for the values data holds. */
function property(key: string, value: DataNode, pad: string, out: string[]): void {
  const lead = `${pad}${key}: `;
  if (value.kind === "arrow") {
    arrowProperty(key, value, pad, out);
    return;
  }
  if (value.kind !== "text") {
    print(value, lead, pad, ",", out);
    return;
  }
  const line = `${lead}${value.text},`;
  // A key narrower than 5 columns keeps a string on its line; behind a longer one a string
  // too wide for the line moves to the next (prettier's break-after-operator).
  if (fits(line) || (value.string && textWidth(key) < 5)) out.push(line);
  else if (value.string) out.push(`${pad}${key}:`, `${pad}  ${value.text},`);
  else throw new Unsure();
}

/**
 * `key: (a, b) => body,` at `pad` (`lead`: through `key: `): on one line when it fits, else
 * broken after the arrow with the body two columns in. Only keys narrower than 5 columns,
 * which keep the arrow on their line, are modelled; and the body must fit its line.
 */
function arrowProperty(key: string, arrow: Extract<DataNode, { kind: "arrow" }>, pad: string, out: string[]): void {
  const line = `${pad}${key}: ${arrow.head} ${arrow.body},`;
  if (fits(line)) {
    out.push(line);
    return;
  }
  const head = `${pad}${key}: ${arrow.head}`;
  const body = `${pad}  ${arrow.body},`;
  if (textWidth(key) >= 5 || !fits(head) || !fits(body)) throw new Unsure();
  out.push(head, body);
}

/** `key: value,` at two spaces (a property of an expanded object) as prettier prints it, with a trailing newline; undefined when outside what this file models. */
export function layoutDataProperty(key: string, node: () => DataNode): string | undefined {
  try {
    const out: string[] = [];
    property(dataKey(key), node(), "  ", out);
    return `${out.join("\n")}\n`;
  } catch (error) {
    if (error instanceof Unsure) return undefined;
    throw error;
  }
}

/**
 * `${head} = <node>;` (head: `const name` or `export const name: Type`) as prettier prints
 * it, with a trailing newline; undefined when outside what this file models.
 */
export function layoutDataDeclaration(head: string, node: () => DataNode): string | undefined {
  try {
    const value = node();
    if (value.kind === "text") return undefined;
    const out: string[] = [];
    print(value, `${head} = `, "", ";", out);
    return `${out.join("\n")}\n`;
  } catch (error) {
    if (error instanceof Unsure) return undefined;
    throw error;
  }
}

/** A declaration `${head} = <data>;` whose data codeLiteral would write (objects expanded). */
export interface DataDeclaration {
  readonly head: string;
  readonly value: unknown;
}

/**
 * Data declarations, one after the other, after `comment`: laid out here, or by the
 * statement layout (print.ts) for those outside this file's model, or by prettier as a
 * whole unit when neither knows one of them, the same text in every case.
 */
export function dataUnit(comment: string, declarations: readonly DataDeclaration[]): Unit {
  const statement = (d: DataDeclaration) => `${d.head} = ${codeLiteral(d.value)};`;
  const pieces: string[] = [];
  for (const declaration of declarations) {
    const direct = layoutDataDeclaration(declaration.head, () => dataNode(declaration.value, true));
    if (direct !== undefined) {
      pieces.push(direct);
      continue;
    }
    const general = statementsUnit("", [statement(declaration)]);
    if (!general.formatted) return statementsUnit(comment, declarations.map(statement));
    pieces.push(general.text);
  }
  return { text: `${comment}${pieces.join("")}`, formatted: true };
}
