// Newline-delimited framing (runtime/transport/lines.ts): lines across chunks, CRLF, blank
// lines, UTF-8 split between chunks, and lines over the byte limit (counted in UTF-8).
import { describe, expect, it } from "vitest";
import { LineDecoder } from "../../runtime/transport/lines.js";

const bytes = (text: string) => new TextEncoder().encode(text);

describe("LineDecoder", () => {
  it("returns complete lines, joins a line split across chunks, drops CR and blank lines", () => {
    const decoder = new LineDecoder();
    expect(decoder.push('{"a":1}\n{"b"')).toEqual(['{"a":1}']);
    expect(decoder.push(":2")).toEqual([]);
    expect(decoder.push('}\r\n\n  \r\n{"c":3}\n')).toEqual(['{"b":2}', '{"c":3}']);
    expect(decoder.push('{"d":4}')).toEqual([]);
    expect(decoder.flush()).toEqual(['{"d":4}']);
    expect(decoder.flush()).toEqual([]);
  });

  it("decodes a character whose UTF-8 bytes arrive in two chunks", () => {
    const decoder = new LineDecoder();
    const line = bytes('"é日🚀"\n');
    expect(decoder.push(line.slice(0, 2))).toEqual([]);
    expect(decoder.push(line.slice(2, 6))).toEqual([]);
    expect(decoder.push(line.slice(6))).toEqual(['"é日🚀"']);
  });

  it("reports a line over the limit once, in one chunk or many, and goes on with the next", () => {
    let tooLarge = 0;
    const decoder = new LineDecoder({ maxLineBytes: 10, onTooLarge: () => tooLarge++ });
    expect(decoder.push("0123456789\n01234567890\nok\n")).toEqual(["0123456789", "ok"]);
    expect(tooLarge).toBe(1);
    expect(decoder.push("aaaaaa")).toEqual([]);
    expect(decoder.push("bbbbbb")).toEqual([]);
    expect(tooLarge).toBe(2);
    // The rest of that line is discarded as it comes, never buffered.
    expect(decoder.push("cccccccccccccccccccc")).toEqual([]);
    expect(decoder.push("cc\nnext\n")).toEqual(["next"]);
    expect(tooLarge).toBe(2);
    decoder.push("dddddddddddd");
    expect(decoder.flush()).toEqual([]);
    expect(tooLarge).toBe(3);
  });

  it("counts the limit in UTF-8 bytes, not characters", () => {
    let tooLarge = 0;
    const decoder = new LineDecoder({ maxLineBytes: 6, onTooLarge: () => tooLarge++ });
    expect(decoder.push("日本\n")).toEqual(["日本"]); // 6 bytes
    expect(decoder.push("日本x\n")).toEqual([]); // 7 bytes
    expect(tooLarge).toBe(1);
    expect(decoder.push(bytes("ééé\n"))).toEqual(["ééé"]);
  });
});
