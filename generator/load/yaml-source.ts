// A fast path for manifests written in block-style YAML, the way people write mcp.yaml by
// hand and the way YAML libraries write it: mappings and sequences by indentation, plain and
// quoted scalars (folded over lines too), `|` and `>` block scalars, one-line flow
// collections, anchors and aliases, comments, LF or CRLF line ends. The yaml library reads
// about 1.5 MB a second, so a 1,000-tool manifest spent more than half of its five seconds
// there; this reads the same subset over ten times faster and records the same positions.
// Anything outside it (anchors whose values hold aliases, tags, directives, several
// documents, tabs, multi-line flow collections, explicit indentation or keep chomping,
// non-string or duplicate keys, numbers in other bases, odd indentation) gives undefined,
// and the yaml library reads the text and reports its problems.
// test/unit/yaml-fast-path.test.ts holds both to the same values and positions.
import { childPointer, maxAliasValues, maxNestingDepth, setOwn, type JsonValue, type PositionIndex } from "./source.js";

class NotPlainYaml extends Error {}

const bail = (): never => {
  throw new NotPlainYaml();
};

/** What this path never reads: tabs, other control characters, BOM (and a CR that does not end a line, below). */
const unusual = /[\u0000-\u0009\u000b\u000c\u000e-\u001f\u007f\ufeff]/;
const loneCR = /\r(?!\n)/;

// The YAML 1.2 core schema as the yaml library resolves plain scalars.
const nullPlain = /^(?:~|[Nn]ull|NULL)?$/;
const boolPlain = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
const intPlain = /^[-+]?[0-9]+$/;
const floatPlain = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/;
/** Hex, octal, infinities and NaN: left to the yaml library. */
const otherNumber = /^(?:0o[0-7]+|0x[0-9a-fA-F]+|[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;

function plainValue(text: string): JsonValue {
  const c = text.charCodeAt(0);
  if (!((c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2d || c === 0x2e)) {
    // Not a number: null and the booleans are at most five characters long; most words are longer.
    if (text.length > 5) return text;
    if (nullPlain.test(text)) return null;
    return boolPlain.test(text) ? c === 0x74 || c === 0x54 : text;
  }
  const number = intPlain.test(text) ? parseInt(text, 10) : floatPlain.test(text) ? parseFloat(text) : undefined;
  if (number !== undefined) return Number.isFinite(number) ? number : bail();
  return otherNumber.test(text) ? bail() : text;
}

/** Characters that may not start a plain scalar (YAML indicators); `-`, `?` and `:` may when a safe character follows. */
const indicators = new Set([
  "-",
  "?",
  ":",
  ",",
  "[",
  "]",
  "{",
  "}",
  "#",
  "&",
  "*",
  "!",
  "|",
  ">",
  "'",
  '"',
  "%",
  "@",
  "`",
]);

/** Escapes of double-quoted scalars that stand for one character (YAML 1.2, 5.7). */
const simpleEscapes: { readonly [escape: string]: string } = {
  "0": "\0",
  a: "\x07",
  b: "\b",
  t: "\t",
  n: "\n",
  v: "\v",
  f: "\f",
  r: "\r",
  e: "\x1b",
  " ": " ",
  '"': '"',
  "/": "/",
  "\\": "\\",
  N: "\x85",
  _: "\xa0",
  L: "\u2028",
  P: "\u2029",
};
const hexDigits = /^[0-9a-fA-F]*$/;

/** The text of one line of a double-quoted scalar with its escapes decoded. */
function unescapeDouble(line: string): string {
  if (!line.includes("\\")) return line;
  let out = "";
  for (let k = 0; k < line.length; k++) {
    if (line[k] !== "\\") {
      out += line[k];
      continue;
    }
    const escape = line[++k] ?? bail();
    const simple = simpleEscapes[escape];
    if (simple !== undefined) {
      out += simple;
      continue;
    }
    const digits = escape === "x" ? 2 : escape === "u" ? 4 : escape === "U" ? 8 : bail();
    const hex = line.slice(k + 1, k + 1 + digits);
    if (hex.length !== digits || !hexDigits.test(hex)) bail();
    const code = parseInt(hex, 16);
    out += code <= 0x10ffff ? String.fromCodePoint(code) : bail();
    k += digits;
  }
  return out;
}

/** `line` without trailing spaces (only spaces: YAML's white space is space and tab, and tabs never get here). */
function trimSpaces(line: string): string {
  let end = line.length;
  while (line.charCodeAt(end - 1) === 0x20) end--;
  return end === line.length ? line : line.slice(0, end);
}

/** The text of one line of a single-quoted scalar (`''` is a quote). */
const unescapeSingle = (line: string) => (line.includes("''") ? line.replace(/''/g, "'") : line);

/** Whether `line` ends in an odd number of backslashes (its last one escapes what follows). */
function endsEscaped(line: string): boolean {
  let n = 0;
  while (line[line.length - 1 - n] === "\\") n++;
  return n % 2 === 1;
}

/**
 * A quoted scalar written over several lines, folded as YAML folds them: a line break
 * between two lines of text is a space, each empty line a line break, spaces around breaks
 * go, and in double quotes a backslash at a line's end joins the lines with nothing.
 */
function foldQuoted(raw: string, parent: number, double: boolean, decode: (line: string) => string): string {
  const lines = raw.split(/\r?\n/);
  let out = "";
  let joiner = "";
  for (let n = 0; n < lines.length; n++) {
    let line = lines[n]!;
    if (n > 0) {
      const indent = line.length - line.replace(/^ +/, "").length;
      line = line.slice(indent);
      // Later lines must be indented past the parent (an empty one in between need not be).
      if ((line !== "" || n === lines.length - 1) && indent <= parent) bail();
      if (line === "" && n < lines.length - 1) {
        // An empty line after an escaped break: the yaml library's reading of it is its own.
        if (joiner === "") bail();
        joiner = joiner === " " ? "\n" : `${joiner}\n`;
        continue;
      }
    }
    if (n < lines.length - 1) {
      if (double && endsEscaped(line)) {
        out += joiner + decode(line.slice(0, -1));
        joiner = "";
        continue;
      }
      const trimmed = trimSpaces(line);
      // An escaped space before trailing spaces, or an escaped break after spaces: left to the yaml library.
      if (double && trimmed !== line && endsEscaped(trimmed)) bail();
      line = trimmed;
    }
    out += joiner + decode(line);
    joiner = " ";
  }
  return out;
}

/** The value of `text` when it is block YAML of the common kind, recording positions into `positions`; else undefined. */
export function parseBlockYaml(text: string, positions: PositionIndex, recordDepth = Infinity): JsonValue | undefined {
  if (unusual.test(text) || (text.includes("\r") && loneCR.test(text))) return undefined;
  try {
    return new BlockYamlReader(text, positions, recordDepth).document();
  } catch (error) {
    if (error instanceof NotPlainYaml) return undefined;
    throw error;
  }
}

/**
 * Reads one text of block YAML, throwing NotPlainYaml at anything it leaves to the yaml
 * library. Its state lives in fields and its steps are methods (no closures, no tuples per
 * scalar), which keeps the hot loop as fast as the single function it was.
 */
class BlockYamlReader {
  private readonly length: number;
  /** Between nodes, the start of a line. */
  private i = 0;
  // Set by the scanners below beside what they return (a tuple per scalar would be garbage):
  /** Where the scalar or collection just read ends. */
  private scanned = 0;
  /** Whether the plain line just read ended in a comment. */
  private lineComment = false;
  /** Values named by anchors so far (the latest of a name wins, as in YAML). */
  private readonly anchors = new Map<string, JsonValue>();
  private aliasesRead = 0;
  /** Values copied for aliases so far: past maxAliasValues, the yaml path reports it. */
  private copied = 0;

  constructor(
    private readonly text: string,
    private readonly positions: PositionIndex,
    private readonly recordDepth: number,
  ) {
    this.length = text.length;
  }

  /** The whole text's value, or undefined when it holds more than one document. */
  document(): JsonValue | undefined {
    let first = this.nextLine();
    // A leading `---` opens the document; a second one, `...` or directives go to the yaml library.
    if (first === 0 && this.text.startsWith("---", this.i) && this.breakOrSpace(this.i + 3)) {
      this.endOfLine(this.i + 3);
      first = this.nextLine();
    }
    if (first !== 0) return undefined;
    const value = this.block(0, "", 0);
    return this.nextLine() === -1 ? value : undefined;
  }

  // ---- Characters and lines ----

  /** Where the line holding `p` ends: at its CR or LF, or the end of the text. */
  private lineEnd(p: number): number {
    const n = this.text.indexOf("\n", p);
    return n < 0 ? this.length : this.text[n - 1] === "\r" ? n - 1 : n;
  }

  /** The first `char` in [from, to), or -1: searches stay inside one line (an unbounded indexOf would make reading quadratic). */
  private find(char: string, from: number, to: number): number {
    const code = char.charCodeAt(0);
    for (let q = from; q < to; q++) if (this.text.charCodeAt(q) === code) return q;
    return -1;
  }

  /** The start of the line after the one holding `p`. */
  private afterLine(p: number): number {
    const n = this.text.indexOf("\n", p);
    return n < 0 ? this.length : n + 1;
  }

  /** Every CR is followed by LF (checked before reading): either starts a line break. */
  private isBreak(p: number): boolean {
    return this.text[p] === "\n" || this.text[p] === "\r";
  }

  private breakOrSpace(p: number): boolean {
    return p >= this.length || this.text[p] === " " || this.isBreak(p);
  }

  private skipSpaces(p: number): number {
    while (this.text.charCodeAt(p) === 0x20) p++;
    return p;
  }

  private isDash(p: number): boolean {
    return this.text[p] === "-" && this.breakOrSpace(p + 1);
  }

  /** Whether a plain scalar may start at `p` (`-5` and `-x` may, `- x` and `&x` may not). */
  private plainStart(p: number): boolean {
    const c = this.text[p]!;
    if (!indicators.has(c)) return true;
    return (c === "-" || c === "?" || c === ":") && !this.breakOrSpace(p + 1) && !indicators.has(this.text[p + 1]!);
  }

  /** Skips blank and comment lines; the indentation of the next line (i at its start), or -1 at the end. */
  private nextLine(): number {
    while (this.i < this.length) {
      const p = this.skipSpaces(this.i);
      if (p === this.length) break;
      if (this.isBreak(p) || this.text[p] === "#") this.i = this.afterLine(p);
      else return p - this.i;
    }
    this.i = this.length;
    return -1;
  }

  /** After a value on its line: spaces and a comment at most; moves to the next line. */
  private endOfLine(p: number): void {
    const q = this.skipSpaces(p);
    if (q < this.length && !this.isBreak(q) && !(this.text[q] === "#" && q > p)) bail();
    this.i = this.afterLine(q);
  }

  // ---- Positions ----

  private childOf(pointer: string | undefined, depth: number, token: string | number): string | undefined {
    return pointer !== undefined && depth < this.recordDepth ? childPointer(pointer, token) : undefined;
  }

  private record(pointer: string | undefined, start: number, end?: number): void {
    if (pointer !== undefined) this.positions.setValue(pointer, start, end);
  }

  // ---- Block collections ----

  private block(indent: number, pointer: string | undefined, depth: number): JsonValue {
    if (depth > maxNestingDepth) bail();
    const at = this.i + indent;
    return this.isDash(at) ? this.sequence(indent, pointer, depth) : this.mapping(indent, at, pointer, depth);
  }

  /** A block mapping whose keys start at column `col`, the first at `at` (on a sequence item's line when that is not a line start). */
  private mapping(col: number, at: number, pointer: string | undefined, depth: number): JsonValue {
    const out: { [key: string]: JsonValue } = {};
    this.record(pointer, at);
    for (let p = at; ; p = this.i + col) {
      const key = this.mappingKey(p);
      const colon = this.scanned;
      if (!this.breakOrSpace(colon + 1) || key.length > 1024 || Object.prototype.hasOwnProperty.call(out, key)) bail();
      const child = this.childOf(pointer, depth, key);
      if (child !== undefined) this.positions.setKey(child, p);
      setOwn(out, key, this.valueAfter(colon + 1, col, child, depth + 1, true));
      const next = this.nextLine();
      if (next < col) return out;
      if (next > col || this.isDash(this.i + col)) bail();
    }
  }

  /** A block mapping's key at `p` (`scanned`: its `:`). */
  private mappingKey(p: number): string {
    const text = this.text;
    const c = text[p]!;
    if (c === '"' || c === "'") {
      const key = this.quoted(p);
      const colon = this.skipSpaces(this.scanned);
      if (text[colon] !== ":") bail();
      this.scanned = colon;
      return key;
    }
    if (!this.plainStart(p)) bail();
    const e = this.lineEnd(p);
    let colon = this.find(":", p, e);
    while (colon >= 0 && !this.breakOrSpace(colon + 1)) colon = this.find(":", colon + 1, e);
    if (colon < 0) bail();
    const key = trimSpaces(text.slice(p, colon));
    if (key.includes(" #") || typeof plainValue(key) !== "string") bail();
    this.scanned = colon;
    return key;
  }

  private sequence(col: number, pointer: string | undefined, depth: number): JsonValue {
    const out: JsonValue[] = [];
    this.record(pointer, this.i + col);
    for (;;) {
      const dash = this.i + col;
      const child = this.childOf(pointer, depth, out.length);
      const p = this.skipSpaces(dash + 1);
      const e = this.lineEnd(p);
      if (p < e && this.text[p] !== "#" && this.startsMapping(p, e))
        out.push(this.mapping(p - this.i, p, child, depth + 1));
      else if (this.isDash(p)) bail();
      else out.push(this.valueAfter(dash + 1, col, child, depth + 1, false));
      const next = this.nextLine();
      if (next > col) bail();
      if (next < col || !this.isDash(this.i + col)) return out;
    }
  }

  /** Whether the line from `p` to `e` is `key: …` (a mapping that starts on a sequence item's line). */
  private startsMapping(p: number, e: number): boolean {
    const text = this.text;
    let q: number;
    if (!this.plainStart(p) && text[p] !== '"' && text[p] !== "'") return false;
    if (text[p] === '"' || text[p] === "'") {
      q = this.find(text[p]!, p + 1, e);
      if (q < 0) return false;
      q = this.skipSpaces(q + 1);
      return text[q] === ":" && this.breakOrSpace(q + 1);
    }
    for (q = this.find(":", p, e); q >= 0; q = this.find(":", q + 1, e)) if (this.breakOrSpace(q + 1)) return true;
    return false;
  }

  /**
   * The value after a mapping's `:` or a sequence's `-` at `q`: on the same line, or a block
   * on the lines below (more indented than `parent`, or a sequence at the key's own column).
   */
  private valueAfter(
    q: number,
    parent: number,
    pointer: string | undefined,
    depth: number,
    inMapping: boolean,
  ): JsonValue {
    let p = this.skipSpaces(q);
    if (this.text[p] !== "&") return this.unanchored(p, parent, pointer, depth, inMapping);
    // `&name value`: the value is kept for the aliases below it. One that holds aliases
    // itself multiplies when aliased ("billion laughs"): the yaml path counts those.
    const name = this.text.slice(p + 1, (p = this.nameEnd(p + 1)));
    const aliasesBefore = this.aliasesRead;
    const value = this.unanchored(this.skipSpaces(p), parent, pointer, depth, inMapping);
    if (this.aliasesRead !== aliasesBefore || value === null) bail();
    this.anchors.set(name, value);
    return value;
  }

  private unanchored(
    p: number,
    parent: number,
    pointer: string | undefined,
    depth: number,
    inMapping: boolean,
  ): JsonValue {
    if (p < this.length && !this.isBreak(p) && this.text[p] !== "#") return this.inline(p, parent, pointer, depth);
    this.i = this.afterLine(p);
    const next = this.nextLine();
    if (next > parent) return this.block(next, pointer, depth);
    if (inMapping && next === parent && this.isDash(this.i + next)) return this.block(next, pointer, depth);
    this.record(pointer, p, p);
    return null;
  }

  /** A value that starts on its key's or dash's line, at `p`. */
  private inline(p: number, parent: number, pointer: string | undefined, depth: number): JsonValue {
    const c = this.text[p]!;
    if (c === "*") return this.alias(p, pointer, depth);
    if (c === '"' || c === "'") {
      const value = this.quoted(p, parent);
      this.record(pointer, p, this.scanned);
      this.endOfLine(this.scanned);
      return value;
    }
    if (c === "[" || c === "{") {
      const value = this.flow(p, pointer, depth);
      this.endOfLine(this.scanned);
      return value;
    }
    if (c === "|" || c === ">") return this.blockScalar(p, parent, pointer);
    return this.plain(p, parent, pointer);
  }

  // ---- Anchors and aliases ----

  /** A fresh copy of an anchored value for an alias at `depth` (the yaml path copies too, and refuses the same depths and sizes). */
  private copy(value: JsonValue, depth: number): JsonValue {
    if (depth > maxNestingDepth || ++this.copied > maxAliasValues) bail();
    if (value === null || typeof value !== "object") return value;
    if (Array.isArray(value)) return value.map((item) => this.copy(item, depth + 1));
    const out: { [key: string]: JsonValue } = {};
    for (const key of Object.keys(value)) setOwn(out, key, this.copy(value[key]!, depth + 1));
    return out;
  }

  /** The end of an anchor's or alias's name starting at `p` (which must not be empty). */
  private nameEnd(p: number): number {
    let q = p;
    while (q < this.length && !this.breakOrSpace(q)) {
      if (",[]{}:".includes(this.text[q]!)) bail();
      q++;
    }
    return q > p ? q : bail();
  }

  /** `*name`: a copy of the anchored value, located at the alias (as the yaml path records it). */
  private alias(p: number, pointer: string | undefined, depth: number): JsonValue {
    const end = this.nameEnd(p + 1);
    const anchored = this.anchors.get(this.text.slice(p + 1, end)) ?? bail();
    this.aliasesRead++;
    this.record(pointer, p, end);
    this.endOfLine(end);
    return this.copy(anchored, depth);
  }

  // ---- Scalars ----

  /**
   * A quoted scalar's value (`scanned`: after its closing quote). Only a value may span
   * lines (`parent` is the indentation its later lines must pass); keys and flow items may not.
   */
  private quoted(p: number, parent = -1): string {
    const text = this.text;
    const quote = text[p]!;
    let q = p;
    for (;;) {
      q = text.indexOf(quote, q + 1);
      if (q < 0) bail();
      if (quote === '"') {
        let slashes = 0;
        while (text.charCodeAt(q - 1 - slashes) === 0x5c) slashes++;
        if (slashes % 2 === 0) break;
      } else if (text[q + 1] === "'") q++;
      else break;
    }
    const raw = text.slice(p + 1, q);
    const decode = quote === '"' ? unescapeDouble : unescapeSingle;
    this.scanned = q + 1;
    if (!raw.includes("\n")) return decode(raw);
    if (parent < 0) bail();
    return foldQuoted(raw, parent, quote === '"', decode);
  }

  /** The end of a plain scalar's text on the line from `p` to `e`, before trailing spaces and a comment (`lineComment`). */
  private plainLineEnd(p: number, e: number): number {
    const text = this.text;
    let end = e;
    this.lineComment = false;
    for (let q = p; q < e; q++) {
      const c = text[q];
      if (c === ":" && this.breakOrSpace(q + 1)) bail();
      if (c === "#" && text[q - 1] === " ") {
        end = q - 1;
        this.lineComment = true;
        break;
      }
    }
    while (end > p && text[end - 1] === " ") end--;
    return end;
  }

  /** A plain scalar, folded over the more indented lines that follow it. */
  private plain(p: number, parent: number, pointer: string | undefined): JsonValue {
    const text = this.text;
    if (!this.plainStart(p)) bail();
    const firstEnd = this.plainLineEnd(p, this.lineEnd(p));
    let value = text.slice(p, firstEnd);
    let end = firstEnd;
    this.i = this.afterLine(p);
    while (!this.lineComment && this.i < this.length) {
      let q = this.i;
      let breaks = 0;
      for (let s = this.skipSpaces(q); s < this.length && this.isBreak(s); s = this.skipSpaces(q)) {
        breaks++;
        q = this.afterLine(s);
      }
      const start = this.skipSpaces(q);
      if (start >= this.length || start - q <= parent) break;
      // A later line may start with any indicator but a comment's `#` (`- `, `? `, `: ` are left to the yaml library).
      if (text[start] === "#" || ("-?:".includes(text[start]!) && this.breakOrSpace(start + 1))) bail();
      end = this.plainLineEnd(start, this.lineEnd(start));
      value += (breaks > 0 ? "\n".repeat(breaks) : " ") + text.slice(start, end);
      this.i = this.afterLine(start);
    }
    this.record(pointer, p, end);
    return end === firstEnd ? plainValue(value) : value;
  }

  /** A `|` or `>` scalar (clip or strip chomping, indentation found from its first line). */
  private blockScalar(p: number, parent: number, pointer: string | undefined): JsonValue {
    const folded = this.text[p] === ">";
    let h = p + 1;
    const strip = this.text[h] === "-";
    if (strip) h++;
    this.endOfLine(h);
    const lines = this.blockScalarLines(parent, folded);
    const end = this.scanned;
    const body = joinBlockScalarLines(lines, folded);
    this.record(pointer, p, end);
    return strip ? body : `${body}\n`;
  }

  /** A block scalar's lines from `i`, less their indentation (`scanned`: the end of its last line of text). */
  private blockScalarLines(parent: number, folded: boolean): string[] {
    const text = this.text;
    const lines: string[] = [];
    let indent = -1;
    let leadingSpaces = 0;
    let end = this.i;
    while (this.i < this.length) {
      const s = this.skipSpaces(this.i);
      if (s >= this.length || this.isBreak(s)) {
        if (indent < 0) leadingSpaces = Math.max(leadingSpaces, s - this.i);
        else if (s - this.i > indent) bail();
        lines.push("");
        this.i = this.afterLine(s);
        continue;
      }
      if (indent < 0) {
        if (s - this.i <= parent || leadingSpaces > s - this.i) bail();
        indent = s - this.i;
      }
      if (s - this.i < indent) break;
      const e = this.lineEnd(s);
      const line = text.slice(this.i + indent, e);
      if (folded && line[0] === " ") bail();
      lines.push(line);
      this.i = end = this.afterLine(e);
    }
    if (indent < 0) bail();
    this.scanned = end;
    return lines;
  }

  // ---- Flow collections ----

  /** A flow collection on one line (`[a, "b"]`, `{ k: v }`): its value (`scanned`: the offset after it). */
  private flow(p: number, pointer: string | undefined, depth: number): JsonValue {
    if (depth > maxNestingDepth) bail();
    const text = this.text;
    const e = this.lineEnd(p);
    const close = text[p] === "[" ? "]" : "}";
    const list: JsonValue[] = [];
    const map: { [key: string]: JsonValue } = {};
    let q = this.skipSpaces(p + 1);
    while (text[q] !== close) {
      if (q >= e) bail();
      let key: string | undefined;
      let child: string | undefined;
      if (close === "]") child = this.childOf(pointer, depth, list.length);
      else {
        const keyAt = q;
        key = this.flowKey(q, e, map);
        q = this.scanned;
        child = this.childOf(pointer, depth, key);
        if (child !== undefined) this.positions.setKey(child, keyAt);
      }
      const value = this.flowValue(q, e, child, depth);
      if (key === undefined) list.push(value);
      else setOwn(map, key, value);
      q = this.skipSpaces(this.scanned);
      if (text[q] === ",") {
        q = this.skipSpaces(q + 1);
        if (text[q] === close) bail();
      } else if (text[q] !== close || q >= e) bail();
    }
    if (q >= e) bail();
    this.record(pointer, p, q + 1);
    this.scanned = q + 1;
    return close === "]" ? list : map;
  }

  /** A flow mapping's key at `q`, new in `map` (`scanned`: where its value starts, past the `:`). */
  private flowKey(q: number, e: number, map: { [key: string]: JsonValue }): string {
    const text = this.text;
    const keyAt = q;
    const key = text[q] === '"' || text[q] === "'" ? this.quoted(q) : this.flowPlain(q, e, true);
    if (typeof plainValue(key) !== "string" && text[keyAt] !== '"' && text[keyAt] !== "'") bail();
    q = this.skipSpaces(this.scanned);
    if (text[q] !== ":" || !this.breakOrSpace(q + 1) || Object.prototype.hasOwnProperty.call(map, key)) bail();
    this.scanned = this.skipSpaces(q + 1);
    return key;
  }

  /** A flow collection's item or value at `q` (`scanned`: its end). */
  private flowValue(q: number, e: number, pointer: string | undefined, depth: number): JsonValue {
    const c = this.text[q];
    if (c === "[" || c === "{") return this.flow(q, pointer, depth + 1);
    const isQuoted = c === '"' || c === "'";
    const written = isQuoted ? this.quoted(q) : this.flowPlain(q, e, false);
    const value = isQuoted ? written : plainValue(written);
    this.record(pointer, q, this.scanned);
    return value;
  }

  /** A plain scalar inside a one-line flow collection, ending at `,`, `]`, `}` (or `: ` after a key): its text (`scanned`: its end). */
  private flowPlain(p: number, e: number, isKey: boolean): string {
    const text = this.text;
    if (!this.plainStart(p)) bail();
    let q = p;
    for (; q < e; q++) {
      const c = text[q]!;
      if (c === "," || c === "]" || c === "}") break;
      if (c === ":" && isKey && this.breakOrSpace(q + 1)) break;
      if (c === "[" || c === "{" || c === ":" || (c === "#" && text[q - 1] === " ")) bail();
    }
    let end = q;
    while (end > p && text[end - 1] === " ") end--;
    if (end === p) bail();
    this.scanned = end;
    return text.slice(p, end);
  }
}

/** A block scalar's body: lines break where written (`|`) or fold into spaces between lines of text (`>`); empty lines are breaks in both. */
function joinBlockScalarLines(lines: readonly string[], folded: boolean): string {
  let body = "";
  let breaks = 0;
  let started = false;
  for (const line of lines) {
    if (line === "") {
      breaks++;
      continue;
    }
    if (started) body += folded && breaks === 0 ? " " : "\n".repeat(folded ? breaks : breaks + 1);
    else body += "\n".repeat(breaks);
    body += line;
    breaks = 0;
    started = true;
  }
  return body;
}
