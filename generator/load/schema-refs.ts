// Resolves `$ref`s that name files (JSON or YAML, relative to the manifest) inside a
// schema declared in the manifest, by inlining their targets. Clients receive tool
// schemas as self-contained JSON and cannot follow references to our files, so the
// result keeps only local refs ("#/…") written in the manifest itself, and the refs of
// recursive file schemas, whose targets move under the schema's own $defs.
//
// A `$ref` is a reference only where a schema stands: keywords that hold data (`const`,
// `default`, `enum`, `examples`, extensions `x-…`, unknown keywords) are copied as written,
// so a value that merely looks like a reference stays a value.
import { readFileSync } from "node:fs";
import { basename, dirname, extname, isAbsolute, relative, resolve, sep } from "node:path";
import { didYouMean, quote, type Diagnostic, type SourceLocation } from "../diagnostics.js";
import { parseSource } from "./parse.js";
import { childPointer, escapePointerToken, parentPointer, pointerTokens, resolvePointer, setOwn, type JsonValue, type PositionIndex } from "./source.js";

/** A schema from the manifest with its external references inlined. */
export interface ResolvedSchema {
  readonly value: JsonValue;
  /** Where the schema sits in the manifest, as a JSON pointer. */
  readonly pointer: string;
  /** Source location of a JSON pointer inside `value` (following inlined files). */
  readonly locate: (pointer: string) => SourceLocation;
  /** Source location of the key naming a JSON pointer inside `value` (a misspelt keyword, say). */
  readonly locateKey?: ((pointer: string) => SourceLocation) | undefined;
  /** Files that were read to build it (for fingerprints and watch mode). */
  readonly files: readonly string[];
}

interface Mount {
  readonly at: string;
  readonly positions: PositionIndex;
  readonly base: string;
}

export interface RefContext {
  /** Absolute folder of the manifest; references must stay inside it. */
  readonly root: string;
  /** How to show a path in messages (relative to the working directory). */
  readonly display: (absolute: string) => string;
  /** Parsed files, shared across all schemas of one manifest. */
  readonly cache: Map<string, { value: JsonValue; positions: PositionIndex } | undefined>;
  /** Schema objects still allowed to be copied out of files, for the whole manifest (see maxInlinedSchemas). */
  readonly budget: { left: number; reported?: boolean };
}

/**
 * Every $ref into a file is inlined, so a small file whose definitions each refer to the next
 * level several times over expands exponentially (ten refs per level: a million copies at six
 * levels, minutes and gigabytes downstream). Real schemas stay far below this many copies.
 */
export const maxInlinedSchemas = 100_000;

/** Keywords whose value is one schema, or a list of schemas. */
export const schemaKeywords: ReadonlySet<string> = new Set([
  "items", "additionalItems", "prefixItems", "allOf", "anyOf", "oneOf", "not", "if", "then", "else", "contains",
  "additionalProperties", "propertyNames", "unevaluatedItems", "unevaluatedProperties", "contentSchema",
]);

type SchemaObject = { [key: string]: JsonValue };

/**
 * Every schema object inside `root` (root included) with its pointer, each once, depth first
 * in source order. Only schema keywords lead to schemas: the values of every other keyword
 * (`const`, `default`, `enum`, `examples`, `x-…`, unknown ones) are data. Resolving and
 * checking a schema both need the list: it is made once per (never modified) root object.
 */
export function schemaObjects(root: JsonValue): readonly [string, SchemaObject][] {
  const known = root !== null && typeof root === "object" ? listed.get(root) : undefined;
  if (known) return known;
  const found: [string, SchemaObject][] = [];
  const visit = (node: JsonValue | undefined, pointer: string): void => {
    if (node === null || typeof node !== "object" || Array.isArray(node)) return;
    found.push([pointer, node]);
    for (const keyword in node) {
      const value = node[keyword]!;
      if (schemaKeywords.has(keyword)) {
        const at = childPointer(pointer, keyword);
        if (Array.isArray(value)) for (let i = 0; i < value.length; i++) visit(value[i], `${at}/${i}`);
        else visit(value, at);
      } else if (schemaMapKeywords.has(keyword) && value !== null && typeof value === "object" && !Array.isArray(value)) {
        const at = childPointer(pointer, keyword);
        for (const name in value) if (!(keyword === "dependencies" && Array.isArray(value[name]))) visit(value[name], childPointer(at, name));
      }
    }
  };
  visit(root, "");
  if (root !== null && typeof root === "object") listed.set(root, found);
  return found;
}

const listed = new WeakMap<object, readonly [string, SchemaObject][]>();

/** Whether some schema inside `schema` has a `$ref` to a file (one not starting with "#"), which resolving inlines. */
const namesFiles = (schema: JsonValue): boolean => schemaObjects(schema).some(([, node]) => typeof node.$ref === "string" && !isLocalRef(node.$ref));

/** A reference into the document that holds it: "#…", or "" (the document itself, as "#"). */
export const isLocalRef = (ref: string): boolean => ref.startsWith("#") || ref === "";

/** Keywords whose value maps names to schemas (draft-07 `dependencies` also to lists of names). */
export const schemaMapKeywords: ReadonlySet<string> = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies"]);

/** A file schema that refers to itself: it becomes a definition of the schema it is used in. */
interface Hoisted {
  /** Name under the root's $defs (or definitions). */
  readonly name: string;
  /** The definition, once built. */
  value?: JsonValue;
}

export function resolveSchema(
  value: JsonValue,
  pointer: string,
  manifest: { file: string; positions: PositionIndex },
  context: RefContext,
): { schema?: ResolvedSchema; diagnostics: Diagnostic[]; attempted: readonly string[] } {
  // A file schema that refers to itself (directly or through other files) cannot be
  // inlined. A pass that meets such a target again while inlining it reports it; the next
  // pass moves each one under the root's $defs and points every ref to it there: a named
  // recursive type, as if it had been written in the manifest. Each pass finds at least
  // one new target or ends, and there are only so many files.
  const root = value !== null && typeof value === "object" && !Array.isArray(value) ? value : undefined;
  const container = root && typeof root.$schema === "string" && /draft-07/.test(root.$schema) ? "definitions" : "$defs";
  const taken = new Set(root && root[container] && typeof root[container] === "object" ? Object.keys(root[container]) : []);
  const hoisted = new Map<string, Hoisted>();
  for (;;) {
    for (const definition of hoisted.values()) delete definition.value;
    const pass = resolveOnce(value, pointer, manifest, context, hoisted, container);
    if (pass.recursive.size === 0 || pass.diagnostics.length > 0) return { ...(pass.schema ? { schema: pass.schema } : {}), diagnostics: pass.diagnostics, attempted: pass.attempted };
    for (const [key, at] of pass.recursive) {
      const hash = key.indexOf("#");
      const file = key.slice(0, hash);
      const fragment = key.slice(hash + 1);
      const base = basename(file, extname(file));
      const last = pointerTokens(fragment).pop() ?? "";
      const candidates = fragment === "" ? [base, `${basename(dirname(file))}-${base}`] : [last, `${base}-${last}`];
      const name = candidates.find((c) => c !== "" && !taken.has(c));
      if (!root || name === undefined || hoisted.has(key)) {
        const shown = quote(context.display(file) + (fragment ? `#${fragment}` : ""));
        return {
          diagnostics: [
            {
              location: at,
              message: !root
                ? `the recursive schema ${shown} must be referenced from inside a schema object (e.g. under properties), where it can become a definition`
                : `the recursive schema ${shown} moves under ${container} of this schema, but its names ${candidates.map(quote).join(" and ")} are taken (by the schema's own definitions or another recursive file); rename one of them`,
            },
          ],
          attempted: pass.attempted,
        };
      }
      taken.add(name);
      hoisted.set(key, { name });
    }
  }
}

function resolveOnce(
  value: JsonValue,
  pointer: string,
  manifest: { file: string; positions: PositionIndex },
  context: RefContext,
  hoisted: ReadonlyMap<string, Hoisted>,
  container = "$defs",
): { schema?: ResolvedSchema; diagnostics: Diagnostic[]; recursive: Map<string, SourceLocation>; attempted: readonly string[] } {
  const diagnostics: Diagnostic[] = [];
  const mounts: Mount[] = [{ at: "", positions: manifest.positions, base: pointer }];
  const files = new Set<string>();
  /** Every file read or tried, also those that could not be read (watch mode waits for them). */
  const attempted = new Set<string>();
  /** Targets reached again while being inlined, with where the cycle closes. */
  const recursive = new Map<string, SourceLocation>();
  // A file referenced as the whole schema (`output: { $ref: ./x.json }`) becomes the root:
  // its own "#/…" references stay valid as written, so they stay references (and become
  // named types) instead of being inlined.
  let rootFile: string | undefined;
  /** The manifest's $ref being expanded: where an expansion that grows too large is reported. */
  let expanding: SourceLocation | undefined;

  const load = (absolute: string, at: SourceLocation) => {
    attempted.add(absolute);
    if (!context.cache.has(absolute)) {
      let text: string;
      try {
        text = readFileSync(absolute, "utf8");
      } catch {
        diagnostics.push({ location: at, message: `$ref names ${quote(context.display(absolute))}, which cannot be read; check the path (it is relative to the file that contains the $ref)` });
        context.cache.set(absolute, undefined);
        return undefined;
      }
      const parsed = parseSource(context.display(absolute), text);
      diagnostics.push(...parsed.diagnostics);
      context.cache.set(absolute, parsed.source ? { value: parsed.source.value, positions: parsed.source.positions } : undefined);
    }
    files.add(absolute);
    return context.cache.get(absolute);
  };

  type Doc = { file: string; value: JsonValue } | undefined;

  /** A keyword's value at a schema position: one schema, or a list of them. */
  const visitSchemas = (node: JsonValue, outPointer: string, doc: Doc, docPointer: string, locate: (p: string) => SourceLocation, stack: readonly string[]): JsonValue =>
    Array.isArray(node) ? node.map((item, i) => visit(item, childPointer(outPointer, i), doc, childPointer(docPointer, i), locate, stack)) : visit(node, outPointer, doc, docPointer, locate, stack);

  /**
   * Copies the schema `node` (found in `doc` at `docPointer`) to `outPointer`, inlining references.
   * `doc` is undefined for the manifest, whose local refs stay as written.
   */
  const visit = (node: JsonValue, outPointer: string, doc: Doc, docPointer: string, locate: (p: string) => SourceLocation, stack: readonly string[]): JsonValue => {
    if (node === null || typeof node !== "object" || Array.isArray(node)) return node;
    if (doc !== undefined && --context.budget.left < 0) {
      if (!context.budget.reported) {
        context.budget.reported = true;
        const message = `the $refs of this schema expand to more than ${maxInlinedSchemas.toLocaleString("en-US")} schema objects copied from files (definitions that refer to each other many times over); mcp-gen inlines every $ref into a file, so refer to those definitions fewer times, or give the schema the file as a whole ({ $ref: ./file.json }), whose own "#/…" refs stay references`;
        diagnostics.push({ location: expanding ?? locate(docPointer), message });
      }
      return {};
    }
    const ref = node.$ref;
    const keepsLocalRefs = doc === undefined || doc.file === rootFile;
    if (typeof ref === "string" && !(keepsLocalRefs && isLocalRef(ref))) {
      const refAt = locate(childPointer(docPointer, "$ref"));
      if (doc === undefined) expanding = refAt;
      const hash = ref.indexOf("#");
      const filePart = hash < 0 ? ref : ref.slice(0, hash);
      let fragment: string;
      try {
        fragment = hash < 0 ? "" : decodeURIComponent(ref.slice(hash + 1));
      } catch {
        diagnostics.push({ location: refAt, message: `$ref ${quote(ref)} has a fragment that is not valid percent-encoding; use the form file.json#/$defs/Name` });
        return {};
      }
      if (/^[a-z][a-z0-9+.-]*:/i.test(filePart)) {
        diagnostics.push({ location: refAt, message: `$ref ${quote(ref)} points to a URL; mcp-gen never fetches schemas from the network, so save it as a file next to the manifest and reference that` });
        return {};
      }
      if (fragment !== "" && !fragment.startsWith("/")) {
        diagnostics.push({ location: refAt, message: `$ref ${quote(ref)} has a fragment that is not a JSON pointer; use the form file.json#/$defs/Name` });
        return {};
      }
      let target: { file: string; value: JsonValue; positions: PositionIndex } | undefined;
      if (filePart === "") {
        // A local ref inside an inlined file: it points into that same file.
        const cached = context.cache.get(doc!.file);
        target = cached ? { file: doc!.file, ...cached } : undefined;
      } else {
        const from = doc ? dirname(doc.file) : context.root;
        const absolute = resolve(from, filePart);
        const rel = relative(context.root, absolute);
        if (rel.startsWith(`..${sep}`) || rel === ".." || isAbsolute(rel)) {
          diagnostics.push({ location: refAt, message: `$ref ${quote(ref)} leaves the manifest's folder ${quote(context.display(context.root))}; move the schema into that folder (or one below it) and reference it from there` });
          return {};
        }
        const loaded = load(absolute, refAt);
        if (!loaded) return {};
        target = { file: absolute, ...loaded };
      }
      if (!target) return {};
      const key = `${target.file}#${fragment}`;
      const found = resolvePointer(target.value, fragment);
      if (found === undefined) {
        const parent = resolvePointer(target.value, parentPointer(fragment));
        const keys = parent && typeof parent === "object" && !Array.isArray(parent) ? Object.keys(parent) : [];
        const suggestion = didYouMean(pointerTokens(fragment).pop() ?? "", keys);
        const fix = suggestion ? `did you mean ${quote(childPointer(parentPointer(fragment), suggestion))}?` : "point the fragment at a definition that exists";
        diagnostics.push({ location: refAt, message: `$ref ${quote(ref)}: ${quote(context.display(target.file))} has nothing at ${quote(fragment || "/")}; ${fix}` });
        return {};
      }
      const siblings = Object.keys(node).filter((k) => k !== "$ref");
      const targetPositions = target.positions;
      const definition = hoisted.get(key);
      let inlined: JsonValue;
      if (target.file === rootFile && outPointer !== "") {
        // Back into the file that is the whole schema: its places keep their pointers.
        inlined = { $ref: `#${fragment.replace(/%/g, "%25")}` };
      } else if (definition) {
        // A recursive target: refer to its definition, built once.
        if (definition.value === undefined) {
          const at = childPointer(childPointer("", container), definition.name);
          definition.value = {};
          mounts.push({ at, positions: targetPositions, base: fragment });
          definition.value = visit(found, at, { file: target.file, value: target.value }, fragment, (p) => targetPositions.value(p), [key]);
        }
        inlined = { $ref: `#/${container}/${escapePointerToken(definition.name)}` };
      } else {
        if (stack.includes(key)) {
          if (!recursive.has(key)) recursive.set(key, refAt);
          return {};
        }
        mounts.push({ at: outPointer, positions: targetPositions, base: fragment });
        if (outPointer === "" && fragment === "" && siblings.length === 0 && doc === undefined) rootFile = target.file;
        inlined = visit(found, outPointer, { file: target.file, value: target.value }, fragment, (p) => targetPositions.value(p), [...stack, key]);
      }
      // Keywords next to $ref (a description, say) refine the referenced schema.
      if (siblings.length === 0 || inlined === null || typeof inlined !== "object" || Array.isArray(inlined)) return inlined;
      const merged: { [key: string]: JsonValue } = { ...inlined };
      for (const k of siblings) setOwn(merged, k, visitKeyword(k, node[k]!, childPointer(outPointer, k), doc, childPointer(docPointer, k), locate, stack));
      return merged;
    }
    const out: { [key: string]: JsonValue } = {};
    for (const [k, v] of Object.entries(node)) setOwn(out, k, visitKeyword(k, v, childPointer(outPointer, k), doc, childPointer(docPointer, k), locate, stack));
    return out;
  };

  /** The value of keyword `keyword` of a schema: schemas are visited, data is copied as written. */
  const visitKeyword = (keyword: string, value: JsonValue, outPointer: string, doc: Doc, docPointer: string, locate: (p: string) => SourceLocation, stack: readonly string[]): JsonValue => {
    if (schemaKeywords.has(keyword)) return visitSchemas(value, outPointer, doc, docPointer, locate, stack);
    if (schemaMapKeywords.has(keyword) && value !== null && typeof value === "object" && !Array.isArray(value)) {
      const out: { [key: string]: JsonValue } = {};
      // draft-07 `dependencies` maps to a schema or to a list of property names (data).
      for (const [name, child] of Object.entries(value)) {
        setOwn(out, name, keyword === "dependencies" && Array.isArray(child) ? child : visit(child, childPointer(outPointer, name), doc, childPointer(docPointer, name), locate, stack));
      }
      return out;
    }
    return value;
  };

  // Most schemas name no file: nothing to inline, so they stand as written (not copied).
  const resolved = namesFiles(value) ? visit(value, "", undefined, pointer, (p) => manifest.positions.value(p), []) : value;
  if (diagnostics.length > 0 || recursive.size > 0) return { diagnostics, recursive, attempted: [...attempted] };
  let result = resolved;
  if (hoisted.size > 0 && resolved !== null && typeof resolved === "object" && !Array.isArray(resolved)) {
    const existing = resolved[container];
    const defs: { [key: string]: JsonValue } = existing && typeof existing === "object" && !Array.isArray(existing) ? { ...existing } : {};
    for (const definition of [...hoisted.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      if (definition.value !== undefined) setOwn(defs, definition.name, definition.value);
    }
    result = { ...resolved, [container]: defs };
  }
  /** The value or key at `p` of the result, in the file it was copied from. */
  const located = (p: string, what: "value" | "key"): SourceLocation => {
    let best = mounts[0]!;
    for (const mount of mounts) if ((p === mount.at || p.startsWith(`${mount.at}/`)) && mount.at.length >= best.at.length) best = mount;
    return best.positions[what](best.base + p.slice(best.at.length));
  };
  const locate = (p: string) => located(p, "value");
  const locateKey = (p: string) => located(p, "key");
  return { schema: { value: result, pointer, locate, locateKey, files: [...files].sort() }, diagnostics, recursive, attempted: [...attempted] };
}
