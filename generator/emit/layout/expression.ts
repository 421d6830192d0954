// A parser for the small subset of TypeScript that the validator compiler writes, one
// statement per line: identifiers, number and string literals, member access, calls,
// `new` with type arguments, unary `!`/`typeof`/`-`, binary and logical operators,
// `as` casts, object and array literals, postfix `++` and assignments. Anything else
// throws `Unsupported`, and the caller hands the unit to prettier instead.

export class Unsupported extends Error {}

export type Expr =
  | { readonly kind: "atom"; readonly text: string } // identifier, keyword, number
  | { readonly kind: "string"; readonly value: string; readonly raw: string }
  | { readonly kind: "member"; readonly object: Expr; readonly property: string }
  | { readonly kind: "index"; readonly object: Expr; readonly index: Expr }
  | { readonly kind: "call"; readonly callee: Expr; readonly args: readonly Expr[]; readonly isNew: boolean; readonly typeArgs: string | undefined }
  | { readonly kind: "unary"; readonly operator: string; readonly argument: Expr }
  | { readonly kind: "postfix"; readonly operator: string; readonly argument: Expr }
  | { readonly kind: "binary"; readonly operator: string; readonly left: Expr; readonly right: Expr }
  | { readonly kind: "as"; readonly expression: Expr; readonly type: string }
  | { readonly kind: "assign"; readonly operator: string; readonly left: Expr; readonly right: Expr }
  | { readonly kind: "object"; readonly properties: readonly { readonly key: Expr; readonly value: Expr }[]; readonly expanded: boolean }
  | { readonly kind: "arrow"; readonly params: readonly string[]; readonly body: Expr }
  | { readonly kind: "array"; readonly elements: readonly Expr[] };

/** `newline`: a line break precedes the token (prettier keeps an object expanded when one follows its `{`). */
/** `tight`: no whitespace before the token. */
type Token = { readonly type: "name" | "number" | "string" | "punct"; readonly text: string; readonly newline: boolean; readonly tight: boolean };

// One sticky pattern for every token: spaces, names, numbers, strings, punctuators.
const tokenPattern =
  /(\s+)|([A-Za-z_$][A-Za-z0-9_$]*)|(0[xX][0-9a-fA-F]+|[0-9]+(?:\.[0-9]*)?(?:[eE][+-]?[0-9]+)?)|("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')|(===|!==|\.\.\.|&&|\|\||\?\?|<=|>=|==|!=|\+\+|--|\+=|-=|=>|[()[\]{},;:.<>+\-*/%!=?&|])/y;

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  tokenPattern.lastIndex = 0;
  let newline = false;
  let spaced = true;
  while (tokenPattern.lastIndex < text.length) {
    const m = tokenPattern.exec(text);
    if (!m) throw new Unsupported(`unexpected ${JSON.stringify(text[tokenPattern.lastIndex])}`);
    if (m[1]) {
      newline ||= m[1].includes("\n");
      spaced = true;
      continue;
    }
    const type = m[2] ? "name" : m[3] ? "number" : m[4] ? "string" : "punct";
    tokens.push({ type, text: m[0], newline, tight: !spaced });
    newline = false;
    spaced = false;
  }
  return tokens;
}

// Binary precedence as prettier's getPrecedence sees it.
const precedence = new Map<string, number>([
  ["??", 1],
  ["||", 2],
  ["&&", 3],
  ["|", 4],
  ["^", 5],
  ["&", 6],
  ["==", 7],
  ["===", 7],
  ["!=", 7],
  ["!==", 7],
  ["<", 8],
  [">", 8],
  ["<=", 8],
  [">=", 8],
  ["in", 8],
  ["instanceof", 8],
  ["+", 10],
  ["-", 10],
  ["*", 11],
  ["/", 11],
  ["%", 11],
]);

export function getPrecedence(operator: string): number {
  return precedence.get(operator) ?? 0;
}

export const isLogical = (operator: string) => operator === "&&" || operator === "||" || operator === "??";

/** Parses tokens into statements-level pieces; `Parser.expression()` is the entry point. */
export class Parser {
  private pos = 0;
  /** Set when an object literal is written expanded (prettier keeps it broken). */
  sawExpanded = false;
  constructor(private readonly tokens: readonly Token[]) {}

  get done(): boolean {
    return this.pos >= this.tokens.length;
  }

  peek(offset = 0): Token | undefined {
    return this.tokens[this.pos + offset];
  }

  is(text: string): boolean {
    return this.tokens[this.pos]?.text === text;
  }

  take(text?: string): Token {
    const token = this.tokens[this.pos];
    if (!token || (text !== undefined && token.text !== text)) throw new Unsupported(`expected ${text ?? "token"}`);
    this.pos++;
    return token;
  }

  name(): string {
    const token = this.take();
    if (token.type !== "name") throw new Unsupported("expected a name");
    return token.text;
  }

  /** A type as flat text: names, dots, type arguments, `readonly`, `[]` and `|`. */
  type(): string {
    let text = "";
    const one = (): string => {
      let t = "";
      if (this.is("readonly")) {
        this.take();
        t += "readonly ";
      }
      t += this.name();
      while (this.is(".")) {
        this.take();
        t += `.${this.name()}`;
      }
      if (this.is("<")) t += this.typeArguments();
      while (this.is("[") && this.peek(1)?.text === "]") {
        this.take();
        this.take();
        t += "[]";
      }
      return t;
    };
    text = one();
    while (this.is("|")) {
      this.take();
      text += ` | ${one()}`;
    }
    return text;
  }

  typeArguments(): string {
    this.take("<");
    const args = [this.type()];
    while (this.is(",")) {
      this.take();
      args.push(this.type());
    }
    this.take(">");
    return `<${args.join(", ")}>`;
  }

  expression(): Expr {
    const left = this.binary(0);
    const op = this.peek()?.text;
    if (op === "=" || op === "+=" || op === "-=") {
      this.take();
      return { kind: "assign", operator: op, left, right: this.expression() };
    }
    return left;
  }

  private binary(minPrecedence: number): Expr {
    let left = this.unary();
    for (;;) {
      const token = this.peek();
      if (!token) return left;
      if (token.text === "as" && minPrecedence <= 8) {
        this.take();
        left = { kind: "as", expression: left, type: this.type() };
        continue;
      }
      const p = token.type === "punct" || token.text === "in" || token.text === "instanceof" ? (precedence.get(token.text) ?? 0) : 0;
      if (p === 0 || p <= minPrecedence) return left;
      // `f<T>(x)`: type arguments of a call, which would read as comparisons (the code
      // written here always puts spaces around a comparison)
      if (token.text === "<" && token.tight) throw new Unsupported("type arguments");
      this.take();
      const right = this.binary(p);
      left = { kind: "binary", operator: token.text, left, right };
    }
  }

  private unary(): Expr {
    const token = this.peek();
    if (token && (token.text === "!" || token.text === "-" || token.text === "typeof")) {
      this.take();
      return { kind: "unary", operator: token.text, argument: this.unary() };
    }
    const expr = this.postfix();
    if (this.is("++") || this.is("--")) return { kind: "postfix", operator: this.take().text, argument: expr };
    return expr;
  }

  private postfix(): Expr {
    let expr = this.primary();
    for (;;) {
      if (this.is(".")) {
        this.take();
        expr = { kind: "member", object: expr, property: this.name() };
      } else if (this.is("[")) {
        this.take();
        const index = this.expression();
        this.take("]");
        expr = { kind: "index", object: expr, index };
      } else if (this.is("(")) {
        expr = { kind: "call", callee: expr, args: this.args(), isNew: false, typeArgs: undefined };
      } else return expr;
    }
  }

  /** After `(`: the parameter names of an arrow function `(a, b) =>`, consumed through `=>`; else nothing is consumed. */
  private arrowParams(): string[] | undefined {
    const params: string[] = [];
    let i = 0;
    for (;;) {
      const token = this.peek(i);
      if (token?.text === ")" && this.peek(i + 1)?.text === "=>") break;
      if (token?.type !== "name") return undefined;
      params.push(token.text);
      const next = this.peek(i + 1)?.text;
      if (next === ",") i += 2;
      else if (next === ")") i += 1;
      else return undefined;
    }
    this.pos += i + 2;
    return params;
  }

  private args(): Expr[] {
    this.take("(");
    const args: Expr[] = [];
    while (!this.is(")")) {
      args.push(this.expression());
      if (!this.is(")")) this.take(",");
    }
    this.take(")");
    return args;
  }

  private primary(): Expr {
    const token = this.take();
    if (token.type === "number") return { kind: "atom", text: token.text };
    if (token.type === "string") return { kind: "string", value: stringValue(token.text), raw: token.text };
    if (token.type === "name") {
      if (token.text === "new") {
        let callee: Expr = { kind: "atom", text: this.name() };
        while (this.is(".")) {
          this.take();
          callee = { kind: "member", object: callee, property: this.name() };
        }
        const typeArgs = this.is("<") ? this.typeArguments() : undefined;
        return { kind: "call", callee, args: this.args(), isNew: true, typeArgs };
      }
      if (token.text === "function" || token.text === "class") throw new Unsupported(token.text);
      return { kind: "atom", text: token.text };
    }
    if (token.text === "(") {
      const arrow = this.arrowParams();
      if (arrow) return { kind: "arrow", params: arrow, body: this.expression() };
      const inner = this.expression();
      this.take(")");
      return inner;
    }
    if (token.text === "{") {
      const expanded = !this.is("}") && this.peek()!.newline;
      if (expanded) this.sawExpanded = true;
      const properties: { key: Expr; value: Expr }[] = [];
      while (!this.is("}")) {
        const keyToken = this.take();
        if (keyToken.type === "punct") throw new Unsupported("computed or spread property");
        const key: Expr = keyToken.type === "string" ? { kind: "string", value: stringValue(keyToken.text), raw: keyToken.text } : { kind: "atom", text: keyToken.text };
        this.take(":");
        properties.push({ key, value: this.expression() });
        if (!this.is("}")) this.take(",");
      }
      this.take("}");
      return { kind: "object", properties, expanded };
    }
    if (token.text === "[") {
      const elements: Expr[] = [];
      while (!this.is("]")) {
        elements.push(this.expression());
        if (!this.is("]")) this.take(",");
      }
      this.take("]");
      return { kind: "array", elements };
    }
    throw new Unsupported(`unexpected ${token.text}`);
  }
}

/** The value of a string literal token, single- or double-quoted. */
function stringValue(raw: string): string {
  const json = raw[0] === '"' ? raw : `"${raw.slice(1, -1).replace(/\\'/g, "'").replace(/"/g, '\\"')}"`;
  return JSON.parse(json) as string;
}
