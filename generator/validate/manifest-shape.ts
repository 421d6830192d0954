// Checks a manifest's shape against schema/manifest.schema.json (the same file editors
// use for completion) and turns ajv's errors into `file:line:col` diagnostics with hints.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { ErrorObject, ValidateFunction } from "ajv";
import { didYouMean, quote, type Diagnostic } from "../diagnostics.js";
import { isRevisionName, knownRevisions, packageRoot } from "../load/revisions.js";
import { cachedValidator } from "./ajv-cache.js";
import { intactManifest, type IntactManifest } from "../manifest.js";
import { childPointer, pointerTokens, resolvePointer, type JsonValue, type PositionIndex } from "../load/source.js";

let validator: ValidateFunction | undefined;

const manifestSchemaText = () => readFileSync(join(packageRoot(), "schema", "manifest.schema.json"), "utf8");

export function manifestJsonSchema(): Record<string, unknown> {
  return JSON.parse(manifestSchemaText()) as Record<string, unknown>;
}

const definitionKeys = new Map<string, ReadonlySet<string>>();

/** The keys a definition of the manifest schema takes ("tool": identifier, asks, input, …). */
export function manifestKeys(definition: string): ReadonlySet<string> {
  let keys = definitionKeys.get(definition);
  if (!keys) {
    const definitions = manifestJsonSchema().definitions as Record<string, { properties?: object }>;
    keys = new Set(Object.keys(definitions[definition]?.properties ?? {}));
    definitionKeys.set(definition, keys);
  }
  return keys;
}

/** The manifest schema's validator (read from the build's seed, or compiled, once per process); `seedInto`: see cachedValidator. */
export function compiledValidator(seedInto?: string): ValidateFunction {
  if (!validator || seedInto !== undefined) {
    const text = manifestSchemaText();
    validator = cachedValidator(
      "draft-07",
      { allErrors: true, verbose: true, strict: false },
      text,
      (ajv) => ajv.compile(JSON.parse(text) as object),
      seedInto,
    );
  }
  return validator;
}

/** Top-level sections whose entries are independent declarations: a broken entry leaves the others intact. */
const entrySections = new Set(["tools", "resources", "resourceTemplates", "prompts", "elicitations", "apps"]);

/**
 * The part of the manifest an error makes unusable: one entry of a declaration section
 * (`/tools/x`), a whole top-level section (`/auth`), or the manifest itself ("").
 */
function brokenPart(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  let tokens = pointerTokens(error.instancePath);
  if (error.keyword === "additionalProperties") tokens = [...tokens, String(params.additionalProperty)];
  else if (error.propertyName !== undefined) tokens = [...tokens, error.propertyName];
  else if (error.keyword === "propertyNames") tokens = [...tokens, String(params.propertyName)];
  else if (error.keyword === "required" && tokens.length === 0) tokens = [String(params.missingProperty)];
  const [section, entry] = tokens;
  if (section === undefined) return "";
  if (entrySections.has(section) && entry !== undefined) return childPointer(childPointer("", section), entry);
  return childPointer("", section);
}

export interface ShapeCheck {
  readonly diagnostics: Diagnostic[];
  /** JSON pointers of the parts with shape errors (see brokenPart); later phases skip them. */
  readonly broken: ReadonlySet<string>;
  /** The manifest typed, without its broken parts; undefined when it is broken as a whole. */
  readonly manifest: IntactManifest | undefined;
}

export function checkManifestShape(value: JsonValue, positions: PositionIndex): ShapeCheck {
  const validate = compiledValidator();
  if (validate(value)) return { diagnostics: [], broken: new Set(), manifest: intactManifest(value, new Set()) };
  const errors = validate.errors ?? [];
  const broken = new Set(errors.map(brokenPart));
  // A failed oneOf/anyOf reports each branch's complaint too; keep one clear message
  // for the alternative instead of a list of contradictions.
  const alternatives = errors.filter((e) => e.keyword === "oneOf" || e.keyword === "anyOf").map((e) => e.instancePath);
  const diagnostics: Diagnostic[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    if (
      error.keyword !== "oneOf" &&
      error.keyword !== "anyOf" &&
      alternatives.some((p) => isWithin(error.instancePath, p))
    )
      continue;
    if (error.keyword === "if") continue;
    // A key that breaks propertyNames also fails the name schema's own keywords; the propertyNames error says it better.
    if (error.propertyName !== undefined && error.keyword !== "propertyNames") continue;
    const diagnostic = describe(error, value, positions);
    const key = `${diagnostic.location.file}:${"line" in diagnostic.location ? diagnostic.location.line : 0}:${diagnostic.message}`;
    if (!seen.has(key)) {
      seen.add(key);
      diagnostics.push(diagnostic);
    }
  }
  return { diagnostics, broken, manifest: intactManifest(value, broken) };
}

function isWithin(path: string, ancestor: string): boolean {
  return path === ancestor || path.startsWith(`${ancestor}/`);
}

/** What a value is, in the user's terms; `written` is its source text (YAML reads `1.0` as the integer 1). */
function jsonType(value: unknown, written?: string): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "a mapping";
  if (typeof value === "number")
    return Number.isInteger(value) && !/[.eE]/.test(written ?? "") ? "an integer" : "a number";
  return `a ${typeof value}`;
}

/** An allowed value as listed in a message; the empty string would be invisible. */
const listed = (value: unknown) => (value === "" ? '""' : String(value));

const article: Record<string, string> = {
  string: "a string",
  number: "a number",
  integer: "an integer",
  boolean: "true or false",
  object: "a mapping",
  array: "a list",
  null: "empty",
};

function lastToken(pointer: string): string {
  return pointer
    .slice(pointer.lastIndexOf("/") + 1)
    .replace(/~1/g, "/")
    .replace(/~0/g, "~");
}

/** How a message names the value at `path`: its key, or for a list item its position in the list. */
function displayName(path: string): string {
  const token = lastToken(path);
  if (!/^\d+$/.test(token)) return quote(token);
  const parent = path.slice(0, path.lastIndexOf("/"));
  return `item ${Number(token) + 1} of ${parent === "" ? "the manifest" : quote(lastToken(parent))}`;
}

/** One schema error, with the value it is about and how messages name it. */
interface FailedValue {
  readonly error: ErrorObject;
  readonly path: string;
  readonly here: JsonValue | undefined;
  readonly name: string;
  readonly params: Record<string, unknown>;
  readonly positions: PositionIndex;
}

function describe(error: ErrorObject, root: JsonValue, positions: PositionIndex): Diagnostic {
  const path = error.instancePath;
  const here = resolvePointer(root, path);
  const name = path === "" ? "the manifest" : displayName(path);
  const params = error.params as Record<string, unknown>;
  const at: FailedValue = { error, path, here, name, params, positions };
  if (path === "") {
    if (here === null)
      return {
        location: positions.value(path),
        message: "the manifest is empty; start it with `mcpgen: 1` and a `server:` with name and version",
      };
  }
  switch (error.keyword) {
    case "additionalProperties":
      return unknownKey(at);
    case "required": {
      const key = String(params.missingProperty);
      const where = path === "" ? "the manifest" : name;
      const hint = key === "mcpgen" ? " (start the file with `mcpgen: 1`)" : "";
      return { location: positions.key(path), message: `${where} is missing required key ${quote(key)}${hint}` };
    }
    case "type":
      return wrongType(at);
    case "const":
      return { location: positions.value(path), message: `${name} must be ${JSON.stringify(params.allowedValue)}` };
    case "enum":
      return notAllowed(at);
    case "minLength":
      return { location: positions.value(path), message: `${name} must not be empty` };
    case "maxLength":
      return { location: positions.value(path), message: `${name} must be at most ${String(params.limit)} characters` };
    case "minItems":
      return {
        location: positions.value(path),
        message: `${name} must list at least ${String(params.limit)} item${params.limit === 1 ? "" : "s"}`,
      };
    case "uniqueItems":
      return {
        location: positions.value(path),
        message: `${name} lists the same value twice (items ${String(params.j)} and ${String(params.i)})`,
      };
    case "minimum":
    case "maximum":
      return {
        location: positions.value(path),
        message: `${name} must be ${error.keyword === "minimum" ? ">=" : "<="} ${String(params.limit)}`,
      };
    case "pattern":
      return { location: positions.value(path), message: patternMessage(at) };
    case "propertyNames":
      return invalidName(at);
    case "oneOf":
    case "anyOf": {
      const described = (error.parentSchema as { description?: string } | undefined)?.description;
      if (path === "/protocol") return describeProtocol(here, positions);
      return {
        location: positions.value(path),
        message: `${name} has an invalid form${described ? `: ${described}` : ""}`,
      };
    }
    default:
      return { location: positions.value(path), message: `${name} ${error.message ?? "is invalid"}` };
  }
}

/** A key the schema does not know, with the nearest known one or the list of them. */
function unknownKey({ error, path, params, positions }: FailedValue): Diagnostic {
  const key = String(params.additionalProperty);
  const known = Object.keys((error.parentSchema as { properties?: object } | undefined)?.properties ?? {});
  const suggestion = didYouMean(key, known);
  const hint = suggestion
    ? ` (did you mean ${quote(suggestion)}?)`
    : known.length > 0
      ? `; expected one of: ${known.join(", ")}`
      : "";
  return { location: positions.key(childPointer(path, key)), message: `unknown key ${quote(key)}${hint}` };
}

/** A value of the wrong JSON type; a number where a string belongs gets a hint to quote it. */
function wrongType({ path, here, name, params, positions }: FailedValue): Diagnostic {
  const expected = String(params.type)
    .split(",")
    .map((t) => article[t] ?? t)
    .join(" or ");
  const written = positions.source(path);
  const hint =
    typeof here === "number" && String(params.type).includes("string")
      ? `; quote it: "${written ?? String(here)}"`
      : "";
  return {
    location: positions.value(path),
    message: `${name} must be ${expected}, not ${jsonType(here, written)}${hint}`,
  };
}

/** A value outside an enum, with the nearest allowed one. */
function notAllowed({ path, here, name, params, positions }: FailedValue): Diagnostic {
  const allowed = (params.allowedValues as unknown[]).map((v) => String(v));
  const suggestion = typeof here === "string" ? didYouMean(here, allowed) : undefined;
  const hint = suggestion ? ` (did you mean ${quote(suggestion)}?)` : "";
  return {
    location: positions.value(path),
    message: `${name} must be one of: ${allowed.map(listed).join(", ")}${hint}`,
  };
}

/** A pattern mismatch in the words of what the pattern stands for, where the manifest has a name for it. */
function patternMessage({ path, name, params }: FailedValue): string {
  if (lastToken(path) === "identifier")
    return `${name} must be a JavaScript identifier (letters, digits, _ or $, not starting with a digit)`;
  if (lastToken(path) === "env" && path.startsWith("/settings/"))
    return `${name} must be an environment variable name: letters, digits and _, not starting with a digit`;
  if (/scopes|Scopes/.test(path.split("/").slice(-2, -1)[0] ?? ""))
    return `${name} is not an OAuth scope name: printable ASCII without spaces, double quotes or backslashes (RFC 6749)`;
  return `${name} must match ${String(params.pattern)}`;
}

/** A key of a map that is not a valid name for what the map holds. */
function invalidName({ path, params, positions }: FailedValue): Diagnostic {
  const key = String(params.propertyName);
  if (path === "/settings")
    return {
      location: positions.key(childPointer(path, key)),
      message: `${quote(key)} is not a valid setting name: a letter, then up to 63 letters, digits or _`,
    };
  return {
    location: positions.key(childPointer(path, key)),
    message: `${quote(key)} is not a valid name: it must be 1 to 128 characters`,
  };
}

/** `protocol` is a revision or a list of them; say which entry is wrong rather than that the whole value is. */
function describeProtocol(value: JsonValue | undefined, positions: PositionIndex): Diagnostic {
  const revisions = [...knownRevisions().keys()];
  const known = revisions.join(", ");
  const unknown = (revision: JsonValue | undefined, pointer: string): Diagnostic => {
    const suggestion = typeof revision === "string" ? didYouMean(revision, revisions) : undefined;
    return {
      location: positions.value(pointer),
      message: `${typeof revision === "string" ? quote(revision) : jsonType(revision, positions.source(pointer))} is not a released protocol revision; use one of: ${known}${suggestion ? ` (did you mean ${quote(suggestion)}?)` : ""}`,
    };
  };
  if (!Array.isArray(value)) {
    if (typeof value === "string") return unknown(value, "/protocol");
    return {
      location: positions.value("/protocol"),
      message: `protocol must be a revision or a list of revisions (${known}), not ${jsonType(value)}`,
    };
  }
  if (value.length === 0)
    return {
      location: positions.value("/protocol"),
      message: `protocol must list at least one revision (${known}), or be left out to generate for all of them`,
    };
  const seen = new Set<string>();
  for (const [i, item] of value.entries()) {
    const pointer = childPointer("/protocol", i);
    if (typeof item !== "string" || !isRevisionName(item)) return unknown(item, pointer);
    if (seen.has(item))
      return { location: positions.value(pointer), message: `protocol lists ${item} twice; list each revision once` };
    seen.add(item);
  }
  return {
    location: positions.value("/protocol"),
    message: `protocol must be a revision or a list of revisions (${known})`,
  };
}
