// OpenAPI 3.1 schemas (the upgraded document's) to the JSON Schema of a tool's input or output:
// every `$ref` becomes a reference into the tool schema's own `$defs` (so recursive schemas stay
// references and become named recursive types), `readOnly` properties leave inputs and
// `writeOnly` ones leave outputs, and what JSON Schema cannot say (`discriminator`) is dropped
// with a warning naming its JSON pointer in the document.
import { createRequire } from "node:module";
import type { Ajv } from "ajv";
import { pascalCase } from "../../model/names.js";
import { plainlyAccepts } from "../../validate/schema-mistakes.js";
import { escapePointer, refPointer, resolvePointer, type ImportWarnings } from "./document.js";

export type Direction = "input" | "output";
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };
export type Schema = boolean | JsonObject;

const isObject = (value: unknown): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Keywords whose value is one schema, a list of schemas, or a map of schemas. */
const oneSchema = new Set([
  "items",
  "additionalProperties",
  "unevaluatedProperties",
  "unevaluatedItems",
  "contains",
  "propertyNames",
  "not",
  "if",
  "then",
  "else",
  "contentSchema",
]);
const schemaList = new Set(["allOf", "anyOf", "oneOf", "prefixItems"]);
const schemaMap = new Set(["properties", "patternProperties", "dependentSchemas", "$defs", "definitions"]);
/** OpenAPI-only keywords that say nothing about which JSON values are valid: dropped without a word. */
const documentationOnly = new Set(["xml", "externalDocs"]);

const compilesWithU = (source: string) => {
  try {
    new RegExp(source, "u");
    return true;
  } catch {
    return false;
  }
};

/**
 * A pattern as JSON Schema means it, an ECMAScript regular expression with the u flag, or
 * undefined when none is near: documents write escapes the u flag refuses (`\-`, `\#` outside a
 * character class), which mean the character itself and are dropped silently; Java's `\p\{C\}`
 * and script names without `Script=` (`\p{Han}`) are rewritten with a warning.
 */
export function patternForUnicode(source: string): { source: string; warn: boolean } | undefined {
  if (compilesWithU(source)) return { source, warn: false };
  let plain = "";
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    const next = source[i + 1];
    if (c === "\\" && next !== undefined) {
      const identity = !/[A-Za-z0-9]/.test(next) && !/[\^$\\.*+?()[\]{}|/]/.test(next);
      plain += identity && !(inClass && next === "-") ? next : c + next;
      i++;
      continue;
    }
    if (c === "[") inClass = true;
    else if (c === "]") inClass = false;
    plain += c;
  }
  if (compilesWithU(plain)) return { source: plain, warn: false };
  const rewritten = plain
    .replace(/\\([pP])\\\{(\w+)\\\}/g, "\\$1{$2}")
    .replace(/\\([pP])\{(\w+)\}/g, (whole, p: string, name: string) =>
      !compilesWithU(`\\p{${name}}`) && compilesWithU(`\\p{Script=${name}}`) ? `\\${p}{Script=${name}}` : whole,
    );
  return compilesWithU(rewritten) ? { source: rewritten, warn: true } : undefined;
}

const require = createRequire(import.meta.url);
let defaultsAjv: Ajv | undefined;
/**
 * Whether a schema without references accepts a value, judged as the generator judges defaults
 * (ajv, strict off, no formats); undefined when this cannot tell (references, or no compile).
 */
function acceptor(schema: JsonObject): ((value: Json | undefined) => boolean) | undefined {
  if (JSON.stringify(schema).includes('"$ref"')) return undefined;
  const { default: Ajv2020 } = require("ajv/dist/2020") as { default: new (options: object) => Ajv };
  defaultsAjv ??= new Ajv2020({ strict: false, validateFormats: false, validateSchema: false, addUsedSchema: false });
  try {
    const validate = defaultsAjv.compile(schema);
    return (value) => validate(value);
  } catch {
    return undefined;
  }
}

/**
 * Converts the schemas of one document. Names of `$defs` are global to the document (the
 * same component has the same name in every tool) and never depend on the order tools are
 * converted in: a component is named after its last pointer segment, and when two pointers
 * share that name, after as many trailing segments as make it unique among the document's.
 */
export class SchemaConverter {
  private readonly names = new Map<string, string>();
  private readonly taken = new Set<string>();

  constructor(
    private readonly document: unknown,
    private readonly warnings: ImportWarnings,
    componentPointers: readonly string[],
  ) {
    for (const pointer of [...componentPointers].sort()) this.nameOf(pointer);
  }

  /** The `$defs` name of the schema at a pointer of the document. */
  private nameOf(pointer: string): string {
    const known = this.names.get(pointer);
    if (known !== undefined) return known;
    const segments = pointer
      .split("/")
      .slice(1)
      .map((s) => s.replaceAll("~1", "/").replaceAll("~0", "~"));
    let name = "";
    for (let take = 1; take <= segments.length; take++) {
      const words = segments.slice(-take).join(" ");
      name = pascalCase(words);
      if (name === "" || /^[0-9]/.test(name)) name = `Schema${name}`;
      if (!this.taken.has(name)) break;
    }
    this.taken.add(name);
    this.names.set(pointer, name);
    return name;
  }

  /**
   * A conversion for one tool's input or output: every schema converted through it shares the
   * `$defs` that `withDefs` attaches to the root (in JSON Schema, `#/$defs/X` is resolved
   * against the root, so nested `$defs` would not be found).
   */
  session(direction: Direction): {
    convert(schema: unknown, pointer: string, inlineRoot?: boolean): Schema;
    withDefs(root: Schema): Schema;
  } {
    const context = { direction, pending: [] as string[], seen: new Set<string>() };
    const defs: JsonObject = {};
    return {
      convert: (schema, pointer, inlineRoot = false) => {
        let target = schema;
        let at = pointer;
        // A root `$ref` chain is followed to the schema it names (a tool's input and output are objects at the root).
        for (
          let hops = 0;
          inlineRoot &&
          isObject(target) &&
          typeof target.$ref === "string" &&
          Object.keys(target).length === 1 &&
          hops < 20;
          hops++
        ) {
          const resolved = this.resolve(target.$ref, at);
          if (resolved === undefined) break;
          at = resolved.pointer;
          target = resolved.value;
        }
        return this.convert(target, at, context);
      },
      withDefs: (root) => {
        while (context.pending.length > 0) {
          const at = context.pending.shift()!;
          defs[this.nameOf(at)] = this.convert(resolvePointer(this.document, at), at, context) as Json;
        }
        if (Object.keys(defs).length === 0) return root;
        const sorted = Object.fromEntries(Object.entries(defs).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
        return isObject(root) ? { ...root, $defs: sorted } : { allOf: [root], $defs: sorted };
      },
    };
  }

  /** The schema a local `$ref` names, or undefined (with a warning) when it names nothing. */
  resolve(ref: string, at: string): { pointer: string; value: unknown } | undefined {
    if (!ref.startsWith("#")) {
      this.warnings.add(
        at,
        `$ref ${JSON.stringify(ref)} was not bundled into the document; it is left out (any value accepted)`,
      );
      return undefined;
    }
    const pointer = refPointer(ref);
    const value = pointer === undefined ? undefined : resolvePointer(this.document, pointer);
    if (pointer === undefined || value === undefined) {
      this.warnings.add(
        at,
        `$ref ${JSON.stringify(ref)} points to nothing in the document; it is left out (any value accepted)`,
      );
      return undefined;
    }
    return { pointer, value };
  }

  private convert(
    schema: unknown,
    pointer: string,
    context: { direction: Direction; pending: string[]; seen: Set<string> },
  ): Schema {
    if (typeof schema === "boolean") return schema;
    if (!isObject(schema)) {
      this.warnings.add(pointer, "a schema that is neither an object nor a boolean is left out (any value accepted)");
      return true;
    }
    const result: JsonObject = {};
    for (const [key, value] of Object.entries(schema)) {
      const at = `${pointer}/${escapePointer(key)}`;
      if (key === "$ref" && typeof value === "string") {
        const resolved = this.resolve(value, at);
        if (resolved === undefined) continue;
        if (!context.seen.has(resolved.pointer)) {
          context.seen.add(resolved.pointer);
          context.pending.push(resolved.pointer);
        }
        result.$ref = `#/$defs/${this.nameOf(resolved.pointer)}`;
      } else if (key.startsWith("x-") || documentationOnly.has(key)) {
        continue;
      } else if (key === "discriminator") {
        this.warnings.add(
          at,
          "discriminator dropped: JSON Schema has no such keyword (the oneOf/anyOf beside it still validates)",
        );
      } else if (key === "nullable" || key === "example") {
        // OpenAPI 3.0 keywords the upgrade to 3.1 converts; left here only beside a $ref.
        if (key === "example") result.examples = [value];
      } else if (key === "pattern" && typeof value === "string") {
        const pattern = patternForUnicode(value);
        if (pattern === undefined)
          this.warnings.add(
            at,
            `pattern ${JSON.stringify(value)} is not a valid ECMAScript regular expression with the u flag, as JSON Schema requires; it is left out`,
          );
        else {
          if (pattern.warn)
            this.warnings.add(
              at,
              `pattern ${JSON.stringify(value)} rewritten for ECMAScript: ${JSON.stringify(pattern.source)}`,
            );
          result.pattern = pattern.source;
        }
      } else if (key === "type" && value === "file") {
        result.type = "string";
        result.contentEncoding = "base64";
      } else if (schemaMap.has(key) && isObject(value)) {
        const converted: JsonObject = {};
        for (const [name, sub] of Object.entries(value)) {
          if (key === "properties" && this.leavesOut(sub, context.direction)) continue;
          converted[name] = this.convert(sub, `${at}/${escapePointer(name)}`, context) as Json;
        }
        result[key] = converted;
      } else if (schemaList.has(key) && Array.isArray(value)) {
        result[key] = value.map((sub, i) => this.convert(sub, `${at}/${i}`, context) as Json);
      } else if (oneSchema.has(key) || (key === "items" && Array.isArray(value))) {
        result[key] = Array.isArray(value)
          ? value.map((sub, i) => this.convert(sub, `${at}/${i}`, context) as Json)
          : (this.convert(value, at, context) as Json);
      } else {
        result[key] = value as Json;
      }
    }
    // OpenAPI 3.0 ignores `nullable` beside a `$ref`, but documents (GitHub's) mean it and APIs
    // answer null there: the reference or null.
    if (schema.nullable === true && typeof result.$ref === "string") {
      const { $ref, ...rest } = result;
      return { ...rest, anyOf: [{ $ref }, { type: "null" }] };
    }
    // A 3.0 `nullable` enum (upgraded to a type with null) lists null as a value too: documents
    // mean null allowed (GitHub's answer null there), though the enum alone would refuse it.
    if (Array.isArray(result.type) && result.type.includes("null") && Array.isArray(result.enum))
      if (!result.enum.includes(null)) result.enum = [...result.enum, null];
    // `required` names only the properties that are still there.
    if (Array.isArray(result.required) && isObject(result.properties) && isObject(schema.properties)) {
      const properties = result.properties;
      const dropped = Object.keys(schema.properties).filter((name) => !(name in properties));
      if (dropped.length > 0)
        result.required = result.required.filter((name) => typeof name !== "string" || !dropped.includes(name));
    }
    if ("default" in result) this.fitDefault(result, `${pointer}/default`);
    return result;
  }

  /**
   * A default its own schema rejects (`"true"` for a boolean, `false` for a string) would stop
   * the generator: it is converted when a plain conversion makes it valid (the string of a
   * boolean or number, one value for a list), else left out, with a warning either way.
   */
  private fitDefault(schema: JsonObject, at: string): void {
    const { default: value, ...rest } = schema;
    if (value === undefined || plainlyAccepts(rest, value)) return;
    // With references inside, only the type is judged here, and lists are not guessed at.
    const exact = acceptor(rest);
    const { type } = rest;
    if (exact === undefined && type === undefined) return;
    const accepts =
      exact ?? ((v: Json | undefined) => v !== undefined && !Array.isArray(v) && plainlyAccepts({ type: type! }, v));
    if (exact === undefined ? plainlyAccepts({ type: type! }, value) : exact(value)) return;
    const candidates: Json[] = [];
    if (typeof value === "string") {
      if (value === "true" || value === "false") candidates.push(value === "true");
      if (value.trim() !== "" && Number.isFinite(Number(value))) candidates.push(Number(value));
    }
    for (const candidate of [...candidates]) candidates.push([candidate]);
    if (!Array.isArray(value) && !(typeof value === "string" && value === "")) candidates.push([value as Json]);
    const fitting = candidates.find((candidate) => accepts(candidate));
    if (fitting === undefined) {
      delete schema.default;
      this.warnings.add(at, `default ${JSON.stringify(value)} does not match its own schema; it is left out`);
    } else {
      schema.default = fitting;
      this.warnings.add(
        at,
        `default ${JSON.stringify(value)} does not match its own schema; ${JSON.stringify(fitting)} instead`,
      );
    }
  }

  /** Whether a property stays out of this direction: `readOnly` out of inputs, `writeOnly` out of outputs. */
  private leavesOut(property: unknown, direction: Direction): boolean {
    let target = property;
    // Through one `$ref`: `id: { $ref: '#/components/schemas/Id' }` where Id is readOnly.
    if (
      isObject(target) &&
      typeof target.$ref === "string" &&
      target.$ref.startsWith("#") &&
      target.readOnly === undefined &&
      target.writeOnly === undefined
    ) {
      target = resolvePointer(this.document, refPointer(target.$ref) ?? "#") ?? target;
    }
    if (!isObject(target)) return false;
    return direction === "input" ? target.readOnly === true : target.writeOnly === true;
  }
}
