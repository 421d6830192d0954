// `tools:` of the manifest: each tool's input and output schemas (resolved and checked),
// its annotations, defaults and the arguments mirrored into HTTP headers.
import { quote, warning, type Diagnostic } from "../diagnostics.js";
import { hasFeature, revisionFeatures } from "../load/revisions.js";
import type { ResolvedSchema } from "../load/schema-refs.js";
import { childPointer, type JsonValue, type PositionIndex } from "../load/source.js";
import { isObjectSchema } from "../validate/json-schema.js";
import { isJsonObject } from "../validate/schema-check.js";
import type { ManifestTool } from "../manifest.gen.js";
import { optional, type Declarations } from "./declarations.js";
import type { SchemaModel, TaskModel, ToolModel } from "./types.js";

export function buildTools(context: Declarations): ToolModel[] {
  const { diagnostics, positions } = context;
  const revisions = context.settings.revisions;
  const tools: ToolModel[] = [];
  for (const { key: name, decl, pointer, declared } of context.declarations("tool")) {
    const nameWarning = toolNameWarning(name);
    if (nameWarning && context.supports(revisionFeatures.toolNameRules[0]))
      diagnostics.push(warning(positions.key(pointer), nameWarning));
    const what = `input schema of tool ${quote(name)}`;
    const input =
      decl.input === undefined ? defaultInput(pointer, positions) : context.schemaAt(decl.input, pointer, "input");
    const output = context.schemaAt(decl.output, pointer, "output");
    if (input && !isObjectSchema(input.schema.value)) {
      diagnostics.push({
        location: input.schema.locate(""),
        message: `${what} must have \`type: object\` at its root: tool arguments are always a JSON object`,
      });
      continue;
    }
    if (
      output &&
      !isObjectSchema(output.schema.value) &&
      revisions !== undefined &&
      revisions.some((r) => !hasFeature(r, "anyStructuredContent"))
    ) {
      diagnostics.push({
        location: output.schema.locate(""),
        message: `output schema of tool ${quote(name)} must have \`type: object\` at its root for protocol revisions before 2026-07-28; wrap the value in an object or generate for 2026-07-28 only`,
      });
      continue;
    }
    const mirrored = input ? mirroredHeaders(input.schema, what) : undefined;
    if (mirrored) diagnostics.push(...mirrored.problems);
    const task = taskOf(context, name, decl, pointer);
    if (!declared || !input || !mirrored || task === null || (decl.output !== undefined && !output)) continue;
    tools.push({
      ...declared,
      input,
      ...optional("output", output),
      ...optional("annotations", decl.annotations),
      inputHasDefaults: hasPropertyDefaults(input.schema.value),
      // Mirroring into Mcp-Param-* headers is part of the 2026-07-28 HTTP binding only.
      paramHeaders: revisions?.some((r) => hasFeature(r, "mirroredParamHeaders")) ? mirrored.headers : {},
      ...optional("task", task),
    });
  }
  return tools;
}

/**
 * A tool's `task:` with its `ttlMs` and `pollIntervalMs`; undefined when it declares none,
 * null when the declaration is wrong (reported): the timings without `task:`, or `task:`
 * where no generated revision has tasks (2025-11-25's experimental tasks, 2026-07-28's extension).
 */
function taskOf(
  context: Declarations,
  name: string,
  decl: ManifestTool,
  pointer: string,
): TaskModel | undefined | null {
  const { diagnostics, positions } = context;
  const support = decl.task;
  const timings = (["ttlMs", "pollIntervalMs"] as const).filter((key) => decl[key] !== undefined);
  if (support === undefined) {
    for (const key of timings) {
      diagnostics.push({
        location: positions.key(childPointer(pointer, key)),
        message: `${key} of tool ${quote(name)} applies to its tasks: declare \`task: optional\` or \`task: required\` too`,
      });
    }
    return timings.length > 0 ? null : undefined;
  }
  if (!context.supports(revisionFeatures.tasks[0])) {
    diagnostics.push({
      location: positions.key(childPointer(pointer, "task")),
      message: `tool ${quote(name)} declares task: but no generated protocol revision has tasks; add 2026-07-28 (the tasks extension) or 2025-11-25 (experimental tasks) to \`protocol\``,
    });
    return null;
  }
  return { support, ...optional("ttlMs", decl.ttlMs), ...optional("pollIntervalMs", decl.pollIntervalMs) };
}

/**
 * Why a tool name goes against the 2025-11-25 specification's advice (tool names SHOULD be
 * 1 to 128 characters of A-Z, a-z, 0-9, _, - and .), or undefined. Clients may refuse or
 * mangle other names, so the manifest is warned; --strict makes it an error. (The length is
 * checked with the manifest's shape, for every name.)
 */
export function toolNameWarning(name: string): string | undefined {
  if (/^[A-Za-z0-9_.-]*$/.test(name)) return undefined;
  const others = [...new Set([...name].filter((c) => !/[A-Za-z0-9_.-]/.test(c)))];
  const which = `${others.length === 1 ? "a character" : "characters"} outside A-Z a-z 0-9 _ - . (${others.map((c) => quote(c)).join(", ")})`;
  return `tool name ${quote(name)} has ${which}; since protocol 2025-11-25 tool names should be 1 to 128 of those characters, and clients may refuse others`;
}

function defaultInput(pointer: string, positions: PositionIndex): SchemaModel {
  const value: JsonValue = { type: "object", properties: {} };
  return {
    dialect: "2020-12",
    schema: { value, pointer: childPointer(pointer, "input"), locate: () => positions.key(pointer), files: [] },
    // An empty object schema: no problems, no $ref.
    analysis: { problems: [], refTargets: new Map(), rootReferenced: false },
  };
}

/** True when an object schema (following properties and allOf) declares a default for some property. */
function hasPropertyDefaults(schema: unknown): boolean {
  if (!isJsonObject(schema)) return false;
  const { properties, allOf } = schema;
  const hasDefault = (child: unknown) => isJsonObject(child) && ("default" in child || hasPropertyDefaults(child));
  if (isJsonObject(properties) && Object.values(properties).some(hasDefault)) return true;
  return Array.isArray(allOf) && allOf.some(hasPropertyDefaults);
}

/** Header names `x-mcp-header` may give (RFC 9110 token characters). */
const headerToken = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Argument types a client can mirror into a header; numbers are excluded by SEP-2243. */
const mirrorableTypes = new Set(["string", "integer", "boolean"]);

/**
 * The `x-mcp-header` declarations of a tool's input schema (2026-07-28 HTTP binding: the
 * argument is mirrored into an `Mcp-Param-<name>` header), argument → header name. Clients
 * must drop a tool whose declarations are invalid, so every such mistake is an error here.
 */
function mirroredHeaders(
  schema: ResolvedSchema,
  what: string,
): { headers: Record<string, string>; problems: Diagnostic[] } {
  const problems: Diagnostic[] = [];
  // Null-prototype: argument names are user data and may be "__proto__".
  const headers: Record<string, string> = Object.create(null);
  const properties = isJsonObject(schema.value) ? schema.value.properties : undefined;
  if (!isJsonObject(properties)) return { headers, problems };
  const seen = new Map<string, string>();
  for (const [argument, property] of Object.entries(properties)) {
    if (!isJsonObject(property) || !("x-mcp-header" in property)) continue;
    const name = property["x-mcp-header"];
    const at = schema.locate(childPointer(childPointer("/properties", argument), "x-mcp-header"));
    const type = property.type;
    if (typeof name !== "string" || !headerToken.test(name)) {
      problems.push({
        location: at,
        message: `x-mcp-header of argument ${quote(argument)} in the ${what} must be a non-empty header name of letters, digits and !#$%&'*+-.^_\`|~ (it becomes Mcp-Param-<name>)`,
      });
    } else if (typeof type !== "string" || !mirrorableTypes.has(type)) {
      problems.push({
        location: at,
        message: `argument ${quote(argument)} in the ${what} has x-mcp-header but its type is ${typeof type === "string" ? quote(type) : "not declared"}; only string, integer and boolean arguments can be mirrored into a header`,
      });
    } else if (seen.has(name.toLowerCase())) {
      problems.push({
        location: at,
        message: `x-mcp-header ${quote(name)} of argument ${quote(argument)} in the ${what} is already used by argument ${quote(seen.get(name.toLowerCase())!)} (header names ignore case); give each argument its own header`,
      });
    } else {
      seen.set(name.toLowerCase(), argument);
      headers[argument] = name;
    }
  }
  return { headers, problems };
}
