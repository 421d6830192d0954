// RFC 6570 level 1 URI templates: literal text and {var} expressions, where a variable
// expands to its percent-encoded value. The generator turns each template into a
// matcher (a regular expression source plus variable names) that the runtime uses to
// route resources/read, and into an expander for the typed client.

export interface UriTemplate {
  readonly variables: readonly string[];
  /** Alternating literal text and variable names: [literal, var, literal, var, …, literal]. */
  readonly segments: readonly string[];
  /** Regular expression source (anchored) whose groups capture the variables, in order. */
  readonly pattern: string;
}

const variableName = /^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:\.?(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*$/;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

export interface UriTemplateProblem {
  readonly message: string;
  /** Source text of the offending part, used to find its position in the manifest. */
  readonly snippet: string;
  /** How many times `snippet` occurs in the template before the offending one. */
  readonly occurrence: number;
}

export function parseUriTemplate(template: string): { template?: UriTemplate; problem?: UriTemplateProblem } {
  /** A problem with the part of the template that starts at `index`. */
  const fail = (message: string, snippet: string, index: number) => ({
    problem: { message, snippet, occurrence: template.slice(0, index).split(snippet).length - 1 },
  });
  const segments: string[] = [];
  const variables: string[] = [];
  let pattern = "^";
  let literal = "";
  for (let i = 0; i < template.length; i++) {
    const c = template[i]!;
    if (c === "}") return fail("'}' closes no '{'; write variables as {name}, and use %7D for a literal '}'", "}", i);
    if (c !== "{") {
      literal += c;
      continue;
    }
    const close = template.indexOf("}", i);
    if (close < 0) return fail("'{' is never closed; write variables as {name}", template.slice(i), i);
    const expression = template.slice(i + 1, close);
    const snippet = template.slice(i, close + 1);
    if (/^[+#./;?&=,!@|]/.test(expression)) {
      return fail(
        `${snippet} uses an RFC 6570 operator; mcp-gen supports level 1 templates, where each {name} matches one path segment`,
        snippet,
        i,
      );
    }
    if (expression.includes(",") || expression.includes(":") || expression.endsWith("*")) {
      return fail(`${snippet} uses a level 4 modifier or several variables; write one {name} per variable`, snippet, i);
    }
    if (!variableName.test(expression)) {
      return fail(
        `${snippet} is not a valid variable name; use letters, digits and _, with single dots between them`,
        snippet,
        i,
      );
    }
    if (variables.includes(expression)) {
      return fail(`variable ${expression} appears twice in the template; each variable may appear once`, snippet, i);
    }
    segments.push(literal);
    pattern += escapeRegExp(literal);
    literal = "";
    segments.push(expression);
    variables.push(expression);
    // A level-1 expansion percent-encodes everything but unreserved characters, so a
    // value never contains '/', '?' or '#'.
    pattern += "([^/?#]*)";
    i = close;
  }
  segments.push(literal);
  pattern += `${escapeRegExp(literal)}$`;
  return { template: { variables, segments, pattern } };
}
