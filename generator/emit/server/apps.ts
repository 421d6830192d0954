// The MCP Apps part of the generated server: each app's ui:// resource (listing entry, read
// entry serving the inlined HTML with its `_meta.ui`), the tools' `_meta.ui`, the extension
// the server advertises, and apps.gen.ts, which holds the HTML itself as string data (a
// file of its own, so that server.gen.ts stays readable whatever the pages weigh). A page
// too long for one line is written as an array of short literals joined at load time, so
// that an edit to the page is an edit to a line or two of apps.gen.ts.
import { appMimeType, appsExtension } from "../../model/apps.js";
import type { AppModel, ServerModel, ToolUiModel } from "../../model/types.js";
import { hasFeature } from "../../load/revisions.js";
import { Verbatim, inlineLiteral, stringLiteral, stringLiteralPieces } from "../escape.js";
import { lineWidth, type GeneratedFile } from "../file.js";

type Json = { [key: string]: unknown };

/** The table of inlined HTML, by URI, that app read entries index (exported by apps.gen.ts). */
const htmlTable = "appHtml";

/** The generated module holding the pages. */
export const appsModule = "apps.gen";

/**
 * A tool's `_meta` for the revisions that have it: `ui.resourceUri` (SEP-1865) and the
 * flat `ui/resourceUri` key that hosts older than the nested form read (the official
 * registerAppTool sets both, too).
 */
export function toolUiMeta(ui: ToolUiModel | undefined): Json | undefined {
  if (!ui) return undefined;
  return { ui: { resourceUri: ui.resourceUri, visibility: ui.visibility }, "ui/resourceUri": ui.resourceUri };
}

/** `_meta` of an app's listing entry and read contents: its `_meta.ui`, when it declares any. */
const resourceMeta = (app: AppModel): Json | undefined =>
  Object.keys(app.meta).length > 0 ? { ui: app.meta } : undefined;

/** An app's resources/list entry (to be projected onto each revision's Resource type). */
export function appListing(app: AppModel): Json {
  const { uri, name, title, description } = app;
  return { uri, name, title, description, mimeType: appMimeType, _meta: resourceMeta(app) };
}

/** An app's entry of the definition's `resources`: a read that serves the inlined HTML, no handler involved. */
export function appResourceEntry(file: GeneratedFile, app: AppModel): Json {
  const meta = resourceMeta(app);
  const table = file.value(file.local(appsModule), htmlTable);
  const contents = `{ text: ${table}[${stringLiteral(app.uri)}]!${meta ? `, _meta: ${inlineLiteral(meta)}` : ""} }`;
  return { uri: app.uri, mimeType: appMimeType, read: new Verbatim(`() => (${contents})`) };
}

/** The definition's `extensions`: MCP Apps where a served revision negotiates extensions (2026-07-28). */
export function appExtensions(model: ServerModel): Json | undefined {
  return model.apps.length > 0 && model.revisions.some((r) => hasFeature(r, "appsExtension"))
    ? { [appsExtension]: {} }
    : undefined;
}

/** apps.gen.ts: the HTML of each app, by ui:// URI. */
export function emitAppHtml(file: GeneratedFile, model: ServerModel): void {
  const w = file.writer;
  w.doc("The HTML of each MCP App, by ui:// URI: the files the manifest names, inlined at generation time.");
  w.block(
    `export const ${htmlTable}: Readonly<Record<string, string>> =`,
    () => {
      for (const app of model.apps) {
        w.line(`// ${app.source.replace(/[\r\n\u2028\u2029]+/g, " ")}`);
        const key = `${stringLiteral(app.uri)}: `;
        const pieces = stringLiteralPieces(app.html, pieceWidth);
        if (pieces.length === 1 && w.indentation.length + key.length + pieces[0]!.length < lineWidth) {
          w.line(`${key}${pieces[0]!},`);
          continue;
        }
        w.line(`${key}[`).indented(() => pieces.forEach((piece) => w.line(`${piece},`)));
        w.line(`].join(""),`);
      }
    },
    "};",
  );
}

/** The widest literal of a split page: with the indentation and comma, lines stay within 120 columns. */
const pieceWidth = 112;
