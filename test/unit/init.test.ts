// `mcp-gen init` scaffolds a project that generates, compiles and never overwrites.
import { mkdirSync, readdirSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, tempProject } from "../support/generate.js";
import { repoRoot } from "../support/paths.js";
import { formatTypeErrors, typecheck } from "../support/typecheck.js";

describe("mcp-gen init", () => {
  it("creates a manifest, handlers and entry point that generate and compile", () => {
    const dir = tempProject();
    // As in a user's project: mcp-gen and @mcp-gen/runtime installed under node_modules (here, links into this checkout).
    mkdirSync(join(dir, "node_modules", "@mcp-gen"), { recursive: true });
    symlinkSync(repoRoot, join(dir, "node_modules", "mcp-gen"), "dir");
    symlinkSync(join(repoRoot, "runtime"), join(dir, "node_modules", "@mcp-gen", "runtime"), "dir");
    const init = runCli(["init", ".", "--name", "hello-mcp"], dir);
    expect(init.status).toBe(0);
    expect(readFileSync(join(dir, "mcp.yaml"), "utf8")).toContain('name: "hello-mcp"');
    expect(readFileSync(join(dir, "src", "main.ts"), "utf8")).toContain("createHelloServer(handlers)");

    expect(runCli(["generate"], dir).status).toBe(0);
    const files = readdirSync(join(dir, "src"), { recursive: true })
      .map(String)
      .filter((f) => f.endsWith(".ts") && !f.includes("node_modules"))
      .map((f) => join(dir, "src", f));
    expect(files.length).toBe(8);
    expect(JSON.parse(readFileSync(join(dir, "package.json"), "utf8"))).toMatchObject({ name: "hello-mcp", type: "module" });
    expect(JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).type).toBe("module");
    expect(formatTypeErrors(typecheck(files))).toBe("");
  });

  it("refuses to overwrite and exits 1", () => {
    const dir = tempProject({ "mcp.yaml": "mine\n" });
    const run = runCli(["init", ".", "--name", "x"], dir);
    expect(run.status).toBe(1);
    expect(run.stderr).toBe("mcp-gen: mcp.yaml: already exists; init never overwrites files\n");
    expect(readFileSync(join(dir, "mcp.yaml"), "utf8")).toBe("mine\n");
  });

  it("rejects names it cannot place safely (exit 2)", () => {
    const run = runCli(["init", ".", "--name", 'x"; rm -rf /'], tempProject());
    expect(run.status).toBe(2);
  });
});
