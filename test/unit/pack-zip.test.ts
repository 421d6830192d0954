// The .mcpb zip writer, read back by the official mcpb CLI's unpack (fflate): every file
// byte for byte, stored or deflated, with UTF-8 names and rw-r--r-- permissions; and the
// same entries in any order give the same bytes.
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { zip } from "../../generator/pack/zip.js";
import { repoRoot } from "../support/paths.js";

const temp = mkdtempSync(join(tmpdir(), "mcp-gen-zip-"));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

const files = new Map<string, Uint8Array>([
  ["manifest.json", Buffer.from(`${JSON.stringify({ text: "compressible ".repeat(200) })}\n`)],
  // Random bytes do not deflate: stored.
  ["server/random.bin", randomBytes(4096)],
  ["données/é.txt", Buffer.from("non-ASCII name\n")],
  ["empty.txt", new Uint8Array()],
]);

describe("zip", () => {
  it("writes archives the mcpb CLI unpacks to the same files", () => {
    const archive = zip(files);
    writeFileSync(join(temp, "a.mcpb"), archive);
    const out = join(temp, "a");
    const unpack = spawnSync(join(repoRoot, "node_modules", ".bin", "mcpb"), ["unpack", join(temp, "a.mcpb"), out], {
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(unpack.status, unpack.stderr).toBe(0);
    for (const [name, data] of files) {
      expect(Buffer.from(readFileSync(join(out, name))).equals(Buffer.from(data)), name).toBe(true);
      expect(statSync(join(out, name)).mode & 0o777, name).toBe(0o644);
    }
    // The compressible file was deflated, the random one stored.
    expect(archive.length).toBeLessThan(4096 + 1000);
  });

  it("gives the same bytes for the same files in any order", () => {
    const reversed = new Map([...files].reverse());
    expect(Buffer.from(zip(reversed)).equals(Buffer.from(zip(files)))).toBe(true);
  });

  it("refuses a path that could escape the folder it is unpacked into", () => {
    expect(() => zip(new Map([["../evil", new Uint8Array(1)]]))).toThrow(/not a relative path/);
    expect(() => zip(new Map([["/etc/passwd", new Uint8Array(1)]]))).toThrow(/not a relative path/);
  });
});
