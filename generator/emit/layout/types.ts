// Prints the declarations json-schema-to-typescript writes (interfaces and type aliases
// made of object types, unions, arrays, tuples, literals and names, with JSDoc comments)
// exactly as prettier prints them, with prettier's doc printer, and adds `| undefined` to
// every optional property on the way (see addUndefinedToOptionals). A declaration with
// anything else gives undefined, and the caller formats it with prettier.
import { doc, type Doc } from "prettier";
import { ts } from "ts-morph";
import { Unsupported } from "./expression.js";
import { printNumber, printString, printWidth } from "./print.js";

const { group, indent, line, softline, hardline, ifBreak, align, indentIfBreak, lineSuffixBoundary } = doc.builders;

type Context = "property" | "alias" | "union" | "array" | "tuple";

class TypePrinter {
  constructor(private readonly source: ts.SourceFile) {}

  private text(node: ts.Node): string {
    return node.getText(this.source);
  }

  /** JSDoc comments before `node`, each as prettier re-indents it; anything but `/** *\/` blocks is unsupported. */
  comments(node: ts.Node): Doc[] {
    const full = this.source.text.slice(node.getFullStart(), node.getStart(this.source));
    const out: Doc[] = [];
    let rest = full;
    for (;;) {
      rest = rest.replace(/^[ \t]*\n?[ \t]*/, "");
      if (rest === "") break;
      if (rest.startsWith("\n")) throw new Unsupported("blank line");
      const match = /^\/\*\*[\s\S]*?\*\//.exec(rest);
      if (!match) throw new Unsupported("comment");
      const lines = match[0].split("\n");
      if (lines.length > 1 && !lines.slice(1).every((l) => l.trim().startsWith("*"))) throw new Unsupported("block comment");
      const printed = lines.map((l, i) => (i === 0 ? l.trimEnd() : ` ${i < lines.length - 1 ? l.trim() : l.trimStart()}`));
      out.push(printed.flatMap((l, i) => (i === 0 ? [l] : [hardline, l])), hardline);
      rest = rest.slice(match[0].length);
    }
    return out;
  }

  declaration(statement: ts.Statement): Doc {
    const modifiers = ts.canHaveModifiers(statement) ? ts.getModifiers(statement) : undefined;
    const exported = modifiers?.length === 1 && modifiers[0]!.kind === ts.SyntaxKind.ExportKeyword;
    if (!exported) throw new Unsupported("declaration without export");
    const head = this.comments(statement);
    if (ts.isInterfaceDeclaration(statement)) {
      if (statement.typeParameters || statement.heritageClauses) throw new Unsupported("generic or extending interface");
      const name = statement.name.text;
      if (statement.members.length === 0) return [...head, "export interface ", name, " {}"];
      return [...head, "export interface ", name, " {", indent([hardline, ...this.members(statement.members, true)]), hardline, "}"];
    }
    if (ts.isTypeAliasDeclaration(statement)) {
      if (statement.typeParameters) throw new Unsupported("generic alias");
      const type = statement.type;
      const left = group(["type ", statement.name.text]);
      let tail: Doc[];
      const bare = unparenthesized(type);
      if (ts.isUnionTypeNode(bare) && !this.hugsUnion(bare)) {
        tail = [group(indent([line, this.type(bare, "alias")]))];
      } else if (ts.isTypeLiteralNode(bare) || ts.isTypeReferenceNode(bare) || isKeyword(bare) || ts.isLiteralTypeNode(bare) || ts.isArrayTypeNode(bare)) {
        const id = Symbol("assignment");
        tail = [group(indent(line), { id }), lineSuffixBoundary, indentIfBreak(this.type(bare, "alias"), { groupId: id })];
      } else throw new Unsupported("alias layout");
      return [...head, "export ", group([left, " =", ...tail]), ";"];
    }
    throw new Unsupported("statement");
  }

  /** Members of an interface (each ending in `;`, one per line) or of an object type (`;` between, and after the last when broken). */
  private members(members: ts.NodeArray<ts.TypeElement>, interfaceBody: boolean): Doc[] {
    const out: Doc[] = [];
    members.forEach((member, i) => {
      if (i > 0) out.push(...(interfaceBody ? [hardline] : [";", line]));
      out.push(...this.comments(member), this.member(member));
      if (interfaceBody) out.push(";");
    });
    if (!interfaceBody) out.push(ifBreak(";"));
    return out;
  }

  private member(member: ts.TypeElement): Doc {
    if (ts.isPropertySignature(member)) {
      if (!member.type || member.modifiers?.length) throw new Unsupported("property");
      const name = member.name;
      let key: string;
      if (ts.isIdentifier(name)) key = name.text;
      else if (ts.isStringLiteral(name)) key = /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name.text) ? name.text : printString(this.text(name));
      else throw new Unsupported("property name");
      const optional = member.questionToken !== undefined;
      return group([key, optional ? "?" : "", ":", " ", this.propertyType(member.type, optional)]);
    }
    if (ts.isIndexSignatureDeclaration(member)) {
      const parameter = member.parameters[0];
      if (member.parameters.length !== 1 || !parameter?.type || !ts.isIdentifier(parameter.name) || !member.type || member.modifiers?.length) throw new Unsupported("index signature");
      return group(["[", group([indent([softline, parameter.name.text, ":", " ", this.type(parameter.type, "property")]), softline]), "]", ":", " ", this.propertyType(member.type, false)]);
    }
    throw new Unsupported("member");
  }

  /** The type of a property; an optional one also accepts undefined (as addUndefinedToOptionals writes it). */
  private propertyType(type: ts.TypeNode, optional: boolean): Doc {
    if (optional) {
      const alreadyUndefined = ts.isUnionTypeNode(type) && type.types.some((t) => t.kind === ts.SyntaxKind.UndefinedKeyword);
      const open = type.kind === ts.SyntaxKind.UnknownKeyword || type.kind === ts.SyntaxKind.AnyKeyword;
      if (!alreadyUndefined && !open) {
        if (ts.isFunctionTypeNode(type) || ts.isConstructorTypeNode(type) || ts.isConditionalTypeNode(type)) throw new Unsupported("function type");
        const members = ts.isUnionTypeNode(type) ? [...type.types] : [type];
        return this.union([...members, ts.factory.createKeywordTypeNode(ts.SyntaxKind.UndefinedKeyword)], "property");
      }
    }
    const bare = unparenthesized(type);
    return ts.isUnionTypeNode(bare) ? this.union([...bare.types], "property") : this.type(bare, "property");
  }

  /** prettier's shouldHugType for a union: an object type with only null/void beside it. */
  private hugsUnion(union: ts.UnionTypeNode | readonly ts.TypeNode[]): boolean {
    const types = Array.isArray(union) ? (union as readonly ts.TypeNode[]) : (union as ts.UnionTypeNode).types;
    const voids = types.filter((t) => t.kind === ts.SyntaxKind.VoidKeyword || (ts.isLiteralTypeNode(t) && t.literal.kind === ts.SyntaxKind.NullKeyword)).length;
    return types.length - 1 === voids && types.some((t) => ts.isTypeLiteralNode(unparenthesized(t)));
  }

  private union(types: readonly ts.TypeNode[], context: Context): Doc {
    if (this.hugsUnion(types)) {
      if (context !== "property") throw new Unsupported("hugged union");
      return types.flatMap((t, i) => (i === 0 ? [this.type(t, "union")] : [" | ", this.type(t, "union")]));
    }
    const printed: Doc[] = [ifBreak("| ")];
    types.forEach((t, i) => printed.push(...(i === 0 ? [] : [line, "| "]), align(2, this.type(t, "union"))));
    const body = group(printed);
    if (context === "property") return group(indent([softline, body]));
    if (context === "alias") return body;
    // inside another union, an array or a tuple: parenthesised
    if (context === "tuple") throw new Unsupported("union in tuple");
    return ["(", group([indent([softline, body]), softline]), ")"];
  }

  type(node: ts.TypeNode, context: Context): Doc {
    const bare = unparenthesized(node);
    if (ts.isUnionTypeNode(bare)) return this.union([...bare.types], context);
    if (isKeyword(bare)) return keywords.get(bare.kind)!;
    if (ts.isLiteralTypeNode(bare)) {
      const literal = bare.literal;
      if (ts.isStringLiteral(literal)) return printString(this.text(literal));
      if (ts.isNumericLiteral(literal)) return printNumber(this.text(literal));
      if (ts.isPrefixUnaryExpression(literal) && literal.operator === ts.SyntaxKind.MinusToken && ts.isNumericLiteral(literal.operand)) return `-${printNumber(this.text(literal.operand))}`;
      if (literal.kind === ts.SyntaxKind.NullKeyword || literal.kind === ts.SyntaxKind.TrueKeyword || literal.kind === ts.SyntaxKind.FalseKeyword) return this.text(literal);
      throw new Unsupported("literal type");
    }
    if (ts.isTypeReferenceNode(bare)) {
      if (bare.typeArguments || !ts.isIdentifier(bare.typeName)) throw new Unsupported("generic type reference");
      return bare.typeName.text;
    }
    if (ts.isArrayTypeNode(bare)) {
      const element = unparenthesized(bare.elementType);
      if (ts.isUnionTypeNode(element) && !this.hugsUnion(element)) return [this.union([...element.types], "array"), "[]"];
      if (!(isKeyword(element) || ts.isTypeLiteralNode(element) || ts.isTypeReferenceNode(element) || ts.isArrayTypeNode(element) || ts.isLiteralTypeNode(element) || ts.isTupleTypeNode(element))) {
        throw new Unsupported("array element");
      }
      return [this.type(element, "array"), "[]"];
    }
    if (ts.isTupleTypeNode(bare)) {
      if (bare.elements.length === 0) return "[]";
      const elements: Doc[] = [];
      bare.elements.forEach((e, i) => {
        if (ts.isRestTypeNode(e) || ts.isNamedTupleMember(e) || ts.isOptionalTypeNode(e)) throw new Unsupported("tuple element");
        elements.push(...(i === 0 ? [] : [",", line]), group(this.type(e, "tuple")));
      });
      return group(["[", indent([softline, ...elements, ifBreak(",")]), softline, "]"]);
    }
    if (ts.isTypeLiteralNode(bare)) {
      if (bare.members.length === 0) return "{}";
      // json-schema-to-typescript writes object types over several lines, which prettier keeps
      const multiline = this.text(bare).includes("\n");
      return group(["{", indent([line, ...this.members(bare.members, false)]), line, "}"], { shouldBreak: multiline });
    }
    throw new Unsupported(ts.SyntaxKind[bare.kind]);
  }
}

function unparenthesized(node: ts.TypeNode): ts.TypeNode {
  return ts.isParenthesizedTypeNode(node) ? unparenthesized(node.type) : node;
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

const isKeyword = (node: ts.TypeNode) => keywords.has(node.kind);

/**
 * json-schema-to-typescript's output for one schema (format off), with `| undefined` on
 * optional properties, in prettier's layout; undefined when it holds anything not modelled.
 */
export function layoutDeclarations(text: string): string | undefined {
  const source = ts.createSourceFile("x.ts", text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  try {
    const printer = new TypePrinter(source);
    const [statement, ...others] = source.statements;
    if (!statement || others.length > 0) return undefined;
    return `${doc.printer.printDocToString(printer.declaration(statement), { printWidth, tabWidth: 2, useTabs: false }).formatted}\n`;
  } catch (error) {
    if (error instanceof Unsupported) return undefined;
    throw error;
  }
}
