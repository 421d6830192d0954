// docs/deployment.md shows the weather example's fetch module verbatim: the block marked
// `<!-- same-as: examples/weather/src/worker.ts -->` is that file, which `npm run platforms`
// serves on Bun, Deno and workerd (test/platforms/worker.ts routes /hosts/mcp to it).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../support/paths.js";

const guide = readFileSync(join(repoRoot, "docs", "deployment.md"), "utf8");

describe("docs/deployment.md", () => {
  it("shows every file it marks `same-as` byte for byte", () => {
    const blocks = [...guide.matchAll(/<!-- same-as: (\S+) -->\n```[a-z]*\n([\s\S]*?)\n```/g)];
    expect(blocks.map((b) => b[1])).toEqual(["examples/weather/src/worker.ts"]);
    for (const [, path, text] of blocks) expect(`${text!}\n`, path).toBe(readFileSync(join(repoRoot, path!), "utf8"));
  });

  it("is what the platforms run serves", () => {
    expect(readFileSync(join(repoRoot, "test", "platforms", "worker.ts"), "utf8")).toContain(
      'import deployed from "../../examples/weather/src/worker.js";',
    );
  });
});
