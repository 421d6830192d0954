// Block YAML takes a fast path (generator/load/yaml-source.ts) that must read every text it
// accepts exactly as the yaml library does (values and positions) and hand everything else
// to it. Checked on the repository's manifests, on seeded random documents written by the yaml
// library in twelve styles (some with anchors and aliases, some with CRLF line ends), on
// hand-written edge cases and on random mutations of them.
import { readFileSync } from "node:fs";
import { stringify, type ToStringOptions } from "yaml";
import { describe, expect, it } from "vitest";
import { parseSource } from "../../generator/load/parse.js";
import { PositionIndex, childPointer, type JsonValue } from "../../generator/load/source.js";
import { parseBlockYaml } from "../../generator/load/yaml-source.js";

/** Deterministic pseudo-random numbers (mulberry32). */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const awkwardStrings = [
  "",
  " ",
  "plain",
  "two words",
  "a: b",
  "a:b",
  "a #b",
  "a#b",
  "#x",
  "- x",
  "-x",
  "-5",
  "5",
  "1.50",
  "1e3",
  "0x1F",
  "0o17",
  ".inf",
  ".nan",
  "null",
  "~",
  "Null",
  "true",
  "False",
  "yes",
  "'quoted'",
  '"dq"',
  "it's",
  'say "hi"',
  "back\\slash",
  "tab\there",
  "line\nbreak",
  "trailing\n",
  "two\n\nparagraphs\n",
  " leading",
  "trailing ",
  "[a]",
  "{b}",
  "a, b",
  "&anchor",
  "*alias",
  "!tag",
  "|",
  ">",
  "%x",
  "@x",
  "`x`",
  "?",
  "? x",
  "é ü 日本",
  "emoji 🙂",
  "line\u2028sep",
  "para\u2029sep",
  "next\u0085line",
  "nb\u00a0sp",
  "bell\u0007",
  "esc\u001b",
  "nul\u0000",
  "a  b   c",
  "end \\",
  "\\ start",
  "x".repeat(120),
  "word ".repeat(30).trim(),
  "__proto__",
  "$ref",
  "#/$defs/x",
  "http://example.com/a?b=c#d",
  "key:",
  ":",
];

/** Values already made, some used again: the yaml library writes a value met twice as an anchor and an alias. */
const made: JsonValue[] = [];

function randomValue(next: () => number, depth: number): JsonValue {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  if (made.length > 0 && next() < 0.05) return pick(made);
  const value = freshValue(next, depth, pick);
  if (value !== null && typeof value === "object") made.push(value);
  if (made.length > 50) made.shift();
  return value;
}

function freshValue(next: () => number, depth: number, pick: <T>(list: readonly T[]) => T): JsonValue {
  const roll = next();
  if (depth > 0 && roll < 0.25) {
    const out: { [key: string]: JsonValue } = {};
    for (let n = Math.floor(next() * 5); n > 0; n--) {
      const key =
        next() < 0.7
          ? pick(["name", "type", "description", "x-y", "$defs", "a b", "k1", "properties"]) +
            (next() < 0.5 ? "" : String(Math.floor(next() * 9)))
          : pick(awkwardStrings);
      Object.defineProperty(out, key, {
        value: randomValue(next, depth - 1),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
  if (depth > 0 && roll < 0.4)
    return Array.from({ length: Math.floor(next() * 4) }, () => randomValue(next, depth - 1));
  if (roll < 0.55) return pick([0, 1, -1, 2.5, -0.125, 1e21, 123456789, 3.0e-7]);
  if (roll < 0.62) return pick([true, false, null]);
  return pick(awkwardStrings);
}

const styles: ToStringOptions[] = [
  {},
  { lineWidth: 0 },
  { lineWidth: 30, minContentWidth: 10 },
  { indent: 4, indentSeq: false },
  { defaultStringType: "QUOTE_DOUBLE", defaultKeyType: "PLAIN" },
  { defaultStringType: "QUOTE_SINGLE" },
  { defaultStringType: "QUOTE_DOUBLE", lineWidth: 24, minContentWidth: 0 },
  { defaultStringType: "QUOTE_SINGLE", lineWidth: 24, minContentWidth: 0 },
  { blockQuote: "literal" },
  { blockQuote: "folded", lineWidth: 40 },
  { collectionStyle: "flow", lineWidth: 0 },
  { flowCollectionPadding: false, collectionStyle: "flow", lineWidth: 0 },
];

function* pointersOf(value: JsonValue, pointer = ""): Generator<[string, JsonValue]> {
  yield [pointer, value];
  if (Array.isArray(value))
    for (let i = 0; i < value.length; i++) yield* pointersOf(value[i]!, childPointer(pointer, i));
  else if (value !== null && typeof value === "object")
    for (const key of Object.keys(value)) yield* pointersOf(value[key]!, childPointer(pointer, key));
}

/** Whether the fast path took `text`; when it did, it must agree with the yaml library in value and every position. */
function agrees(text: string): boolean {
  const taken = parseBlockYaml(text, new PositionIndex("f.yaml", text)) !== undefined;
  const slow = parseSource("f.yaml", text, false);
  if (!taken) return false;
  expect(slow.diagnostics, text).toEqual([]);
  const fast = parseSource("f.yaml", text);
  expect(fast.source!.value, text).toStrictEqual(slow.source!.value);
  for (const [pointer, value] of pointersOf(slow.source!.value)) {
    const [a, b] = [fast.source!.positions, slow.source!.positions];
    expect([pointer, a.value(pointer), a.key(pointer)], text).toEqual([pointer, b.value(pointer), b.key(pointer)]);
    if (value === null || typeof value !== "object")
      expect([pointer, a.source(pointer)], text).toEqual([pointer, b.source(pointer)]);
  }
  return true;
}

const handWritten = [
  "a: 1\nb: two\n",
  "# comment\n\n---\nkey: value # trailing\nlist:\n  - a\n  - b\n",
  "list:\n- a\n- b\nnext: 1\n",
  'items:\n  - name: x\n    type: string\n  - name: y\n    nested:\n      deep: [1, 2, "three"]\n',
  "text: |\n  line one\n  line two\n\n  after blank\n\nnext: 1\n",
  "text: |-\n  kept\n    indented\nnext: 1\n",
  "text: >\n  folded\n  lines\n\n  para\nnext: x\n",
  "text: >-\n  folded\n  strip\n",
  "text: |\n  no final newline",
  "plain: first\n  continued\n\n  after blank\nnext: 1\n",
  "seq:\n  - first\n    more\n  - x\n",
  "empty:\nnext:\n  # only a comment\nlast: 1\n",
  "flow: {a: 1, \"b\": [x, 'y z'], c: {}}\nf2: []\n",
  "q: 'it''s'\nd: \"esc \\\" \\\\ \\u00e9 \\n\"\n",
  "n: -5\nf: 1.50\ne: 1e3\ns: -x\nk: ~\n",
  "t: True\nf: FALSE\nn: NULL\nm: Null\nint: +12\nneg: -0\nfl: .5\nfl2: 1.\nexp: 2E-3\nword: trueish\n",
  "null: key\n",
  "trailing: x   \nspaced: y   # c\nflow: [a , b ]   \n",
  `${"k".repeat(1100)}: long key\n`,
  '\'quoted key\': 1\n"dq key": 2\n"spaced" : 3\nspaced key   : 4\n^[0-9]+$: pattern\n',
  "a:\n  b:\n    c:\n      d:\n        e:\n          f: deep\n",
  "root:\n  - - nested\n",
  "a: &x 1\nb: *x\n",
  "a: &x\n  k: v\n  j: [1]\nb: *x\nc: &y five # c\nd: *y # c\ne:\n  - &z s\n  - *z\nf: &w |\n  text\ng: *w\nh: *x\n",
  "a: &x { k: *y }\n",
  "a: *missing\n",
  "a: &x [1]\nb: &x [2]\nc: *x\n",
  "a: &x\n  b: &y 1\n  c: *y\nd: *x\n",
  "a: !tag x\n",
  "a: 0x1F\n",
  "a: 1\na: 2\n",
  "a:\tb\n",
  "a: b\r\nc: d\r\n",
  "a: b\rc: d\n",
  "a: b: c\n",
  'a: "multi\n  line"\n',
  "a: \"fold\n  over\n\n  lines \\\n  joined\\x41\\u00e9\\U0001F642\\L\\N\\_\\ \"\nb: 'single\n  ''fold''\n\n\n  end'\n",
  'a: "trailing\n  "\nb: "x\n"\n',
  '- "in a\n   sequence"\n',
  "a: [1,\n  2]\n",
  "1: x\n",
  "true: x\n",
  "a: |+\n  keep\n\n",
  "a: |2\n   x\n",
  "---\na: 1\n---\nb: 2\n",
  "%YAML 1.2\n---\na: 1\n",
  "- top\n- level\n",
  "a: 1\n  b: 2\n",
  "a:\n  - x\n  b: 1\n",
  "a: 'unterminated\n",
  "a: [x, ]\n",
  "a: {x}\n",
  "k: v # c: d\n",
  'a: "x"y\n',
  "a: x\n# c\n  y\n",
  "? complex\n: value\n",
  "a:\n  |\n  x\n",
  "__proto__: 1\nb: {__proto__: 2}\n",
  "a: 1e999\n",
  "a: -\n",
  "a: x\n\n\n",
];

describe("the block YAML fast path", () => {
  it("reads every manifest in the repository, as the yaml library does", () => {
    const files = [
      "examples/weather/mcp.yaml",
      "examples/everything/mcp.yaml",
      "test/conformance/server/mcp.yaml",
      "bench/workload/mcp.yaml",
      "test/interop/everything/mcp.yaml",
    ];
    for (const file of files) expect(agrees(readFileSync(file, "utf8")), file).toBe(true);
  });

  it("reads documents the yaml library writes in twelve styles, as the yaml library does", () => {
    const next = random(2026);
    let taken = 0;
    let total = 0;
    for (let n = 0; n < 400; n++) {
      const value = { root: randomValue(next, 5), other: randomValue(next, 3) };
      for (const style of styles) {
        const text = stringify(value, style);
        total++;
        if (agrees(text)) taken++;
        // Written on Windows: CRLF line ends.
        if (n % 4 === 0)
          expect(agrees(text.replace(/\n/g, "\r\n")), "the same text with CRLF line ends").toBe(agrees(text));
      }
    }
    // Most of them are of the common kind: the fast path must not give up on ordinary YAML.
    expect(taken / total).toBeGreaterThan(0.5);
  });

  it("agrees on hand-written edge cases, and leaves what it does not read to the yaml library", () => {
    const taken = handWritten.filter((text) => agrees(text));
    for (const text of handWritten.filter((t) => !t.includes("\r")))
      expect(agrees(text.replace(/\n/g, "\r\n")), JSON.stringify(text)).toBe(taken.includes(text));
    expect(taken.length).toBeGreaterThan(20);
  });

  it("never accepts a mutated document the yaml library refuses or reads differently", () => {
    const next = random(16);
    const pieces = [
      " ",
      "  ",
      ":",
      ": ",
      "-",
      "- ",
      "#",
      " #",
      "'",
      '"',
      "|",
      ">",
      "\n",
      "\n  ",
      "[",
      "]",
      "{",
      "}",
      ",",
      "&a",
      "*a",
      "!",
      "\\",
      "x",
      "1",
      "~",
      "?",
      "\u0085",
      "\u2028",
      "\u00a0",
      "---",
      "\\\n",
      "\r\n",
      "\r",
    ];
    const seeds = handWritten.filter((text) => parseBlockYaml(text, new PositionIndex("f", text)) !== undefined);
    let readable = 0;
    for (let n = 0; n < 3000; n++) {
      let text = seeds[Math.floor(next() * seeds.length)]!;
      for (let edits = 1 + Math.floor(next() * 3); edits > 0; edits--) {
        const at = Math.floor(next() * (text.length + 1));
        const cut = next() < 0.4 ? Math.floor(next() * 3) : 0;
        text =
          text.slice(0, at) + (next() < 0.8 ? pieces[Math.floor(next() * pieces.length)] : "") + text.slice(at + cut);
      }
      if (agrees(text)) readable++;
    }
    // A fair share of the mutants stay readable YAML of the common kind, so both branches are exercised.
    expect(readable).toBeGreaterThan(500);
  });
});
