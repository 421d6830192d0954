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
import {
  childPointer,
  escapePointerToken,
  parentPointer,
  pointerTokens,
  resolvePointer,
  setOwn,
  type JsonValue,
  type PositionIndex,
} from "./source.js";

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
  "items",
  "additionalItems",
  "prefixItems",
  "allOf",
  "anyOf",
  "oneOf",
  "not",
  "if",
  "then",
  "else",
  "contains",
  "additionalProperties",
  "propertyNames",
  "unevaluatedItems",
  "unevaluatedProperties",
  "contentSchema",
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
      } else if (
        schemaMapKeywords.has(keyword) &&
        value !== null &&
        typeof value === "object" &&
        !Array.isArray(value)
      ) {
        const at = childPointer(pointer, keyword);
        for (const name in value)
          if (!(keyword === "dependencies" && Array.isArray(value[name]))) visit(value[name], childPointer(at, name));
      }
    }
  };
  visit(root, "");
  if (root !== null && typeof root === "object") listed.set(root, found);
  return found;
}

const listed = new WeakMap<object, readonly [string, SchemaObject][]>();

/** Whether some schema inside `schema` has a `$ref` to a file (one not starting with "#"), which resolving inlines. */
const namesFiles = (schema: JsonValue): boolean =>
  schemaObjects(schema).some(([, node]) => typeof node.$ref === "string" && !isLocalRef(node.$ref));

/** A reference into the document that holds it: "#…", or "" (the document itself, as "#"). */
export const isLocalRef = (ref: string): boolean => ref.startsWith("#") || ref === "";

/** Keywords whose value maps names to schemas (draft-07 `dependencies` also to lists of names). */
export const schemaMapKeywords: ReadonlySet<string> = new Set([
  "properties",
  "patternProperties",
  "$defs",
  "definitions",
  "dependentSchemas",
  "dependencies",
]);

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
  const taken = new Set(
    root && root[container] && typeof root[container] === "object" ? Object.keys(root[container]) : [],
  );
  const hoisted = new Map<string, Hoisted>();
  for (;;) {
    for (const definition of hoisted.values()) delete definition.value;
    const pass = resolveOnce(value, pointer, manifest, context, hoisted, container);
    if (pass.recursive.size === 0 || pass.diagnostics.length > 0)
      return {
        ...(pass.schema ? { schema: pass.schema } : {}),
        diagnostics: pass.diagnostics,
        attempted: pass.attempted,
      };
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

/** What one pass of resolveSchema finds: the schema, or the problems and the recursive targets to hoist. */
interface Pass {
  readonly schema?: ResolvedSchema;
  readonly diagnostics: Diagnostic[];
  /** Targets reached again while being inlined, with where the cycle closes. */
  readonly recursive: Map<string, SourceLocation>;
  /** Every file read or tried, also those that could not be read (watch mode waits for them). */
  readonly attempted: readonly string[];
}

function resolveOnce(
  value: JsonValue,
  pointer: string,
  manifest: { file: string; positions: PositionIndex },
  context: RefContext,
  hoisted: ReadonlyMap<string, Hoisted>,
  container = "$defs",
): Pass {
  const pass = new InliningPass(context, hoisted, container, { at: "", positions: manifest.positions, base: pointer });
  // Most schemas name no file: nothing to inline, so they stand as written (not copied).
  const resolved = namesFiles(value)
    ? pass.visit(value, "", undefined, pointer, (p) => manifest.positions.value(p), [])
    : value;
  const { diagnostics, recursive } = pass;
  const attempted = [...pass.attempted];
  if (diagnostics.length > 0 || recursive.size > 0) return { diagnostics, recursive, attempted };
  const located = locator(pass.mounts);
  const locate = (p: string) => located(p, "value");
  const locateKey = (p: string) => located(p, "key");
  const schema = {
    value: withHoisted(resolved, hoisted, container),
    pointer,
    locate,
    locateKey,
    files: [...pass.files].sort(),
  };
  return { schema, diagnostics, recursive, attempted };
}

/** The resolved schema with the definitions of its recursive file schemas under its `container`, sorted by name. */
function withHoisted(resolved: JsonValue, hoisted: ReadonlyMap<string, Hoisted>, container: string): JsonValue {
  if (hoisted.size === 0 || resolved === null || typeof resolved !== "object" || Array.isArray(resolved))
    return resolved;
  const existing = resolved[container];
  const defs: { [key: string]: JsonValue } =
    existing && typeof existing === "object" && !Array.isArray(existing) ? { ...existing } : {};
  for (const definition of [...hoisted.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    if (definition.value !== undefined) setOwn(defs, definition.name, definition.value);
  }
  return { ...resolved, [container]: defs };
}

/** The value or key at a pointer of the result, in the file it was copied from (the deepest mount holding it). */
function locator(mounts: readonly Mount[]): (p: string, what: "value" | "key") => SourceLocation {
  return (p, what) => {
    let best = mounts[0]!;
    for (const mount of mounts)
      if ((p === mount.at || p.startsWith(`${mount.at}/`)) && mount.at.length >= best.at.length) best = mount;
    return best.positions[what](best.base + p.slice(best.at.length));
  };
}

/** The document a schema is copied from: a file, or undefined for the manifest, whose local refs stay as written. */
type Doc = { file: string; value: JsonValue } | undefined;
type Locate = (pointer: string) => SourceLocation;
/** The file a `$ref` points into, parsed, and the JSON pointer inside it. */
type RefTarget = {
  readonly file: string;
  readonly value: JsonValue;
  readonly positions: PositionIndex;
  readonly fragment: string;
};

/** One pass over a schema, copying it with every `$ref` into a file inlined (see resolveSchema). */
class InliningPass {
  readonly diagnostics: Diagnostic[] = [];
  /** Where each copied part of the result comes from, for locating pointers of the result. */
  readonly mounts: Mount[];
  readonly files = new Set<string>();
  readonly attempted = new Set<string>();
  readonly recursive = new Map<string, SourceLocation>();
  // A file referenced as the whole schema (`output: { $ref: ./x.json }`) becomes the root:
  // its own "#/…" references stay valid as written, so they stay references (and become
  // named types) instead of being inlined.
  private rootFile: string | undefined;
  /** The manifest's $ref being expanded: where an expansion that grows too large is reported. */
  private expanding: SourceLocation | undefined;
  private readonly context: RefContext;
  private readonly hoisted: ReadonlyMap<string, Hoisted>;
  private readonly container: string;

  constructor(context: RefContext, hoisted: ReadonlyMap<string, Hoisted>, container: string, manifestMount: Mount) {
    this.context = context;
    this.hoisted = hoisted;
    this.container = container;
    this.mounts = [manifestMount];
  }

  /**
   * Copies the schema `node` (found in `doc` at `docPointer`) to `outPointer`, inlining references.
   * `doc` is undefined for the manifest, whose local refs stay as written.
   */
  visit(
    node: JsonValue,
    outPointer: string,
    doc: Doc,
    docPointer: string,
    locate: Locate,
    stack: readonly string[],
  ): JsonValue {
    if (node === null || typeof node !== "object" || Array.isArray(node)) return node;
    if (doc !== undefined && --this.context.budget.left < 0) {
      this.overBudget(locate(docPointer));
      return {};
    }
    const ref = node.$ref;
    const keepsLocalRefs = doc === undefined || doc.file === this.rootFile;
    if (typeof ref === "string" && !(keepsLocalRefs && isLocalRef(ref)))
      return this.inlineRef(node, ref, outPointer, doc, docPointer, locate, stack);
    const out: { [key: string]: JsonValue } = {};
    for (const [k, v] of Object.entries(node))
      setOwn(
        out,
        k,
        this.visitKeyword(k, v, childPointer(outPointer, k), doc, childPointer(docPointer, k), locate, stack),
      );
    return out;
  }

  /** Reports, once per manifest, that inlining has copied more than maxInlinedSchemas schema objects. */
  private overBudget(at: SourceLocation): void {
    if (this.context.budget.reported) return;
    this.context.budget.reported = true;
    const message = `the $refs of this schema expand to more than ${maxInlinedSchemas.toLocaleString("en-US")} schema objects copied from files (definitions that refer to each other many times over); mcp-gen inlines every $ref into a file, so refer to those definitions fewer times, or give the schema the file as a whole ({ $ref: ./file.json }), whose own "#/…" refs stay references`;
    this.diagnostics.push({ location: this.expanding ?? at, message });
  }

  /** The schema `node` whose `$ref` is to be inlined: its target's copy, refined by the keywords beside the `$ref`. */
  private inlineRef(
    node: SchemaObject,
    ref: string,
    outPointer: string,
    doc: Doc,
    docPointer: string,
    locate: Locate,
    stack: readonly string[],
  ): JsonValue {
    const refAt = locate(childPointer(docPointer, "$ref"));
    if (doc === undefined) this.expanding = refAt;
    const target = this.refTarget(ref, doc, refAt);
    if (!target) return {};
    const found = resolvePointer(target.value, target.fragment);
    if (found === undefined) {
      this.reportMissing(ref, target, refAt);
      return {};
    }
    const siblings = Object.keys(node).filter((k) => k !== "$ref");
    const isWholeSchema = outPointer === "" && target.fragment === "" && siblings.length === 0 && doc === undefined;
    const inlined = this.copyTarget(target, found, outPointer, isWholeSchema, refAt, stack);
    // Keywords next to $ref (a description, say) refine the referenced schema.
    if (siblings.length === 0 || inlined === null || typeof inlined !== "object" || Array.isArray(inlined))
      return inlined;
    const merged: { [key: string]: JsonValue } = { ...inlined };
    for (const k of siblings)
      setOwn(
        merged,
        k,
        this.visitKeyword(k, node[k]!, childPointer(outPointer, k), doc, childPointer(docPointer, k), locate, stack),
      );
    return merged;
  }

  /** The file and fragment `ref` names, read and parsed; undefined (after a diagnostic) when it cannot be used. */
  private refTarget(ref: string, doc: Doc, refAt: SourceLocation): RefTarget | undefined {
    const { context } = this;
    const hash = ref.indexOf("#");
    const filePart = hash < 0 ? ref : ref.slice(0, hash);
    let fragment: string;
    try {
      fragment = hash < 0 ? "" : decodeURIComponent(ref.slice(hash + 1));
    } catch {
      this.diagnostics.push({
        location: refAt,
        message: `$ref ${quote(ref)} has a fragment that is not valid percent-encoding; use the form file.json#/$defs/Name`,
      });
      return undefined;
    }
    if (/^[a-z][a-z0-9+.-]*:/i.test(filePart)) {
      this.diagnostics.push({
        location: refAt,
        message: `$ref ${quote(ref)} points to a URL; mcp-gen never fetches schemas from the network, so save it as a file next to the manifest and reference that`,
      });
      return undefined;
    }
    if (fragment !== "" && !fragment.startsWith("/")) {
      this.diagnostics.push({
        location: refAt,
        message: `$ref ${quote(ref)} has a fragment that is not a JSON pointer; use the form file.json#/$defs/Name`,
      });
      return undefined;
    }
    if (filePart === "") {
      // A local ref inside an inlined file: it points into that same file.
      const cached = context.cache.get(doc!.file);
      return cached ? { file: doc!.file, ...cached, fragment } : undefined;
    }
    const absolute = resolve(doc ? dirname(doc.file) : context.root, filePart);
    const rel = relative(context.root, absolute);
    if (rel.startsWith(`..${sep}`) || rel === ".." || isAbsolute(rel)) {
      this.diagnostics.push({
        location: refAt,
        message: `$ref ${quote(ref)} leaves the manifest's folder ${quote(context.display(context.root))}; move the schema into that folder (or one below it) and reference it from there`,
      });
      return undefined;
    }
    const loaded = this.load(absolute, refAt);
    return loaded ? { file: absolute, ...loaded, fragment } : undefined;
  }

  /** A file's parsed value and positions, read once per manifest (shared through the context's cache). */
  private load(absolute: string, at: SourceLocation): { value: JsonValue; positions: PositionIndex } | undefined {
    const { context } = this;
    this.attempted.add(absolute);
    if (!context.cache.has(absolute)) {
      let text: string;
      try {
        text = readFileSync(absolute, "utf8");
      } catch {
        this.diagnostics.push({
          location: at,
          message: `$ref names ${quote(context.display(absolute))}, which cannot be read; check the path (it is relative to the file that contains the $ref)`,
        });
        context.cache.set(absolute, undefined);
        return undefined;
      }
      const parsed = parseSource(context.display(absolute), text);
      this.diagnostics.push(...parsed.diagnostics);
      context.cache.set(
        absolute,
        parsed.source ? { value: parsed.source.value, positions: parsed.source.positions } : undefined,
      );
    }
    this.files.add(absolute);
    return this.context.cache.get(absolute);
  }

  /** A `$ref` whose fragment points at nothing in its file: the diagnostic, with the nearest name there. */
  private reportMissing(ref: string, { file, value, fragment }: RefTarget, refAt: SourceLocation): void {
    const parent = resolvePointer(value, parentPointer(fragment));
    const keys = parent && typeof parent === "object" && !Array.isArray(parent) ? Object.keys(parent) : [];
    const suggestion = didYouMean(pointerTokens(fragment).pop() ?? "", keys);
    const fix = suggestion
      ? `did you mean ${quote(childPointer(parentPointer(fragment), suggestion))}?`
      : "point the fragment at a definition that exists";
    this.diagnostics.push({
      location: refAt,
      message: `$ref ${quote(ref)}: ${quote(this.context.display(file))} has nothing at ${quote(fragment || "/")}; ${fix}`,
    });
  }

  /**
   * What stands at `outPointer` for the target schema `found`: a ref back into the file that is
   * the whole schema, a ref to a hoisted recursive definition, or the target's copy (nothing,
   * when it is reached again while being copied: a recursion the next pass hoists).
   */
  private copyTarget(
    target: RefTarget,
    found: JsonValue,
    outPointer: string,
    isWholeSchema: boolean,
    refAt: SourceLocation,
    stack: readonly string[],
  ): JsonValue {
    const { file, fragment, positions } = target;
    const key = `${file}#${fragment}`;
    const doc = { file, value: target.value };
    const locate = (p: string) => positions.value(p);
    // Back into the file that is the whole schema: its places keep their pointers.
    if (file === this.rootFile && outPointer !== "") return { $ref: `#${fragment.replace(/%/g, "%25")}` };
    const definition = this.hoisted.get(key);
    if (definition) {
      // A recursive target: refer to its definition, built once.
      if (definition.value === undefined) {
        const at = childPointer(childPointer("", this.container), definition.name);
        definition.value = {};
        this.mounts.push({ at, positions, base: fragment });
        definition.value = this.visit(found, at, doc, fragment, locate, [key]);
      }
      return { $ref: `#/${this.container}/${escapePointerToken(definition.name)}` };
    }
    if (stack.includes(key)) {
      if (!this.recursive.has(key)) this.recursive.set(key, refAt);
      return {};
    }
    this.mounts.push({ at: outPointer, positions, base: fragment });
    if (isWholeSchema) this.rootFile = file;
    return this.visit(found, outPointer, doc, fragment, locate, [...stack, key]);
  }

  /** The value of keyword `keyword` of a schema: schemas are visited, data is copied as written. */
  private visitKeyword(
    keyword: string,
    value: JsonValue,
    outPointer: string,
    doc: Doc,
    docPointer: string,
    locate: Locate,
    stack: readonly string[],
  ): JsonValue {
    if (schemaKeywords.has(keyword)) {
      // One schema, or a list of them.
      if (!Array.isArray(value)) return this.visit(value, outPointer, doc, docPointer, locate, stack);
      return value.map((item, i) =>
        this.visit(item, childPointer(outPointer, i), doc, childPointer(docPointer, i), locate, stack),
      );
    }
    if (schemaMapKeywords.has(keyword) && value !== null && typeof value === "object" && !Array.isArray(value)) {
      const out: { [key: string]: JsonValue } = {};
      // draft-07 `dependencies` maps to a schema or to a list of property names (data).
      for (const [name, child] of Object.entries(value)) {
        setOwn(
          out,
          name,
          keyword === "dependencies" && Array.isArray(child)
            ? child
            : this.visit(child, childPointer(outPointer, name), doc, childPointer(docPointer, name), locate, stack),
        );
      }
      return out;
    }
    return value;
  }
}
