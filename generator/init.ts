// `mcp-gen init`: a new project (manifest, entry point, test, tsconfig, package.json with its
// scripts; for HTTP-first projects a Dockerfile), rendered from the Handlebars templates in
// templates/init. Pure but for reading the templates and mcp-gen's own package.json: returns
// path → text; the CLI writes them, then lets `scaffold` write src/handlers.ts from the
// manifest, with initHandlerBodies for its tool.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import Handlebars from "handlebars";
import { packageRoot } from "./load/revisions.js";
import { serverTypeBase } from "./model/names.js";

/** Server names `init` accepts: they go into YAML, comments and identifiers unescaped. */
export const initNamePattern = /^[a-z][a-z0-9-]{0,63}$/;

/** The starter tool's body (everything else in src/handlers.ts is scaffold's). */
export const initHandlerBodies: ReadonlyMap<string, readonly string[]> = new Map([
  [
    "tools.greet",
    [
      "// Replace with what your tool does; `npx mcp-gen scaffold` stubs each tool you declare next.",
      "return { structuredContent: { greeting: `Hello, ${name}!` } };",
    ],
  ],
]);

/**
 * What `init` writes besides the name: `http` makes an HTTP-first project with a Dockerfile;
 * `author` ("Name <email>") goes into package.json, where `mcp-gen pack` reads it.
 */
export interface InitOptions {
  readonly http?: boolean | undefined;
  readonly author?: string | undefined;
}

/**
 * The tools a project needs to type-check, build, test and (stdio projects) bundle, at the
 * versions mcp-gen is tested with.
 */
const projectTools = ["@types/node", "esbuild", "tsx", "typescript"] as const;

/**
 * Renders every template of templates/init: `http/` holds the files of HTTP-first projects
 * only (written at the top), and a leading `_` in a file name stands for a dot (npm leaves
 * `.gitignore` out of packages).
 */
export function renderInit(name: string, options: InitOptions = {}): Map<string, string> {
  if (!initNamePattern.test(name))
    throw new RangeError(
      `server name ${JSON.stringify(name)} must be lower-case letters, digits and dashes, starting with a letter`,
    );
  const root = join(packageRoot(), "templates", "init");
  const own = JSON.parse(readFileSync(join(packageRoot(), "package.json"), "utf8")) as {
    devDependencies: Record<string, string>;
    engines: { node: string };
  };
  const devVersions = Object.fromEntries(
    projectTools.map((tool) => {
      const version = own.devDependencies[tool];
      if (version === undefined) throw new Error(`mcp-gen's package.json names no version of ${tool}`);
      return [tool, version];
    }),
  );
  // One description in both files: pack reads mcp.yaml's (and its version), npm package.json's.
  const description = `The ${name} MCP server`;
  const context = {
    name,
    description,
    author: options.author,
    typeBase: serverTypeBase(name),
    http: options.http === true,
    devVersions,
    node: own.engines.node,
  };
  const hbs = Handlebars.create();
  // A string as data: a JSON string literal, which YAML reads as the same double-quoted string.
  hbs.registerHelper("quote", (value: unknown) => new Handlebars.SafeString(JSON.stringify(String(value))));
  const files = new Map<string, string>();
  const entries = readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith(".hbs"))
    .map((e) => relative(root, join(e.parentPath, e.name)).split("\\").join("/"))
    .sort();
  for (const template of entries) {
    const httpOnly = template.startsWith("http/");
    if (httpOnly && !context.http) continue;
    const path = (httpOnly ? template.slice("http/".length) : template)
      .replace(/\.hbs$/, "")
      .replace(/(^|\/)_/g, "$1.");
    files.set(path, hbs.compile(readFileSync(join(root, template), "utf8"), { noEscape: true, strict: true })(context));
  }
  return files;
}
