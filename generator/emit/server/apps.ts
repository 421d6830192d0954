// The MCP Apps part of server.gen.ts: each app's ui:// resource (listing entry, read
// entry serving the inlined HTML with its `_meta.ui`), the tools' `_meta.ui`, the
// extension the server advertises, and the HTML itself as string data.
import { appMimeType, appsExtension, type AppModel, type ToolUiModel } from "../../model/apps.js";
import type { ServerModel } from "../../model/server.js";
import { Code, inlineLiteral, stringLiteral } from "../escape.js";
import type { CodeWriter } from "../file.js";

type Json = { [key: string]: unknown };

/** The table of inlined HTML, by URI, that app read entries index. */
const htmlTable = "appHtml";

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
const resourceMeta = (app: AppModel): Json | undefined => (Object.keys(app.meta).length > 0 ? { ui: app.meta } : undefined);

/** An app's resources/list entry (to be projected onto each revision's Resource type). */
export function appListing(app: AppModel): Json {
  const { uri, name, title, description } = app;
  return { uri, name, title, description, mimeType: appMimeType, _meta: resourceMeta(app) };
}

/** An app's entry of the definition's `resources`: a read that serves the inlined HTML, no handler involved. */
export function appResourceEntry(app: AppModel): Json {
  const meta = resourceMeta(app);
  const contents = `{ text: ${htmlTable}[${stringLiteral(app.uri)}]!${meta ? `, _meta: ${inlineLiteral(meta)}` : ""} }`;
  return { uri: app.uri, mimeType: appMimeType, read: new Code(`() => (${contents})`) };
}

/** The definition's `extensions`: MCP Apps where a served revision negotiates extensions (2026-07-28). */
export function appExtensions(model: ServerModel): Json | undefined {
  return model.apps.length > 0 && model.revisions.includes("2026-07-28") ? { [appsExtension]: {} } : undefined;
}

/** The HTML table, written last: it is data as long as the pages, and nothing below it needs reading. */
export function emitAppHtml(w: CodeWriter, model: ServerModel): void {
  if (model.apps.length === 0) return;
  w.line();
  w.doc("The HTML of each MCP App, by ui:// URI: the files the manifest names, inlined at generation time.");
  w.block(`const ${htmlTable}: Readonly<Record<string, string>> =`, () => {
    for (const app of model.apps) {
      w.line(`// ${app.source.replace(/[\r\n\u2028\u2029]+/g, " ")}`);
      w.line(`${stringLiteral(app.uri)}: ${stringLiteral(app.html)},`);
    }
  }, "};");
}
