// The one printer every emitter writes through. A GeneratedFile is the banner, the import
// lines it collected (emitters ask it for the names they reference and never write import
// lines themselves), then the body its CodeWriter holds, written in order. There is no
// formatter: what the emitters write is the final layout.
import { generatedMarker } from "../generated.js";
import { docComment, stringLiteral } from "./escape.js";

export interface Banner {
  /** mcp-gen version; undefined leaves it out (golden tests). */
  readonly version: string | undefined;
  /** Manifest path relative to the output folder, with forward slashes. */
  readonly manifest: string;
  readonly protocols: readonly { readonly revision: string; readonly sha256: string }[];
  /** Files inlined into the output (MCP Apps' HTML), relative to the manifest's folder: a reviewer sees which page a change carries. */
  readonly inlined?: readonly { readonly uri: string; readonly file: string; readonly sha256: string }[];
}

export function bannerText(banner: Banner): string {
  const oneLine = (text: string) => text.replace(/[\r\n\u2028\u2029]+/g, " ");
  const lines = [
    `${generatedMarker}${banner.version ? ` v${oneLine(banner.version)}` : ""}. DO NOT EDIT.`,
    `// Source: ${oneLine(banner.manifest)}`,
    ...banner.protocols.map((p) => `// Protocol ${p.revision}: schema.json sha256 ${p.sha256}`),
    ...(banner.inlined ?? []).map((f) => `// App ${oneLine(f.uri)}: ${oneLine(f.file)} sha256 ${f.sha256}`),
    `// Regenerate: npx mcp-gen generate ${oneLine(banner.manifest)} (from this folder)`,
  ];
  return `${lines.join("\n")}\n`;
}

/** Lists (imports, parameters) longer than this go one item per line. */
export const lineWidth = 100;

/**
 * Text written line by line at an indentation the writer keeps: `block` opens a nested
 * level, so emitters write nested code without counting spaces.
 */
export class CodeWriter {
  private readonly parts: string[] = [];
  private depth = 0;

  /** The current indentation. */
  get indentation(): string {
    return "  ".repeat(this.depth);
  }

  /** One or more lines at the current indentation (each line of `text`; empty lines stay empty). */
  line(text = ""): this {
    // Appended as one piece: a multi-line data literal is written in one go, not line by line.
    const indentation = this.indentation;
    if (indentation === "" || !text.includes("\n")) {
      this.append(text === "" ? "\n" : `${indentation}${text}\n`);
    } else {
      this.append(
        `${text
          .split("\n")
          .map((line) => (line === "" ? "" : `${indentation}${line}`))
          .join("\n")}\n`,
      );
    }
    return this;
  }

  /** `head {`, the body one level deeper, then `close`. */
  block(head: string, body: () => void, close = "}"): this {
    this.line(`${head} {`);
    return this.indented(body).line(close);
  }

  /** Whatever `body` writes, one level deeper. */
  indented(body: () => void): this {
    this.depth++;
    try {
      body();
    } finally {
      this.depth--;
    }
    return this;
  }

  /**
   * `open` + items + `close`: on one line when it fits `lineWidth` columns, else `open`,
   * one item per line one level deeper (each ending in a comma), then `close`. For
   * parameter and argument lists: `list("f(", ["a: A", "b: B"], "): R;")`.
   */
  list(open: string, items: readonly string[], close: string): this {
    const oneLine = `${open}${items.join(", ")}${close}`;
    if (items.length === 0 || this.indentation.length + oneLine.length <= lineWidth) return this.line(oneLine);
    this.line(open);
    this.indented(() => items.forEach((item) => this.line(`${item},`)));
    return this.line(close);
  }

  /**
   * `head A | B;` when it fits `lineWidth` columns (or has one member), else `head`, then
   * one `| member` per line one level deeper, the last ending in `;`.
   */
  union(head: string, members: readonly string[]): this {
    const oneLine = `${head} ${members.join(" | ")};`;
    if (members.length < 2 || this.indentation.length + oneLine.length <= lineWidth) return this.line(oneLine);
    const last = members.length - 1;
    return this.line(head).indented(() =>
      members.forEach((member, i) => this.line(`| ${member}${i === last ? ";" : ""}`)),
    );
  }

  /** A doc comment for `text` at the current indentation (nothing when there is no text). */
  doc(text: string | undefined): this {
    return this.raw(docComment(text, this.indentation));
  }

  /** Text as written, already indented: another module's final text. */
  raw(text: string): this {
    this.append(text.replace(/\r\n/g, "\n"));
    return this;
  }

  toString(): string {
    if (this.parts.length > 1) this.parts.splice(0, this.parts.length, this.parts.join(""));
    return this.parts[0] ?? "";
  }

  private append(text: string): void {
    if (text === "") return;
    this.parts.push(text);
  }
}

export class GeneratedFile {
  private readonly imports = new Map<string, Map<string, { typeOnly: boolean }>>();
  readonly writer = new CodeWriter();
  constructor(
    /** Path relative to the output folder, e.g. "server.gen.ts". */
    readonly path: string,
    /** The import specifier of a module among the generated files, by its name without extension ("types.gen"). */
    readonly local: (module: string) => string,
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

  private add(module: string, name: string, typeOnly: boolean): void {
    const names = this.imports.get(module) ?? new Map<string, { typeOnly: boolean }>();
    this.imports.set(module, names);
    const existing = names.get(name);
    names.set(name, { typeOnly: existing ? existing.typeOnly && typeOnly : typeOnly });
  }

  /** The import lines: packages first, then relative paths, each sorted; names sorted within. */
  importLines(): string[] {
    const relative = (module: string) => (module.startsWith(".") ? 1 : 0);
    const modules = [...this.imports.keys()].sort((a, b) => relative(a) - relative(b) || compareText(a, b));
    return modules.map((module) => {
      const names = [...this.imports.get(module)!.entries()].sort(([a], [b]) => compareText(a, b));
      const allTypes = names.every(([, n]) => n.typeOnly);
      const specifiers = names.map(([name, n]) => (n.typeOnly && !allTypes ? `type ${name}` : name));
      return moduleStatement(allTypes ? "import type" : "import", specifiers, module);
    });
  }

  /** The final text: banner, imports, body. */
  text(banner: Banner): string {
    const blocks = [bannerText(banner)];
    const imports = this.importLines();
    if (imports.length > 0) blocks.push(`${imports.join("\n")}\n`);
    const body = withOneFinalNewline(this.writer.toString().replace(/^\n+/, ""));
    if (body !== "\n") blocks.push(body);
    return blocks.join("\n");
  }
}

/**
 * `text` ending in exactly one line break. A loop from the end rather than `/\n*$/`, which
 * tries every position of a megabyte body.
 */
function withOneFinalNewline(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 10) end--;
  return `${text.slice(0, end)}\n`;
}

/** Code-unit order: the same on every machine and locale. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * `keyword { a, b } from "module";` on one line when it fits `lineWidth`, else one
 * name per line. Shared by import lines and index.ts's re-exports.
 */
export function moduleStatement(keyword: string, names: readonly string[], module: string): string {
  const from = `} from ${stringLiteral(module)};`;
  const oneLine = `${keyword} { ${names.join(", ")} ${from}`;
  if (oneLine.length <= lineWidth) return oneLine;
  return `${keyword} {\n${names.map((name) => `  ${name},\n`).join("")}${from}`;
}
