// Writes the reference part of docs/manifest.md from schema/manifest.schema.json, so the two
// cannot drift: one table per object of the manifest (the top level, `server`, `tools.<tool>`,
// …), one row per key with its type and the schema's description. A repository tool, not a
// user command: `npx tsx scripts/manifest-reference.ts` rewrites the file (`--check`: exit 1
// when it is stale); test/docs/manifest-reference.test.ts fails while it is.
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

type Schema = {
  readonly $ref?: string;
  readonly type?: string | readonly string[];
  readonly const?: unknown;
  readonly enum?: readonly unknown[];
  readonly oneOf?: readonly Schema[];
  readonly items?: Schema;
  readonly properties?: Readonly<Record<string, Schema>>;
  readonly additionalProperties?: Schema | boolean;
  readonly required?: readonly string[];
  readonly description?: string;
  readonly definitions?: Readonly<Record<string, Schema>>;
};

export const START = "<!-- manifest-reference:start -->";
/** The definition of any JSON value (schema values, `_meta` values): recursive, and no table of its own. */
const anyJson = "#/definitions/json";
export const END = "<!-- manifest-reference:end -->";

/** A table of the reference: the object it describes and every path that reaches it. */
interface Section {
  readonly ref: string;
  readonly node: Schema;
  readonly paths: string[];
}

/** `tools` → `<tool>`, `resourceTemplates` → `<template>`: the placeholder of a map's keys. */
function placeholder(key: string): string {
  const words = key.split(/(?=[A-Z])/);
  return `<${words[words.length - 1]!.toLowerCase().replace(/s$/, "")}>`;
}

const cell = (text: string) => text.replace(/\s*\n\s*/g, " ").replace(/\|/g, "\\|");

/** GitHub's anchor of a heading. */
export function anchor(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/ /g, "-");
}

export function manifestReference(root: Schema): string {
  const resolve = (ref: string): Schema => {
    let node: unknown = root;
    for (const part of ref.replace(/^#\/?/, "").split("/").filter(Boolean))
      node = (node as Record<string, unknown>)[part];
    if (node === undefined) throw new Error(`manifest schema: ${ref} resolves to nothing`);
    return node as Schema;
  };
  const deref = (node: Schema): Schema => (node.$ref ? deref(resolve(node.$ref)) : node);
  const hasTable = (node: Schema) => deref(node).properties !== undefined;

  // Every object with properties, in the order a reader meets it, with every path to it.
  const sections = new Map<string, Section>();
  const visit = (ref: string, path: string) => {
    const known = sections.get(ref);
    if (known) {
      known.paths.push(path);
      return;
    }
    const section: Section = { ref, node: deref(resolve(ref)), paths: [path] };
    sections.set(ref, section);
    for (const [key, property] of Object.entries(section.node.properties ?? {}))
      walk(property, path === "" ? key : `${path}.${key}`, key);
  };
  /** Finds the tables a property leads to: itself, a map's values, a list's items (not inside any JSON value: it has none). */
  const walk = (node: Schema, path: string, key: string) => {
    if (node.$ref === anyJson) return;
    if (node.$ref && hasTable(node)) return visit(tableRef(node.$ref), path);
    const target = deref(node);
    if (typeof target.additionalProperties === "object")
      walk(target.additionalProperties, `${path}.${placeholder(key)}`, key);
    if (target.items) walk(target.items, `${path}[]`, key);
  };
  /** The definition a $ref names; a $ref into another definition's property names that property's definition. */
  const tableRef = (ref: string): string => {
    const node = resolve(ref);
    return node.$ref && hasTable(node) ? tableRef(node.$ref) : ref;
  };
  visit("#", "");

  const headings = new Map<string, string>();
  for (const section of sections.values()) {
    const { paths } = section;
    const heading =
      section.ref === "#" ? "Top level" : paths.length === 1 ? `\`${paths[0]}\`` : `\`${paths[0]!.split(".").pop()}\``;
    if ([...headings.values()].includes(heading))
      throw new Error(`manifest reference: two tables would be headed ${heading}`);
    headings.set(section.ref, heading);
  }
  const link = (ref: string) => `[${headings.get(tableRef(ref))!}](#${anchor(headings.get(tableRef(ref))!)})`;

  const typeOf = (node: Schema): string => {
    if (node.$ref === anyJson) return "any JSON value";
    if (node.$ref)
      return hasTable(node)
        ? `${[deref(node).type ?? "object"].flat().join(" or ")}, see ${link(node.$ref)}`
        : typeOf(resolve(node.$ref));
    if ("const" in node) return `\`${JSON.stringify(node.const)}\``;
    if (node.enum) return node.enum.map((v) => `\`${JSON.stringify(v)}\``).join(" | ");
    if (node.oneOf) return node.oneOf.map(typeOf).join(", or ");
    if (node.type === "array" && node.items) return `list of ${typeOf(node.items)}`;
    if (node.type === "object" && node.description?.startsWith("A JSON Schema")) return "JSON Schema";
    if (node.type === "object" && typeof node.additionalProperties === "object") {
      return `map of name → ${typeOf(node.additionalProperties)}`;
    }
    return Array.isArray(node.type) ? node.type.join(" or ") : String(node.type ?? "any");
  };
  const describe = (node: Schema, where: string): string => {
    const text = node.description ?? (node.$ref ? describe(resolve(node.$ref), where) : undefined);
    if (text === undefined) throw new Error(`manifest schema: ${where} has no description`);
    return text;
  };

  // Tables of one place first, in the order a reader meets them; shapes used in several places after them.
  const ordered = [...sections.values()].sort((a, b) => Number(a.paths.length > 1) - Number(b.paths.length > 1));
  const lines = [
    START,
    "<!-- Generated from schema/manifest.schema.json by scripts/manifest-reference.ts: edit the schema, then run `npx tsx scripts/manifest-reference.ts`. -->",
    "",
  ];
  for (const section of ordered) {
    const path = section.paths[0]!;
    lines.push(`### ${headings.get(section.ref)}`, "");
    if (section.ref === "#") lines.push(cell(describe(section.node, "the manifest")), "");
    else {
      lines.push(cell(describe(section.node, path)), "");
      if (section.paths.length > 1) lines.push(`In ${section.paths.map((p) => `\`${p}\``).join(", ")}.`, "");
    }
    lines.push("| key | type | description |", "|---|---|---|");
    const required = new Set(section.node.required ?? []);
    for (const [key, property] of Object.entries(section.node.properties ?? {})) {
      const where = path === "" ? key : `${path}.${key}`;
      const description = describe(property, where);
      lines.push(
        `| \`${key}\` | ${cell(typeOf(property))} | ${required.has(key) ? "**Required.** " : ""}${cell(description)} |`,
      );
    }
    lines.push("");
  }
  lines.push(END);
  const text = lines.join("\n");
  // Markdown renders `<name>` outside code as an HTML tag, which hides it: descriptions put such text in backticks.
  const tag = text
    .replace(/^<!--.*-->$/gm, "")
    .replace(/`[^`\n]*`/g, "")
    .match(/<[A-Za-z][^>\n]*>/);
  if (tag) throw new Error(`manifest schema: a description has ${tag[0]} outside backticks; Markdown would hide it`);
  return text;
}

/** `document` with its reference part replaced. */
export function withReference(document: string, schema: Schema): string {
  const start = document.indexOf(START);
  const end = document.indexOf(END);
  if (start < 0 || end < start) throw new Error(`docs/manifest.md: the markers ${START} and ${END} are missing`);
  return document.slice(0, start) + manifestReference(schema) + document.slice(end + END.length);
}

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..");
export const documentPath = join(repoRoot, "docs", "manifest.md");
export const schemaPath = join(repoRoot, "schema", "manifest.schema.json");

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const document = readFileSync(documentPath, "utf8");
  const updated = withReference(document, JSON.parse(readFileSync(schemaPath, "utf8")) as Schema);
  if (process.argv.includes("--check")) {
    if (updated !== document) {
      process.stderr.write("docs/manifest.md is stale: run npx tsx scripts/manifest-reference.ts\n");
      process.exit(1);
    }
  } else if (updated !== document) writeFileSync(documentPath, updated);
}
