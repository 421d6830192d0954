// Golden tests: each case folder holds a manifest and the exact tree mcp-gen must
// generate from it (banner version elided). Set UPDATE_GOLDEN=1 to rewrite the
// expected trees after an intended change, then review the diff.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Generated } from "../../generator/pipeline.js";
import { generateManifest } from "../support/generate.js";
import { repoRoot } from "../support/paths.js";

const goldenRoot = join(repoRoot, "test", "golden");
const update = process.env.UPDATE_GOLDEN === "1";
const cases = readdirSync(goldenRoot, { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(join(goldenRoot, d.name, "mcp.yaml")))
  .map((d) => d.name)
  .sort();

async function run(name: string): Promise<Generated> {
  const dir = join(goldenRoot, name);
  const result = await generateManifest(join(dir, "mcp.yaml"), { out: join(dir, "expected"), cwd: dir });
  if (!result.ok)
    throw new Error(`golden case ${name} failed:\n${result.diagnostics.map((d) => d.message).join("\n")}`);
  return result.generated;
}

describe("golden trees", () => {
  it("has cases", () => {
    expect(cases.length).toBeGreaterThanOrEqual(3);
  });

  for (const name of cases) {
    it(`${name}: regenerates byte-identically, and identically twice`, async () => {
      const first = await run(name);
      const second = await run(name);
      expect([...second.files.entries()]).toEqual([...first.files.entries()]);

      const expectedDir = join(goldenRoot, name, "expected");
      if (update) {
        rmSync(expectedDir, { recursive: true, force: true });
        mkdirSync(expectedDir, { recursive: true });
        for (const [path, text] of first.files) writeFileSync(join(expectedDir, path), text);
      }
      const onDisk = readdirSync(expectedDir).sort();
      expect(onDisk).toEqual([...first.files.keys()].sort());
      for (const [path, text] of first.files) {
        expect(text, `${name}/expected/${path} differs; rerun with UPDATE_GOLDEN=1 if the change is intended`).toBe(
          readFileSync(join(expectedDir, path), "utf8"),
        );
      }
    });
  }

  it("all-revisions covers the protocol types of all five revisions", () => {
    const protocol = readFileSync(join(goldenRoot, "all-revisions", "expected", "protocol.gen.ts"), "utf8");
    for (const ns of ["V2026_07_28", "V2025_11_25", "V2025_06_18", "V2025_03_26", "V2024_11_05"]) {
      expect(protocol).toContain(`export declare namespace ${ns} {`);
    }
    for (const line of protocol.split("\n").slice(2, 7))
      expect(line).toMatch(/^\/\/ Protocol \d{4}-\d{2}-\d{2}: schema\.json sha256 [0-9a-f]{64}$/);
  });
});
