// Code the guides show from a file of the repository is that file, verbatim: every block
// marked `<!-- example-file: path -->` in README.md or docs/*.md equals the file it names
// (which the type tests compile and the e2e tests run).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../support/paths.js";

const documents = [
  "README.md",
  ...readdirSync(join(repoRoot, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];
const blocks = documents.flatMap((document) =>
  [
    ...readFileSync(join(repoRoot, document), "utf8").matchAll(
      /<!-- example-file: (\S+) -->\n```[a-z]*\n([\s\S]*?)```\n/g,
    ),
  ].map((m) => ({ document, path: m[1]!, shown: m[2]! })),
);

describe("example files shown in the documentation", () => {
  it("include the notes example's OAuth client (docs/authorization.md)", () => {
    expect(blocks.map((b) => `${b.document} ${b.path}`)).toContain(
      "docs/authorization.md examples/notes/src/client.ts",
    );
  });

  it.each(blocks.map((b) => [b.document, b.path, b.shown] as const))(
    "%s shows %s verbatim",
    (_document, path, shown) => {
      expect(shown).toBe(readFileSync(join(repoRoot, path), "utf8"));
    },
  );
});
