// Resolves `$ref`s that name files (JSON or YAML, relative to the manifest) inside a
// schema declared in the manifest, by inlining their targets. Clients receive tool
// schemas as self-contained JSON and cannot follow references to our files, so the
// result keeps only local refs ("#/…") written in the manifest itself.
import { readFileSync } from "node:fs";
import { dirname, isAbsolute, relative, resolve, sep } from "node:path";
import { didYouMean, quote, type Diagnostic, type SourceLocation } from "../diagnostics.js";
import { childPointer, parentPointer, parseSource, pointerTokens, resolvePointer, setOwn, type JsonValue, type PositionIndex } from "./source.js";

/** A schema from the manifest with its external references inlined. */
export interface ResolvedSchema {
  readonly value: JsonValue;
  /** Where the schema sits in the manifest, as a JSON pointer. */
  readonly pointer: string;
  /** Source location of a JSON pointer inside `value` (following inlined files). */
  readonly locate: (pointer: string) => SourceLocation;
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
}

export function resolveSchema(
  value: JsonValue,
  pointer: string,
  manifest: { file: string; positions: PositionIndex },
  context: RefContext,
): { schema?: ResolvedSchema; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const mounts: Mount[] = [{ at: "", positions: manifest.positions, base: pointer }];
  const files = new Set<string>();
  // A file referenced as the whole schema (`output: { $ref: ./x.json }`) becomes the root:
  // its own "#/…" references stay valid as written, so they stay references (and become
  // named types) instead of being inlined.
  let rootFile: string | undefined;

  const load = (absolute: string, at: SourceLocation) => {
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

  /**
   * Copies `node` (found in `doc` at `docPointer`) to `outPointer`, inlining references.
   * `doc` is undefined for the manifest, whose local refs stay as written.
   */
  const visit = (
    node: JsonValue,
    outPointer: string,
    doc: { file: string; value: JsonValue } | undefined,
    docPointer: string,
    locate: (p: string) => SourceLocation,
    stack: readonly string[],
  ): JsonValue => {
    if (Array.isArray(node)) return node.map((item, i) => visit(item, childPointer(outPointer, i), doc, childPointer(docPointer, i), locate, stack));
    if (node === null || typeof node !== "object") return node;
    const ref = node.$ref;
    const keepsLocalRefs = doc === undefined || doc.file === rootFile;
    if (typeof ref === "string" && !(keepsLocalRefs && ref.startsWith("#"))) {
      const refAt = locate(childPointer(docPointer, "$ref"));
      const hash = ref.indexOf("#");
      const filePart = hash < 0 ? ref : ref.slice(0, hash);
      const fragment = hash < 0 ? "" : decodeURIComponent(ref.slice(hash + 1));
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
      if (stack.includes(key)) {
        diagnostics.push({
          location: refAt,
          message: `$ref ${quote(ref)} is recursive; mcp-gen inlines referenced files, so move the recursive definition into the schema in the manifest under $defs and refer to it with "#/$defs/…"`,
        });
        return {};
      }
      const found = resolvePointer(target.value, fragment);
      if (found === undefined) {
        const parent = resolvePointer(target.value, parentPointer(fragment));
        const keys = parent && typeof parent === "object" && !Array.isArray(parent) ? Object.keys(parent) : [];
        const suggestion = didYouMean(pointerTokens(fragment).pop() ?? "", keys);
        const fix = suggestion ? `did you mean ${quote(childPointer(parentPointer(fragment), suggestion))}?` : "point the fragment at a definition that exists";
        diagnostics.push({ location: refAt, message: `$ref ${quote(ref)}: ${quote(context.display(target.file))} has nothing at ${quote(fragment || "/")}; ${fix}` });
        return {};
      }
      const targetPositions = target.positions;
      mounts.push({ at: outPointer, positions: targetPositions, base: fragment });
      const siblings = Object.keys(node).filter((k) => k !== "$ref");
      if (outPointer === "" && fragment === "" && siblings.length === 0 && doc === undefined) rootFile = target.file;
      const inlined = visit(found, outPointer, { file: target.file, value: target.value }, fragment, (p) => targetPositions.value(p), [...stack, key]);
      // Keywords next to $ref (a description, say) refine the referenced schema.
      if (siblings.length === 0 || inlined === null || typeof inlined !== "object" || Array.isArray(inlined)) return inlined;
      const merged: { [key: string]: JsonValue } = { ...inlined };
      for (const k of siblings) {
        setOwn(merged, k, visit(node[k]!, childPointer(outPointer, k), doc, childPointer(docPointer, k), locate, stack));
      }
      return merged;
    }
    const out: { [key: string]: JsonValue } = {};
    for (const [k, v] of Object.entries(node)) {
      setOwn(out, k, visit(v, childPointer(outPointer, k), doc, childPointer(docPointer, k), locate, stack));
    }
    return out;
  };

  const resolved = visit(value, "", undefined, pointer, (p) => manifest.positions.value(p), []);
  if (diagnostics.length > 0) return { diagnostics };
  const locate = (p: string): SourceLocation => {
    let best = mounts[0]!;
    for (const mount of mounts) if ((p === mount.at || p.startsWith(`${mount.at}/`)) && mount.at.length >= best.at.length) best = mount;
    return best.positions.value(best.base + p.slice(best.at.length));
  };
  return { schema: { value: resolved, pointer, locate, files: [...files].sort() }, diagnostics };
}
