// What a source file (a manifest, a schema it references) reads as: plain JSON values, the
// JSON pointers that name them, and where each value and key was written, so that later
// phases can report `file:line:col` for a pointer. ./parse.ts reads files into these.
import type { SourceLocation } from "../diagnostics.js";

/**
 * Turns offsets of a text read without the YAML parser (which has its own LineCounter) into
 * 1-based line and column, finding line starts only as far as the furthest offset asked for:
 * most runs locate nothing or something near the top.
 */
export class LineStarts {
  private readonly starts = [0];
  constructor(private readonly text: string) {}

  linePos(offset: number): { line: number; col: number } {
    const { starts, text } = this;
    for (let last = starts[starts.length - 1]!; last <= offset;) {
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
   * Positions deeper than `depth` tokens (all of them for -1: a JSON manifest) are recorded by
   * `recordRest`, on the first question about one: a large manifest is mostly schema
   * internals, which only a diagnostic ever asks about.
   */
  deferBeyond(depth: number, recordRest: () => void): void {
    this.recordedDepth = depth;
    this.recordRest = recordRest;
  }

  /** Whether the position of `pointer` is among those not recorded yet. */
  private deferred(pointer: string): boolean {
    if (this.recordRest === undefined) return false;
    let depth = 0;
    for (let i = pointer.indexOf("/"); i >= 0 && depth <= this.recordedDepth; i = pointer.indexOf("/", i + 1)) depth++;
    return depth > this.recordedDepth;
  }

  /** Records what was deferred when `pointer` lies beyond the recorded depth. */
  private reach(pointer: string): void {
    const record = this.recordRest;
    if (record === undefined || !this.deferred(pointer)) return;
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
    return this.lazily(pointer, () => {
      const start = this.starts.get(pointer);
      const end = this.ends.get(pointer);
      if (start !== undefined && end !== undefined) {
        const written = this.text.slice(start, end);
        let at = written.indexOf(needle);
        for (let n = 0; n < occurrence && at >= 0; n++) at = written.indexOf(needle, at + 1);
        if (at >= 0) return this.locate(start + at);
      }
      return this.closest(this.starts, pointer);
    });
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
    return this.lazily(pointer, () => this.closest(this.starts, pointer));
  }

  /** Location of the key that names `pointer`, falling back to its value. */
  key(pointer: string): SourceLocation {
    return this.lazily(pointer, () => {
      const offset = this.keyStarts.get(pointer);
      return offset === undefined ? this.closest(this.starts, pointer) : this.locate(offset);
    });
  }

  /**
   * `find()` once the positions `pointer` needs are recorded. While they are not, a location
   * whose line and column are found when first read: the model names places for diagnostics it
   * may never report, and recording a large JSON manifest's positions costs more than reading it.
   */
  private lazily(pointer: string, find: () => SourceLocation): SourceLocation {
    if (!this.deferred(pointer)) return find();
    let found: SourceLocation | undefined;
    const get = () => {
      this.reach(pointer);
      return (found ??= find());
    };
    return {
      file: this.file,
      get line() {
        return get().line;
      },
      get col() {
        return get().col;
      },
    };
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
  if (key === "__proto__")
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
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

/**
 * How deep values may nest. Real manifests and schemas stay far below it; a deeper file
 * is refused with its position instead of overflowing the stack of a later phase.
 */
export const maxNestingDepth = 256;

/**
 * How many values the copies that aliases stand for may hold in all. A large value aliased
 * many times grows quadratically (a 160 KB file of 10,000 aliases of a 10,000-item list is
 * 100 million values); a real manifest, 1,000 tools included, holds far fewer.
 */
export const maxAliasValues = 1_000_000;
