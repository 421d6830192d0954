// Reads the declarations json-schema-to-typescript writes (interfaces and type aliases
// made of object types, unions, arrays, tuples, literals and names, with JSDoc comments)
// into the trees ./type-doc.ts prints in prettier's layout, adding `| undefined` to every
// optional property on the way (see addUndefinedToOptionals). A declaration with anything
// else gives undefined, and the caller formats it with prettier.
import { ts } from "ts-morph";
import { Unsupported } from "./expression.js";
import { bareKey } from "./literals.js";
import { printNumber, printString } from "./print.js";
import { printDeclaration, type Declaration, type TypeMember, type TypeNode } from "./type-doc.js";

class TypeReader {
  constructor(private readonly source: ts.SourceFile) {}

  private text(node: ts.Node): string {
    return node.getText(this.source);
  }

  /** JSDoc blocks before `node`; anything but `/** *\/` blocks is unsupported. */
  comments(node: ts.Node): string[] {
    const full = this.source.text.slice(node.getFullStart(), node.getStart(this.source));
    const out: string[] = [];
    let rest = full;
    for (;;) {
      rest = rest.replace(/^[ \t]*\n?[ \t]*/, "");
      if (rest === "") break;
      if (rest.startsWith("\n")) throw new Unsupported("blank line");
      const match = /^\/\*\*[\s\S]*?\*\//.exec(rest);
      if (!match) throw new Unsupported("comment");
      out.push(match[0]);
      rest = rest.slice(match[0].length);
    }
    return out;
  }

  declaration(statement: ts.Statement): Declaration {
    const modifiers = ts.canHaveModifiers(statement) ? ts.getModifiers(statement) : undefined;
    const exported = modifiers?.length === 1 && modifiers[0]!.kind === ts.SyntaxKind.ExportKeyword;
    if (!exported) throw new Unsupported("declaration without export");
    const comments = this.comments(statement);
    if (ts.isInterfaceDeclaration(statement)) {
      if (statement.typeParameters || statement.heritageClauses) throw new Unsupported("generic or extending interface");
      return { kind: "interface", comments, name: statement.name.text, members: statement.members.map((m) => this.member(m)) };
    }
    if (ts.isTypeAliasDeclaration(statement)) {
      if (statement.typeParameters) throw new Unsupported("generic alias");
      return { kind: "alias", comments, name: statement.name.text, type: this.type(statement.type) };
    }
    throw new Unsupported("statement");
  }

  private member(member: ts.TypeElement): TypeMember {
    const comments = this.comments(member);
    if (ts.isPropertySignature(member)) {
      if (!member.type || member.modifiers?.length) throw new Unsupported("property");
      const name = member.name;
      let key: string;
      if (ts.isIdentifier(name)) key = name.text;
      else if (ts.isStringLiteral(name)) {
        const bare = bareKey(name.text);
        if (bare === undefined) throw new Unsupported("key prettier may unquote");
        key = bare ? name.text : printString(this.text(name));
      }
      else throw new Unsupported("property name");
      const type = member.type;
      const optional = member.questionToken !== undefined;
      if (optional && (ts.isFunctionTypeNode(type) || ts.isConstructorTypeNode(type) || ts.isConditionalTypeNode(type))) throw new Unsupported("function type");
      return { comments, key, optional, type: this.type(type) };
    }
    if (ts.isIndexSignatureDeclaration(member)) {
      const parameter = member.parameters[0];
      if (member.parameters.length !== 1 || !parameter?.type || !ts.isIdentifier(parameter.name) || !member.type || member.modifiers?.length) throw new Unsupported("index signature");
      return { comments, key: parameter.name.text, index: { parameter: this.type(parameter.type) }, optional: false, type: this.type(member.type) };
    }
    throw new Unsupported("member");
  }

  type(node: ts.TypeNode): TypeNode {
    if (ts.isParenthesizedTypeNode(node)) return { kind: "parenthesized", type: this.type(node.type) };
    if (ts.isUnionTypeNode(node)) return { kind: "union", members: node.types.map((t) => this.type(t)) };
    const keyword = keywords.get(node.kind);
    if (keyword) return { kind: "keyword", text: keyword };
    if (ts.isLiteralTypeNode(node)) {
      const literal = node.literal;
      if (ts.isStringLiteral(literal)) return { kind: "literal", text: printString(this.text(literal)) };
      if (ts.isNumericLiteral(literal)) return { kind: "literal", text: printNumber(this.text(literal)) };
      if (ts.isPrefixUnaryExpression(literal) && literal.operator === ts.SyntaxKind.MinusToken && ts.isNumericLiteral(literal.operand)) {
        return { kind: "literal", text: `-${printNumber(this.text(literal.operand))}` };
      }
      if (literal.kind === ts.SyntaxKind.NullKeyword) return { kind: "keyword", text: "null" };
      if (literal.kind === ts.SyntaxKind.TrueKeyword || literal.kind === ts.SyntaxKind.FalseKeyword) return { kind: "literal", text: this.text(literal) };
      throw new Unsupported("literal type");
    }
    if (ts.isTypeReferenceNode(node)) {
      if (node.typeArguments || !ts.isIdentifier(node.typeName)) throw new Unsupported("generic type reference");
      return { kind: "reference", name: node.typeName.text };
    }
    if (ts.isArrayTypeNode(node)) return { kind: "array", element: this.type(node.elementType) };
    if (ts.isTupleTypeNode(node)) {
      return {
        kind: "tuple",
        elements: node.elements.map((e) => {
          if (ts.isRestTypeNode(e) || ts.isNamedTupleMember(e) || ts.isOptionalTypeNode(e)) throw new Unsupported("tuple element");
          return this.type(e);
        }),
      };
    }
    if (ts.isTypeLiteralNode(node)) {
      // json-schema-to-typescript writes object types over several lines, which prettier keeps
      return { kind: "object", members: node.members.map((m) => this.member(m)), multiline: this.text(node).includes("\n") };
    }
    throw new Unsupported(ts.SyntaxKind[node.kind]);
  }
}

const keywords = new Map([
  [ts.SyntaxKind.StringKeyword, "string"],
  [ts.SyntaxKind.NumberKeyword, "number"],
  [ts.SyntaxKind.BooleanKeyword, "boolean"],
  [ts.SyntaxKind.UnknownKeyword, "unknown"],
  [ts.SyntaxKind.AnyKeyword, "any"],
  [ts.SyntaxKind.NeverKeyword, "never"],
  [ts.SyntaxKind.UndefinedKeyword, "undefined"],
  [ts.SyntaxKind.NullKeyword, "null"],
  [ts.SyntaxKind.ObjectKeyword, "object"],
  [ts.SyntaxKind.VoidKeyword, "void"],
]);

/**
 * json-schema-to-typescript's output for one schema (format off), with `| undefined` on
 * optional properties, in prettier's layout; undefined when it holds anything not modelled.
 */
export function layoutDeclarations(text: string): string | undefined {
  const source = ts.createSourceFile("x.ts", text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  try {
    const [statement, ...others] = source.statements;
    if (!statement || others.length > 0) return undefined;
    return printDeclaration(new TypeReader(source).declaration(statement));
  } catch (error) {
    if (error instanceof Unsupported) return undefined;
    throw error;
  }
}
