// Compiles every generated tree and the type-level tests under the strictest settings
// generated code promises: strict, exactOptionalPropertyTypes, noUncheckedIndexedAccess.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../support/paths.js";
import { formatTypeErrors, typecheck } from "../support/typecheck.js";

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(".ts"))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

describe("generated code compiles under tsc --strict --exactOptionalPropertyTypes --noUncheckedIndexedAccess", () => {
  const trees = [
    join(repoRoot, "examples", "weather", "src"),
    join(repoRoot, "examples", "everything", "src"),
    join(repoRoot, "examples", "notes", "src"),
    join(repoRoot, "test", "interop", "everything", "mcp"),
    ...readdirSync(join(repoRoot, "test", "golden"), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => join(repoRoot, "test", "golden", d.name, "expected")),
  ];
  for (const tree of trees) {
    it(tree.slice(repoRoot.length + 1), () => {
      const files = tsFiles(tree);
      expect(files.length).toBeGreaterThan(0);
      const errors = typecheck(files);
      expect(formatTypeErrors(errors)).toBe("");
    });
  }
});

describe("type-level guarantees", () => {
  it("missing handlers, wrong arguments, wrong results and absent methods are compile errors; client results are typed", () => {
    const errors = typecheck([join(repoRoot, "test", "types", "weather.types.ts")]);
    expect(formatTypeErrors(errors)).toBe("");
  });
});
