// Checks user-declared JSON Schemas against their dialect's meta-schema (ajv, at
// generation time only) and the protocol's rules for where they are used.
import { Ajv, type ErrorObject } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import { didYouMean, quote, type Diagnostic } from "../diagnostics.js";
import type { ResolvedSchema } from "../load/schema-refs.js";
import { childPointer, type JsonValue } from "../load/source.js";
import type { Dialect } from "../load/revisions.js";

let draft07: Ajv | undefined;
let draft2020: Ajv2020 | undefined;

/** The dialect a schema declares with $schema; 2020-12 when it declares none (as MCP specifies). */
export function schemaDialect(schema: unknown): Dialect | { unsupported: string } {
  const declared = schema && typeof schema === "object" ? (schema as Record<string, unknown>).$schema : undefined;
  if (declared === undefined) return "2020-12";
  if (typeof declared === "string") {
    if (/json-schema\.org\/draft\/2020-12\/schema#?$/.test(declared)) return "2020-12";
    if (/json-schema\.org\/draft-07\/schema#?$/.test(declared)) return "draft-07";
  }
  return { unsupported: String(declared) };
}

function ajvFor(dialect: Dialect): Ajv | Ajv2020 {
  if (dialect === "draft-07") return (draft07 ??= new Ajv({ strict: false, allErrors: true, validateFormats: false, verbose: true }));
  return (draft2020 ??= new Ajv2020({ strict: false, allErrors: true, validateFormats: false, verbose: true }));
}

/** JSON pointer of the first `key` (depth first, in source order) whose value is `wanted`, or undefined. */
function findKeyword(value: JsonValue, key: string, wanted: string, pointer = ""): string | undefined {
  if (value === null || typeof value !== "object") return undefined;
  if (!Array.isArray(value) && value[key] === wanted) return childPointer(pointer, key);
  for (const [k, v] of Object.entries(value)) {
    const found = findKeyword(v, key, wanted, childPointer(pointer, k));
    if (found !== undefined) return found;
  }
  return undefined;
}

function describe(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "type":
      return `must be ${String(params.type).replace(",", " or ")}`;
    case "enum": {
      const allowed = (params.allowedValues as unknown[]).map((v) => JSON.stringify(v));
      const suggestion = typeof error.data === "string" ? didYouMean(error.data, (params.allowedValues as unknown[]).map(String)) : undefined;
      return `must be one of: ${allowed.join(", ")}${suggestion ? ` (did you mean ${quote(suggestion)}?)` : ""}`;
    }
    default:
      return error.message ?? "is invalid";
  }
}

/** Meta-schema problems of `schema`, located at the offending keyword. `what` names it: "input schema of tool get_forecast". */
export function checkJsonSchema(schema: ResolvedSchema, what: string): { dialect?: Dialect; diagnostics: Diagnostic[] } {
  const dialect = schemaDialect(schema.value);
  if (typeof dialect === "object") {
    return {
      diagnostics: [
        {
          location: schema.locate("/$schema"),
          message: `${what} declares $schema ${JSON.stringify(dialect.unsupported)}; mcp-gen supports JSON Schema 2020-12 (the default) and draft-07`,
        },
      ],
    };
  }
  const ajv = ajvFor(dialect);
  if (!ajv.validateSchema(schema.value as object)) {
    // Report the deepest complaint per location; the meta-schema's own anyOf noise hides it otherwise.
    const errors = (ajv.errors ?? []).filter((e) => e.keyword !== "anyOf" && e.keyword !== "oneOf" && e.keyword !== "$dynamicRef");
    const byPath = new Map<string, ErrorObject>();
    for (const error of errors) if (!byPath.has(error.instancePath)) byPath.set(error.instancePath, error);
    const diagnostics = [...byPath.values()].map((error) => ({
      location: schema.locate(error.instancePath),
      message: `${what} is not a valid JSON Schema ${dialect}: ${error.instancePath || "/"} ${describe(error)}`,
    }));
    if (diagnostics.length > 0) return { diagnostics };
  }
  try {
    ajv.compile(schema.value as object);
  } catch (error) {
    const message = (error as Error).message.split("\n")[0] ?? "";
    const ref = /can't resolve reference (\S+)/.exec(message)?.[1];
    if (ref) {
      return {
        diagnostics: [
          {
            location: schema.locate(findKeyword(schema.value, "$ref", ref) ?? ""),
            message: `${what} has a $ref ${JSON.stringify(ref)} that does not resolve inside the schema; point it at an existing "#/$defs/…" entry`,
          },
        ],
      };
    }
    const regex = /^Invalid regular expression: \/(.*)\/[a-z]*: (.*)$/s.exec(message);
    if (regex) {
      return {
        diagnostics: [
          {
            location: schema.locate(findKeyword(schema.value, "pattern", regex[1]!) ?? ""),
            message: `${what} has the pattern ${JSON.stringify(regex[1])}, which is not a valid regular expression (${regex[2]}); fix it using JavaScript regular expression syntax`,
          },
        ],
      };
    }
    return { diagnostics: [{ location: schema.locate(""), message: `${what} cannot be compiled: ${message}` }] };
  }
  return { dialect, diagnostics: [] };
}

/** The schema's root `type` when it is the single type "object". */
export function isObjectSchema(schema: unknown): boolean {
  return !!schema && typeof schema === "object" && (schema as Record<string, unknown>).type === "object";
}
