// index.ts: the public surface of the generated folder, as explicit named exports
// (no `export *`), so a reader sees every name and bundlers tree-shake reliably.
import { moduleStatement, type GeneratedFile } from "../file.js";

/**
 * Top-level exported declarations of a generated file, split into values and types.
 * Emitters write top-level declarations at column 0 and nest everything else, so a line scan is exact
 * and avoids parsing megabytes of generated code.
 */
export function exportedNames(text: string): { values: string[]; types: string[] } {
  const values: string[] = [];
  const types: string[] = [];
  // Line starts found with indexOf (fast on megabytes), each read with a sticky pattern.
  const declaration =
    /export (declare namespace|interface|type|const|let|async function|function|class) ([A-Za-z_$][A-Za-z0-9_$]*)/y;
  const nextLine = (from: number) => {
    const found = text.indexOf("\nexport ", from);
    return found === -1 ? -1 : found + 1;
  };
  for (let at = text.startsWith("export ") ? 0 : nextLine(0); at !== -1; at = nextLine(at)) {
    declaration.lastIndex = at;
    const match = declaration.exec(text);
    if (!match) continue;
    const [, kind, name] = match;
    // The revision namespaces of protocol.gen.ts are `declare`d and hold types only.
    (kind === "interface" || kind === "type" || kind === "declare namespace" ? types : values).push(name!);
  }
  return { values, types };
}

export function emitIndex(index: GeneratedFile, files: readonly GeneratedFile[]): void {
  const w = index.writer;
  for (const file of files) {
    const { values, types } = exportedNames(file.writer.toString());
    const module = index.local(file.path.replace(/\.ts$/, ""));
    // The default sort is code-unit order (compareText's), without a call per comparison.
    if (values.length > 0) w.line(moduleStatement("export", values.sort(), module));
    if (types.length > 0) w.line(moduleStatement("export type", types.sort(), module));
  }
}
