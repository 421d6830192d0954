// Formats generated TypeScript once, at the end of emission, with prettier.
import { format } from "prettier";

export const prettierOptions = { parser: "typescript", printWidth: 100, trailingComma: "all", endOfLine: "lf" } as const;

export function formatTypeScript(text: string): Promise<string> {
  return format(text, prettierOptions);
}
