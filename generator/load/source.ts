// Parses YAML or JSON files into plain JSON values while remembering where every
// value and key came from, so later phases can report `file:line:col` for a JSON pointer.
import { createRequire } from "node:module";
import type { Node } from "yaml";
import type { Diagnostic, SourceLocation } from "../diagnostics.js";
import { parsePlainJson } from "./json-source.js";
import { parseBlockYaml } from "./yaml-source.js";

// The YAML parser loads on first use (synchronously, from its CommonJS build): manifests
// read by a fast path (plain JSON, common block YAML) never need it.
let yaml: typeof import("yaml") | undefined;
const loadYaml = () => (yaml ??= createRequire(import.meta.url)("yaml") as typeof import("yaml"));

/**
 * Turns offsets of a text read without the YAML parser (which has its own LineCounter) into
 * 1-based line and column, finding line starts only as far as the furthest offset asked for:
 * most runs locate nothing or something near the top.
 */
class LineStarts {
  private readonly starts = [0];
  constructor(private readonly text: string) {}

  linePos(offset: number): { line: number; col: number } {
    const { starts, text } = this;
    for (let last = starts[starts.length - 1]!; last <= offset; ) {
      const n = text.indexOf("\n", last);
      if (n < 0) break;
      starts.push((last = n + 1));
    }
    let low = 0;
    let high = starts.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (offset < starts[mid]!) high = mid;
      else low = mid + 1;
    }
    return { line: low, col: offset - starts[low - 1]! + 1 };
  }
}

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/**
 * Positions of one parsed file, keyed by JSON pointer. Offsets are kept and turned into
 * line and column only when asked: a large manifest has hundreds of thousands of values,
 * and only the few that a diagnostic names are ever located.
 */
export class PositionIndex {
  /** Start offsets of values. */
  private readonly starts = new Map<string, number>();
  /** End offsets of values (exclusive), to read them as written. */
  private readonly ends = new Map<string, number>();
  /** Offsets of the keys that name values. */
  private readonly keyStarts = new Map<string, number>();
  /** Set while only values up to `recordedDepth` pointer tokens deep are recorded: records the rest. */
  private recordRest: (() => void) | undefined;
  private recordedDepth = Infinity;

  constructor(
    readonly file: string,
    private readonly text = "",
    private readonly lineCounter?: Pick<LineStarts, "linePos">,
  ) {}

  /**
   * Positions deeper than `depth` tokens are recorded by `recordRest`, on the first
   * question about one: a large JSON manifest is mostly schema internals, which only a
   * diagnostic ever asks about.
   */
  deferBeyond(depth: number, recordRest: () => void): void {
    this.recordedDepth = depth;
    this.recordRest = recordRest;
  }

  /** Records what was deferred when `pointer` lies beyond the recorded depth. */
  private reach(pointer: string): void {
    if (this.recordRest === undefined) return;
    let depth = 0;
    for (let i = pointer.indexOf("/"); i >= 0 && depth <= this.recordedDepth; i = pointer.indexOf("/", i + 1)) depth++;
    if (depth <= this.recordedDepth) return;
    const record = this.recordRest;
    this.recordRest = undefined;
    this.recordedDepth = Infinity;
    record();
  }

  /** Records the value at `pointer` as written at [start, end). */
  setValue(pointer: string, start: number, end?: number): void {
    this.starts.set(pointer, start);
    if (end !== undefined) this.ends.set(pointer, end);
  }

  /** Records the key naming `pointer` at `offset`. */
  setKey(pointer: string, offset: number): void {
    this.keyStarts.set(pointer, offset);
  }

  private locate(offset: number): SourceLocation {
    if (!this.lineCounter) return { file: this.file, line: 1, col: 1 };
    const { line, col } = this.lineCounter.linePos(offset);
    return { file: this.file, line, col };
  }

  /**
   * Location of `needle` as written inside the value at `pointer` (e.g. a `{{name}}` in a
   * prompt text), or the value's own location when it cannot be found verbatim.
   */
  within(pointer: string, needle: string, occurrence = 0): SourceLocation {
    this.reach(pointer);
    const start = this.starts.get(pointer);
    const end = this.ends.get(pointer);
    if (start !== undefined && end !== undefined) {
      const written = this.text.slice(start, end);
      let at = written.indexOf(needle);
      for (let n = 0; n < occurrence && at >= 0; n++) at = written.indexOf(needle, at + 1);
      if (at >= 0) return this.locate(start + at);
    }
    return this.value(pointer);
  }

  /** The value at `pointer` as written in the file (`1.0` rather than 1), or undefined. */
  source(pointer: string): string | undefined {
    this.reach(pointer);
    const start = this.starts.get(pointer);
    const end = this.ends.get(pointer);
    return start !== undefined && end !== undefined ? this.text.slice(start, end).trim() : undefined;
  }

  /** Location of the value at `pointer`, or of its closest located ancestor. */
  value(pointer: string): SourceLocation {
    this.reach(pointer);
    return this.closest(this.starts, pointer);
  }

  /** Location of the key that names `pointer`, falling back to its value. */
  key(pointer: string): SourceLocation {
    this.reach(pointer);
    const offset = this.keyStarts.get(pointer);
    return offset === undefined ? this.value(pointer) : this.locate(offset);
  }

  private closest(map: Map<string, number>, pointer: string): SourceLocation {
    for (let p = pointer; ; p = parentPointer(p)) {
      const found = map.get(p);
      if (found !== undefined) return this.locate(found);
      if (p === "") return { file: this.file, line: 1, col: 1 };
    }
  }
}

export interface ParsedSource {
  readonly value: JsonValue;
  readonly positions: PositionIndex;
}

/**
 * Sets an own data property. Plain assignment keeps objects on V8's fast path (the
 * generator reads hundreds of thousands of schema nodes); only `__proto__` must be
 * defined, or it would set the prototype instead of becoming data.
 */
export function setOwn<T>(target: { [key: string]: T }, key: string, value: T): void {
  if (key === "__proto__") Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

export function escapePointerToken(token: string): string {
  return token.includes("~") || token.includes("/") ? token.replace(/~/g, "~0").replace(/\//g, "~1") : token;
}

export function unescapePointerToken(token: string): string {
  return token.includes("~") ? token.replace(/~1/g, "/").replace(/~0/g, "~") : token;
}

export function childPointer(pointer: string, token: string | number): string {
  return `${pointer}/${escapePointerToken(String(token))}`;
}

export function parentPointer(pointer: string): string {
  const slash = pointer.lastIndexOf("/");
  return slash <= 0 ? "" : pointer.slice(0, slash);
}

export function pointerTokens(pointer: string): string[] {
  return pointer === "" ? [] : pointer.slice(1).split("/").map(unescapePointerToken);
}

/** Reads the value at a JSON pointer, or undefined when the path does not exist. */
export function resolvePointer(root: unknown, pointer: string): JsonValue | undefined {
  let node = root as JsonValue | undefined;
  for (const token of pointerTokens(pointer)) {
    if (Array.isArray(node)) node = /^(0|[1-9][0-9]*)$/.test(token) ? node[Number(token)] : undefined;
    else if (node !== null && typeof node === "object")
      node = Object.prototype.hasOwnProperty.call(node, token) ? node[token] : undefined;
    else return undefined;
    if (node === undefined) return undefined;
  }
  return node;
}

/** How deep a JSON manifest's positions are recorded while parsing (tools/<name>/<field>/<item>); deeper ones on demand. */
const recordedDepth = 4;

/**
 * How deep values may nest. Real manifests and schemas stay far below it; a deeper file
 * is refused with its position instead of overflowing the stack of a later phase.
 */
export const maxNestingDepth = 256;

/** The yaml library's default limit on alias expansion (its `maxAliasCount` option). */
const maxAliasCount = 100;

/**
 * How many values the copies that aliases stand for may hold in all. A large value aliased
 * many times grows quadratically (a 160 KB file of 10,000 aliases of a 10,000-item list is
 * 100 million values); a real manifest, 1,000 tools included, holds far fewer.
 */
export const maxAliasValues = 1_000_000;

/**
 * Parses `text` (YAML 1.2, which includes JSON). Returns diagnostics for syntax errors,
 * duplicate keys and non-string keys instead of a value. `fastPaths: false` reads every text
 * with the yaml library (the reference the fast paths are tested against).
 */
export function parseSource(file: string, text: string, fastPaths = true): { source?: ParsedSource; diagnostics: Diagnostic[] } {
  // Plain JSON (often what tools write) and block YAML of the common kind (what people
  // write) take fast paths with the same values and positions.
  const fastPath = !fastPaths ? undefined : /^\s*[[{]/.test(text) ? parsePlainJson : parseBlockYaml;
  if (fastPath) {
    const positions = new PositionIndex(file, text, new LineStarts(text));
    const value = fastPath(text, positions, recordedDepth);
    if (value !== undefined) {
      positions.deferBeyond(recordedDepth, () => fastPath(text, positions));
      return { source: { value, positions }, diagnostics: [] };
    }
  }
  const { isAlias, isMap, isScalar, isSeq, LineCounter, parseDocument } = loadYaml();
  const lineCounter = new LineCounter();
  const at = (offset: number): SourceLocation => {
    const { line, col } = lineCounter.linePos(offset);
    return { file, line, col };
  };
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true, strict: true });
  const problems = [...doc.errors, ...doc.warnings];
  if (problems.length > 0) {
    // One report per place and problem: the yaml library repeats an error for every bracket left open.
    const unique = new Map<string, Diagnostic>();
    for (const error of problems) {
      const diagnostic = { location: at(error.pos[0]), message: describeYamlError(error.code, error.message) };
      unique.set(`${error.pos[0]} ${diagnostic.message}`, diagnostic);
    }
    return { diagnostics: [...unique.values()] };
  }
  const positions = new PositionIndex(file, text, lineCounter);
  const diagnostics: Diagnostic[] = [];

  // An alias is a copy of its anchor's value. Anchors whose values hold aliases themselves
  // multiply on every use ("billion laughs": 9 levels of 9 aliases make 9^9 values), so the
  // yaml library's rule applies: an anchor used n times whose value expands m aliases
  // costs n × m, and more than maxAliasCount in total is refused before that use is
  // copied. Anchors without aliases inside cost nothing, however often they are used.
  const aliasesInside = new Map<unknown, number>();
  const countAliases = (node: unknown): number => {
    if (isAlias(node)) {
      const target = node.resolve(doc);
      return target === undefined ? 1 : 1 + countAliases(target);
    }
    if (!isMap(node) && !isSeq(node)) return 0;
    const known = aliasesInside.get(node);
    if (known !== undefined) return known;
    // A value that contains an alias of itself would expand forever: it counts as too many.
    aliasesInside.set(node, maxAliasCount + 1);
    let count = 0;
    for (const item of node.items) {
      count += isMap(node) ? countAliases((item as { value: unknown }).value) : countAliases(item);
      if (count > maxAliasCount) break;
    }
    aliasesInside.set(node, count);
    return count;
  };
  let aliasCost = 0;
  let refused = false;
  /** Values copied for aliases so far, and where the alias being copied stands. */
  let copied = 0;
  let copying: SourceLocation | undefined;

  /** `recording` is false inside an alias: positions stay those of the alias itself. */
  const convert = (node: unknown, pointer: string, recording = true, depth = 0): JsonValue => {
    if (refused) return null;
    if (depth > maxNestingDepth) {
      refused = true;
      const range = (node as Node | null)?.range;
      diagnostics.push({ location: range ? at(range[0]) : positions.value(pointer), message: `values nest more than ${maxNestingDepth} levels deep here; a manifest or schema never needs that many, so flatten it (use $defs and $ref for recursive shapes)` });
      return null;
    }
    if (!recording && ++copied > maxAliasValues) {
      refused = true;
      diagnostics.push({ location: copying!, message: `aliases expand to more than ${maxAliasValues.toLocaleString("en-US")} values (a large value aliased many times); alias it less often, or share schemas with $ref to $defs` });
      return null;
    }
    if (isAlias(node)) {
      const target = node.resolve(doc);
      if (node.range && recording) positions.setValue(pointer, node.range[0], node.range[1]);
      const location = node.range ? at(node.range[0]) : positions.value(pointer);
      if (target === undefined) {
        diagnostics.push({ location, message: `alias *${node.source} refers to no anchor; define &${node.source} on a value above it, or remove the *` });
        return null;
      }
      const inside = countAliases(target);
      if (inside > 0) {
        aliasCost += inside;
        if (aliasCost > maxAliasCount) {
          refused = true;
          diagnostics.push({
            location,
            message: `aliases expand too much (more than ${maxAliasCount} nested alias copies, as in a "billion laughs" document); write repeated values out, or alias only values that contain no aliases`,
          });
          return null;
        }
      }
      if (recording) copying = location;
      return convert(target, pointer, false, depth);
    }
    const range = (node as Node | null)?.range;
    if (range && recording) positions.setValue(pointer, range[0], range[1]);
    if (isMap(node)) {
      const out: { [key: string]: JsonValue } = {};
      for (const pair of node.items) {
        const keyNode = pair.key as Node | null;
        const key = isScalar(keyNode) ? keyNode.value : undefined;
        if (typeof key !== "string") {
          diagnostics.push({ location: keyNode?.range ? at(keyNode.range[0]) : positions.value(pointer), message: "keys must be strings; quote this key" });
          continue;
        }
        const child = childPointer(pointer, key);
        const keyAt = keyNode?.range?.[0];
        if (keyAt !== undefined && recording) {
          positions.setKey(child, keyAt);
          // An empty value (`key:`) has no node; it stands where the key is.
          if (pair.value === null) positions.setValue(child, keyAt);
        }
        setOwn(out, key, pair.value === null ? null : convert(pair.value, child, recording, depth + 1));
      }
      return out;
    }
    if (isSeq(node)) return node.items.map((item, i) => convert(item, childPointer(pointer, i), recording, depth + 1));
    if (isScalar(node)) {
      const value = node.value;
      if (value === null || typeof value === "boolean" || typeof value === "string") return value;
      if (typeof value === "number") {
        if (!Number.isFinite(value)) {
          diagnostics.push({ location: positions.value(pointer), message: "numbers must be finite; quote it if you meant a string" });
          return null;
        }
        return value;
      }
      diagnostics.push({ location: positions.value(pointer), message: "unsupported YAML value; use plain JSON-compatible values" });
      return null;
    }
    return null;
  };

  const value = convert(doc.contents, "");
  if (diagnostics.length > 0) return { diagnostics };
  return { source: { value, positions }, diagnostics };
}

function describeYamlError(code: string, message: string): string {
  switch (code) {
    case "DUPLICATE_KEY":
      return "duplicate key; each key may appear once in a mapping";
    case "TAB_AS_INDENT":
      return "tab used for indentation; indent YAML with spaces";
    case "MULTIPLE_DOCS":
      return "more than one YAML document; a manifest is a single document, so remove this `---` and what follows or move it to another file";
    default: {
      if (/Maximum call stack size exceeded/.test(message)) return `values nest too deep to read; a manifest or schema never needs more than ${maxNestingDepth} levels, so flatten it`;
      const first = message.split("\n")[0] ?? message;
      return `invalid YAML: ${first.replace(/ at line \d+, column \d+.*$/, "")}`;
    }
  }
}
