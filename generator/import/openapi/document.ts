// Reading an OpenAPI document (a file or an http(s) URL; JSON or YAML; Swagger 2.0, OpenAPI 3.0
// or 3.1): @scalar/json-magic bundles its external `$ref`s into it (cycles stay `$ref`s), and
// @scalar/openapi-parser upgrades it to OpenAPI 3.1, whose schemas are JSON Schema 2020-12, so
// the rest of the importer reads one version. Chosen by measurement: bench/openapi-parsers.md.
import { readFileSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import { warning, type Diagnostic } from "../../diagnostics.js";
import { ExternalRefs, parseAllowedRefs, realPath, type DocumentBase } from "./external-refs.js";
import { fetchBounded } from "./fetch-bounded.js";

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

/**
 * How deep a document may nest. Real descriptions stay far below it (GitHub's: 21 levels); a
 * deeper one is refused at its deepest point instead of overflowing a later phase's stack, and
 * what the import writes stays under the manifest's own bound (load/source.ts, 256).
 */
export const maxDocumentDepth = 128;
/** How many values a document may hold once its YAML aliases are expanded (GitHub's: about 1.3 million). */
export const maxDocumentValues = 20_000_000;

const isUrl = (source: string) => /^https?:\/\//i.test(source);

/** The URI a `$ref`'s document part names, from the document it is in (as the bundler resolves it). */
function referenceUri(from: string, reference: string): string {
  if (/^[a-z][a-z0-9+.-]+:/i.test(reference)) return reference;
  if (isUrl(from)) return new URL(reference, from).href;
  return reference === "" ? from : resolve(dirname(from), reference);
}

/** A file as the user would name it (relative to the working folder), a URL as it is. */
const shownSource = (from: string) => (isUrl(from) ? from : relative(process.cwd(), from) || from);

/** The JSON pointer a local `$ref` names (`#/a%20b/c` → `/a b/c`), or undefined when it is no local, well-encoded reference. */
export function refPointer(ref: string): string | undefined {
  if (!ref.startsWith("#")) return undefined;
  try {
    return decodeURIComponent(ref.slice(1));
  } catch {
    return undefined; // a malformed percent escape (`#/%ZZ`)
  }
}

/** The bounds of a document read from a URL (a file is read whole). */
const documentBounds = { maxBytes: 256 * 1024 * 1024, timeoutMs: 60_000 };

/**
 * Reads, bundles and upgrades a document; throws DocumentError with a located message.
 * `allowRefs` (`--allow-ref`): folders and URL prefixes its external `$ref`s may read beyond the
 * default (external-refs.ts).
 */
export async function readDocument(source: string, allowRefs: readonly string[] = []): Promise<OpenApiDocument> {
  const { bundleWithDiagnostics } = await import("@scalar/json-magic/bundle");
  const { normalize } = await import("@scalar/json-magic/helpers/normalize");
  const { upgrade } = await import("@scalar/openapi-parser");
  let allowed;
  try {
    allowed = parseAllowedRefs(allowRefs);
  } catch (error) {
    throw new DocumentError((error as Error).message);
  }
  let text: string;
  let base: DocumentBase;
  try {
    if (isUrl(source)) {
      // The user named this URL, so it may be on a private address; a redirect elsewhere may not.
      const named = new URL(source);
      const fetched = await fetchBounded(named, true, documentBounds, (to) => ({
        privateOk: to.origin === named.origin,
      }));
      text = fetched.text;
      base = { kind: "url", url: new URL(fetched.url), fromPrivate: fetched.fromPrivate };
    } else {
      text = readFileSync(resolve(source), "utf8");
      base = { kind: "file", folder: realPath(dirname(resolve(source))) };
    }
  } catch (error) {
    throw new DocumentError(`${source}: cannot read it (${(error as Error).message})`);
  }
  const parsed = await parseDocument(source, text);
  const at = (pointer: string) => locate(source, text, pointer);
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    throw new DocumentError(`${source}:1:1: not an OpenAPI document (its top level is not an object)`);
  const top = parsed as Record<string, unknown>;
  const key = "openapi" in top ? "openapi" : "swagger" in top ? "swagger" : undefined;
  const declared = key === undefined ? "" : String(top[key]);
  if (!/^(?:2\.0|3\.[01]\.\d+|3\.[01])$/.test(declared) || (key === "swagger") !== (declared === "2.0")) {
    throw new DocumentError(
      `${key === undefined ? `${source}:1:1` : await at(`/${key}`)}: neither "openapi: 3.0.x/3.1.x" nor "swagger: 2.0" at its top (found ${key === undefined ? "neither key" : JSON.stringify(top[key])}); OpenAPI 3.2 and later are not read yet`,
    );
  }
  const deep = tooDeep(parsed);
  if (deep !== undefined) throw new DocumentError(`${await at(deep.pointer)}: ${deep.message}`);
  let bundled: unknown;
  const origin = base.kind === "url" ? base.url.href : resolve(source);
  const refs = new ExternalRefs(base, allowed, normalize);
  try {
    // External $refs are resolved against the document's own location and read only as
    // external-refs.ts allows. One that cannot be read stays a $ref, which the importer reports
    // where it meets it; one refused stops the import here.
    const result = await bundleWithDiagnostics(parsed as Record<string, unknown>, {
      plugins: [refs.loader],
      treeShake: false,
      origin,
    });
    bundled = result.document;
    if (refs.refusals.size > 0)
      throw new DocumentError(await refusalMessage(refs.refusals, result.diagnostics, source, origin, at));
  } catch (error) {
    if (error instanceof DocumentError) throw error;
    throw new DocumentError(`${source}#: cannot bundle its $refs: ${(error as Error).message}`);
  }

  const deeper = tooDeep(bundled);
  if (deeper !== undefined)
    throw new DocumentError(`${source}#${deeper.pointer}: ${deeper.message} (with its external $refs)`);
  let upgraded: Record<string, unknown>;
  try {
    upgraded = upgrade(bundled as Record<string, unknown>).specification as unknown as Record<string, unknown>;
  } catch (error) {
    throw new DocumentError(`${source}#: cannot upgrade it to OpenAPI 3.1: ${(error as Error).message}`);
  }
  return { document: upgraded, declared, text };
}

/** One line per refused `$ref`, at its place (`file:line:col` in the document itself). */
async function refusalMessage(
  refusals: ReadonlyMap<string, string>,
  diagnostics: readonly { kind: string; reference: string; source: string; pointer: string }[],
  source: string,
  origin: string,
  at: (pointer: string) => Promise<string>,
): Promise<string> {
  const lines: string[] = [];
  const said = new Set<string>();
  for (const { kind, reference, source: from, pointer } of diagnostics) {
    const uri = kind === "unresolved-document" ? referenceUri(from, reference.split("#")[0]!) : undefined;
    const reason = uri === undefined ? undefined : refusals.get(uri);
    if (reason === undefined) continue;
    said.add(uri!);
    const where = from === origin ? await at(pointer.replace(/^#/, "")) : `${shownSource(from)}${pointer}`;
    lines.push(`${where}: $ref ${JSON.stringify(reference)} refused: ${reason}`);
  }
  for (const [uri, reason] of refusals)
    if (!said.has(uri)) lines.push(`${source}#: a $ref to ${uri} refused: ${reason}`);
  return lines.join("\n");
}

/** The document's value: JSON first (it nests without bounds), else YAML, with line and column on a syntax error. */
async function parseDocument(source: string, text: string): Promise<unknown> {
  const body = text.replace(/^\uFEFF/, "");
  if (/^\s*[[{]/.test(body)) {
    try {
      return JSON.parse(body);
    } catch {
      // YAML reads it again, to report where it breaks (or to read YAML flow style).
    }
  }
  const YAML = await import("yaml");
  try {
    return YAML.parse(body, { maxAliasCount: 10_000, merge: true, prettyErrors: true });
  } catch (error) {
    if (error instanceof RangeError)
      throw new DocumentError(
        `${source}:1:1: not read: it nests too deeply for a YAML parser (over ${maxDocumentDepth} levels are refused anyway)`,
      );
    const position = (error as { linePos?: { line: number; col: number }[] }).linePos?.[0];
    throw new DocumentError(
      `${source}:${position ? `${position.line}:${position.col}` : "1:1"}: not JSON or YAML: ${(error as Error).message.split("\n")[0]}`,
    );
  }
}

/** Where a value nests deeper than `maxDocumentDepth`, or holds more than `maxDocumentValues` values (aliases expanded). */
function tooDeep(root: unknown): { pointer: string; message: string } | undefined {
  const stack: [unknown, number, string][] = [[root, 0, ""]];
  for (let values = 0; stack.length > 0; values++) {
    const [value, depth, pointer] = stack.pop()!;
    if (values > maxDocumentValues)
      return {
        pointer,
        message: `holds more than ${maxDocumentValues.toLocaleString("en")} values (its YAML aliases expanded); no API description needs that many`,
      };
    if (typeof value !== "object" || value === null) continue;
    if (depth >= maxDocumentDepth)
      return {
        pointer,
        message: `values nest more than ${maxDocumentDepth} levels deep here; an API description never needs that many (use components and $ref)`,
      };
    for (const [key, child] of Object.entries(value))
      stack.push([child, depth + 1, `${pointer}/${escapePointer(key)}`]);
  }
  return undefined;
}

/** `file:line:col` of the value at a JSON pointer when the text shows it, else `file#pointer`. */
async function locate(source: string, text: string, pointer: string): Promise<string> {
  const YAML = await import("yaml");
  try {
    const lines = new YAML.LineCounter();
    const document = YAML.parseDocument(text.replace(/^\uFEFF/, ""), { lineCounter: lines });
    const path = pointer
      .split("/")
      .slice(1)
      .map((t) => t.replaceAll("~1", "/").replaceAll("~0", "~"));
    const node = document.getIn(path, true) as { range?: [number, number, number] } | undefined;
    if (node?.range !== undefined) {
      const { line, col } = lines.linePos(node.range[0]);
      return `${source}:${line}:${col}`;
    }
  } catch {
    // (a text YAML cannot read: the pointer alone)
  }
  return `${source}#${pointer}`;
}
