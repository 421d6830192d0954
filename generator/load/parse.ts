// Reads YAML or JSON files into plain JSON values and their positions (./source.ts). Plain
// JSON goes to JSON.parse; block YAML of the common kind to a fast reader (./yaml-source.ts);
// everything else, and every text with a problem, to the yaml library, which reports it.
import { createRequire } from "node:module";
import type { Alias, Document, Node, YAMLError, YAMLMap } from "yaml";
import type { Diagnostic, SourceLocation } from "../diagnostics.js";
import { parseBlockYaml } from "./yaml-source.js";
import {
  childPointer,
  LineStarts,
  maxAliasValues,
  maxNestingDepth,
  PositionIndex,
  setOwn,
  type JsonValue,
  type ParsedSource,
} from "./source.js";

// The YAML parser loads on first use (synchronously, from its CommonJS build): manifests
// read by JSON.parse or the block-YAML reader never need it.
let yaml: typeof import("yaml") | undefined;
const loadYaml = () => (yaml ??= createRequire(import.meta.url)("yaml") as typeof import("yaml"));

/** The yaml library's default limit on alias expansion (its `maxAliasCount` option). */
const maxAliasCount = 100;

/** How deep the block-YAML reader records positions while reading (tools/<name>/<field>/<item>); deeper ones on demand. */
const recordedDepth = 4;

/**
 * Parses `text` (YAML 1.2, which includes JSON). Returns diagnostics for syntax errors,
 * duplicate keys and non-string keys instead of a value. Plain JSON (often what tools write)
 * is read by `JSON.parse`, its positions found by the yaml library on the first question
 * (only a diagnostic asks); block YAML of the common kind (what people write) by
 * ./yaml-source.ts, with the same values and positions as the yaml library, which it leaves
 * everything else to. `blockYamlReader: false` reads all YAML with the yaml library (the
 * reference the reader is tested against).
 */
export function parseSource(
  file: string,
  text: string,
  blockYamlReader = true,
): { source?: ParsedSource; diagnostics: Diagnostic[] } {
  if (/^\s*[[{]/.test(text)) {
    const json = parseJson(file, text);
    if (json) return { source: json, diagnostics: [] };
  } else if (blockYamlReader) {
    const positions = new PositionIndex(file, text, new LineStarts(text));
    const value = parseBlockYaml(text, positions, recordedDepth);
    if (value !== undefined) {
      positions.deferBeyond(recordedDepth, () => parseBlockYaml(text, positions));
      return { source: { value, positions }, diagnostics: [] };
    }
  }
  return parseYaml(file, text);
}

/**
 * `text` read by `JSON.parse` when the yaml library would read it to the same value: no
 * duplicate keys (which JSON.parse takes silently, the last one winning), no infinite numbers,
 * no deeper nesting than maxNestingDepth. Otherwise undefined, and the yaml library reads it
 * (and reports its problems with positions).
 */
function parseJson(file: string, text: string): ParsedSource | undefined {
  let value: JsonValue;
  try {
    value = JSON.parse(text) as JsonValue;
  } catch {
    return undefined;
  }
  const keys = keysRead(value, 0);
  if (keys < 0 || keys !== keysWritten(text)) return undefined;
  const positions = new PositionIndex(file, text, new LineStarts(text));
  positions.deferBeyond(-1, () => parseYaml(file, text, positions));
  return { value, positions };
}

/** How many keys the objects in `value` hold, or -1 when it nests too deep or holds an infinite number. */
function keysRead(value: JsonValue, depth: number): number {
  if (depth > maxNestingDepth) return -1;
  if (typeof value === "number") return Number.isFinite(value) ? 0 : -1;
  if (value === null || typeof value !== "object") return 0;
  let keys = 0;
  const items = Array.isArray(value) ? value : Object.values(value);
  if (!Array.isArray(value)) keys += items.length;
  for (const item of items) {
    const inside = keysRead(item, depth + 1);
    if (inside < 0) return -1;
    keys += inside;
  }
  return keys;
}

/** Every string literal of a JSON text, and whether a colon follows it (then it is a key): outside them, JSON has no `"`. */
const stringLiteral = /"(?:[^"\\]|\\.)*"(\s*:)?/g;

/** How many keys a JSON text writes (duplicates included). */
function keysWritten(text: string): number {
  let keys = 0;
  stringLiteral.lastIndex = 0;
  for (let found = stringLiteral.exec(text); found; found = stringLiteral.exec(text))
    if (found[1] !== undefined) keys++;
  return keys;
}

/**
 * Reads `text` with the yaml library, recording positions into `into` (a fresh index unless
 * given: the JSON path's, filled on its first question).
 */
function parseYaml(
  file: string,
  text: string,
  into?: PositionIndex,
): { source?: ParsedSource; diagnostics: Diagnostic[] } {
  const lib = loadYaml();
  const lineCounter = new lib.LineCounter();
  const at = (offset: number): SourceLocation => {
    const { line, col } = lineCounter.linePos(offset);
    return { file, line, col };
  };
  const doc = lib.parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true, strict: true });
  const problems = [...doc.errors, ...doc.warnings];
  if (problems.length > 0) return { diagnostics: syntaxDiagnostics(problems, at) };
  const converter = new YamlToJson(lib, doc, at, into ?? new PositionIndex(file, text, lineCounter));
  const value = converter.convert(doc.contents, "");
  if (converter.diagnostics.length > 0) return { diagnostics: converter.diagnostics };
  return { source: { value, positions: converter.positions }, diagnostics: converter.diagnostics };
}

/** One report per place and problem: the yaml library repeats an error for every bracket left open. */
function syntaxDiagnostics(problems: readonly YAMLError[], at: (offset: number) => SourceLocation): Diagnostic[] {
  const unique = new Map<string, Diagnostic>();
  for (const error of problems) {
    const diagnostic = { location: at(error.pos[0]), message: describeYamlError(error.code, error.message) };
    unique.set(`${error.pos[0]} ${diagnostic.message}`, diagnostic);
  }
  return [...unique.values()];
}

/**
 * A yaml library document as plain JSON values, its positions recorded as it goes; refuses
 * (with a diagnostic) nesting beyond maxNestingDepth, alias bombs, non-string keys and values
 * JSON cannot hold.
 */
class YamlToJson {
  readonly diagnostics: Diagnostic[] = [];
  /** Alias copies nested in the targets of aliases, by node (see countAliases). */
  private readonly aliasesInside = new Map<unknown, number>();
  private aliasCost = 0;
  private refused = false;
  /** Values copied for aliases so far, and where the alias being copied stands. */
  private copied = 0;
  private copying: SourceLocation | undefined;

  constructor(
    private readonly lib: typeof import("yaml"),
    private readonly doc: Document.Parsed,
    private readonly at: (offset: number) => SourceLocation,
    readonly positions: PositionIndex,
  ) {}

  /** `recording` is false inside an alias: positions stay those of the alias itself. */
  convert(node: unknown, pointer: string, recording = true, depth = 0): JsonValue {
    if (this.refused) return null;
    if (depth > maxNestingDepth) {
      const range = (node as Node | null)?.range;
      const message = `values nest more than ${maxNestingDepth} levels deep here; a manifest or schema never needs that many, so flatten it (use $defs and $ref for recursive shapes)`;
      return this.refuse(range ? this.at(range[0]) : this.positions.value(pointer), message);
    }
    if (!recording && ++this.copied > maxAliasValues) {
      const message = `aliases expand to more than ${maxAliasValues.toLocaleString("en-US")} values (a large value aliased many times); alias it less often, or share schemas with $ref to $defs`;
      return this.refuse(this.copying!, message);
    }
    const { isAlias, isMap, isScalar, isSeq } = this.lib;
    if (isAlias(node)) return this.convertAlias(node, pointer, recording, depth);
    const range = (node as Node | null)?.range;
    if (range && recording) this.positions.setValue(pointer, range[0], range[1]);
    if (isMap(node)) return this.convertMap(node, pointer, recording, depth);
    if (isSeq(node))
      return node.items.map((item, i) => this.convert(item, childPointer(pointer, i), recording, depth + 1));
    if (isScalar(node)) return this.convertScalar(node.value, pointer);
    return null;
  }

  /** Stops the conversion: after one of these, the rest of the document would only repeat it. */
  private refuse(location: SourceLocation, message: string): null {
    this.refused = true;
    this.diagnostics.push({ location, message });
    return null;
  }

  /**
   * An alias is a copy of its anchor's value. Anchors whose values hold aliases themselves
   * multiply on every use ("billion laughs": 9 levels of 9 aliases make 9^9 values), so the
   * yaml library's rule applies: an anchor used n times whose value expands m aliases
   * costs n × m, and more than maxAliasCount in total is refused before that use is
   * copied. Anchors without aliases inside cost nothing, however often they are used.
   */
  private convertAlias(node: Alias, pointer: string, recording: boolean, depth: number): JsonValue {
    const target = node.resolve(this.doc);
    if (node.range && recording) this.positions.setValue(pointer, node.range[0], node.range[1]);
    const location = node.range ? this.at(node.range[0]) : this.positions.value(pointer);
    if (target === undefined) {
      this.diagnostics.push({
        location,
        message: `alias *${node.source} refers to no anchor; define &${node.source} on a value above it, or remove the *`,
      });
      return null;
    }
    const inside = this.countAliases(target);
    if (inside > 0) {
      this.aliasCost += inside;
      if (this.aliasCost > maxAliasCount) {
        const message = `aliases expand too much (more than ${maxAliasCount} nested alias copies, as in a "billion laughs" document); write repeated values out, or alias only values that contain no aliases`;
        return this.refuse(location, message);
      }
    }
    if (recording) this.copying = location;
    return this.convert(target, pointer, false, depth);
  }

  /** How many alias copies expanding `node` makes (more than maxAliasCount counts as too many). */
  private countAliases(node: unknown): number {
    const { isAlias, isMap, isSeq } = this.lib;
    if (isAlias(node)) {
      const target = node.resolve(this.doc);
      return target === undefined ? 1 : 1 + this.countAliases(target);
    }
    if (!isMap(node) && !isSeq(node)) return 0;
    const known = this.aliasesInside.get(node);
    if (known !== undefined) return known;
    // A value that contains an alias of itself would expand forever: it counts as too many.
    this.aliasesInside.set(node, maxAliasCount + 1);
    let count = 0;
    for (const item of node.items) {
      count += isMap(node) ? this.countAliases((item as { value: unknown }).value) : this.countAliases(item);
      if (count > maxAliasCount) break;
    }
    this.aliasesInside.set(node, count);
    return count;
  }

  private convertMap(node: YAMLMap, pointer: string, recording: boolean, depth: number): JsonValue {
    const out: { [key: string]: JsonValue } = {};
    for (const pair of node.items) {
      const keyNode = pair.key as Node | null;
      const key = this.lib.isScalar(keyNode) ? keyNode.value : undefined;
      if (typeof key !== "string") {
        this.diagnostics.push({
          location: keyNode?.range ? this.at(keyNode.range[0]) : this.positions.value(pointer),
          message: "keys must be strings; quote this key",
        });
        continue;
      }
      const child = childPointer(pointer, key);
      const keyAt = keyNode?.range?.[0];
      if (keyAt !== undefined && recording) {
        this.positions.setKey(child, keyAt);
        // An empty value (`key:`) has no node; it stands where the key is.
        if (pair.value === null) this.positions.setValue(child, keyAt);
      }
      setOwn(out, key, pair.value === null ? null : this.convert(pair.value, child, recording, depth + 1));
    }
    return out;
  }

  private convertScalar(value: unknown, pointer: string): JsonValue {
    if (value === null || typeof value === "boolean" || typeof value === "string") return value;
    if (typeof value === "number") {
      if (Number.isFinite(value)) return value;
      this.diagnostics.push({
        location: this.positions.value(pointer),
        message: "numbers must be finite; quote it if you meant a string",
      });
      return null;
    }
    this.diagnostics.push({
      location: this.positions.value(pointer),
      message: "unsupported YAML value; use plain JSON-compatible values",
    });
    return null;
  }
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
      if (/Maximum call stack size exceeded/.test(message))
        return `values nest too deep to read; a manifest or schema never needs more than ${maxNestingDepth} levels, so flatten it`;
      const first = message.split("\n")[0] ?? message;
      return `invalid YAML: ${first.replace(/ at line \d+, column \d+.*$/, "")}`;
    }
  }
}
