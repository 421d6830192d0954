// The one printer every emitter writes through: it collects the symbols a file imports
// (value or type-only), de-duplicates and orders them, and puts the banner on top.
// Emitters write declarations with a CodeWriter and ask this file for the names
// they reference, never writing import lines themselves.
import { CodeWriter } from "./layout/code-writer.js";
import { moduleLine } from "./layout/module-lines.js";
import { renderPieces, type Unit } from "./layout/print.js";
import { generatedMarker } from "../write.js";

export interface Banner {
  /** mcp-gen version; undefined leaves it out (golden tests). */
  readonly version: string | undefined;
  /** Manifest path relative to the output folder, with forward slashes. */
  readonly manifest: string;
  readonly protocols: readonly { readonly revision: string; readonly sha256: string }[];
}

export function bannerText(banner: Banner): string {
  const lines = [
    `${generatedMarker}${banner.version ? ` v${banner.version}` : ""}. DO NOT EDIT.`,
    `// Source: ${banner.manifest}`,
    ...banner.protocols.map((p) => `// Protocol ${p.revision}: schema.json sha256 ${p.sha256}`),
    `// Regenerate: npx mcp-gen generate ${banner.manifest} (from this folder)`,
  ];
  return `${lines.join("\n")}\n`;
}

export function newWriter(): CodeWriter {
  return new CodeWriter();
}

export class GeneratedFile {
  private readonly imports = new Map<string, Map<string, { typeOnly: boolean }>>();
  readonly writer = newWriter();
  /**
   * Top-level statements appended after the body, each unit ending in a newline and
   * separated by a blank line. `formatted` units are already laid out exactly as prettier
   * lays them out and bypass the formatter: the protocol's namespaces (thousands of lines,
   * identical for every manifest, formatted once and cached) and per-tool code emitted in
   * canonical layout. Other units are formatted on their own.
   */
  readonly tail: Unit[] = [];

  constructor(
    /** Path relative to the output folder, e.g. "server.gen.ts". */
    readonly path: string,
    /** Turns a sibling module name ("types.gen") into its import specifier. */
    private readonly sibling: (module: string) => string,
  ) {}

  /** Imports a value; returns the name to use. */
  value(module: string, name: string): string {
    this.add(module, name, false);
    return name;
  }

  /** Imports a type (import type unless the same name is also imported as a value). */
  type(module: string, name: string): string {
    this.add(module, name, true);
    return name;
  }

  /** A module among the generated files, by its name without extension. */
  local(module: string): string {
    return this.sibling(module);
  }

  private add(module: string, name: string, typeOnly: boolean): void {
    const names = this.imports.get(module) ?? new Map<string, { typeOnly: boolean }>();
    this.imports.set(module, names);
    const existing = names.get(name);
    names.set(name, { typeOnly: existing ? existing.typeOnly && typeOnly : typeOnly });
  }

  /** The import lines in prettier's layout, by module: packages first, then relative paths. */
  private importLines(): string[] {
    const modules = [...this.imports.keys()].sort((a, b) => {
      const ra = a.startsWith(".") ? 1 : 0;
      const rb = b.startsWith(".") ? 1 : 0;
      return ra !== rb ? ra - rb : a < b ? -1 : a > b ? 1 : 0;
    });
    return modules.map((module) => {
      const names = [...this.imports.get(module)!.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      const allTypes = names.every(([, n]) => n.typeOnly);
      const specifiers = names.map(([name, n]) => (n.typeOnly && !allTypes ? `type ${name}` : name));
      return moduleLine(allTypes ? "import type" : "import", specifiers, module);
    });
  }

  /** The file as formatted text: `format` formats the body and every unformatted tail unit. */
  async formatted(banner: Banner, format: (text: string) => Promise<string>): Promise<string> {
    const [head, ...tail] = await Promise.all([
      this.head(banner, format),
      ...this.tail.map((unit) => (unit.pieces ? renderPieces(unit.pieces, format) : unit.formatted ? unit.text : format(unit.text))),
    ]);
    return [head, ...tail].join("\n");
  }

  /**
   * Banner, imports and body, formatted. Banner and import lines are written in prettier's
   * layout already, so prettier sees only the body (skipped when empty); a banner prettier
   * would change (trailing spaces in a path) sends the whole head through prettier.
   */
  private async head(banner: Banner, format: (text: string) => Promise<string>): Promise<string> {
    const bannerLines = bannerText(banner);
    if (!bannerLines.split("\n").every((line) => line === "" || /^\/\/[^\r\u2028\u2029]*\S$/.test(line))) return format(this.render(banner));
    const imports = this.importLines();
    const body = this.writer.toString().trim();
    const blocks = [bannerLines];
    if (imports.length > 0) blocks.push(`${imports.join("\n")}\n`);
    if (body !== "") blocks.push(await format(`${body}\n`));
    return blocks.join("\n");
  }

  /** The head as text for prettier. */
  private render(banner: Banner): string {
    const imports = this.importLines();
    const body = this.writer.toString().trim();
    return `${bannerText(banner)}\n${imports.length > 0 ? `${imports.join("\n")}\n\n` : ""}${body}\n`;
  }
}
