// Declarative prompt messages are Handlebars templates. They are parsed here, at
// generation time, checked against the prompt's declared arguments, and reduced to a
// tiny tree that the emitter turns into plain string concatenation: no template engine
// ships at run time.
//
// Supported: {{name}} and {{{name}}} (both insert the argument as is: prompts are not
// HTML, so nothing is HTML-escaped), {{#if name}}…{{else}}…{{/if}}, {{#unless name}}…{{/unless}},
// comments {{! … }}, and \{{ to write literal braces. Anything else is an error.
// Whitespace is what Handlebars renders: `~` strips it on its side of a tag ({{~name~}}),
// and a line holding only a block tag or comment disappears (standalone lines). Handlebars'
// own parser applies both to the text between tags, so the tree carries no flags.
import { createRequire } from "node:module";
import { quote } from "../diagnostics.js";

// Only Handlebars' parser, loaded on first use (synchronously, from its CommonJS build): most
// manifests declare no prompt messages, and the whole engine takes three times as long to load.
let parser: Pick<typeof import("handlebars"), "parse"> | undefined;
const loadParser = () =>
  (parser ??= createRequire(import.meta.url)("handlebars/dist/cjs/handlebars/compiler/base") as Pick<
    typeof import("handlebars"),
    "parse"
  >);

export type TemplatePart =
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "arg"; readonly name: string }
  | {
      readonly kind: "if";
      readonly name: string;
      readonly negate: boolean;
      readonly then: TemplatePart[];
      readonly otherwise: TemplatePart[];
    };

export interface TemplateProblem {
  readonly message: string;
  /** Source text of the offending tag, used to find its position in the manifest. */
  readonly snippet: string;
  /** How many times `snippet` occurs in the template before the offending tag. */
  readonly occurrence: number;
}

type Node = hbs.AST.Node;

export function parsePromptTemplate(
  text: string,
  declared: ReadonlySet<string>,
): { parts?: TemplatePart[]; problems: TemplateProblem[]; used: Set<string> } {
  let program: hbs.AST.Program;
  try {
    // parse (not parseWithoutProcessing) applies whitespace control and standalone lines.
    program = loadParser().parse(text);
  } catch (error) {
    return { problems: [describeSyntaxError(text, String((error as Error).message))], used: new Set() };
  }
  const converter = new TemplateConverter(text, declared);
  const parts = converter.convert(program.body);
  const { problems, used } = converter;
  return problems.length > 0 ? { problems, used } : { parts, problems, used };
}

/** Turns a parsed template's statements into parts, collecting problems and the arguments used. */
class TemplateConverter {
  readonly problems: TemplateProblem[] = [];
  readonly used = new Set<string>();
  private readonly lines: string[];

  constructor(
    private readonly text: string,
    private readonly declared: ReadonlySet<string>,
  ) {
    this.lines = text.split("\n");
  }

  convert(statements: hbs.AST.Statement[]): TemplatePart[] {
    const parts: TemplatePart[] = [];
    for (const statement of statements) {
      switch (statement.type) {
        case "ContentStatement":
          this.content(parts, (statement as hbs.AST.ContentStatement).value);
          break;
        case "CommentStatement":
          break;
        case "MustacheStatement":
          this.mustache(parts, statement as hbs.AST.MustacheStatement);
          break;
        case "BlockStatement":
          this.block(parts, statement as hbs.AST.BlockStatement);
          break;
        default:
          this.problem("partials and decorators are not supported in prompt templates", statement);
      }
    }
    return parts;
  }

  /** Text, joined to the text before it. */
  private content(parts: TemplatePart[], value: string): void {
    const last = parts[parts.length - 1];
    if (last?.kind === "text") parts[parts.length - 1] = { kind: "text", text: last.text + value };
    else if (value !== "") parts.push({ kind: "text", text: value });
  }

  /** `{{name}}`: an argument, never a helper call. */
  private mustache(parts: TemplatePart[], mustache: hbs.AST.MustacheStatement): void {
    if (mustache.params.length > 0 || mustache.hash?.pairs?.length) {
      this.problem("helpers are not supported in prompt templates; write {{name}}", mustache);
      return;
    }
    const name = this.argumentName(mustache, mustache.path);
    if (name) parts.push({ kind: "arg", name });
  }

  /** `{{#if name}}` and `{{#unless name}}`, with their `{{else}}`; no other block. */
  private block(parts: TemplatePart[], block: hbs.AST.BlockStatement): void {
    const helper = block.path.type === "PathExpression" ? (block.path as hbs.AST.PathExpression).original : "";
    if ((helper !== "if" && helper !== "unless") || block.params.length !== 1 || block.hash?.pairs?.length) {
      this.problem(`{{#${helper}}} is not supported; prompt templates allow {{#if name}} and {{#unless name}}`, block);
      return;
    }
    const name = this.argumentName(block, block.params[0]!);
    if (!name) return;
    parts.push({
      kind: "if",
      name,
      negate: helper === "unless",
      then: this.convert(block.program.body),
      otherwise: block.inverse ? this.convert(block.inverse.body) : [],
    });
  }

  /** The declared argument `expression` names, or undefined with a problem recorded. */
  private argumentName(node: Node, expression: hbs.AST.Expression): string | undefined {
    if (expression.type !== "PathExpression") {
      this.problem("only argument names may appear inside {{ }}", node);
      return undefined;
    }
    const path = expression as hbs.AST.PathExpression;
    if (path.data || path.depth > 0 || path.parts.length !== 1 || path.original === "this") {
      this.problem(
        `${quote(path.original)} is not a plain argument name; write {{name}} with one of the declared arguments`,
        node,
      );
      return undefined;
    }
    const name = path.parts[0]!;
    if (!this.declared.has(name)) {
      const list = [...this.declared];
      this.problem(
        `template uses ${quote(name)}, which is not a declared argument of this prompt; declare it under arguments${list.length > 0 ? ` or use one of: ${list.join(", ")}` : ""}`,
        node,
      );
      return undefined;
    }
    this.used.add(name);
    return name;
  }

  private problem(message: string, node: Node): void {
    this.problems.push({ message, ...this.snippetOf(node) });
  }

  /** The source text of `node` (its first line) and which occurrence of that text it is, for the diagnostic's position. */
  private snippetOf(node: Node): { snippet: string; occurrence: number } {
    const { start, end } = node.loc;
    const line = this.lines[start.line - 1] ?? "";
    const snippet = start.line === end.line ? line.slice(start.column, end.column) : line.slice(start.column);
    const offset = this.lines.slice(0, start.line - 1).reduce((n, l) => n + l.length + 1, 0) + start.column;
    return { snippet, occurrence: occurrences(this.text.slice(0, offset), snippet) };
  }
}

function occurrences(text: string, snippet: string): number {
  return snippet === "" ? 0 : text.split(snippet).length - 1;
}

/**
 * Turns a Handlebars parse error ("Parse error on line 1:\n…{{name\n----^\nExpecting …")
 * into a message about the tag at fault. The excerpt around the caret locates the
 * offending token; the tag is the one that starts at or before it.
 */
function describeSyntaxError(text: string, message: string): TemplateProblem {
  const tagAt = (offset: number): TemplateProblem & { closed: boolean } => {
    const start = Math.max(0, text.lastIndexOf("{{", offset));
    const close = text.indexOf("}}", start);
    const lineEnd = text.indexOf("\n", start) < 0 ? text.length : text.indexOf("\n", start);
    const closed = close >= 0 && close < lineEnd;
    const snippet = text.slice(start, closed ? close + 2 : lineEnd);
    return { message: "", snippet, occurrence: occurrences(text.slice(0, start), snippet), closed };
  };
  const problem = (detail: string, at: TemplateProblem) => ({
    message: `invalid template: ${detail}`,
    snippet: at.snippet,
    occurrence: at.occurrence,
  });
  const allowed =
    "tags are {{name}}, {{#if name}}…{{else}}…{{/if}}, {{#unless name}}…{{/unless}} and {{! comments }}; write \\{{ for literal braces";

  const mismatch = /^(\S+) doesn't match (\S+)/.exec(message);
  if (mismatch) {
    const closing = new RegExp(`\\{\\{~?/\\s*${mismatch[2]!.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\s*~?\\}\\}`).exec(
      text,
    );
    return problem(
      `{{/${mismatch[2]}}} does not close the open {{#${mismatch[1]}}} block; close the innermost block first`,
      tagAt(closing?.index ?? 0),
    );
  }
  const [, excerpt = "", caret = ""] = message.split("\n");
  const got = /got '([A-Z_]+)'/.exec(message)?.[1];
  if (got === "EOF") {
    // Every tag is closed, so a block is not: find the last {{#…}} without its {{/…}}.
    const open: number[] = [];
    for (const tag of text.matchAll(/\{\{~?([#/])/g)) {
      if (tag[1] === "#") open.push(tag.index);
      else open.pop();
    }
    const at = tagAt(open.pop() ?? text.lastIndexOf("{{"));
    const helper = /^\{\{~?#\s*([^\s}~]+)/.exec(at.snippet)?.[1] ?? "if";
    return problem(`${at.snippet} is never closed; end the block with {{/${helper}}}`, at);
  }
  // Locate the token at the caret: the excerpt is up to 20 characters of the input before it
  // ("..." when cut) and after it ("..." when cut), with line breaks removed.
  const caretAt = caret.indexOf("^");
  const before = excerpt.slice(0, caretAt).replace(/^\.\.\./, "");
  const after = excerpt.slice(caretAt).replace(/\.\.\.$/, "");
  const flat = text.replace(/\n/g, "");
  let flatOffset = flat.indexOf(before + after) + before.length;
  if (flatOffset < before.length) flatOffset = 0;
  let offset = 0;
  for (let seen = 0; offset < text.length && seen < flatOffset; offset++) if (text[offset] !== "\n") seen++;
  const at = tagAt(offset);
  if (got === "OPEN_ENDBLOCK")
    return problem(`${at.snippet} closes no open block; remove it or open the block with {{#if name}}`, at);
  if (got === "INVERSE" || got === "OPEN_INVERSE" || got === "OPEN_INVERSE_CHAIN") {
    return problem(`${at.snippet} is only allowed once inside a {{#if name}} or {{#unless name}} block`, at);
  }
  if (!at.closed)
    return problem(`${at.snippet} is not closed; end the tag with }}, or write \\{{ for literal braces`, at);
  return problem(`${at.snippet} is not a valid tag; ${allowed}`, at);
}
