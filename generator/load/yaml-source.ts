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
  const length = text.length;
  /** Between nodes, the start of a line. */
  let i = 0;
  // Set by the scanners below beside what they return (a tuple per scalar would be garbage):
  /** Where the scalar or collection just read ends. */
  let scanned = 0;
  /** Whether the plain line just read ended in a comment. */
  let lineComment = false;
  /** Where the line holding `p` ends: at its CR or LF, or the end of the text. */
  const lineEnd = (p: number) => {
    const n = text.indexOf("\n", p);
    return n < 0 ? length : text[n - 1] === "\r" ? n - 1 : n;
  };
  /** The first `char` in [from, to), or -1: searches stay inside one line (an unbounded indexOf would make reading quadratic). */
  const find = (char: string, from: number, to: number) => {
    const code = char.charCodeAt(0);
    for (let q = from; q < to; q++) if (text.charCodeAt(q) === code) return q;
    return -1;
  };
  /** The start of the line after the one holding `p`. */
  const afterLine = (p: number) => {
    const n = text.indexOf("\n", p);
    return n < 0 ? length : n + 1;
  };
  // Every CR is followed by LF (checked above): either starts a line break.
  const isBreak = (p: number) => text[p] === "\n" || text[p] === "\r";
  const breakOrSpace = (p: number) => p >= length || text[p] === " " || isBreak(p);
  const skipSpaces = (p: number) => {
    while (text.charCodeAt(p) === 0x20) p++;
    return p;
  };
  const childOf = (pointer: string | undefined, depth: number, token: string | number) =>
    pointer !== undefined && depth < recordDepth ? childPointer(pointer, token) : undefined;
  const record = (pointer: string | undefined, start: number, end?: number) => {
    if (pointer !== undefined) positions.setValue(pointer, start, end);
  };
  const isDash = (p: number) => text[p] === "-" && breakOrSpace(p + 1);
  /** Whether a plain scalar may start at `p` (`-5` and `-x` may, `- x` and `&x` may not). */
  const plainStart = (p: number) => {
    const c = text[p]!;
    if (!indicators.has(c)) return true;
    return (c === "-" || c === "?" || c === ":") && !breakOrSpace(p + 1) && !indicators.has(text[p + 1]!);
  };

  /** Skips blank and comment lines; the indentation of the next line (i at its start), or -1 at the end. */
  const nextLine = (): number => {
    while (i < length) {
      const p = skipSpaces(i);
      if (p === length) break;
      if (isBreak(p) || text[p] === "#") i = afterLine(p);
      else return p - i;
    }
    i = length;
    return -1;
  };

  /** After a value on its line: spaces and a comment at most; moves to the next line. */
  const endOfLine = (p: number) => {
    const q = skipSpaces(p);
    if (q < length && !isBreak(q) && !(text[q] === "#" && q > p)) bail();
    i = afterLine(q);
  };

  /**
   * A quoted scalar's value (`scanned`: after its closing quote). Only a value may span
   * lines (`parent` is the indentation its later lines must pass); keys and flow items may not.
   */
  const quoted = (p: number, parent = -1): string => {
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
    scanned = q + 1;
    if (!raw.includes("\n")) return decode(raw);
    if (parent < 0) bail();
    return foldQuoted(raw, parent, quote === '"', decode);
  };

  /** Whether the line from `p` to `e` is `key: …` (a mapping that starts on a sequence item's line). */
  const startsMapping = (p: number, e: number): boolean => {
    let q: number;
    if (!plainStart(p) && text[p] !== '"' && text[p] !== "'") return false;
    if (text[p] === '"' || text[p] === "'") {
      q = find(text[p]!, p + 1, e);
      if (q < 0) return false;
      q = skipSpaces(q + 1);
      return text[q] === ":" && breakOrSpace(q + 1);
    }
    for (q = find(":", p, e); q >= 0; q = find(":", q + 1, e)) if (breakOrSpace(q + 1)) return true;
    return false;
  };

  const block = (indent: number, pointer: string | undefined, depth: number): JsonValue => {
    if (depth > maxNestingDepth) bail();
    return isDash(i + indent) ? sequence(indent, pointer, depth) : mapping(indent, i + indent, pointer, depth);
  };

  /** A block mapping whose keys start at column `col`, the first at `at` (on a sequence item's line when that is not a line start). */
  const mapping = (col: number, at: number, pointer: string | undefined, depth: number): JsonValue => {
    const out: { [key: string]: JsonValue } = {};
    record(pointer, at);
    for (let p = at; ; p = i + col) {
      let key: string;
      let colon: number;
      const c = text[p]!;
      if (c === '"' || c === "'") {
        key = quoted(p);
        colon = skipSpaces(scanned);
        if (text[colon] !== ":") bail();
      } else {
        if (!plainStart(p)) bail();
        const e = lineEnd(p);
        colon = find(":", p, e);
        while (colon >= 0 && !breakOrSpace(colon + 1)) colon = find(":", colon + 1, e);
        if (colon < 0) bail();
        key = trimSpaces(text.slice(p, colon));
        if (key.includes(" #") || typeof plainValue(key) !== "string") bail();
      }
      if (!breakOrSpace(colon + 1) || key.length > 1024 || Object.prototype.hasOwnProperty.call(out, key)) bail();
      const child = childOf(pointer, depth, key);
      if (child !== undefined) positions.setKey(child, p);
      setOwn(out, key, valueAfter(colon + 1, col, child, depth + 1, true));
      const next = nextLine();
      if (next < col) return out;
      if (next > col || isDash(i + col)) bail();
    }
  };

  const sequence = (col: number, pointer: string | undefined, depth: number): JsonValue => {
    const out: JsonValue[] = [];
    record(pointer, i + col);
    for (;;) {
      const dash = i + col;
      const child = childOf(pointer, depth, out.length);
      const p = skipSpaces(dash + 1);
      const e = lineEnd(p);
      if (p < e && text[p] !== "#" && startsMapping(p, e)) out.push(mapping(p - i, p, child, depth + 1));
      else if (isDash(p)) bail();
      else out.push(valueAfter(dash + 1, col, child, depth + 1, false));
      const next = nextLine();
      if (next > col) bail();
      if (next < col || !isDash(i + col)) return out;
    }
  };

  /**
   * The value after a mapping's `:` or a sequence's `-` at `q`: on the same line, or a block
   * on the lines below (more indented than `parent`, or a sequence at the key's own column).
   */
  const valueAfter = (
    q: number,
    parent: number,
    pointer: string | undefined,
    depth: number,
    inMapping: boolean,
  ): JsonValue => {
    let p = skipSpaces(q);
    if (text[p] !== "&") return unanchored(p, parent, pointer, depth, inMapping);
    // `&name value`: the value is kept for the aliases below it. One that holds aliases
    // itself multiplies when aliased ("billion laughs"): the yaml path counts those.
    const name = text.slice(p + 1, (p = nameEnd(p + 1)));
    const aliasesBefore = aliasesRead;
    const value = unanchored(skipSpaces(p), parent, pointer, depth, inMapping);
    if (aliasesRead !== aliasesBefore || value === null) bail();
    anchors.set(name, value);
    return value;
  };

  const unanchored = (
    p: number,
    parent: number,
    pointer: string | undefined,
    depth: number,
    inMapping: boolean,
  ): JsonValue => {
    if (p < length && !isBreak(p) && text[p] !== "#") return inline(p, parent, pointer, depth);
    i = afterLine(p);
    const next = nextLine();
    if (next > parent) return block(next, pointer, depth);
    if (inMapping && next === parent && isDash(i + next)) return block(next, pointer, depth);
    record(pointer, p, p);
    return null;
  };

  /** Values named by anchors so far (the latest of a name wins, as in YAML). */
  const anchors = new Map<string, JsonValue>();
  let aliasesRead = 0;
  /** Values copied for aliases so far: past maxAliasValues, the yaml path reports it. */
  let copied = 0;

  /** A fresh copy of an anchored value for an alias at `depth` (the yaml path copies too, and refuses the same depths and sizes). */
  const copy = (value: JsonValue, depth: number): JsonValue => {
    if (depth > maxNestingDepth || ++copied > maxAliasValues) bail();
    if (value === null || typeof value !== "object") return value;
    if (Array.isArray(value)) return value.map((item) => copy(item, depth + 1));
    const out: { [key: string]: JsonValue } = {};
    for (const key of Object.keys(value)) setOwn(out, key, copy(value[key]!, depth + 1));
    return out;
  };
  /** The end of an anchor's or alias's name starting at `p` (which must not be empty). */
  const nameEnd = (p: number) => {
    let q = p;
    while (q < length && !breakOrSpace(q)) {
      if (",[]{}:".includes(text[q]!)) bail();
      q++;
    }
    return q > p ? q : bail();
  };

  /** `*name`: a copy of the anchored value, located at the alias (as the yaml path records it). */
  const alias = (p: number, pointer: string | undefined, depth: number): JsonValue => {
    const end = nameEnd(p + 1);
    const anchored = anchors.get(text.slice(p + 1, end)) ?? bail();
    aliasesRead++;
    record(pointer, p, end);
    endOfLine(end);
    return copy(anchored, depth);
  };

  const inline = (p: number, parent: number, pointer: string | undefined, depth: number): JsonValue => {
    const c = text[p]!;
    if (c === "*") return alias(p, pointer, depth);
    if (c === '"' || c === "'") {
      const value = quoted(p, parent);
      record(pointer, p, scanned);
      endOfLine(scanned);
      return value;
    }
    if (c === "[" || c === "{") {
      const value = flow(p, pointer, depth);
      endOfLine(scanned);
      return value;
    }
    if (c === "|" || c === ">") return blockScalar(p, parent, pointer);
    return plain(p, parent, pointer);
  };

  /** The end of a plain scalar's text on the line from `p` to `e`, before trailing spaces and a comment (`lineComment`). */
  const plainLineEnd = (p: number, e: number): number => {
    let end = e;
    lineComment = false;
    for (let q = p; q < e; q++) {
      const c = text[q];
      if (c === ":" && breakOrSpace(q + 1)) bail();
      if (c === "#" && text[q - 1] === " ") {
        end = q - 1;
        lineComment = true;
        break;
      }
    }
    while (end > p && text[end - 1] === " ") end--;
    return end;
  };

  /** A plain scalar, folded over the more indented lines that follow it. */
  const plain = (p: number, parent: number, pointer: string | undefined): JsonValue => {
    if (!plainStart(p)) bail();
    const firstEnd = plainLineEnd(p, lineEnd(p));
    let value = text.slice(p, firstEnd);
    let end = firstEnd;
    i = afterLine(p);
    while (!lineComment && i < length) {
      let q = i;
      let breaks = 0;
      for (let s = skipSpaces(q); s < length && isBreak(s); s = skipSpaces(q)) {
        breaks++;
        q = afterLine(s);
      }
      const start = skipSpaces(q);
      if (start >= length || start - q <= parent) break;
      // A later line may start with any indicator but a comment's `#` (`- `, `? `, `: ` are left to the yaml library).
      if (text[start] === "#" || ("-?:".includes(text[start]!) && breakOrSpace(start + 1))) bail();
      end = plainLineEnd(start, lineEnd(start));
      value += (breaks > 0 ? "\n".repeat(breaks) : " ") + text.slice(start, end);
      i = afterLine(start);
    }
    record(pointer, p, end);
    return end === firstEnd ? plainValue(value) : value;
  };

  /** A `|` or `>` scalar (clip or strip chomping, indentation found from its first line). */
  const blockScalar = (p: number, parent: number, pointer: string | undefined): JsonValue => {
    const folded = text[p] === ">";
    let h = p + 1;
    const strip = text[h] === "-";
    if (strip) h++;
    endOfLine(h);
    const lines: string[] = [];
    let indent = -1;
    let leadingSpaces = 0;
    let end = i;
    while (i < length) {
      const s = skipSpaces(i);
      if (s >= length || isBreak(s)) {
        if (indent < 0) leadingSpaces = Math.max(leadingSpaces, s - i);
        else if (s - i > indent) bail();
        lines.push("");
        i = afterLine(s);
        continue;
      }
      if (indent < 0) {
        if (s - i <= parent || leadingSpaces > s - i) bail();
        indent = s - i;
      }
      if (s - i < indent) break;
      const e = lineEnd(s);
      const line = text.slice(i + indent, e);
      if (folded && line[0] === " ") bail();
      lines.push(line);
      i = end = afterLine(e);
    }
    if (indent < 0) bail();
    // Lines break where written (`|`) or fold into spaces between lines of text (`>`); empty lines are breaks in both.
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
    if (!strip) body += "\n";
    record(pointer, p, end);
    return body;
  };

  /** A flow collection on one line (`[a, "b"]`, `{ k: v }`): its value (`scanned`: the offset after it). */
  const flow = (p: number, pointer: string | undefined, depth: number): JsonValue => {
    if (depth > maxNestingDepth) bail();
    const e = lineEnd(p);
    const close = text[p] === "[" ? "]" : "}";
    const list: JsonValue[] = [];
    const map: { [key: string]: JsonValue } = {};
    let q = skipSpaces(p + 1);
    while (text[q] !== close) {
      if (q >= e) bail();
      let key: string | undefined;
      let child: string | undefined;
      if (close === "]") child = childOf(pointer, depth, list.length);
      else {
        const keyAt = q;
        key = text[q] === '"' || text[q] === "'" ? quoted(q) : flowPlain(q, e, true);
        if (typeof plainValue(key) !== "string" && text[keyAt] !== '"' && text[keyAt] !== "'") bail();
        q = skipSpaces(scanned);
        if (text[q] !== ":" || !breakOrSpace(q + 1) || Object.prototype.hasOwnProperty.call(map, key)) bail();
        q = skipSpaces(q + 1);
        child = childOf(pointer, depth, key);
        if (child !== undefined) positions.setKey(child, keyAt);
      }
      const at = q;
      let value: JsonValue;
      if (text[q] === "[" || text[q] === "{") value = flow(q, child, depth + 1);
      else {
        const isQuoted = text[q] === '"' || text[q] === "'";
        const written = isQuoted ? quoted(q) : flowPlain(q, e, false);
        value = isQuoted ? written : plainValue(written);
        record(child, at, scanned);
      }
      if (key === undefined) list.push(value);
      else setOwn(map, key, value);
      q = skipSpaces(scanned);
      if (text[q] === ",") {
        q = skipSpaces(q + 1);
        if (text[q] === close) bail();
      } else if (text[q] !== close || q >= e) bail();
    }
    if (q >= e) bail();
    record(pointer, p, q + 1);
    scanned = q + 1;
    return close === "]" ? list : map;
  };

  /** A plain scalar inside a one-line flow collection, ending at `,`, `]`, `}` (or `: ` after a key): its text (`scanned`: its end). */
  const flowPlain = (p: number, e: number, isKey: boolean): string => {
    if (!plainStart(p)) bail();
    let q = p;
    for (; q < e; q++) {
      const c = text[q]!;
      if (c === "," || c === "]" || c === "}") break;
      if (c === ":" && isKey && breakOrSpace(q + 1)) break;
      if (c === "[" || c === "{" || c === ":" || (c === "#" && text[q - 1] === " ")) bail();
    }
    let end = q;
    while (end > p && text[end - 1] === " ") end--;
    if (end === p) bail();
    scanned = end;
    return text.slice(p, end);
  };

  try {
    let first = nextLine();
    // A leading `---` opens the document; a second one, `...` or directives go to the yaml library.
    if (first === 0 && text.startsWith("---", i) && breakOrSpace(i + 3)) {
      endOfLine(i + 3);
      first = nextLine();
    }
    if (first !== 0) return undefined;
    const value = block(0, "", 0);
    return nextLine() === -1 ? value : undefined;
  } catch (error) {
    if (error instanceof NotPlainYaml) return undefined;
    throw error;
  }
}
