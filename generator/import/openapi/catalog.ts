// `--tools catalog`: an API too large for one tool per operation becomes three tools over
// its operations (find, describe, call; project/catalog.ts serves them). This module writes
// what they need: the three tools' manifest entries, each operation as data with its `$defs`
// moved into one table per direction (a component used by a hundred operations is written
// once), and the operations' validators, compiled by the compiler that compiles tools' own.
import { escapePointer, type ImportWarnings } from "./document.js";
import { toolTypeBase, type ImportedTool, type ImportResult } from "./operations.js";
import type { Schema } from "./schemas.js";
import { emitValidators, validatorNames, type ValidatedTool } from "../../emit/validators/emit.js";
import { GeneratedFile } from "../../emit/file.js";
import { analyzeSchema } from "../../validate/schema-check.js";
import { isDeepStrictEqual } from "node:util";

/** How the API's operations become tools: one each, or the three catalog tools. */
export type ToolsMode = "operations" | "catalog";

/** The three tools of a catalog project, as mcp.yaml declares them. */
export function catalogTools(apiTitle: string): Record<string, unknown> {
  const id = { type: "string", description: "The operation's id, as find_operations lists it", minLength: 1 };
  return {
    find_operations: {
      title: "Find API operations",
      description: `Searches the operations of ${apiTitle} by words of their id, summary, description, tags and path; answers their ids and one-line summaries, best match first, a page at a time. Then describe_operation gives one's arguments and call_operation calls it.`,
      input: {
        type: "object",
        properties: {
          query: {
            type: "string",
            description: "Words that must all appear (e.g. `list issues`); none lists every operation",
          },
          tag: { type: "string", description: "Only operations with this tag" },
          cursor: { type: "string", description: "nextCursor of the previous page" },
          limit: { type: "integer", minimum: 1, maximum: 50, default: 20, description: "Operations per page" },
        },
        additionalProperties: false,
      },
      output: {
        type: "object",
        properties: {
          operations: {
            type: "array",
            items: {
              type: "object",
              properties: {
                id: { type: "string" },
                method: { type: "string" },
                path: { type: "string" },
                summary: { type: "string" },
              },
              required: ["id", "method", "path"],
            },
          },
          total: { type: "integer", description: "Operations matching, over all pages" },
          nextCursor: { type: "string", description: "Pass as cursor for the next page; absent on the last" },
        },
        required: ["operations", "total"],
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    describe_operation: {
      title: "Describe an API operation",
      description:
        "The method, path and description of one operation, the JSON Schema of the arguments call_operation takes for it, and of its structured answer when it has one.",
      input: { type: "object", properties: { id }, required: ["id"], additionalProperties: false },
      output: {
        type: "object",
        properties: {
          id: { type: "string" },
          method: { type: "string" },
          path: { type: "string" },
          title: { type: "string" },
          description: { type: "string" },
          tags: { type: "array", items: { type: "string" } },
          inputSchema: { type: "object", description: "JSON Schema of the arguments" },
          outputSchema: { type: "object", description: "JSON Schema of the answer, when it is JSON" },
        },
        required: ["id", "method", "path", "tags", "inputSchema"],
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    call_operation: {
      title: "Call an API operation",
      description:
        "Calls one operation of the API with its arguments, checked against its input schema (describe_operation) before anything is sent. Answers the API's answer; an error answer is a tool error with its HTTP status and body.",
      input: {
        type: "object",
        properties: {
          id,
          arguments: { type: "object", description: "The operation's arguments, as its inputSchema says", default: {} },
        },
        required: ["id"],
        additionalProperties: false,
      },
      annotations: { openWorldHint: true },
    },
  };
}

type Json = { [keyword: string]: unknown };
const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** A schema without its `$defs`, and their names. */
function splitDefs(schema: Schema): { root: Schema; defs: Json } {
  if (!isObject(schema) || !isObject(schema.$defs)) return { root: schema, defs: {} };
  const { $defs, ...root } = schema;
  return { root: root as Schema, defs: $defs as Json };
}

/** The operations a catalog serves (those whose schemas the validator compiler takes) and their shared `$defs`. */
export interface CatalogData {
  readonly tools: readonly ImportedTool[];
  readonly inputDefs: Json;
  readonly outputDefs: Json;
}

/**
 * The operations of the catalog. One whose schema the validator compiler refuses (a pattern
 * that is no regular expression, say) is left out with a warning: in the one-tool-per-operation
 * mode it is `mcp-gen generate` that refuses it.
 */
export function catalogData(result: ImportResult, warnings: ImportWarnings): CatalogData {
  const tools: ImportedTool[] = [];
  const tables = { input: {} as Json, output: {} as Json };
  for (const tool of result.tools) {
    const problems = [tool.input, ...(tool.output === undefined ? [] : [tool.output])].flatMap(
      (schema) => analyzeSchema(schema, "2020-12").problems,
    );
    if (problems.length > 0) {
      warnings.add(
        `/paths/${escapePointer(tool.operation.path)}/${tool.operation.method}`,
        `operation left out of the catalog: its schema cannot be compiled into a validator (${problems.map((p) => `${p.pointer} ${p.message}`).join("; ")})`,
      );
      continue;
    }
    tools.push(tool);
    for (const [direction, schema] of [
      ["input", tool.input],
      ["output", tool.output],
    ] as const) {
      if (schema === undefined) continue;
      const table = tables[direction];
      for (const [name, def] of Object.entries(splitDefs(schema).defs)) {
        // A component converts the same way wherever it is used: one entry serves every operation.
        if (name in table && !isDeepStrictEqual(table[name], def))
          throw new Error(`mcp-gen import: $defs ${name} of the ${direction}s converted two ways`);
        table[name] = def;
      }
    }
  }
  const sorted = (table: Json) => Object.fromEntries(Object.entries(table).sort(([a], [b]) => (a < b ? -1 : 1)));
  return { tools, inputDefs: sorted(tables.input), outputDefs: sorted(tables.output) };
}

/** operations.gen.ts's catalog: the shared `$defs` and each operation, its validators referenced by name (imported from validators.gen.ts as `validators`). */
export function renderCatalogModule(data: CatalogData): string {
  // A schema is JSON text parsed at load: TypeScript then checks a string, not the literal types
  // of megabytes of schemas (GitHub's catalog written as literals fails tsc with TS2590).
  const schema = (value: unknown) => `schema(${JSON.stringify(JSON.stringify(value))})`;
  const table = (defs: Json) =>
    Object.keys(defs).length === 0
      ? "{}"
      : `{\n${Object.entries(defs)
          .map(([name, def]) => `    ${JSON.stringify(name)}: ${schema(def)},\n`)
          .join("")}  }`;
  const entries = data.tools.map((tool) => {
    const names = validatorNames(toolTypeBase(tool.name));
    const input = splitDefs(tool.input);
    const output = tool.output === undefined ? undefined : splitDefs(tool.output);
    const fields = [
      `id: ${JSON.stringify(tool.name)}`,
      ...(tool.title === undefined ? [] : [`title: ${JSON.stringify(tool.title)}`]),
      ...(tool.description === undefined ? [] : [`description: ${JSON.stringify(tool.description)}`]),
      `tags: ${JSON.stringify(tool.tags)}`,
      `spec: ${JSON.stringify(tool.operation)}`,
      `input: ${schema(input.root)}`,
      `inputDefs: ${JSON.stringify(Object.keys(input.defs))}`,
      ...(output === undefined
        ? []
        : [`output: ${schema(output.root)}`, `outputDefs: ${JSON.stringify(Object.keys(output.defs))}`]),
      `validateInput: validators.${names.input}`,
      ...(output === undefined ? [] : [`validateOutput: validators.${names.output}`]),
    ];
    return `    operation({\n${fields.map((field) => `      ${field},\n`).join("")}    }),\n`;
  });
  return `const schema = (text: string): JsonSchema => JSON.parse(text) as JsonSchema;
/** Each entry typed on its own, so that the list is not a union of a thousand literal types. */
const operation = (entry: CatalogOperation): CatalogOperation => entry;

/** The operations of the API (ids are the tool names of the one-tool-per-operation mode) and the \`$defs\` their schemas share. */
export const catalog: Catalog = {
  inputDefs: ${table(data.inputDefs)},
  outputDefs: ${table(data.outputDefs)},
  operations: [
${entries.join("")}  ],
};
`;
}

/** validators.gen.ts: each operation's input and output validators, compiled as a tool's are. */
export function renderCatalogValidators(data: CatalogData): string {
  const file = new GeneratedFile("validators.gen.ts", (module) => `./${module}.js`);
  const tools: ValidatedTool[] = data.tools.map((tool) => {
    const compiled = (schema: Schema) => ({
      schema: { value: schema },
      dialect: "2020-12" as const,
      analysis: analyzeSchema(schema, "2020-12"),
    });
    return {
      key: tool.name,
      typeBase: toolTypeBase(tool.name),
      input: compiled(tool.input),
      ...(tool.output !== undefined && { output: compiled(tool.output) }),
    };
  });
  emitValidators(file, { tools }, "@mcp-gen/runtime");
  const imports = file.importLines();
  return `${imports.length > 0 ? `${imports.join("\n")}\n\n` : ""}${file.writer.toString().replace(/^\n+/, "").replace(/\n*$/, "\n")}`;
}
