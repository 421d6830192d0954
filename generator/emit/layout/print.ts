// Prints statements of the expression subset (./expression.ts) exactly as prettier
// (printWidth 100, trailingComma all) prints them, with prettier's own doc printer: the
// documents built here mirror the ones prettier's estree printer builds for these
// constructs. Subexpressions whose breaking this file does not model (calls on member
// chains, unary operands, casts) are printed as unbreakable text; when a line then ends up
// wider than the print width, prettier would have broken it differently, so the caller is
// told (`Unsupported`) and formats that unit with prettier itself.
// Only prettier's document printer is loaded (prettier/doc), not prettier itself.
import { builders, printer } from "prettier/doc";
import { getPrecedence, isLogical, Parser, tokenize, Unsupported, type Expr } from "./expression.js";
import { bareKey } from "./literals.js";
import { fitsWidth } from "./width.js";

type Doc = builders.Doc;
const { group, indent, line, softline, ifBreak, conditionalGroup, indentIfBreak, lineSuffixBoundary } = builders;

export const printWidth = 100;

// ---------------------------------------------------------------------------------------
// Flat text (also the text of unbreakable subexpressions)

const quoteOrEscape = /["'\\]/;

/** A string literal as prettier writes it: double quotes unless the text holds more of them than single quotes. */
export function printString(raw: string): string {
  const content = raw.slice(1, -1);
  // Without quotes or escapes inside, only the quotes can change.
  if (!quoteOrEscape.test(content)) return `"${content}"`;
  const doubles = (content.match(/"/g) ?? []).length;
  const singles = (content.match(/'/g) ?? []).length;
  const quote = doubles > singles ? "'" : '"';
  const other = quote === '"' ? "'" : '"';
  const body = content.replace(/\\(.)|(["'])/gsu, (match, escaped: string | undefined, q: string | undefined) => {
    if (escaped === other) return escaped;
    if (q === quote) return `\\${q}`;
    if (q) return q;
    return /^[^\n\r"'0-7\\bfnrt-vx\u2028\u2029]$/.test(escaped!) ? escaped! : `\\${escaped!}`;
  });
  return quote + body + quote;
}

/** A number literal as prettier normalises it. */
export function printNumber(raw: string): string {
  return raw
    .toLowerCase()
    .replace(/^([+-]?[\d.]+e)(?:\+|(-))?0*(\d)/, "$1$2$3")
    .replace(/^([+-]?[\d.]+)e[+-]?0+$/, "$1")
    .replace(/^([+-])?\./, "$10.")
    .replace(/(\.\d+?)0+(?=e|$)/, "$1")
    .replace(/\.(?=e|$)/, "");
}

type Position = "binary-left" | "binary-right" | "member" | "unary" | "other";

function needsParens(node: Expr, parent: Expr | undefined, position: Position): boolean {
  if (!parent) return false;
  if (node.kind === "assign") return parent.kind !== "assign" || position !== "binary-right";
  if (node.kind === "as") return parent.kind === "binary" || position === "member" || parent.kind === "unary" || parent.kind === "postfix";
  if (node.kind === "binary") {
    if (position === "member" || parent.kind === "unary" || parent.kind === "postfix" || parent.kind === "as") return true;
    if (parent.kind !== "binary") return false;
    const po = parent.operator;
    const pp = getPrecedence(po);
    const no = node.operator;
    const np = getPrecedence(no);
    if (pp > np) return true;
    if (pp === np && position === "binary-right") return true;
    if (pp === np && !shouldFlatten(po, no)) return true;
    if (pp < np && no === "%") return po === "+" || po === "-";
    if (["|", "^", "&", "<<", ">>", ">>>"].includes(po)) return true;
    // prettier clarifies mixed logical operators: a || (b && c)
    if (isLogical(po) && isLogical(no) && po !== no) return true;
    return false;
  }
  if (node.kind === "unary" && parent.kind === "unary") return node.operator === parent.operator && (node.operator === "+" || node.operator === "-");
  return node.kind === "unary" && position === "member";
}

function shouldFlatten(parentOp: string, nodeOp: string): boolean {
  if (getPrecedence(nodeOp) !== getPrecedence(parentOp)) return false;
  if (parentOp === "**") return false;
  const equality = ["==", "!=", "===", "!=="];
  if (equality.includes(parentOp) && equality.includes(nodeOp)) return false;
  if ((nodeOp === "%" && ["*", "/"].includes(parentOp)) || (parentOp === "%" && ["*", "/"].includes(nodeOp))) return false;
  if (nodeOp !== parentOp && ["*", "/"].includes(nodeOp) && ["*", "/"].includes(parentOp)) return false;
  if (["<<", ">>", ">>>"].includes(parentOp) && ["<<", ">>", ">>>"].includes(nodeOp)) return false;
  return true;
}

export function flat(node: Expr, parent?: Expr, position: Position = "other"): string {
  const text = flatInner(node);
  return needsParens(node, parent, position) ? `(${text})` : text;
}

function flatInner(node: Expr): string {
  switch (node.kind) {
    case "atom":
      return /^[0-9]/.test(node.text) ? printNumber(node.text) : node.text;
    case "string":
      return printString(node.raw);
    case "member":
      return `${flat(node.object, node, "member")}.${node.property}`;
    case "index":
      return `${flat(node.object, node, "member")}[${flat(node.index)}]`;
    case "call":
      return `${node.isNew ? "new " : ""}${flat(node.callee, node, "member")}${node.typeArgs ?? ""}(${node.args.map((a) => flat(a)).join(", ")})`;
    case "unary":
      return `${node.operator}${node.operator === "typeof" ? " " : ""}${flat(node.argument, node, "unary")}`;
    case "postfix":
      return `${flat(node.argument, node, "unary")}${node.operator}`;
    case "binary":
      return `${flat(node.left, node, "binary-left")} ${node.operator} ${flat(node.right, node, "binary-right")}`;
    case "as":
      return `${flat(node.expression, node, "other")} as ${node.type}`;
    case "assign":
      return `${flat(node.left)} ${node.operator} ${flat(node.right, node, "binary-right")}`;
    case "object":
      return node.properties.length === 0 ? "{}" : `{ ${node.properties.map((p) => `${propertyKey(p.key)}: ${flat(p.value)}`).join(", ")} }`;
    case "array":
      return `[${node.elements.map((e) => flat(e)).join(", ")}]`;
    case "arrow":
      return `(${node.params.join(", ")}) => ${flat(node.body)}`;
  }
}

/** prettier's quoteProps "as-needed": a quoted key that is an identifier loses its quotes. */
function propertyKey(key: Expr): string {
  if (key.kind === "string") {
    const bare = bareKey(key.value);
    if (bare === undefined) throw new Unsupported("key prettier may unquote");
    if (bare) return key.value;
  }
  return flat(key);
}

/**
 * Whether prettier could break inside `node` where this file prints it as unbreakable
 * text (calls, computed member access, generic casts, parenthesised operands).
 */
function opaque(node: Expr): boolean {
  switch (node.kind) {
    case "atom":
    case "string":
      return false;
    case "member":
      return opaque(node.object);
    case "index":
      return !(node.index.kind === "string" || (node.index.kind === "atom" && /^[0-9]/.test(node.index.text))) || opaque(node.object);
    case "unary":
    case "postfix":
      return node.argument.kind === "binary" || opaque(node.argument);
    case "as":
      return node.type.includes("<") || node.expression.kind === "binary" || opaque(node.expression);
    default:
      return true;
  }
}

/** Set while building a statement's document when it holds text printed as unbreakable that prettier might break. */
let sawOpaque = false;

// ---------------------------------------------------------------------------------------
// Documents for the constructs whose breaking is modelled

type Parent = "if-test" | "return" | "assignment" | "binary" | "other";

const isBinaryish = (node: Expr): node is Extract<Expr, { kind: "binary" }> => node.kind === "binary";

function shouldInlineLogical(node: Expr): boolean {
  if (node.kind !== "binary" || !isLogical(node.operator)) return false;
  const right = node.right;
  return (right.kind === "object" && right.properties.length > 0) || (right.kind === "array" && right.elements.length > 0);
}

/** The estree node type prettier sees: logical and binary expressions differ. */
const nodeType = (node: Expr) => (node.kind === "binary" ? (isLogical(node.operator) ? "logical" : "binary") : node.kind);

function binaryParts(node: Extract<Expr, { kind: "binary" }>, parentType: string, insideParens: boolean): Doc[] {
  const parts: Doc[] = [];
  if (isBinaryish(node.left) && shouldFlatten(node.operator, node.left.operator)) {
    parts.push(...binaryParts(node.left, nodeType(node), insideParens));
  } else {
    parts.push(group(exprDoc(node.left, "binary", node, "binary-left")));
  }
  const inline = shouldInlineLogical(node);
  const right = inline
    ? [node.operator, " ", exprDoc(node.right, "binary", node, "binary-right")]
    : [node.operator, line, exprDoc(node.right, "binary", node, "binary-right")];
  const type = nodeType(node);
  const shouldGroup = !(insideParens && type === "logical") && parentType !== type && nodeType(node.left) !== type && nodeType(node.right) !== type;
  parts.push(" ", shouldGroup ? group(right) : right);
  return parts;
}

function binaryDoc(node: Extract<Expr, { kind: "binary" }>, parent: Parent, parentNode: Expr | undefined): Doc {
  const insideParens = parent === "if-test";
  const parts = binaryParts(node, parentNode ? nodeType(parentNode) : parent, insideParens);
  if (insideParens) return parts;
  const samePrecedenceSubExpression = isBinaryish(node.left) && shouldFlatten(node.operator, node.left.operator);
  if (parent === "return" || (shouldInlineLogical(node) && !samePrecedenceSubExpression) || (!shouldInlineLogical(node) && parent === "assignment")) {
    return group(parts);
  }
  const firstGroup = parts.findIndex((part) => typeof part === "object" && !Array.isArray(part) && part.type === "group");
  const head = parts.slice(0, firstGroup === -1 ? 1 : firstGroup + 1);
  return group([...head, indent(parts.slice(head.length))]);
}

function exprDoc(node: Expr, parent: Parent, parentNode?: Expr, position: Position = "other"): Doc {
  const parens = needsParens(node, parentNode, position);
  let inner: Doc;
  switch (node.kind) {
    case "binary":
      inner = binaryDoc(node, parens ? "other" : parent, parens ? undefined : parentNode);
      break;
    case "object":
      inner = objectDoc(node);
      break;
    case "array":
      inner = arrayDoc(node);
      break;
    case "arrow":
      // parameters are printed as unbreakable text
      sawOpaque = true;
      inner = group([`(${node.params.join(", ")})`, " =>", group(indent([line, exprDoc(node.body, "other")]))]);
      break;
    case "call":
      inner = callDoc(node);
      break;
    default:
      if (opaque(node)) sawOpaque = true;
      inner = flatInner(node);
  }
  return parens ? ["(", inner, ")"] : inner;
}

function objectDoc(node: Extract<Expr, { kind: "object" }>): Doc {
  if (node.properties.length === 0) return "{}";
  const properties = node.properties.map((p) => {
    const key = propertyKey(p.key);
    return group([group(key), ":", ...assignmentTail(p.value, fitsWidth(key, 4))]);
  });
  const separated: Doc[] = [];
  properties.forEach((p, i) => separated.push(...(i === 0 ? [] : [",", line]), p));
  return group(["{", indent([line, ...separated]), ifBreak(","), line, "}"], { shouldBreak: node.expanded });
}

function arrayDoc(node: Extract<Expr, { kind: "array" }>): Doc {
  if (node.elements.length === 0) return "[]";
  if (node.elements.every((e) => (e.kind === "atom" && /^[0-9]/.test(e.text)) || (e.kind === "unary" && e.argument.kind === "atom"))) throw new Unsupported("number array (fill)");
  // prettier breaks an array of two or more objects (or arrays) of two or more entries each
  const entries = (e: Expr) => (e.kind === "object" ? e.properties.length : e.kind === "array" ? e.elements.length : 0);
  const first = node.elements[0]!;
  const shouldBreak = node.elements.length > 1 && node.elements.every((e) => (e.kind === "object" || e.kind === "array") && e.kind === first.kind && entries(e) > 1);
  const elements: Doc[] = [];
  node.elements.forEach((e, i) => elements.push(...(i === 0 ? [] : [",", line]), group(exprDoc(e, "other"))));
  return group(["[", indent([softline, ...elements, ifBreak(",")]), softline, "]"], { shouldBreak });
}

function callDoc(node: Extract<Expr, { kind: "call" }>): Doc {
  if (node.callee.kind !== "atom") {
    // member chains: not modelled
    sawOpaque = true;
    return flatInner(node);
  }
  const callee: Doc = [node.isNew ? "new " : "", node.callee.text, node.typeArgs ?? ""];
  if (node.args.length === 0) return [callee, "()"];
  const last = node.args[node.args.length - 1]!;
  const hug = (last.kind === "object" && last.properties.length > 0) || (last.kind === "array" && last.elements.length > 0);
  const printed = () => node.args.map((a) => exprDoc(a, "other"));
  const join = (docs: Doc[]) => docs.flatMap((d, i) => (i === 0 ? [d] : [",", line, d]));
  const allBroken = (docs: Doc[]) => group(["(", indent([line, ...join(docs)]), ifBreak(","), line, ")"], { shouldBreak: true });
  if (!hug) {
    if (node.args.some((a) => a.kind === "object" || a.kind === "array")) throw new Unsupported("call with a literal argument");
    return [callee, group(["(", indent([softline, ...join(printed())]), ifBreak(","), softline, ")"])];
  }
  if (node.args.length > 1) throw new Unsupported("hugged last argument after others");
  return [callee, conditionalGroup([["(", ...printed(), ")"], ["(", group(printed()[0]!, { shouldBreak: true }), ")"], allBroken(printed())])];
}

const isMemberChain = (node: Expr): boolean =>
  node.kind === "member" ? node.object.kind === "atom" || isMemberChain(node.object) : false;

/** What follows `key:` or `name =`: prettier's assignment layouts for the right-hand sides we emit. */
function assignmentTail(value: Expr, shortKey: boolean): Doc[] {
  const breakAfter = () => [group(indent([line, exprDoc(value, "assignment")]))];
  if (value.kind === "binary" && !shouldInlineLogical(value)) return breakAfter();
  if (shortKey) return [" ", exprDoc(value, "assignment")];
  if (value.kind === "string" || isMemberChain(value)) return breakAfter();
  if (value.kind === "atom" || value.kind === "as" || value.kind === "object" || value.kind === "array" || value.kind === "arrow" || (value.kind === "call" && value.isNew)) {
    const id = Symbol("assignment");
    return [group(indent(line), { id }), lineSuffixBoundary, indentIfBreak(exprDoc(value, "assignment"), { groupId: id })];
  }
  throw new Unsupported("assignment layout");
}

// ---------------------------------------------------------------------------------------
// Statements

/** A statement (or a block head ending in `{`) parsed from one line of emitted code. */
type Printed = {
  doc: () => Doc;
  flat: string;
  /** Holds an object written expanded: never printed flat. */
  expanded?: boolean;
  /** For `if (test) statement`: `if (test)` and the statement. */
  head?: string;
  consequent?: Printed;
};

function statementDoc(text: string): Printed {
  const p = new Parser(tokenize(text));
  const exported = p.is("export");
  if (exported) p.take();
  const result = statement(p);
  if (!p.done) throw new Unsupported(`trailing tokens in ${text}`);
  const expanded = p.sawExpanded;
  return exported ? { doc: () => ["export ", result.doc()], flat: `export ${result.flat}`, expanded } : { ...result, expanded };
}

function statement(p: Parser): Printed {
  const first = p.peek();
  if (!first) throw new Unsupported("empty statement");
  if (first.text === "if") {
    p.take();
    p.take("(");
    const test = p.expression();
    p.take(")");
    const testDoc = () => group([indent([softline, exprDoc(test, "if-test")]), softline]);
    const head = `if (${flat(test)})`;
    if (p.is("{")) {
      p.take();
      return { doc: () => group(["if (", testDoc(), ")", " {"]), flat: `${head} {` };
    }
    const consequent = statement(p);
    return { doc: () => group(["if (", testDoc(), ")", indent([line, consequent.doc()])]), flat: `${head} ${consequent.flat}`, head, consequent };
  }
  if (first.text === "return") {
    p.take();
    if (p.is(";")) {
      p.take();
      return { doc: () => "return;", flat: "return;" };
    }
    const arg = p.expression();
    p.take(";");
    const argDoc = () => (isBinaryish(arg) && !shouldInlineLogical(arg) ? group([ifBreak("("), indent([softline, exprDoc(arg, "return")]), softline, ifBreak(")")]) : exprDoc(arg, "return"));
    return { doc: () => ["return ", argDoc(), ";"], flat: `return ${flat(arg)};` };
  }
  if (first.text === "break" || first.text === "continue") {
    const text = [p.take().text, ...(p.is(";") ? [] : [p.name()])].join(" ");
    p.take(";");
    return { doc: () => `${text};`, flat: `${text};` };
  }
  if (first.text === "const" || first.text === "let") {
    p.take();
    const name = p.name();
    let lhs = name;
    if (p.is(":")) {
      p.take();
      lhs += `: ${p.type()}`;
    }
    p.take("=");
    const value = p.expression();
    p.take(";");
    return { doc: () => group([first.text, " ", group([group(lhs), " =", ...assignmentTail(value, false)]), ";"]), flat: `${first.text} ${lhs} = ${flat(value)};` };
  }
  if (first.text === "for") return forHead(p);
  if (first.type === "punct") throw new Unsupported(first.text);
  if (first.type === "name" && p.peek(1)?.text === ":" && p.peek(2)?.text === "{") {
    const label = p.take().text;
    p.take(":");
    p.take("{");
    return { doc: () => `${label}: {`, flat: `${label}: {` };
  }
  const expr = p.expression();
  p.take(";");
  if (expr.kind === "assign") {
    const lhs = flat(expr.left);
    return { doc: () => [group([group(lhs), " ", expr.operator, ...assignmentTail(expr.right, false)]), ";"], flat: `${flat(expr)};` };
  }
  return { doc: () => [exprDoc(expr, "other"), ";"], flat: `${flat(expr)};` };
}

/** `for (let i = 0; i < n; i++) {` or `for (const key of keys) {`: short heads, printed flat (never broken here). */
function forHead(p: Parser): Printed {
  p.take("for");
  p.take("(");
  const kind = p.take().text;
  if (kind !== "let" && kind !== "const") throw new Unsupported("for head");
  const name = p.name();
  let text: string;
  if (p.is("of")) {
    p.take();
    text = `for (${kind} ${name} of ${flat(p.expression())}) {`;
  } else {
    p.take("=");
    const init = flat(p.expression());
    p.take(";");
    const test = flat(p.expression());
    p.take(";");
    const update = flat(p.expression());
    text = `for (${kind} ${name} = ${init}; ${test}; ${update}) {`;
  }
  p.take(")");
  p.take("{");
  return { doc: () => { throw new Unsupported("long for head"); }, flat: text };
}

const printerOptions = (width: number) => ({ printWidth: width, tabWidth: 2, useTabs: false });


// Generated validators repeat the same statements over and over (the same checks on
// the same local names), so each statement is laid out once per run of the process.
const laidOut = new Map<string, string | Unsupported>();

/** One statement as prettier prints it at `indent` spaces; throws Unsupported when unsure. */
export function layoutStatement(text: string, indentWidth: number): string {
  const key = `${indentWidth} ${text}`;
  let result = laidOut.get(key);
  if (result === undefined) {
    try {
      result = layoutPrinted(statementDoc(text), indentWidth);
    } catch (error) {
      if (!(error instanceof Unsupported)) throw error;
      result = error;
    }
    if (laidOut.size >= 100_000) laidOut.clear();
    laidOut.set(key, result);
  }
  if (result instanceof Unsupported) throw result;
  return result;
}

function layoutPrinted(statement: Printed, indentWidth: number): string {
  const available = printWidth - indentWidth;
  const pad = " ".repeat(indentWidth);
  if (!statement.expanded && fitsWidth(statement.flat, available)) return pad + statement.flat;
  // `if (test) statement` that does not fit on one line: when `if (test)` fits, the test
  // stays flat and the statement goes on the next line, laid out on its own.
  if (!statement.expanded && statement.head !== undefined && statement.consequent && fitsWidth(statement.head, available)) {
    return `${pad}${statement.head}\n${layoutPrinted(statement.consequent, indentWidth + 2)}`;
  }
  sawOpaque = false;
  const printed = printer.printDocToString(statement.doc(), printerOptions(available)).formatted;
  const lines = printed.split("\n");
  // A line can only be too wide because of text nothing can break (a long string), unless
  // it holds text this file printed as unbreakable and prettier might have broken.
  if (sawOpaque && lines.some((l) => !fitsWidth(l, available))) throw new Unsupported("a line wider than the print width");
  return lines.map((l) => (l === "" ? l : pad + l)).join("\n");
}

/**
 * Top-level declarations written one statement per line (two spaces per nesting level),
 * laid out exactly as prettier would; undefined when some line is outside what this file
 * models, so the caller formats the unit with prettier instead.
 */
export function layoutCode(code: string): string | undefined {
  return layoutLines(code.trim().split("\n"), layoutStatement);
}

/**
 * `layoutCode` for code whose statements are already written as this file prints them
 * flat (literals as printString/printNumber print them, one space around operators,
 * no redundant parentheses): a statement that fits its line is kept as written, without
 * parsing; only wider ones are parsed and broken.
 */
export function layoutFlatCode(code: string): string | undefined {
  return layoutFlatLines(code.trim().split("\n"));
}

/**
 * `layoutFlatCode` for code given as its lines (no leading or trailing blank line).
 * `ascii`: every line is known to be printable ASCII, so a line's width is its length.
 */
export function layoutFlatLines(lines: readonly string[], ascii = false): string | undefined {
  // A line that fits, without trailing spaces, is final as written whatever it holds (a
  // statement, a brace, a comment line, a function header), except blank lines and
  // function headers inside blocks, which layoutLines treats specially.
  const fits = ascii ? fitsAscii : fitsWidth;
  return layoutLines(
    lines,
    (text, indentWidth) => layoutFlatStatement(text, indentWidth, fits),
    (raw) => keptAsWritten(raw, fits),
  );
}

const fitsAscii = (text: string, available: number): boolean => text.length <= available;

function keptAsWritten(raw: string, fits: typeof fitsWidth): boolean {
  if (raw.length === 0 || raw.charCodeAt(raw.length - 1) === 32 || !fits(raw, printWidth)) return false;
  let indent = 0;
  while (raw.charCodeAt(indent) === 32) indent++;
  return indent === 0 || !(raw.startsWith("function ", indent) || raw.startsWith("export function ", indent));
}

/** `layoutStatement` for a statement written flat: what `layoutPrinted` does, parsing only what it must break. */
function layoutFlatStatement(text: string, indentWidth: number, fits: typeof fitsWidth): string {
  const available = printWidth - indentWidth;
  if (fits(text, available)) return " ".repeat(indentWidth) + text;
  // `if (test) statement` whose `if (test)` fits: the statement goes on the next line, laid out on its own.
  const head = ifHead(text);
  if (head !== undefined && text[head.length] === " " && text[head.length + 1] !== "{" && fits(head, available)) {
    return `${" ".repeat(indentWidth)}${head}\n${layoutFlatStatement(text.slice(head.length + 1), indentWidth + 2, fits)}`;
  }
  return layoutHuggedList(text, indentWidth, fits) ?? layoutStatement(text, indentWidth);
}

// `const name: T = new C<T>([items]);` written flat, capturing the text through `([` and the items.
const huggedListDeclaration = /^(const [A-Za-z_$][\w$]*(?:: [\w$<>, ]+)? = new [A-Za-z_$][\w$]*(?:<[\w$<>, ]+>)?\(\[)(.+)\]\);$/;

/**
 * A declaration of a list of strings (a validator's table of names or values) too wide
 * for its line: when its text through `([` fits, prettier keeps that on the line and
 * hugs the array, one item per line (what `callDoc` and `arrayDoc` print). Undefined
 * for anything else.
 */
function layoutHuggedList(text: string, indentWidth: number, fits: typeof fitsWidth): string | undefined {
  const match = huggedListDeclaration.exec(text);
  if (!match) return undefined;
  const head = match[1]!;
  const items = stringItems(match[2]!);
  if (items === undefined || !fits(head, printWidth - indentWidth)) return undefined;
  const pad = " ".repeat(indentWidth);
  return `${pad}${head}\n${items.map((item) => `${pad}  ${item},\n`).join("")}${pad}]);`;
}

/** String literals separated by ", " (flat list text), or undefined when the list holds anything else. */
function stringItems(list: string): string[] | undefined {
  const items: string[] = [];
  let i = 0;
  for (;;) {
    const quote = list[i];
    if (quote !== '"' && quote !== "'") return undefined;
    let j = i + 1;
    while (j < list.length && list[j] !== quote) j += list[j] === "\\" ? 2 : 1;
    if (j >= list.length) return undefined;
    items.push(list.slice(i, j + 1));
    if (j + 1 === list.length) return items;
    if (list[j + 1] !== "," || list[j + 2] !== " ") return undefined;
    i = j + 3;
  }
}

/** `if (test)` at the start of a flat statement: through the parenthesis matching the first (strings skipped). */
function ifHead(text: string): string | undefined {
  if (!text.startsWith("if (")) return undefined;
  let depth = 0;
  // character codes: " ' ( [ { ) ] } and the backslash
  for (let i = 3; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 || c === 39) {
      // flat text holds only well-formed single-line literals
      for (i++; i < text.length && text.charCodeAt(i) !== c; i++) if (text.charCodeAt(i) === 92) i++;
    } else if (c === 40 || c === 91 || c === 123) {
      depth++;
    } else if (c === 41 || c === 93 || c === 125) {
      depth--;
      if (depth === 0) return c === 41 ? text.slice(0, i + 1) : undefined;
    }
  }
  return undefined;
}

function layoutLines(
  lines: readonly string[],
  statementLayout: (text: string, indentWidth: number) => string,
  keptAsWritten: (raw: string) => boolean = () => false,
): string | undefined {
  const out: string[] = [];
  try {
    for (let i = 0; i < lines.length; i++) {
      if (keptAsWritten(lines[i]!)) {
        out.push(lines[i]!);
        continue;
      }
      const raw = lines[i]!.trimEnd();
      const text = raw.trimStart();
      const indentWidth = raw.length - text.length;
      if (text === "") {
        // prettier keeps one blank line between statements, none at the start or end of a block
        if (out.length === 0 || out[out.length - 1] === "" || out[out.length - 1]!.endsWith("{") || lines[i + 1]?.trim() === "}") return undefined;
        out.push("");
      } else if (text === "}" || text === "} else {" || text.startsWith("/**") || text.startsWith("* ") || text === "*" || text.startsWith("*/")) {
        if (raw.length > printWidth && !text.startsWith("/**") && !text.startsWith("*")) return undefined;
        out.push(raw);
      } else if (/^(export )?function [A-Za-z_$][\w$]*\(_?value: unknown\): ValidationIssue \| undefined \{$/.test(text)) {
        if (indentWidth > 0) return undefined;
        // A header too long for one line breaks its (single, non-huggable) parameter out.
        out.push(raw.length <= printWidth ? raw : raw.replace(/\((_?value: unknown)\)/, "(\n  $1,\n)"));
      } else {
        out.push(statementLayout(text, indentWidth));
      }
    }
  } catch (error) {
    if (error instanceof Unsupported) return undefined;
    throw error;
  }
  return `${out.join("\n")}\n`;
}

/** A top-level unit of a generated file: laid out already, or text for prettier. */
export interface Unit {
  /** The unit's code (laid out when `formatted`). */
  readonly text: string;
  readonly formatted: boolean;
  /**
   * The unit in pieces, when only some of it is left to prettier: laid-out text, and
   * properties of an expanded object literal (`key: value` at two spaces) that prettier
   * formats one by one. A property's layout does not depend on its neighbours, so this
   * gives prettier's text for the whole unit while it reads only the small pieces.
   */
  readonly pieces?: readonly UnitPiece[];
}

export type UnitPiece = string | { readonly property: string };

/** The text of a unit with pieces: each property formatted on its own in an expanded object, then spliced in. */
export async function renderPieces(pieces: readonly UnitPiece[], format: (text: string) => Promise<string>): Promise<string> {
  const texts = await Promise.all(
    pieces.map(async (piece) => {
      if (typeof piece === "string") return piece;
      const formatted = await format(`const property = {\n  ${piece.property},\n};\n`);
      const lines = formatted.split("\n");
      // "const property = {", the property's lines, "};", ""
      if (lines[0] !== "const property = {" || lines[lines.length - 2] !== "};") throw new Error(`renderPieces: unexpected layout of ${JSON.stringify(piece.property.slice(0, 60))}`);
      return `${lines.slice(1, -2).join("\n")}\n`;
    }),
  );
  return texts.join("");
}

/**
 * Top-level statements (each possibly spanning lines), one after the other, after
 * `comment` (a doc comment, kept as written): laid out, or left to prettier as a whole
 * when one of them is outside the modelled subset.
 */
export function statementsUnit(comment: string, statements: readonly string[]): Unit {
  try {
    return { text: `${comment}${statements.map((s) => layoutStatement(s, 0)).join("\n")}\n`, formatted: true };
  } catch (error) {
    if (!(error instanceof Unsupported)) throw error;
    return { text: `${comment}${statements.join("\n")}\n`, formatted: false };
  }
}

/**
 * A method signature `name(param: T, …): R;` at `indentWidth` as prettier prints it: on one
 * line when it fits, else one parameter per line; Unsupported when even that overflows.
 */
export function layoutSignature(indentWidth: number, name: string, params: readonly string[], returnType: string): string {
  const pad = " ".repeat(indentWidth);
  const oneLine = `${pad}${name}(${params.join(", ")}): ${returnType};`;
  if (fitsWidth(oneLine, printWidth)) return oneLine;
  const lines = [`${pad}${name}(`, ...params.map((p) => `${pad}  ${p},`), `${pad}): ${returnType};`];
  if (params.length === 0 || !lines.every((l) => fitsWidth(l, printWidth))) throw new Unsupported("signature");
  return lines.join("\n");
}
