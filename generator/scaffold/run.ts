// `mcp-gen scaffold`: a typed stub in the user's handlers file for every declaration that has
// no handler yet (and `init`'s handlers file). Only the manifest's model is needed, not the
// protocol schemas, so it runs before the first `mcp-gen schema fetch`.
import { chmodSync, existsSync, mkdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { err, formatDiagnostic, isWarning, out } from "../diagnostics.js";
import { docLines } from "../emit/escape.js";
import { serverNames } from "../emit/server/emit.js";
import { loadModel } from "../pipeline.js";
import { replaceFile } from "../write.js";
import { addEntries } from "./edit.js";
import { declaredHandlers, type Bodies } from "./stubs.js";

export interface ScaffoldArgs {
  readonly manifest: string;
  /** The handlers file; by default `handlers.ts` beside the output folder (src/handlers.ts for `output: ./src/mcp`). */
  readonly handlers?: string | undefined;
  readonly check: boolean;
  /** Bodies to use instead of stubs in a new file (init's greet). */
  readonly bodies?: Bodies;
  readonly quiet?: boolean;
}

export async function runScaffold(args: ScaffoldArgs): Promise<number> {
  // Warnings are generate's to print; errors stop scaffold too.
  const loaded = loadModel({ manifest: args.manifest });
  if (!loaded.ok) {
    for (const diagnostic of loaded.diagnostics.filter((d) => !isWarning(d))) err(formatDiagnostic(diagnostic));
    return 1;
  }
  const { model } = loaded;
  if (!model.generate.server) {
    err(
      `${loaded.manifestFile}: the manifest generates no server (generate.server: false), so there are no handlers to scaffold`,
    );
    return 1;
  }
  const path = args.handlers ?? join(dirname(model.output), "handlers.ts");
  const shown = relative(process.cwd(), path).split(sep).join("/") || path;
  const typeName = serverNames(model).handlers;
  const exists = existsSync(path);
  let text: string;
  // Edited through a symbolic link, in place of the file it names, keeping its mode.
  let target = path;
  let mode: number | undefined;
  if (exists) {
    try {
      target = realpathSync(path);
      mode = statSync(target).mode & 0o7777;
      text = readFileSync(target, "utf8");
    } catch (error) {
      err(`${shown}: cannot read the handlers file (${(error as Error).message})`);
      return 1;
    }
  } else {
    let from = relative(dirname(path), join(model.output, "index")).split(sep).join("/");
    if (!from.startsWith(".")) from = `./${from}`;
    text = [
      `// What the ${docLines(model.info.name).join(" ")} server does: one handler per tool, resource, template and prompt of its`,
      "// manifest. The types come from the generated code (`npx mcp-gen`); `npx mcp-gen scaffold` adds a",
      "// stub here for every declaration that has no handler yet.",
      `import type { ${typeName} } from "${from}${model.generate.importExtension}";`,
      "",
      `export const handlers: ${typeName} = {`,
      "};",
      "",
    ].join("\n");
  }
  const morph = await import("ts-morph");
  const edit = addEntries(morph, shown, text, typeName, declaredHandlers(model, exists ? undefined : args.bodies));
  for (const diagnostic of [...edit.errors, ...edit.warnings]) err(formatDiagnostic(diagnostic));
  if (edit.errors.length > 0) return 1;
  if (edit.added.length === 0 && exists) {
    if (!args.quiet) out(`mcp-gen: ${shown}: nothing to add; every declaration has a handler`);
    return 0;
  }
  if (args.check) {
    for (const { path: member, label } of edit.added) err(`${shown}: ${member} (${label}) has no handler`);
    err(
      `${edit.added.length} handler(s) missing in ${shown}${exists ? "" : ", which does not exist"}; run \`mcp-gen scaffold ${args.manifest}\``,
    );
    return 1;
  }
  if (mode !== undefined && (mode & 0o200) === 0) {
    err(`${shown} is read-only; make it writable to add ${edit.added.length} handler(s) to it`);
    return 1;
  }
  mkdirSync(dirname(path), { recursive: true });
  replaceFile(target, edit.text);
  if (mode !== undefined) chmodSync(target, mode);
  if (!exists) out(`created ${shown}`);
  if (!args.quiet) for (const { path: member, label } of edit.added) out(`${shown}: added ${member} (${label})`);
  return 0;
}
