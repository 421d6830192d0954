// `mcp-gen init`: a new project's manifest and entry point, rendered from the Handlebars
// templates in templates/init. Pure: returns path → text; the CLI writes them, then lets
// `scaffold` write src/handlers.ts from the manifest, with initHandlerBodies for its tool.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import Handlebars from "handlebars";
import { packageRoot } from "./load/revisions.js";
import { serverTypeBase } from "./model/names.js";

/** Server names `init` accepts: they go into YAML, comments and identifiers unescaped. */
export const initNamePattern = /^[a-z][a-z0-9-]{0,63}$/;

/** The starter tool's body (everything else in src/handlers.ts is scaffold's). */
export const initHandlerBodies: ReadonlyMap<string, readonly string[]> = new Map([
  ["tools.greet", ["// Replace with what your tool does; `npx mcp-gen scaffold` stubs each tool you declare next.", "return { structuredContent: { greeting: `Hello, ${name}!` } };"]],
]);

export function renderInit(name: string): Map<string, string> {
  if (!initNamePattern.test(name)) throw new RangeError(`server name ${JSON.stringify(name)} must be lower-case letters, digits and dashes, starting with a letter`);
  const root = join(packageRoot(), "templates", "init");
  const hbs = Handlebars.create();
  hbs.registerHelper("yaml", (value: unknown) => new Handlebars.SafeString(JSON.stringify(String(value))));
  const files = new Map<string, string>();
  const entries = readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith(".hbs"))
    .map((e) => join(e.parentPath, e.name))
    .sort();
  for (const file of entries) {
    const template = hbs.compile(readFileSync(file, "utf8"), { noEscape: true, strict: true });
    files.set(relative(root, file).split("\\").join("/").replace(/\.hbs$/, ""), template({ name, typeBase: serverTypeBase(name) }));
  }
  return files;
}
