// index.ts: the public surface of the generated folder, as explicit named exports
// (no `export *`), so a reader sees every name and bundlers tree-shake reliably.
import { ts } from "ts-morph";
import { stringLiteral } from "../escape.js";
import type { GeneratedFile } from "../file.js";

/** Top-level exported declarations of a generated file, split into values and types. */
export function exportedNames(text: string): { values: string[]; types: string[] } {
  const values: string[] = [];
  const types: string[] = [];
  const source = ts.createSourceFile("file.ts", text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  for (const statement of source.statements) {
    if (!ts.canHaveModifiers(statement) || !ts.getModifiers(statement)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) continue;
    if (ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement)) types.push(statement.name.text);
    // The revision namespaces of protocol.gen.ts are `declare`d and hold types only.
    else if (ts.isModuleDeclaration(statement)) types.push(statement.name.getText(source));
    else if (ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement)) values.push(statement.name!.text);
    else if (ts.isVariableStatement(statement)) for (const d of statement.declarationList.declarations) values.push(d.name.getText(source));
  }
  return { values, types };
}

export function emitIndex(index: GeneratedFile, files: readonly GeneratedFile[]): void {
  const w = index.writer;
  for (const file of files) {
    const { values, types } = exportedNames([file.writer.toString(), ...file.formattedTail].join("\n"));
    const module = stringLiteral(index.local(file.path.replace(/\.ts$/, "")));
    const sorted = (names: string[]) => [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    if (values.length > 0) w.write(`export { ${sorted(values).join(", ")} } from ${module};`).newLine();
    if (types.length > 0) w.write(`export type { ${sorted(types).join(", ")} } from ${module};`).newLine();
  }
}
