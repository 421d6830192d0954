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

export function parseUriTemplate(template: string): { template?: UriTemplate; problem?: { message: string; snippet: string } } {
  const segments: string[] = [];
  const variables: string[] = [];
  let pattern = "^";
  let literal = "";
  for (let i = 0; i < template.length; i++) {
    const c = template[i]!;
    if (c === "}") return { problem: { message: "unmatched '}' in uriTemplate", snippet: "}" } };
    if (c !== "{") {
      literal += c;
      continue;
    }
    const close = template.indexOf("}", i);
    if (close < 0) return { problem: { message: "unclosed '{' in uriTemplate", snippet: template.slice(i) } };
    const expression = template.slice(i + 1, close);
    const snippet = template.slice(i, close + 1);
    if (/^[+#./;?&=,!@|]/.test(expression)) {
      return { problem: { message: `${snippet} uses an RFC 6570 operator; mcp-gen supports level 1 templates, where each {name} matches one path segment`, snippet } };
    }
    if (expression.includes(",") || expression.includes(":") || expression.endsWith("*")) {
      return { problem: { message: `${snippet} uses a level 4 modifier or several variables; write one {name} per variable`, snippet } };
    }
    if (!variableName.test(expression)) {
      return { problem: { message: `${snippet} is not a valid variable name (letters, digits and _ )`, snippet } };
    }
    if (variables.includes(expression)) {
      return { problem: { message: `variable ${expression} appears twice in the template; each variable may appear once`, snippet } };
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
