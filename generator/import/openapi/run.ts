// `mcp-gen import openapi <file|url>`: reads the document, converts its operations and writes
// the project. Files that carry the import banner are rewritten; the user's files (src/handlers.ts,
// package.json, …) are written only when absent; any other file in the way stops the run
// before anything is written.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve } from "node:path";
import { err, formatDiagnostic, out } from "../../diagnostics.js";
import { initNamePattern } from "../../init.js";
import { replaceFile } from "../../write.js";
import { catalogData, type ToolsMode } from "./catalog.js";
import { DocumentError, ImportWarnings, readDocument } from "./document.js";
import { serverDescriptionOf, serverVersionOf } from "./identity.js";
import { importOperations } from "./operations.js";
import type { Selection } from "./selection.js";
import { importBanner, renderProject } from "./project.js";

export interface ImportOpenApiOptions extends Selection {
  readonly source: string;
  readonly out: string;
  readonly name?: string | undefined;
  readonly quiet: boolean;
  readonly mcpGenVersion: string;
  /** One tool per operation, or the three catalog tools (find, describe, call). */
  readonly tools: ToolsMode;
  /** Write nothing: exit 1 listing the import's files that differ from what it would write. */
  readonly check: boolean;
  /** `--allow-ref`: folders and URL prefixes the document's external `$ref`s may read beyond the default. */
  readonly allowRefs: readonly string[];
}

/** The options that shape the project, as words of the command line (the banner's Regenerate line). */
function optionWords(options: ImportOpenApiOptions): string[] {
  return [
    ...(options.name === undefined ? [] : ["--name", options.name]),
    ...(options.tools === "operations" ? [] : ["--tools", options.tools]),
    ...options.include.flatMap((pattern) => ["--include", pattern]),
    ...options.exclude.flatMap((pattern) => ["--exclude", pattern]),
    ...(options.includeDeprecated ? ["--include-deprecated"] : []),
    ...options.allowRefs.flatMap((prefix) => ["--allow-ref", prefix]),
  ];
}

/** Files of an earlier import that this one does not write (src/upstream/catalog.gen.ts after leaving the catalog mode). */
function obsoleteFiles(target: string, generated: ReadonlyMap<string, string>): string[] {
  const folder = join(target, "src", "upstream");
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".gen.ts"))
    .map((entry) => `src/upstream/${entry.name}`)
    .filter((path) => !generated.has(path) && firstLine(join(target, path)).includes(importBanner))
    .sort();
}

const firstLine = (file: string) => readFileSync(file, "utf8").split("\n", 1)[0]!;

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
    read = await readDocument(options.source, options.allowRefs);
  } catch (error) {
    if (!(error instanceof DocumentError)) throw error;
    for (const line of error.message.split("\n")) err(line);
    return 1;
  }
  const { document } = read;
  const info = (typeof document.info === "object" && document.info !== null ? document.info : {}) as Record<
    string,
    unknown
  >;
  const name =
    options.name ??
    (nameFromTitle(typeof info.title === "string" ? info.title : "") ||
      nameFromTitle(basename(options.source).replace(/\.[^.]*$/, "")));
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
  const catalog = options.tools === "catalog" ? catalogData(result, warnings) : undefined;
  for (const warning of warnings.list) err(formatDiagnostic(warning));
  if ((catalog ?? result).tools.length === 0) {
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
    version: serverVersionOf(info.version),
    ...(typeof info.title === "string" && { title: info.title }),
    description: serverDescriptionOf(info.description, typeof info.title === "string" ? info.title : name),
    source: isAbsolute(projectSource)
      ? projectSource
      : projectSource.startsWith(".")
        ? projectSource
        : `./${projectSource}`,
    sourceText: read.text,
    mcpGenVersion: options.mcpGenVersion,
    result,
    options: optionWords(options),
    catalog,
    author: existsSync(join(target, "package.json"))
      ? undefined
      : (await import("../../init-author.js")).knownAuthor(process.cwd()),
  });
  // Nothing is written while a file in the way is not one an import wrote.
  const foreign = [...project.generated.keys()].filter((path) => {
    const file = join(target, path);
    return existsSync(file) && !firstLine(file).includes(importBanner);
  });
  if (foreign.length > 0) {
    for (const path of foreign)
      err(
        `${relative(process.cwd(), join(target, path)) || path}: exists and was not written by mcp-gen import; move it away or choose another --out`,
      );
    return 1;
  }
  const obsolete = obsoleteFiles(target, project.generated);
  if (options.check) return checkProject(options, target, project.generated, obsolete);
  for (const path of obsolete) rmSync(join(target, path));
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
      `mcp-gen: imported ${(catalog ?? result).tools.length} of ${result.total} operation(s) from ${shownSource} (OpenAPI ${read.declared}) into ${shown}${catalog === undefined ? "" : " as the catalog tools find_operations, describe_operation and call_operation"}: ${written.length === 0 && obsolete.length === 0 ? "every file already up to date" : [...(written.length === 0 ? [] : [`wrote ${written.join(", ")}`]), ...(obsolete.length === 0 ? [] : [`deleted ${obsolete.join(", ")}`])].join("; ")}`,
    );
    out(
      `next: ${shown === "." ? "" : `cd ${shown} && `}npx mcp-gen && npx tsc --noEmit && node --import tsx src/main.ts (MCP_UPSTREAM_URL overrides ${result.serverUrl ?? "the base URL, which the document does not give"})`,
    );
  }
  return 0;
}

/**
 * `--check`: whether every file the import owns is what it would write now (the document or
 * the options changed otherwise), as `mcp-gen generate --check` reports its own files. The
 * user's files (src/handlers.ts, package.json, …) are never compared. Writes nothing.
 */
function checkProject(
  options: ImportOpenApiOptions,
  target: string,
  generated: ReadonlyMap<string, string>,
  obsolete: readonly string[],
): number {
  const different: [path: string, status: string][] = [];
  for (const [path, text] of generated) {
    const file = join(target, path);
    if (!existsSync(file)) different.push([path, "missing"]);
    else if (readFileSync(file, "utf8") !== text) different.push([path, "stale"]);
  }
  for (const path of obsolete) different.push([path, "no longer generated"]);
  const shown = relative(process.cwd(), target) || ".";
  if (different.length === 0) {
    if (!options.quiet) out(`mcp-gen: ${shown} is up to date with ${options.source}`);
    return 0;
  }
  for (const [path, status] of different) err(`${relative(process.cwd(), join(target, path)) || path}: ${status}`);
  err(
    `${different.length} imported file(s) out of date; run the same \`mcp-gen import openapi\` without --check (the command is in each file's Regenerate line)`,
  );
  return 1;
}
