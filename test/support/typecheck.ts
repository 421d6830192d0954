// Type-checks files with the TypeScript compiler API under the strictest settings
// generated code promises to pass.
import ts from "typescript";
import { repoRoot } from "./paths.js";
import { join } from "node:path";

export const strictOptions: ts.CompilerOptions = {
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  noImplicitOverride: true,
  noFallthroughCasesInSwitch: true,
  verbatimModuleSyntax: true,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
  lib: ["lib.es2023.d.ts"],
  types: ["node"],
  typeRoots: [join(repoRoot, "node_modules", "@types")],
  skipLibCheck: true,
  noEmit: true,
};

export interface TypeError {
  readonly file: string;
  readonly line: number;
  readonly message: string;
  readonly code: number;
}

/** Diagnostics of a program of `files` (absolute paths); empty when everything compiles. */
export function typecheck(files: readonly string[], options: ts.CompilerOptions = {}): TypeError[] {
  const program = ts.createProgram(files, { ...strictOptions, ...options });
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const position = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : undefined;
    return {
      file: d.file?.fileName ?? "",
      line: (position?.line ?? -1) + 1,
      message: ts.flattenDiagnosticMessageText(d.messageText, "\n"),
      code: d.code,
    };
  });
}

export function formatTypeErrors(errors: readonly TypeError[]): string {
  return errors.map((e) => `${e.file}:${e.line}: TS${e.code} ${e.message}`).join("\n");
}
