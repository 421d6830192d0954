// Declarative prompt messages are Handlebars templates. They are parsed here, at
// generation time, checked against the prompt's declared arguments, and reduced to a
// tiny tree that the emitter turns into plain string concatenation: no template engine
// ships at run time.
//
// Supported: {{name}} and {{{name}}} (both insert the argument as is: prompts are not
// HTML, so nothing is HTML-escaped), {{#if name}}…{{else}}…{{/if}}, {{#unless name}}…{{/unless}},
// comments {{! … }}, and \{{ to write literal braces. Anything else is an error.
import Handlebars from "handlebars";
import { quote } from "../diagnostics.js";

export type TemplatePart =
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "arg"; readonly name: string }
  | { readonly kind: "if"; readonly name: string; readonly negate: boolean; readonly then: TemplatePart[]; readonly otherwise: TemplatePart[] };

export interface TemplateProblem {
  readonly message: string;
  /** Source text of the offending tag, used to find its position in the manifest. */
  readonly snippet: string;
}

type Node = hbs.AST.Node;

export function parsePromptTemplate(
  text: string,
  declared: ReadonlySet<string>,
): { parts?: TemplatePart[]; problems: TemplateProblem[]; used: Set<string> } {
  const used = new Set<string>();
  let program: hbs.AST.Program;
  try {
    program = Handlebars.parseWithoutProcessing(text);
  } catch (error) {
    const message = String((error as Error).message).split("\n")[0] ?? "syntax error";
    return { problems: [{ message: `invalid template: ${message}`, snippet: "{{" }], used };
  }
  const problems: TemplateProblem[] = [];
  const snippetOf = (node: Node): string => {
    const { start, end } = node.loc;
    const lines = text.split("\n");
    if (start.line === end.line) return (lines[start.line - 1] ?? "").slice(start.column, end.column);
    return (lines[start.line - 1] ?? "").slice(start.column);
  };
  const argumentName = (node: Node, expression: hbs.AST.Expression): string | undefined => {
    if (expression.type !== "PathExpression") {
      problems.push({ message: "only argument names may appear inside {{ }}", snippet: snippetOf(node) });
      return undefined;
    }
    const path = expression as hbs.AST.PathExpression;
    if (path.data || path.depth > 0 || path.parts.length !== 1 || path.original === "this") {
      problems.push({ message: `${quote(path.original)} is not a plain argument name; write {{name}} with one of the declared arguments`, snippet: snippetOf(node) });
      return undefined;
    }
    const name = path.parts[0]!;
    if (!declared.has(name)) {
      const list = [...declared];
      problems.push({
        message: `template uses ${quote(name)}, which is not a declared argument of this prompt; declare it under arguments${list.length > 0 ? ` or use one of: ${list.join(", ")}` : ""}`,
        snippet: snippetOf(node),
      });
      return undefined;
    }
    used.add(name);
    return name;
  };

  const convert = (statements: hbs.AST.Statement[]): TemplatePart[] => {
    const parts: TemplatePart[] = [];
    for (const statement of statements) {
      switch (statement.type) {
        case "ContentStatement": {
          const value = (statement as hbs.AST.ContentStatement).value;
          const last = parts[parts.length - 1];
          if (last?.kind === "text") parts[parts.length - 1] = { kind: "text", text: last.text + value };
          else if (value !== "") parts.push({ kind: "text", text: value });
          break;
        }
        case "CommentStatement":
          break;
        case "MustacheStatement": {
          const mustache = statement as hbs.AST.MustacheStatement;
          if (mustache.params.length > 0 || mustache.hash?.pairs?.length) {
            problems.push({ message: "helpers are not supported in prompt templates; write {{name}}", snippet: snippetOf(statement) });
            break;
          }
          const name = argumentName(statement, mustache.path);
          if (name) parts.push({ kind: "arg", name });
          break;
        }
        case "BlockStatement": {
          const block = statement as hbs.AST.BlockStatement;
          const helper = block.path.type === "PathExpression" ? (block.path as hbs.AST.PathExpression).original : "";
          if ((helper !== "if" && helper !== "unless") || block.params.length !== 1 || block.hash?.pairs?.length) {
            problems.push({ message: `{{#${helper}}} is not supported; prompt templates allow {{#if name}} and {{#unless name}}`, snippet: snippetOf(statement) });
            break;
          }
          const name = argumentName(statement, block.params[0]!);
          if (!name) break;
          parts.push({
            kind: "if",
            name,
            negate: helper === "unless",
            then: convert(block.program.body),
            otherwise: block.inverse ? convert(block.inverse.body) : [],
          });
          break;
        }
        default:
          problems.push({ message: "partials and decorators are not supported in prompt templates", snippet: snippetOf(statement) });
      }
    }
    return parts;
  };
  const parts = convert(program.body);
  return problems.length > 0 ? { problems, used } : { parts, problems, used };
}
