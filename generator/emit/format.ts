// Formats generated TypeScript with prettier at the end of emission: each file's head
// (banner, imports, small declarations) and the units the emitters could not write in
// prettier's layout themselves (generator/emit/layout/ does that for per-tool code).
import { format } from "prettier";

export const prettierOptions = { parser: "typescript", printWidth: 100, trailingComma: "all", endOfLine: "lf" } as const;

export function formatTypeScript(text: string): Promise<string> {
  return format(text, prettierOptions);
}
