// `mcp-gen import openapi <file|url>`: reads the document, converts its operations and writes
// the project. Files that carry the import banner are rewritten; the user's files (src/handlers.ts,
// package.json, …) are written only when absent; any other file in the way stops the run
// before anything is written.
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve } from "node:path";
import { err, formatDiagnostic, out } from "../../diagnostics.js";
import { initNamePattern } from "../../init.js";
import { replaceFile } from "../../write.js";
import { DocumentError, ImportWarnings, readDocument } from "./document.js";
import { importOperations } from "./operations.js";
import type { Selection } from "./selection.js";
import { importBanner, renderProject } from "./project.js";

export interface ImportOpenApiOptions extends Selection {
  readonly source: string;
  readonly out: string;
  readonly name?: string | undefined;
  readonly quiet: boolean;
  readonly mcpGenVersion: string;
}

const isUrl = (source: string) => /^https?:\/\//i.test(source);

/** A server name from the document's title: lower-case words joined by dashes. */
const nameFromTitle = (title: string) =>
  title
    .replace(/([a-z0-9])([A-Z])/g, "$1-$2")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^[^a-z]+|-+$/g, "")
    .slice(0, 64)
    .replace(/-+$/, "");

export async function runImportOpenApi(options: ImportOpenApiOptions): Promise<number> {
  let read;
  try {
    read = await readDocument(options.source);
  } catch (error) {
    if (!(error instanceof DocumentError)) throw error;
    err(error.message);
    return 1;
  }
  const { document } = read;
  const info = (typeof document.info === "object" && document.info !== null ? document.info : {}) as Record<
    string,
    unknown
  >;
  const name =
    options.name ??
    nameFromTitle(typeof info.title === "string" ? info.title : basename(options.source).replace(/\.[^.]*$/, ""));
  if (!initNamePattern.test(name)) {
    err(`cannot use ${JSON.stringify(name)} as a server name; pass --name with lower-case letters, digits and dashes`);
    return 2;
  }
  const target = resolve(options.out);
  const shownSource = isUrl(options.source)
    ? options.source
    : relative(process.cwd(), resolve(options.source)) || options.source;
  const warnings = new ImportWarnings(shownSource);
  const result = importOperations(document, name, options, warnings);
  for (const warning of warnings.list) err(formatDiagnostic(warning));
  if (result.tools.length === 0) {
    err(
      `${shownSource}#/paths: no operation selected (${result.total} in the document${options.includeDeprecated ? "" : "; deprecated ones need --include-deprecated"}); nothing written`,
    );
    return 1;
  }
  const projectSource = isUrl(options.source)
    ? options.source
    : relative(target, resolve(options.source)).split("\\").join("/");
  const project = renderProject({
    name,
    version: typeof info.version === "string" && info.version !== "" ? info.version : "0.1.0",
    ...(typeof info.title === "string" && { title: info.title }),
    ...(typeof info.description === "string" &&
      info.description.trim() !== "" && { description: info.description.trim() }),
    source: isAbsolute(projectSource)
      ? projectSource
      : projectSource.startsWith(".")
        ? projectSource
        : `./${projectSource}`,
    sourceText: read.text,
    mcpGenVersion: options.mcpGenVersion,
    result,
  });
  // Nothing is written while a file in the way is not one an import wrote.
  const foreign = [...project.generated.keys()].filter((path) => {
    const file = join(target, path);
    return existsSync(file) && !readFileSync(file, "utf8").split("\n", 1)[0]!.includes(importBanner);
  });
  if (foreign.length > 0) {
    for (const path of foreign)
      err(
        `${relative(process.cwd(), join(target, path)) || path}: exists and was not written by mcp-gen import; move it away or choose another --out`,
      );
    return 1;
  }
  const written: string[] = [];
  for (const [path, text] of [
    ...project.generated,
    ...[...project.starter].filter(([path]) => !existsSync(join(target, path))),
  ]) {
    const file = join(target, path);
    if (existsSync(file) && readFileSync(file, "utf8") === text) continue;
    mkdirSync(dirname(file), { recursive: true });
    replaceFile(file, text);
    written.push(path);
  }
  if (!options.quiet) {
    const shown = relative(process.cwd(), target) || ".";
    out(
      `mcp-gen: imported ${result.tools.length} of ${result.total} operation(s) from ${shownSource} (OpenAPI ${read.declared}) into ${shown}: ${written.length === 0 ? "every file already up to date" : `wrote ${written.join(", ")}`}`,
    );
    out(
      `next: ${shown === "." ? "" : `cd ${shown} && `}npx mcp-gen && npx tsc --noEmit && node --import tsx src/main.ts (MCP_UPSTREAM_URL overrides ${result.serverUrl ?? "the base URL, which the document does not give"})`,
    );
  }
  return 0;
}
