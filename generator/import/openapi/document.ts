// Reading an OpenAPI document (a file or an http(s) URL; JSON or YAML; Swagger 2.0, OpenAPI 3.0
// or 3.1): @scalar/json-magic bundles its external `$ref`s into it (cycles stay `$ref`s), and
// @scalar/openapi-parser upgrades it to OpenAPI 3.1, whose schemas are JSON Schema 2020-12, so
// the rest of the importer reads one version. Chosen by measurement: bench/openapi-parsers.md.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { warning, type Diagnostic } from "../../diagnostics.js";

/** The JSON pointer escape of one reference token (RFC 6901). */
export const escapePointer = (token: string) => token.replaceAll("~", "~0").replaceAll("/", "~1");

/** The value at a JSON pointer of a document, or undefined. */
export function resolvePointer(document: unknown, pointer: string): unknown {
  if (pointer === "" || pointer === "/") return pointer === "" ? document : (document as Record<string, unknown>)?.[""];
  let value = document;
  for (const raw of pointer.slice(1).split("/")) {
    const token = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    if (typeof value !== "object" || value === null || !Object.hasOwn(value, token)) return undefined;
    value = (value as Record<string, unknown>)[token];
  }
  return value;
}

/** Warnings of one import, each at a JSON pointer of the document (`petstore.yaml#/paths/…`). */
export class ImportWarnings {
  readonly list: Diagnostic[] = [];
  private readonly said = new Set<string>();
  constructor(private readonly source: string) {}
  add(pointer: string, message: string): void {
    const key = `${pointer}\n${message}`;
    if (this.said.has(key)) return;
    this.said.add(key);
    this.list.push(warning({ file: `${this.source}#${pointer}` }, message));
  }
}

export interface OpenApiDocument {
  /** The document as OpenAPI 3.1, external `$ref`s bundled under `x-ext`. */
  readonly document: Record<string, unknown>;
  /** The version the document declared (`2.0`, `3.0.3`, `3.1.0`, …). */
  readonly declared: string;
  /** The bytes read (a file's, or the URL's answer), for change detection. */
  readonly text: string;
}

/** Why a document cannot be imported: a message for the user, located where known. */
export class DocumentError extends Error {}

const isUrl = (source: string) => /^https?:\/\//i.test(source);

/** Reads, bundles and upgrades a document; throws DocumentError with a located message. */
export async function readDocument(source: string): Promise<OpenApiDocument> {
  const { bundle } = await import("@scalar/json-magic/bundle");
  const { readFiles, fetchUrls, parseJson, parseYaml } = await import("@scalar/json-magic/bundle/plugins/node");
  const { upgrade } = await import("@scalar/openapi-parser");
  const YAML = await import("yaml");
  let text: string;
  try {
    text = isUrl(source)
      ? await (await fetch(source, { signal: AbortSignal.timeout(60_000) })).text()
      : readFileSync(resolve(source), "utf8");
  } catch (error) {
    throw new DocumentError(`${source}: cannot read it (${(error as Error).message})`);
  }
  // Parsed here first, so a syntax error is reported with its line and column.
  let parsed: unknown;
  try {
    parsed = YAML.parse(text, { maxAliasCount: 10_000, prettyErrors: true });
  } catch (error) {
    const position = (error as { linePos?: { line: number; col: number }[] }).linePos?.[0];
    throw new DocumentError(
      `${source}${position ? `:${position.line}:${position.col}` : ""}: not JSON or YAML: ${(error as Error).message.split("\n")[0]}`,
    );
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    throw new DocumentError(`${source}: not an OpenAPI document (its top level is not an object)`);
  const declared = String(
    (parsed as Record<string, unknown>).openapi ?? (parsed as Record<string, unknown>).swagger ?? "",
  );
  if (!/^(?:2\.0|3\.[01]\.\d+|3\.[01])$/.test(declared)) {
    throw new DocumentError(
      `${source}: neither "openapi: 3.0.x/3.1.x" nor "swagger: 2.0" at its top (found ${declared === "" ? "neither key" : JSON.stringify(declared)}); OpenAPI 3.2 and later are not read yet`,
    );
  }
  let bundled: unknown;
  try {
    // External $refs are resolved against the document's own location.
    bundled = await bundle(isUrl(source) ? source : resolve(source), {
      plugins: [readFiles(), fetchUrls(), parseJson(), parseYaml()],
      treeShake: false,
    });
  } catch (error) {
    throw new DocumentError(`${source}: cannot bundle its $refs: ${(error as Error).message}`);
  }
  const upgraded = upgrade(bundled as Record<string, unknown>).specification as unknown as Record<string, unknown>;
  return { document: upgraded, declared, text };
}
