// Adds the missing entries to the user's handlers object: ts-morph finds the object and its
// sections, and each addition is spliced into the original text just before a closing brace,
// so every other byte (comments, blank lines, quotes, layout) stays as the user wrote it.
import type { Diagnostic } from "../diagnostics.js";
import { warning } from "../diagnostics.js";
import type { Entry } from "./stubs.js";

type Morph = typeof import("ts-morph");
type ObjectLiteral = import("ts-morph").ObjectLiteralExpression;
type Node = import("ts-morph").Node;

export interface EditResult {
  readonly text: string;
  /** `section.member` of every stub added, with its label. */
  readonly added: readonly { path: string; label: string }[];
  readonly warnings: readonly Diagnostic[];
  readonly errors: readonly Diagnostic[];
}

/** The sections whose members must each match a declaration (completions are nested by owner). */
const checkedSections = new Set(["tools", "resources", "resourceTemplates", "prompts"]);

export function addEntries(morph: Morph, file: string, original: string, typeName: string, entries: readonly Entry[]): EditResult {
  const { Node, Project, SyntaxKind } = morph;
  // The parser drops a byte order mark, which would shift every position by one: edit without it.
  const bom = original.startsWith("\uFEFF") ? "\uFEFF" : "";
  const text = original.slice(bom.length);
  const project = new Project({ useInMemoryFileSystem: true, compilerOptions: { noLib: true } });
  const source = project.createSourceFile("handlers.ts", text);
  const at = (node: Node | number, message: string, severity?: "warning"): Diagnostic => {
    const { line, column } = source.getLineAndColumnAtPos(typeof node === "number" ? node : node.getStart());
    const location = { file, line, col: column };
    return severity ? warning(location, message) : { location, message };
  };
  const fail = (errors: Diagnostic[]): EditResult => ({ text: original, added: [], warnings: [], errors });
  const syntax = project.getProgram().getSyntacticDiagnostics(source);
  if (syntax.length > 0) return fail(syntax.map((d) => at(d.getStart() ?? 0, `cannot parse the handlers file: ${String(d.getMessageText())}`)));

  // The handlers object: typed `<Base>Handlers` by a declaration, by `satisfies` or by `as`.
  const named = (type: Node | undefined) => type !== undefined && (type.getText() === typeName || type.getText().endsWith(`.${typeName}`));
  const unwrap = (node: Node | undefined): Node | undefined => (node && (Node.isParenthesizedExpression(node) || Node.isSatisfiesExpression(node) || Node.isAsExpression(node) ? unwrap(node.getExpression()) : node));
  const found = new Set<Node>();
  for (const d of source.getDescendantsOfKind(SyntaxKind.VariableDeclaration)) if (named(d.getTypeNode())) found.add(unwrap(d.getInitializer()) ?? d);
  for (const kind of [SyntaxKind.SatisfiesExpression, SyntaxKind.AsExpression] as const) {
    for (const s of source.getDescendantsOfKind(kind)) if (named(s.getTypeNode())) found.add(unwrap(s.getExpression())!);
  }
  const [handlers, ...more] = found;
  if (!handlers) return fail([at(0, `found no handlers object: looked for \`const handlers: ${typeName} = { … }\`, \`{ … } satisfies ${typeName}\` or \`{ … } as ${typeName}\``)]);
  if (more.length > 0) return fail([at(more[0]!, `more than one object is typed ${typeName} (the first at line ${handlers.getStartLineNumber()}); keep one`)]);
  if (!Node.isObjectLiteralExpression(handlers)) return fail([at(handlers, `the ${typeName} object is not an object literal here; scaffold adds stubs to \`{ … }\` only`)]);

  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const lineStart = (pos: number) => text.lastIndexOf("\n", pos - 1) + 1;
  const indentAt = (pos: number) => /^[ \t]*/.exec(text.slice(lineStart(pos)))![0];
  const first = handlers.getProperties()[0];
  const unit = first && indentAt(first.getStart()).length > indentAt(handlers.getStart()).length ? indentAt(first.getStart()).slice(indentAt(handlers.getStart()).length) : "  ";
  const render = (entry: Entry, indent: string): string[] =>
    entry.lines
      ? entry.lines.map(([level, line]) => `${indent}${unit.repeat(level)}${line}`)
      : [`${indent}${entry.key}: {`, ...entry.children!.flatMap((child) => render(child, indent + unit)), `${indent}},`];
  const keyOf = (p: import("ts-morph").ObjectLiteralElementLike): string | undefined => {
    if (Node.isSpreadAssignment(p)) return undefined;
    const written = p.getNameNode();
    // `["a"]: …` and `get a() { … }` define `a` too.
    const name = Node.isComputedPropertyName(written) ? written.getExpression() : written;
    return Node.isStringLiteral(name) || Node.isNumericLiteral(name) || Node.isNoSubstitutionTemplateLiteral(name) ? name.getLiteralText() : Node.isIdentifier(name) ? name.getText() : undefined;
  };
  const leaves = (entry: Entry, path: string): { path: string; label: string }[] =>
    entry.lines ? [{ path, label: entry.label }] : entry.children!.flatMap((c) => leaves(c, `${path}.${c.key}`));

  const edits: { pos: number; remove: number; insert: string }[] = [];
  const added: { path: string; label: string }[] = [];
  const warnings: Diagnostic[] = [];
  const errors: Diagnostic[] = [];
  const visit = (object: ObjectLiteral, wanted: readonly Entry[], path: string) => {
    const properties = object.getProperties();
    const byKey = new Map(properties.flatMap((p) => { const key = keyOf(p); return key === undefined ? [] : [[key, p] as const]; }));
    const missing: Entry[] = [];
    for (const entry of wanted) {
      const property = byKey.get(entry.key);
      const where = path === "" ? entry.key : `${path}.${entry.key}`;
      if (!property) missing.push(entry);
      else if (entry.children) {
        const value = Node.isPropertyAssignment(property) ? unwrap(property.getInitializer()) : undefined;
        if (value && Node.isObjectLiteralExpression(value)) visit(value, entry.children, where);
        else if (leaves(entry, where).length > 0) errors.push(at(property, `${where} is not an object literal here, so scaffold cannot add ${leaves(entry, where).map((l) => l.path).join(", ")}; add them yourself`));
      }
    }
    if (checkedSections.has(path)) {
      const declared = new Set(wanted.map((e) => e.key));
      for (const [key, property] of byKey) if (!declared.has(key)) warnings.push(at(property, `handler ${path}.${key} has no declaration in the manifest (left as it is)`, "warning"));
    }
    if (missing.length === 0) return;
    const spread = properties.find((p) => keyOf(p) === undefined);
    if (spread) {
      warnings.push(at(spread, `${path || "the handlers object"} spreads another object or computes a key, so scaffold cannot tell what it holds; not adding ${missing.flatMap((e) => leaves(e, path ? `${path}.${e.key}` : e.key)).map((l) => l.path).join(", ")}`, "warning"));
      return;
    }
    for (const entry of missing) added.push(...leaves(entry, path === "" ? entry.key : `${path}.${entry.key}`));
    const close = object.getEnd() - 1;
    const last = properties.at(-1);
    const comma = last && last.getNextSibling()?.getKind() !== SyntaxKind.CommaToken ? "," : "";
    const ownLine = properties.find((p) => text.slice(lineStart(p.getStart()), p.getStart()).trim() === "");
    const memberIndent = ownLine ? indentAt(ownLine.getStart()) : indentAt(object.getStart()) + unit;
    const lines = missing.flatMap((entry) => render(entry, memberIndent));
    if (lineStart(close) > object.getStart() && text.slice(lineStart(close), close).trim() === "") {
      // The closing brace has a line of its own: the stubs go on new lines above it.
      if (comma) edits.push({ pos: last!.getEnd(), remove: 0, insert: comma });
      edits.push({ pos: lineStart(close), remove: 0, insert: lines.map((line) => line + eol).join("") });
    } else {
      // `{}` or `{ a }`: open the object up, putting its closing brace on a line of its own.
      const blank = /[ \t]*$/.exec(text.slice(0, close))![0].length;
      edits.push({ pos: close - blank, remove: blank, insert: comma + eol + lines.map((line) => line + eol).join("") + indentAt(close) });
    }
  };
  visit(handlers, entries, "");
  if (errors.length > 0) return fail(errors);
  let result = text;
  for (const edit of edits.sort((a, b) => b.pos - a.pos)) result = result.slice(0, edit.pos) + edit.insert + result.slice(edit.pos + edit.remove);
  return { text: bom + result, added, warnings, errors: [] };
}
