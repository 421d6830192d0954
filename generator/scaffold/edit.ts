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

export function addEntries(
  morph: Morph,
  file: string,
  original: string,
  typeName: string,
  entries: readonly Entry[],
): EditResult {
  // The parser drops a byte order mark, which would shift every position by one: edit without it.
  const bom = original.startsWith("\uFEFF") ? "\uFEFF" : "";
  const text = original.slice(bom.length);
  const project = new morph.Project({ useInMemoryFileSystem: true, compilerOptions: { noLib: true } });
  const source = project.createSourceFile("handlers.ts", text);
  const at = (node: Node | number, message: string, severity?: "warning"): Diagnostic => {
    const { line, column } = source.getLineAndColumnAtPos(typeof node === "number" ? node : node.getStart());
    const location = { file, line, col: column };
    return severity ? warning(location, message) : { location, message };
  };
  const fail = (errors: Diagnostic[]): EditResult => ({ text: original, added: [], warnings: [], errors });
  const syntax = project.getProgram().getSyntacticDiagnostics(source);
  if (syntax.length > 0)
    return fail(
      syntax.map((d) => at(d.getStart() ?? 0, `cannot parse the handlers file: ${String(d.getMessageText())}`)),
    );
  const handlers = findHandlersObject(morph, source, typeName, at);
  if ("location" in handlers) return fail([handlers]); // a Diagnostic: no handlers object to edit
  const edit = new HandlersEdit(morph, text, handlers, at);
  edit.visit(handlers, entries, "");
  if (edit.errors.length > 0) return fail(edit.errors);
  return { text: bom + edit.apply(), added: edit.added, warnings: edit.warnings, errors: [] };
}

type At = (node: Node | number, message: string, severity?: "warning") => Diagnostic;

/** The handlers object, typed `<Base>Handlers` by a declaration, by `satisfies` or by `as`; else why it cannot be edited. */
function findHandlersObject(
  morph: Morph,
  source: import("ts-morph").SourceFile,
  typeName: string,
  at: At,
): ObjectLiteral | Diagnostic {
  const { Node, SyntaxKind } = morph;
  const named = (type: Node | undefined) =>
    type !== undefined && (type.getText() === typeName || type.getText().endsWith(`.${typeName}`));
  const found = new Set<Node>();
  for (const d of source.getDescendantsOfKind(SyntaxKind.VariableDeclaration))
    if (named(d.getTypeNode())) found.add(unwrap(morph, d.getInitializer()) ?? d);
  for (const kind of [SyntaxKind.SatisfiesExpression, SyntaxKind.AsExpression] as const) {
    for (const s of source.getDescendantsOfKind(kind))
      if (named(s.getTypeNode())) found.add(unwrap(morph, s.getExpression())!);
  }
  const [handlers, ...more] = found;
  if (!handlers)
    return at(
      0,
      `found no handlers object: looked for \`const handlers: ${typeName} = { … }\`, \`{ … } satisfies ${typeName}\` or \`{ … } as ${typeName}\``,
    );
  if (more.length > 0)
    return at(
      more[0]!,
      `more than one object is typed ${typeName} (the first at line ${handlers.getStartLineNumber()}); keep one`,
    );
  if (!Node.isObjectLiteralExpression(handlers))
    return at(handlers, `the ${typeName} object is not an object literal here; scaffold adds stubs to \`{ … }\` only`);
  return handlers;
}

/** The expression inside parentheses, `satisfies` and `as`. */
function unwrap(morph: Morph, node: Node | undefined): Node | undefined {
  const { Node } = morph;
  return (
    node &&
    (Node.isParenthesizedExpression(node) || Node.isSatisfiesExpression(node) || Node.isAsExpression(node)
      ? unwrap(morph, node.getExpression())
      : node)
  );
}

/** `section.member` of every stub an entry adds, with its label. */
function leaves(entry: Entry, path: string): { path: string; label: string }[] {
  return entry.lines ? [{ path, label: entry.label }] : entry.children!.flatMap((c) => leaves(c, `${path}.${c.key}`));
}

/** The additions to one handlers object: collected by `visit`, spliced into the text by `apply`. */
class HandlersEdit {
  readonly added: { path: string; label: string }[] = [];
  readonly warnings: Diagnostic[] = [];
  readonly errors: Diagnostic[] = [];
  private readonly edits: { pos: number; remove: number; insert: string }[] = [];
  private readonly eol: string;
  /** One level of indentation, as the object's first member uses it (two spaces otherwise). */
  private readonly unit: string;

  constructor(
    private readonly morph: Morph,
    private readonly text: string,
    handlers: ObjectLiteral,
    private readonly at: At,
  ) {
    this.eol = text.includes("\r\n") ? "\r\n" : "\n";
    const first = handlers.getProperties()[0];
    const outer = this.indentAt(handlers.getStart());
    this.unit =
      first && this.indentAt(first.getStart()).length > outer.length
        ? this.indentAt(first.getStart()).slice(outer.length)
        : "  ";
  }

  private lineStart(pos: number): number {
    return this.text.lastIndexOf("\n", pos - 1) + 1;
  }

  private indentAt(pos: number): string {
    return /^[ \t]*/.exec(this.text.slice(this.lineStart(pos)))![0];
  }

  private render(entry: Entry, indent: string): string[] {
    return entry.lines
      ? entry.lines.map(([level, line]) => `${indent}${this.unit.repeat(level)}${line}`)
      : [
          `${indent}${entry.key}: {`,
          ...entry.children!.flatMap((child) => this.render(child, indent + this.unit)),
          `${indent}},`,
        ];
  }

  /** The key a property defines, or undefined for a spread or a computed key. */
  private keyOf(p: import("ts-morph").ObjectLiteralElementLike): string | undefined {
    const { Node } = this.morph;
    if (Node.isSpreadAssignment(p)) return undefined;
    const written = p.getNameNode();
    // `["a"]: …` and `get a() { … }` define `a` too.
    const name = Node.isComputedPropertyName(written) ? written.getExpression() : written;
    return Node.isStringLiteral(name) || Node.isNumericLiteral(name) || Node.isNoSubstitutionTemplateLiteral(name)
      ? name.getLiteralText()
      : Node.isIdentifier(name)
        ? name.getText()
        : undefined;
  }

  /** Compares `object` (at `path`) with the entries it should hold: recurses into sections, warns of undeclared handlers, adds the missing. */
  visit(object: ObjectLiteral, wanted: readonly Entry[], path: string): void {
    const properties = object.getProperties();
    const byKey = new Map(
      properties.flatMap((p) => {
        const key = this.keyOf(p);
        return key === undefined ? [] : [[key, p] as const];
      }),
    );
    const missing: Entry[] = [];
    for (const entry of wanted) {
      const property = byKey.get(entry.key);
      const where = path === "" ? entry.key : `${path}.${entry.key}`;
      if (!property) missing.push(entry);
      else if (entry.children) this.visitSection(property, entry, where);
    }
    if (checkedSections.has(path)) {
      const declared = new Set(wanted.map((e) => e.key));
      for (const [key, property] of byKey)
        if (!declared.has(key))
          this.warnings.push(
            this.at(property, `handler ${path}.${key} has no declaration in the manifest (left as it is)`, "warning"),
          );
    }
    if (missing.length === 0) return;
    const spread = properties.find((p) => this.keyOf(p) === undefined);
    if (spread) {
      this.warnings.push(
        this.at(
          spread,
          `${path || "the handlers object"} spreads another object or computes a key, so scaffold cannot tell what it holds; not adding ${missing
            .flatMap((e) => leaves(e, path ? `${path}.${e.key}` : e.key))
            .map((l) => l.path)
            .join(", ")}`,
          "warning",
        ),
      );
      return;
    }
    for (const entry of missing) this.added.push(...leaves(entry, path === "" ? entry.key : `${path}.${entry.key}`));
    this.insertMissing(object, missing);
  }

  private visitSection(property: import("ts-morph").ObjectLiteralElementLike, entry: Entry, where: string): void {
    const { Node } = this.morph;
    const value = Node.isPropertyAssignment(property) ? unwrap(this.morph, property.getInitializer()) : undefined;
    if (value && Node.isObjectLiteralExpression(value)) this.visit(value, entry.children!, where);
    else if (leaves(entry, where).length > 0)
      this.errors.push(
        this.at(
          property,
          `${where} is not an object literal here, so scaffold cannot add ${leaves(entry, where)
            .map((l) => l.path)
            .join(", ")}; add them yourself`,
        ),
      );
  }

  /** Splices the missing entries in just before the object's closing brace, indented as its members. */
  private insertMissing(object: ObjectLiteral, missing: readonly Entry[]): void {
    const { text, eol } = this;
    const properties = object.getProperties();
    const close = object.getEnd() - 1;
    const last = properties.at(-1);
    const comma = last && last.getNextSibling()?.getKind() !== this.morph.SyntaxKind.CommaToken ? "," : "";
    const ownLine = properties.find((p) => text.slice(this.lineStart(p.getStart()), p.getStart()).trim() === "");
    const memberIndent = ownLine ? this.indentAt(ownLine.getStart()) : this.indentAt(object.getStart()) + this.unit;
    const lines = missing.flatMap((entry) => this.render(entry, memberIndent));
    if (this.lineStart(close) > object.getStart() && text.slice(this.lineStart(close), close).trim() === "") {
      // The closing brace has a line of its own: the stubs go on new lines above it.
      if (comma) this.edits.push({ pos: last!.getEnd(), remove: 0, insert: comma });
      this.edits.push({ pos: this.lineStart(close), remove: 0, insert: lines.map((line) => line + eol).join("") });
    } else {
      // `{}` or `{ a }`: open the object up, putting its closing brace on a line of its own.
      const blank = /[ \t]*$/.exec(text.slice(0, close))![0].length;
      this.edits.push({
        pos: close - blank,
        remove: blank,
        insert: comma + eol + lines.map((line) => line + eol).join("") + this.indentAt(close),
      });
    }
  }

  /** The text with every addition spliced in (from the end, so earlier positions stay valid). */
  apply(): string {
    let result = this.text;
    for (const edit of this.edits.sort((a, b) => b.pos - a.pos))
      result = result.slice(0, edit.pos) + edit.insert + result.slice(edit.pos + edit.remove);
    return result;
  }
}
