// What an OpenAPI document's external `$ref`s may make the importer read. A document is input
// from anyone (a URL, a downloaded file), and what a `$ref` reads ends up in the imported mcp.yaml,
// so by default a document read from a file reads only JSON and YAML files in its own folder tree
// (no hidden ones) and public http(s) URLs; one read from a URL reads only its own origin. Every
// read is bounded (size, time, count). `--allow-ref <folder|URL prefix>` widens it.
import { existsSync, readFileSync, realpathSync, statSync } from "node:fs";
import { dirname, isAbsolute, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import {
  fetchBounded,
  FetchRefused,
  InternalAddress,
  type FetchBounds,
  type RedirectDecision,
} from "./fetch-bounded.js";

/** Bounds of one external document, and of all of them together. */
export const refBounds: FetchBounds = { maxBytes: 64 * 1024 * 1024, timeoutMs: 30_000 };
export const maxExternalDocuments = 1_000;
const maxTotalBytes = 256 * 1024 * 1024;
const maxTotalMs = 300_000;

/** Where the document was read, which decides what its `$ref`s may read. */
export type DocumentBase =
  | { readonly kind: "file"; readonly folder: string }
  | { readonly kind: "url"; readonly url: URL; readonly fromPrivate: boolean };

/** What `--allow-ref` widened: folders (real paths) and URL prefixes. */
export interface AllowedRefs {
  readonly folders: readonly string[];
  readonly urls: readonly URL[];
}

/** The `--allow-ref` values as folders and URL prefixes; throws an Error naming a value that is neither. */
export function parseAllowedRefs(values: readonly string[]): AllowedRefs {
  const folders: string[] = [];
  const urls: URL[] = [];
  for (const value of values) {
    if (/^https?:\/\//i.test(value)) urls.push(new URL(value));
    else if (/^file:/i.test(value)) folders.push(realPath(fileURLToPath(value)));
    else if (/^[a-z][a-z0-9+.-]+:/i.test(value))
      throw new Error(`--allow-ref ${value}: neither a folder nor an http(s) URL prefix`);
    else folders.push(realPath(resolve(value)));
  }
  return { folders, urls };
}

/** A path with its symbolic links resolved (as it is when it does not exist). */
export const realPath = (path: string) => {
  try {
    return realpathSync(path);
  } catch {
    return path; // (a path that does not exist: nothing in it can be read anyway)
  }
};

const inside = (folder: string, path: string) => {
  const rest = relative(folder, path);
  return !rest.startsWith(`..${sep}`) && rest !== ".." && !isAbsolute(rest);
};

const urlUnder = (prefix: URL, url: URL) =>
  url.origin === prefix.origin &&
  (prefix.pathname.endsWith("/")
    ? url.pathname.startsWith(prefix.pathname)
    : url.pathname === prefix.pathname || url.pathname.startsWith(`${prefix.pathname}/`));

type Target = { file: string } | { url: URL; privateOk: boolean } | { refused: string } | { unreadable: true };

/** Minimal shape of @scalar/json-magic's loader plugin and its result. */
type ResolveResult = { ok: true; data: unknown; raw: string } | { ok: false };
export interface RefLoader {
  type: "loader";
  validate: (value: string) => boolean;
  exec: (value: string) => Promise<ResolveResult>;
}

/** The one loader of a bundling: judges each external document's URI, reads it within bounds, records refusals. */
export class ExternalRefs {
  /** Why each refused URI was refused (the bundler leaves its `$ref` unresolved). */
  readonly refusals = new Map<string, string>();
  private count = 0;
  private bytes = 0;
  private readonly deadline = Date.now() + maxTotalMs;

  constructor(
    private readonly base: DocumentBase,
    private readonly allowed: AllowedRefs,
    private readonly normalize: (text: string) => unknown,
  ) {}

  readonly loader: RefLoader = { type: "loader", validate: () => true, exec: (uri) => this.read(uri) };

  private async read(uri: string): Promise<ResolveResult> {
    const target = this.judge(uri);
    const refuse = (reason: string): ResolveResult => {
      this.refusals.set(uri, reason);
      return { ok: false };
    };
    if ("refused" in target) return refuse(target.refused);
    if ("unreadable" in target) return { ok: false };
    if (++this.count > maxExternalDocuments)
      return refuse(`the document reads more than ${maxExternalDocuments} external documents`);
    const left = this.deadline - Date.now();
    if (left <= 0) return refuse(`reading its external documents took over ${maxTotalMs / 1000} s`);
    let text: string;
    try {
      text =
        "file" in target
          ? readBounded(target.file)
          : (
              await fetchBounded(
                target.url,
                target.privateOk,
                { ...refBounds, timeoutMs: Math.min(refBounds.timeoutMs, left) },
                (to) => this.judgeRedirect(to),
              )
            ).text;
    } catch (error) {
      if (!(error instanceof FetchRefused)) return { ok: false }; // unreadable: stays a $ref, reported where met
      return refuse(
        error instanceof InternalAddress ? `${error.message}; --allow-ref ${error.origin}/ allows it` : error.message,
      );
    }
    this.bytes += Buffer.byteLength(text);
    if (this.bytes > maxTotalBytes)
      return refuse(`its external documents hold more than ${maxTotalBytes.toLocaleString("en")} bytes together`);
    try {
      return { ok: true, data: this.normalize(text), raw: text };
    } catch {
      return { ok: false };
    }
  }

  private judgeRedirect(to: URL): RedirectDecision {
    const target = this.judge(to.href);
    if ("url" in target) return { privateOk: target.privateOk };
    return { refused: "refused" in target ? target.refused : `${to.href} is no http(s) URL` };
  }

  /** Whether the document may read this URI (as the bundler resolved it), and how. */
  private judge(uri: string): Target {
    const scheme = /^([a-z][a-z0-9+.-]+):/i.exec(uri)?.[1]?.toLowerCase();
    if (scheme === "http" || scheme === "https") return this.judgeUrl(new URL(uri));
    if (scheme === "file") {
      try {
        return this.judgeFile(fileURLToPath(uri));
      } catch {
        return { refused: `${uri} is no file URL this machine reads` };
      }
    }
    // Nothing reads another scheme (nor a missing file): the `$ref` stays unresolved, which the importer reports.
    if (scheme !== undefined) return { unreadable: true };
    return this.judgeFile(uri);
  }

  private judgeUrl(url: URL): Target {
    if (this.allowed.urls.some((prefix) => urlUnder(prefix, url))) return { url, privateOk: true };
    if (this.base.kind === "file") return { url, privateOk: false };
    if (url.origin === this.base.url.origin) return { url, privateOk: this.base.fromPrivate };
    return {
      refused: `${url.href} is not on the document's origin (${this.base.url.origin}); --allow-ref ${url.origin}/ allows that origin`,
    };
  }

  private judgeFile(path: string): Target {
    if (!existsSync(path)) return { unreadable: true };
    const real = realPath(resolve(path));
    const widen = `; --allow-ref ${dirname(real)} allows its folder`;
    if (this.allowed.folders.some((folder) => inside(folder, real))) return { file: real };
    if (this.base.kind === "url")
      return { refused: `a document read from a URL reads no local file (${real})${widen}` };
    const { folder } = this.base;
    if (!inside(folder, real)) return { refused: `${real} is outside the document's folder ${folder}${widen}` };
    const rest = relative(folder, real);
    if (rest.split(sep).some((name) => name.startsWith(".")))
      return { refused: `${rest} is hidden (a name in its path starts with ".")${widen}` };
    if (!/\.(?:json|ya?ml)$/i.test(real)) return { refused: `${rest} is not named *.json, *.yaml or *.yml${widen}` };
    return { file: real };
  }
}

/** A regular file's text, refused when it is larger than the bound (or a device, FIFO, …). */
function readBounded(file: string): string {
  const stat = statSync(file);
  if (!stat.isFile()) throw new FetchRefused(`${file} is not a regular file`);
  if (stat.size > refBounds.maxBytes)
    throw new FetchRefused(`${file} is larger than ${refBounds.maxBytes.toLocaleString("en")} bytes`);
  return readFileSync(file, "utf8");
}
