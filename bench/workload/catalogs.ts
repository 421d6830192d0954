// More 1000-tool catalogs for the generator benchmark, each with a deliberately different,
// realistic shape, so that generation speed is measured on more than one kind of schema
// (issue 16: a catalog half the size of the bench's own once took 4.5× as long). Every
// catalog is written by seeded code: the same seed gives the same manifest, byte for byte.
//
//   nullable  — type lists such as ["string","null"], patterns with slashes, asterisks,
//               backticks and dollar signs, arrays of objects with minItems/maxItems,
//               exclusiveMinimum with multipleOf, enums, defaults; two protocol revisions
//   composed  — deep nesting, $defs and $ref, anyOf/oneOf/allOf, patternProperties,
//               additionalProperties schemas, an outputSchema on every other tool
//   surface   — besides the tools, hundreds of prompts, resources and resource templates;
//               long descriptions with hostile text (`*/`, backticks, `${`, U+2028, non-ASCII)
//
// Each is written as JSON (what tools write) or as block YAML (what people write: the yaml
// library's default style, long text folded over several lines); the generator reads the
// two by different paths.
import { stringify } from "yaml";
import type { JsonSchema } from "./catalog.js";

export type CatalogShape = "nullable" | "composed" | "surface";
export const catalogShapes: readonly CatalogShape[] = ["nullable", "composed", "surface"];

/** mulberry32: a small seeded generator, enough to vary shapes reproducibly. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Pick {
  readonly next: () => number;
  constructor(seed: number) {
    this.next = random(seed);
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  one<T>(list: readonly T[]): T {
    return list[Math.floor(this.next() * list.length)]!;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  some<T>(list: readonly T[], min: number, max: number): T[] {
    const count = Math.min(list.length, this.int(min, max));
    const copy = [...list];
    const out: T[] = [];
    for (let i = 0; i < count; i++) out.push(copy.splice(Math.floor(this.next() * copy.length), 1)[0]!);
    return out;
  }
}

const nouns = [
  "account",
  "bucket",
  "cluster",
  "dataset",
  "domain",
  "endpoint",
  "feature",
  "gateway",
  "image",
  "job",
  "key",
  "ledger",
  "mailbox",
  "node",
  "object",
  "pipeline",
  "queue",
  "record",
  "schedule",
  "topic",
  "volume",
  "webhook",
  "zone",
  "invoice",
  "policy",
];
const verbs = [
  "describe",
  "list",
  "create",
  "patch",
  "delete",
  "restore",
  "rotate",
  "export",
  "attach",
  "detach",
  "validate",
  "preview",
];
const fields = [
  "name",
  "owner",
  "region",
  "status",
  "label",
  "path",
  "query",
  "cursor",
  "format",
  "locale",
  "timezone",
  "checksum",
  "comment",
  "reason",
  "ref",
  "mode",
  "scope",
  "kind",
  "source",
  "target",
];
const statuses = ["active", "pending", "suspended", "archived", "deleted", "failed", "unknown"];
// Patterns with a default each matches.
const patternsWithDefaults: readonly (readonly [string, string])[] = [
  ["^/[a-z0-9_/-]*$", "/"],
  ["^(\\*|[a-z]+)/(\\*|[a-z0-9.+-]+)$", "*/*"],
  ["^[^`$]*$", "main"],
  ["^\\*/.*$", "*/"],
  ["^[a-z]+(\\.[a-z]+)*/\\*\\*/\\*\\.(ts|js)$", "src/**/*.ts"],
];
// Realistic patterns with the characters that break naive code emission: / * ` $ \ and quotes.
const patterns = [
  "^/[a-z0-9_/-]*$",
  "^(\\*|[a-z]+)/(\\*|[a-z0-9.+-]+)$",
  "^[^`$]*$",
  "^\\$\\{[A-Z_][A-Z0-9_]*\\}$",
  "^https?://[^\\s/$.?#].[^\\s]*$",
  "^[a-z]+(\\.[a-z]+)*/\\*\\*/\\*\\.(ts|js)$",
  "^`[^`]+`$",
  "^s3://[a-z0-9.-]{3,63}(/.*)?$",
  "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})$",
  "^[A-Za-z0-9+/]*={0,2}$",
  "^\\*/.*$",
  "^'[^']*'|\"[^\"]*\"$",
];
// Text a generator must escape wherever it lands: doc comments, template literals, strings.
const hostile = [
  "Closes a comment early: */ and opens one /* again.",
  "Shell-style `rm -rf ${HOME}/tmp` must stay text, and so must ${notAVariable}.",
  "Line\u2028separator and paragraph\u2029separator inside one line.",
  "Non-ASCII: naïve café, Straße, 日本語のテキスト, Ελληνικά, emoji 🚀✓, ½ and →.",
  "Backslashes \\n and \\u0041 are not escapes here; nor is \\${x}.",
  "Quotes: \"double\", 'single', and `back`; HTML <b>bold</b> & ampersand.",
  "A {{handlebars}}-looking word and a {{#if}} block that are not templates.",
];

const id4 = (i: number) => String(i).padStart(4, "0");

// --- nullable ------------------------------------------------------------------------

function nullableTool(pick: Pick): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const field of pick.some(fields, 2, 4)) {
    const roll = pick.int(0, 6);
    let schema: JsonSchema;
    if (roll === 0) schema = { type: ["string", "null"], pattern: pick.one(patterns), maxLength: pick.int(16, 512) };
    else if (roll === 1)
      schema = {
        type: ["integer", "null"],
        exclusiveMinimum: 0,
        multipleOf: pick.one([1, 5, 10, 100]),
        maximum: pick.int(1000, 100000),
      };
    else if (roll === 2)
      schema = {
        type: "number",
        exclusiveMinimum: -1,
        exclusiveMaximum: pick.int(2, 1000),
        multipleOf: pick.one([0.5, 0.25, 0.01]),
      };
    else if (roll === 3)
      schema = { type: ["string", "null"], enum: [...pick.some(statuses, 2, 6), null], default: null };
    else if (roll === 4) schema = { type: "boolean", default: pick.chance(0.5) };
    else if (roll === 5) {
      // A default must satisfy its own schema (mcp-gen refuses one that does not).
      const [pattern, value] = pick.one(patternsWithDefaults);
      schema = { type: "string", pattern, default: value };
    } else schema = { type: ["number", "string", "null"], description: "A number, or a numeric string" };
    if (pick.chance(0.6))
      schema.description = `The ${field} (${pick.one(["optional", "nullable", "defaults to the server's"])}).`;
    properties[field] = schema;
    if (pick.chance(0.35)) required.push(field);
  }
  if (pick.chance(0.5)) {
    properties.items = {
      type: "array",
      minItems: pick.int(0, 2),
      maxItems: pick.int(5, 50),
      items: {
        type: "object",
        properties: {
          key: { type: "string", pattern: pick.one(patterns) },
          value: { type: ["string", "number", "boolean", "null"] },
          weight: { type: "integer", exclusiveMinimum: 0, multipleOf: 5 },
          kind: { type: "string", enum: pick.some(["path", "glob", "regex", "literal", "env"], 2, 5) },
        },
        required: ["key", "value"],
        additionalProperties: false,
      },
    };
  }
  if (pick.chance(0.4))
    properties.tags = {
      type: ["array", "null"],
      items: { type: "string", pattern: "^[a-z][a-z0-9-]*$" },
      uniqueItems: true,
      maxItems: 16,
      default: [],
    };
  return { type: "object", properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false };
}

// --- composed -------------------------------------------------------------------------

function composedLeaf(pick: Pick): JsonSchema {
  return pick.one<JsonSchema>([
    { type: "string", minLength: 1, maxLength: 200 },
    { type: "integer", minimum: 0 },
    { type: "number", minimum: 0, maximum: 1 },
    { type: "boolean" },
    { type: "string", enum: pick.some(statuses, 2, 4) },
    { type: "string", format: "date-time" },
  ]);
}

function composedNode(pick: Pick, depth: number, defs: readonly string[]): JsonSchema {
  if (depth === 0)
    return pick.chance(0.3) && defs.length > 0 ? { $ref: `#/$defs/${pick.one(defs)}` } : composedLeaf(pick);
  const roll = pick.int(0, 6);
  if (roll === 0)
    return { anyOf: [composedNode(pick, depth - 1, defs), composedNode(pick, depth - 1, defs), { type: "null" }] };
  if (roll === 1) {
    return {
      oneOf: [
        {
          type: "object",
          properties: { kind: { const: "a" }, a: composedNode(pick, depth - 1, defs) },
          required: ["kind", "a"],
          additionalProperties: false,
        },
        {
          type: "object",
          properties: { kind: { const: "b" }, b: composedNode(pick, depth - 1, defs) },
          required: ["kind", "b"],
          additionalProperties: false,
        },
      ],
    };
  }
  if (roll === 2) {
    return {
      allOf: [
        { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
        { type: "object", properties: { detail: composedNode(pick, depth - 1, defs) } },
      ],
    };
  }
  if (roll === 3)
    return {
      type: "object",
      patternProperties: { "^x-[a-z]+$": composedNode(pick, depth - 1, defs), "^[0-9]+$": { type: "integer" } },
      additionalProperties: false,
    };
  if (roll === 4)
    return { type: "object", additionalProperties: composedNode(pick, depth - 1, defs), maxProperties: 32 };
  if (roll === 5) return { type: "array", items: composedNode(pick, depth - 1, defs), maxItems: pick.int(4, 64) };
  const properties: Record<string, JsonSchema> = {};
  for (const field of pick.some(fields, 2, 3)) properties[field] = composedNode(pick, depth - 1, defs);
  return { type: "object", properties, required: Object.keys(properties).slice(0, 1), additionalProperties: false };
}

function composedTool(pick: Pick): { input: JsonSchema; output?: JsonSchema } {
  const $defs: Record<string, JsonSchema> = {
    money: {
      type: "object",
      properties: {
        amount: { type: "string", pattern: "^-?\\d+(\\.\\d{1,4})?$" },
        currency: { type: "string", pattern: "^[A-Z]{3}$" },
      },
      required: ["amount", "currency"],
      additionalProperties: false,
    },
    ref: {
      type: "object",
      properties: { kind: { type: "string" }, id: { type: "string" } },
      required: ["kind", "id"],
      additionalProperties: false,
    },
    period: {
      type: "object",
      properties: { from: { type: "string", format: "date" }, to: { type: "string", format: "date" } },
      required: ["from"],
      additionalProperties: false,
    },
  };
  const defs = Object.keys($defs);
  // A $def that refers to another.
  $defs.line = {
    type: "object",
    properties: { ref: { $ref: "#/$defs/ref" }, price: { $ref: "#/$defs/money" }, period: { $ref: "#/$defs/period" } },
    required: ["ref"],
    additionalProperties: false,
  };
  const properties: Record<string, JsonSchema> = {};
  for (const field of pick.some(fields, 1, 2)) properties[field] = composedNode(pick, pick.int(1, 3), defs);
  properties.lines = { type: "array", items: { $ref: "#/$defs/line" }, maxItems: 100 };
  const input: JsonSchema = {
    type: "object",
    $defs,
    properties,
    required: Object.keys(properties).slice(0, 2),
    additionalProperties: false,
  };
  if (!pick.chance(0.5)) return { input };
  const output: JsonSchema = {
    type: "object",
    properties: {
      total: { $ref: "#/$defs/money" },
      results: { type: "array", items: composedNode(pick, 1, ["money"]) },
      meta: { type: "object", additionalProperties: { type: ["string", "number", "boolean"] } },
    },
    required: ["results"],
    $defs: { money: $defs.money! },
  };
  return { input, output };
}

// --- surface --------------------------------------------------------------------------

function longDescription(pick: Pick, subject: string): string {
  const parts = [`${subject}.`];
  for (let n = pick.int(2, 5); n > 0; n--) parts.push(pick.one(hostile));
  parts.push("Returns the result as text; see the server's instructions for limits.");
  return parts.join(" ");
}

function surfaceTool(pick: Pick, i: number): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const field of pick.some(fields, 1, 4))
    properties[field] = { ...composedLeaf(pick), description: longDescription(pick, `The ${field}`) };
  return {
    type: "object",
    properties,
    required: Object.keys(properties).slice(0, 1),
    additionalProperties: false,
    description: `Arguments of tool ${i}`,
  };
}

// --- manifests ------------------------------------------------------------------------

const toolName = (pick: Pick, i: number) => `${pick.one(nouns)}_${pick.one(verbs)}_${id4(i)}`;

export type CatalogFormat = "json" | "yaml";

/** The manifest of a `count`-tool catalog of `shape`, written as JSON (which is YAML too) or block YAML; the same for the same seed. */
export function shapedCatalogManifest(
  shape: CatalogShape,
  count: number,
  seed = 16,
  format: CatalogFormat = "json",
): string {
  const pick = new Pick(seed * 7919 + catalogShapes.indexOf(shape));
  const tools: Record<string, unknown> = {};
  const manifest: Record<string, unknown> = {
    mcpgen: 1,
    server: { name: `catalog-${shape}`, version: "1.0.0" },
    output: "./mcp",
    generate: { client: false },
  };
  if (shape === "nullable") {
    manifest.protocol = ["2025-11-25", "2025-06-18"];
    for (let i = 0; i < count; i++)
      tools[toolName(pick, i)] = {
        description: `${pick.one(verbs)} ${pick.one(nouns)}s, nullable fields and patterns (tool ${i})`,
        input: nullableTool(pick),
      };
  } else if (shape === "composed") {
    manifest.protocol = ["2026-07-28", "2025-11-25"];
    for (let i = 0; i < count; i++) {
      const { input, output } = composedTool(pick);
      tools[toolName(pick, i)] = { description: `Composed schemas (tool ${i})`, input, ...(output ? { output } : {}) };
    }
  } else {
    manifest.protocol = ["2026-07-28", "2025-11-25", "2025-03-26", "2024-11-05"];
    (manifest.server as Record<string, unknown>).instructions = longDescription(pick, "A server with a large surface");
    for (let i = 0; i < count; i++)
      tools[toolName(pick, i)] = {
        title: `Tool ${i} — ${pick.one(nouns)}`,
        description: longDescription(pick, `Tool ${i}`),
        input: surfaceTool(pick, i),
      };
    const resources: Record<string, unknown> = {};
    const templates: Record<string, unknown> = {};
    const prompts: Record<string, unknown> = {};
    const extra = Math.round(count * 0.3);
    for (let i = 0; i < extra; i++) {
      const noun = pick.one(nouns);
      resources[`${noun}_doc_${id4(i)}`] = {
        uri: `docs://${noun}/${id4(i)}`,
        title: `Document ${i} (${noun})`,
        description: longDescription(pick, `Document ${i}`),
        mimeType: pick.one(["text/markdown", "application/json", "text/plain"]),
      };
      templates[`${noun}_item_${id4(i)}`] = {
        uriTemplate: `items://${noun}/${id4(i)}/{id}/rev/{rev}`,
        description: longDescription(pick, `Item ${i}`),
        mimeType: "application/json",
      };
      const args: Record<string, unknown> = {
        topic: { required: true, description: longDescription(pick, "The topic") },
      };
      args.tone = { required: pick.chance(0.2), description: "Tone: formal, casual — or «anything»" };
      prompts[`${noun}_prompt_${id4(i)}`] = {
        title: `Prompt ${i}`,
        description: longDescription(pick, `Prompt ${i}`),
        arguments: args,
        messages: [
          {
            role: "user",
            text: `Write about {{topic}}{{#if tone}} in a {{tone}} tone{{/if}}. ${pick.one(hostile).replace(/\{\{/g, "{ {")}`,
          },
          { role: "assistant", text: `Understood: */ \`${"${"}topic}\` is not interpolated by me — ünïcödé ✓.` },
        ],
      };
    }
    manifest.resources = resources;
    manifest.resourceTemplates = templates;
    manifest.prompts = prompts;
  }
  manifest.tools = tools;
  return format === "yaml"
    ? stringify(manifest, { aliasDuplicateObjects: false })
    : `${JSON.stringify(manifest, null, 2)}\n`;
}
