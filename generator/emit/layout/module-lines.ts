// Import and re-export lines in prettier's layout: `import { a, b } from "m";` on one line
// when it fits in 100 columns (or names a single specifier, which prettier never breaks),
// else one specifier per line, indented two spaces, with a trailing comma. The same holds
// for `import type`, `export` and `export type`. Generated files import and re-export
// thousands of names, and prettier's TypeScript parser is slow on such lists.
import { printString, printWidth } from "./print.js";
import { fitsWidth } from "./width.js";

export type ModuleKeyword = "import" | "import type" | "export" | "export type";

/** `specifiers` as written (`name`, `type name`); `module` the specifier text, unquoted. */
export function moduleLine(keyword: ModuleKeyword, specifiers: readonly string[], module: string): string {
  const source = printString(JSON.stringify(module));
  if (specifiers.length === 0) return `${keyword} {} from ${source};`;
  const line = `${keyword} { ${specifiers.join(", ")} } from ${source};`;
  if (specifiers.length <= 1 || fitsWidth(line, printWidth)) return line;
  return `${keyword} {\n${specifiers.map((s) => `  ${s},`).join("\n")}\n} from ${source};`;
}
