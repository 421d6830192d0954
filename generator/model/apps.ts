// MCP Apps (SEP-1865, extension io.modelcontextprotocol/ui): `apps:` of the manifest and
// tools' `ui:`. Each app is a ui:// resource whose HTML file is read, checked and inlined
// at generation time; a tool names the app that renders its results (`_meta.ui.resourceUri`).
import { isUtf8 } from "node:buffer";
import { readFileSync, realpathSync, statSync } from "node:fs";
import { isAbsolute, relative, resolve, sep } from "node:path";
import { didYouMean, quote, warning, type SourceLocation } from "../diagnostics.js";
import { childPointer } from "../load/source.js";
import type { ManifestApp, ManifestTool, ManifestToolUi } from "../manifest.gen.js";
import { optional, type Declarations } from "./declarations.js";
import type { AppModel, JsonObject, ToolUiModel } from "./types.js";
import { unpairedSurrogate } from "./names.js";

/** The MIME type of an app's HTML (`RESOURCE_MIME_TYPE` of @modelcontextprotocol/ext-apps). */
export const appMimeType = "text/html;profile=mcp-app";
/** The extension identifier servers with apps advertise where a revision negotiates extensions. */
export const appsExtension = "io.modelcontextprotocol/ui";
/** Largest HTML file an app may inline: the whole page travels in every resources/read. */
export const maxAppHtmlBytes = 1024 * 1024;
/** The first revision whose Tool and Resource types carry `_meta`, where the UI metadata lives. */
export const appsSince = "2025-06-18";

/** Fields an app declaration has, in `apps:` and inline in a tool's `ui:`. */
const appFields = [
  "html",
  "uri",
  "name",
  "title",
  "description",
  "csp",
  "permissions",
  "domain",
  "prefersBorder",
] as const;
const cspFields = ["connectDomains", "resourceDomains", "frameDomains", "baseUriDomains"] as const;

/**
 * An origin as CSP source lists and the spec's examples write it: scheme, host (a leading
 * `*.` allows subdomains), optional port, nothing else. Anything more would either be
 * dropped by hosts or, with spaces or `;`, change the policy they build.
 */
const label = "[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?";
const origin = new RegExp(
  `^(?:https?|wss?)://(?:\\*\\.)?(?:${label}(?:\\.${label})*|\\[[0-9A-Fa-f:.]+\\])(?::[0-9]{1,5})?$`,
);

/**
 * Builds the apps of `apps:` and of tools' `ui:`, and each tool's `_meta.ui`, reporting
 * every problem at its manifest position. `resourceUris` are the URIs `resources:` already
 * uses (an app may not take one of them).
 */
export function buildApps(
  context: Declarations,
  serverName: string,
  resourceUris: ReadonlySet<string>,
): { apps: AppModel[]; toolUi: Map<string, ToolUiModel> } {
  const catalog = new AppCatalog(context, serverName, resourceUris);
  for (const { key, decl, pointer } of context.entries("apps")) {
    catalog.byKey.set(key, catalog.declare(key, decl, pointer, context.positions.key(pointer)));
  }
  const toolUi = new Map<string, ToolUiModel>();
  for (const { key: name, decl: tool, pointer: toolPointer } of context.entries("tools")) {
    const ui = toolUiOf(catalog, name, tool, toolPointer);
    if (ui) toolUi.set(name, ui);
  }
  return { apps: catalog.apps, toolUi };
}

/** The apps declared so far (of `apps:` and inline in tools' `ui:`), and the URIs they took. */
class AppCatalog {
  readonly apps: AppModel[] = [];
  /** The entries of `apps:` by name; undefined for one that failed its checks. */
  readonly byKey = new Map<string, AppModel | undefined>();
  private readonly uris = new Map<string, SourceLocation>();
  readonly context: Declarations;
  private readonly serverName: string;
  private readonly resourceUris: ReadonlySet<string>;

  constructor(context: Declarations, serverName: string, resourceUris: ReadonlySet<string>) {
    this.context = context;
    this.serverName = serverName;
    this.resourceUris = resourceUris;
  }

  /** Checks and adds one app; undefined (with its problems reported) when it cannot be had. */
  declare(key: string, decl: ManifestApp, pointer: string, location: SourceLocation): AppModel | undefined {
    const html = readHtml(this.context, decl, pointer);
    const meta = uiMeta(decl, pointer, this.context);
    const uri = this.claimUri(key, decl, pointer, location);
    if (uri === undefined || html === undefined || meta === undefined) return undefined;
    const app: AppModel = {
      key,
      uri,
      name: decl.name ?? key,
      ...optional("title", decl.title),
      ...optional("description", decl.description),
      html: html.text,
      source: html.source,
      meta,
      location,
    };
    this.apps.push(app);
    return app;
  }

  /** The app's URI (declared, or made from the server's and the app's names), if no one else uses it. */
  private claimUri(key: string, decl: ManifestApp, pointer: string, location: SourceLocation): string | undefined {
    const { diagnostics, positions } = this.context;
    const unencodable = decl.uri === undefined ? this.unencodableName(key) : undefined;
    if (unencodable !== undefined) {
      diagnostics.push({
        location,
        message: `${unencodable} holds an unpaired surrogate (a lone half of a UTF-16 pair), so the default ui:// URI cannot be made from it; rename it, or give the app a \`uri\``,
      });
      return undefined;
    }
    const uri = decl.uri ?? `ui://${encodeURIComponent(this.serverName)}/${encodeURIComponent(key)}`;
    const uriAt = decl.uri === undefined ? location : positions.value(childPointer(pointer, "uri"));
    const previous = this.uris.get(uri);
    if (previous || this.resourceUris.has(uri)) {
      const where = previous ? `by the app at ${previous.line}:${previous.col}` : "by a resource of `resources:`";
      const message = `app uri ${quote(uri)} is already used ${where}; give each app its own \`uri\``;
      diagnostics.push({ location: uriAt, message });
      return undefined;
    }
    this.uris.set(uri, uriAt);
    return uri;
  }

  /** Which name cannot go into a default URI: encodeURIComponent throws on a lone surrogate. */
  private unencodableName(key: string): string | undefined {
    if (unpairedSurrogate.test(key)) return `app name ${quote(key)}`;
    if (unpairedSurrogate.test(this.serverName)) return `server name ${quote(this.serverName)}`;
    return undefined;
  }
}

/** A tool's `_meta.ui`, when it declares a `ui` that holds up; its problems are reported. */
function toolUiOf(catalog: AppCatalog, name: string, tool: ManifestTool, toolPointer: string): ToolUiModel | undefined {
  const { context } = catalog;
  const { diagnostics, positions } = context;
  const ui = tool.ui;
  if (ui === undefined) return undefined;
  const pointer = childPointer(toolPointer, "ui");
  if (!context.supports(appsSince)) {
    diagnostics.push({
      location: positions.key(pointer),
      message:
        `tool ${quote(name)} declares \`ui\`, but tools carry the app's URI in _meta from protocol ${appsSince} on ` +
        `and the manifest generates for ${context.settings.revisions!.join(", ")}; add a later revision to \`protocol\``,
    });
    return undefined;
  }
  const decl: Exclude<ManifestToolUi, string> = typeof ui === "string" ? { app: ui } : ui;
  const app = toolApp(catalog, name, ui, decl, pointer);
  // An app that failed its own checks was reported there; the tool just goes without it.
  if (!app) return undefined;
  const taken = ["ui", "ui/resourceUri"].find((key) => tool._meta?.[key] !== undefined);
  if (taken !== undefined) {
    const message = `tool ${quote(name)}: _meta key ${quote(taken)} is set by its \`ui\` (the app that renders its results); remove it from \`_meta\``;
    diagnostics.push({ location: positions.key(childPointer(childPointer(toolPointer, "_meta"), taken)), message });
    return undefined;
  }
  return { resourceUri: app.uri, ...optional("visibility", decl.visibility) };
}

/** The app a tool's `ui` names in `apps:`, or the one it declares inline. */
function toolApp(
  catalog: AppCatalog,
  name: string,
  ui: ManifestToolUi,
  decl: Exclude<ManifestToolUi, string>,
  pointer: string,
): AppModel | undefined {
  const { diagnostics, positions } = catalog.context;
  const reference = decl.app;
  if (reference === undefined) {
    if (decl.html !== undefined)
      return catalog.declare(name, { ...decl, html: decl.html }, pointer, positions.key(pointer));
    const message = `tool ${quote(name)}: \`ui\` needs either \`app\` (the name of an entry of \`apps:\`) or \`html\` (a file of its own)`;
    diagnostics.push({ location: positions.key(pointer), message });
    return undefined;
  }
  const own = appFields.filter((field) => decl[field] !== undefined);
  if (own.length > 0) {
    diagnostics.push({
      location: positions.key(childPointer(pointer, own[0]!)),
      message:
        `tool ${quote(name)}: \`ui\` names the app ${quote(reference)} and declares ${own.map((f) => `\`${f}\``).join(", ")} too; ` +
        "set those on the app in `apps:`, or drop `app` to declare an app of this tool's own",
    });
    return undefined;
  }
  if (!catalog.byKey.has(reference)) {
    const known = [...catalog.byKey.keys()];
    const hint = didYouMean(reference, known);
    const help = hint
      ? ` (did you mean ${quote(hint)}?)`
      : known.length > 0
        ? `; the apps are ${known.map(quote).join(", ")}`
        : "; declare it there, or give `ui` an `html` file of its own";
    diagnostics.push({
      location: typeof ui === "string" ? positions.value(pointer) : positions.value(childPointer(pointer, "app")),
      message: `tool ${quote(name)}: no app ${quote(reference)} in \`apps:\`${help}`,
    });
    return undefined;
  }
  return catalog.byKey.get(reference);
}

/** The app's HTML file, read and checked (inside the manifest's folder, a file, at most maxAppHtmlBytes, UTF-8). */
function readHtml(
  context: Declarations,
  decl: ManifestApp,
  pointer: string,
): { text: string; source: string } | undefined {
  const { diagnostics, positions } = context;
  const root = context.settings.manifestDir;
  const written = decl.html;
  const at = positions.value(childPointer(pointer, "html"));
  const fail = (message: string) => {
    diagnostics.push({ location: at, message });
    return undefined;
  };
  const absolute = resolve(root, written);
  const inside = (parent: string, child: string) => {
    const rel = relative(parent, child);
    return rel !== "" && !isAbsolute(rel) && rel !== ".." && !rel.startsWith(`..${sep}`);
  };
  const shown = quote(written);
  if (!inside(root, absolute))
    return fail(`html ${shown} is outside the manifest's folder; app files must be inside it`);
  let size: number;
  try {
    const stat = statSync(absolute);
    if (!stat.isFile()) return fail(`html ${quote(written)} is not a file`);
    // A symbolic link inside the folder that leads out of it counts as outside.
    if (!inside(realpathSync.native(root), realpathSync.native(absolute))) {
      return fail(
        `html ${shown} leads outside the manifest's folder through a symbolic link; app files must be inside it`,
      );
    }
    size = stat.size;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") {
      context.inputFiles.add(absolute); // watch mode runs again once it exists
      return fail(`html file ${shown} does not exist; the path is relative to the manifest`);
    }
    return fail(`html file ${shown} cannot be read (${code ?? String(error)})`);
  }
  // Checked before reading: the limit also keeps a stray multi-gigabyte file out of memory.
  if (size > maxAppHtmlBytes) {
    return fail(
      `html file ${shown} has ${size} bytes; an app's HTML may have at most ${maxAppHtmlBytes} bytes (1 MiB), since hosts fetch it whole`,
    );
  }
  let bytes: Buffer;
  try {
    bytes = readFileSync(absolute);
  } catch (error) {
    return fail(
      `html file ${quote(written)} cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
    );
  }
  const bad = firstInvalidUtf8(bytes);
  if (bad !== undefined) {
    const line = bytes.subarray(0, bad).reduce((n, b) => (b === 0x0a ? n + 1 : n), 1);
    const byte = bytes[bad]!.toString(16).padStart(2, "0");
    return fail(
      `html file ${shown} is not valid UTF-8: byte 0x${byte} at offset ${bad} (line ${line}); save it as UTF-8`,
    );
  }
  context.inputFiles.add(absolute);
  const text = bytes.toString("utf8");
  // Hosts render it as a document; a script or a fragment named by mistake shows as text.
  if (!/<!doctype html|<html[\s>]/i.test(text)) {
    const message = `html file ${shown} does not look like an HTML document (no <!doctype html> or <html>); hosts render the file as the app's page`;
    diagnostics.push(warning(at, message));
  }
  return { text, source: relative(root, absolute).split(sep).join("/") };
}

/**
 * The offset of the first byte that does not belong to a well-formed UTF-8 sequence
 * (overlong forms, surrogates and code points above U+10FFFF included), or undefined.
 */
export function firstInvalidUtf8(bytes: Uint8Array): number | undefined {
  if (isUtf8(bytes)) return undefined;
  // The decoder turns each ill-formed sequence into one U+FFFD; the text before the first such
  // U+FFFD decoded faithfully, so its UTF-8 length is the offset (a U+FFFD written as EF BF BD is
  // skipped). A leading byte order mark is kept (`ignoreBOM`), or every offset would be 3 short.
  const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
  for (let at = text.indexOf("\uFFFD"); at !== -1; at = text.indexOf("\uFFFD", at + 1)) {
    const offset = Buffer.byteLength(text.slice(0, at));
    if (bytes[offset] !== 0xef || bytes[offset + 1] !== 0xbf || bytes[offset + 2] !== 0xbd) return offset;
  }
  return undefined;
}

/** `_meta.ui` of an app resource from its declaration; undefined when a CSP domain is invalid. */
function uiMeta(decl: ManifestApp, pointer: string, context: Declarations): JsonObject | undefined {
  const meta: JsonObject = {};
  let valid = true;
  const csp = decl.csp;
  if (csp !== undefined) {
    const checked: JsonObject = {};
    for (const field of cspFields) {
      const domains = csp[field];
      if (domains === undefined) continue;
      domains.forEach((domain, i) => {
        const problem = domainProblem(domain);
        if (!problem) return;
        valid = false;
        const location = context.positions.value(childPointer(childPointer(childPointer(pointer, "csp"), field), i));
        context.diagnostics.push({ location, message: `csp.${field}: ${problem}` });
      });
      checked[field] = domains;
    }
    if (Object.keys(checked).length > 0) meta.csp = checked;
  }
  // The spec's shape: one empty object per permission (`{ camera: {} }`).
  if (decl.permissions !== undefined && decl.permissions.length > 0) {
    meta.permissions = Object.fromEntries(decl.permissions.map((p) => [p, {}]));
  }
  if (decl.domain !== undefined) meta.domain = decl.domain;
  if (decl.prefersBorder !== undefined) meta.prefersBorder = decl.prefersBorder;
  return valid ? meta : undefined;
}

/** Why `domain` is not an origin a CSP source list can carry, or undefined. */
function domainProblem(domain: string): string | undefined {
  if (origin.test(domain)) {
    const port = /:([0-9]+)$/.exec(domain.replace(/^[a-z]+:\/\//, ""));
    return port && Number(port[1]) > 65535 ? `${quote(domain)} has port ${port[1]}; ports go up to 65535` : undefined;
  }
  const hint = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/]+\/.*$/.test(domain)
    ? "; drop the path: hosts allow whole origins"
    : !domain.includes("://")
      ? `; add the scheme, e.g. ${quote(`https://${domain}`)}`
      : "";
  const form =
    "write scheme://host[:port] with scheme https, http, wss or ws (wildcard subdomains as https://*.example.com)";
  return `${quote(domain)} is not an origin: ${form}${hint}`;
}
