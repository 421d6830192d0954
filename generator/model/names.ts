// The one rule that turns MCP names into TypeScript identifiers (documented in docs/manifest.md, "Identifier rule"):
//   1. split the name into words at every character that is not a letter or digit, and at
//      case changes ("getURL" → get, URL; "HTTPServer" → HTTP, Server);
//   2. lower-case every word;
//   3. the member name is the first word followed by the others capitalised (camelCase),
//      the type name is every word capitalised (PascalCase).
// get_forecast, get-forecast and getForecast all become getForecast / GetForecast; weather.get
// becomes weatherGet / WeatherGet. A name that yields no word, starts with a digit, or yields a
// reserved word is an error; so are two names that yield the same identifier.

/**
 * A word of rule 1: capitals followed by a capitalised word ("HTTP" of "HTTPServer"), or
 * capitals followed by lower-case letters and digits, or capitals alone. Every other
 * character separates words.
 */
const wordPattern = /[A-Z]+(?=[A-Z][a-z])|[A-Z]*[a-z0-9]+|[A-Z]+/g;

function words(name: string): string[] {
  return (name.match(wordPattern) ?? []).map((w) => w.toLowerCase());
}

const capitalise = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/** An unpaired UTF-16 surrogate (from a "\ud800" escape): no character, so no URI or anchor can carry it. */
export const unpairedSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function camelCase(name: string): string {
  const [first = "", ...rest] = words(name);
  return first + rest.map(capitalise).join("");
}

export function pascalCase(name: string): string {
  return words(name).map(capitalise).join("");
}

/**
 * Words that cannot be member names of generated handler and client objects: the
 * language's reserved words, and names that would shadow Object.prototype members.
 */
export const reservedIdentifiers: ReadonlySet<string> = new Set([
  "arguments",
  "await",
  "break",
  "case",
  "catch",
  "class",
  "const",
  "continue",
  "debugger",
  "default",
  "delete",
  "do",
  "else",
  "enum",
  "eval",
  "export",
  "extends",
  "false",
  "finally",
  "for",
  "function",
  "if",
  "implements",
  "import",
  "in",
  "instanceof",
  "interface",
  "let",
  "new",
  "null",
  "package",
  "private",
  "protected",
  "public",
  "return",
  "static",
  "super",
  "switch",
  "this",
  "throw",
  "true",
  "try",
  "typeof",
  "undefined",
  "var",
  "void",
  "while",
  "with",
  "yield",
  "constructor",
  "prototype",
  "__proto__",
  "hasOwnProperty",
  "isPrototypeOf",
  "propertyIsEnumerable",
  "toLocaleString",
  "toString",
  "valueOf",
]);

/** Why `identifier` cannot be used as a member name, or undefined when it can. */
export function identifierProblem(identifier: string): string | undefined {
  if (identifier === "") return "contains no letters or digits";
  if (/^[0-9]/.test(identifier)) return `becomes "${identifier}", which starts with a digit`;
  if (!/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(identifier)) return `becomes "${identifier}", which is not an identifier`;
  if (reservedIdentifiers.has(identifier)) return `becomes "${identifier}", a reserved word`;
  return undefined;
}

/**
 * PascalCase base of the generated server API (createXServer, XHandlers, XClient): the
 * server name's words without a trailing "server" or "mcp" (docs-mcp → Docs).
 */
export function serverTypeBase(name: string): string {
  const parts = words(name);
  while (parts.length > 1 && ["server", "mcp"].includes(parts[parts.length - 1]!)) parts.pop();
  return pascalCase(parts.join(" "));
}
