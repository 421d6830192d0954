// `mcp-gen import openapi … --check` on an imported project, through the built CLI: exit 0 when
// the document and the options would write the same project, 1 naming the import's files that
// would change (writing nothing); the user's files are never compared.
import { spawnSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join, relative } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { cliPath, repoRoot } from "../support/paths.js";

const root = join(repoRoot, "test", "import", ".out", "check");
const document = join(root, "petstore.yaml");
const project = join(root, "project");

/** The import run from the project's folder, as its Regenerate line says. */
function importHere(...flags: string[]) {
  const result = spawnSync(process.execPath, [cliPath, "import", "openapi", "../petstore.yaml", ...flags], {
    cwd: project,
    encoding: "utf8",
    timeout: 60_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Every file of the project with its text and modification time. */
function snapshot(): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else files.set(relative(project, path), `${statSync(path).mtimeMs} ${readFileSync(path, "utf8")}`);
    }
  };
  walk(project);
  return files;
}

describe("mcp-gen import openapi --check", () => {
  beforeEach(() => {
    rmSync(root, { recursive: true, force: true });
    mkdirSync(project, { recursive: true });
    copyFileSync(join(repoRoot, "test", "import", "fixtures", "petstore-3.0.yaml"), document);
    expect(importHere("-q").status).toBe(0);
  });

  it("exits 0 when the document has not changed, whatever the user did to their own files", () => {
    writeFileSync(join(project, "src", "handlers.ts"), "// mine now\n");
    rmSync(join(project, "package.json"));
    const before = snapshot();
    const checked = importHere("--check");
    expect(checked.stderr.split("\n").filter((line) => !line.includes(": warning: "))).toEqual([""]);
    expect(checked.stdout).toBe("mcp-gen: . is up to date with ../petstore.yaml\n");
    expect(checked.status).toBe(0);
    expect(snapshot()).toEqual(before);
  });

  it("exits 1 naming the files an edited document would change, and writes nothing", () => {
    const text = readFileSync(document, "utf8");
    writeFileSync(document, text.replace("summary: List pets", "summary: List the pets"));
    const before = snapshot();
    const checked = importHere("--check");
    expect(checked.status).toBe(1);
    const lines = checked.stderr.split("\n").filter((line) => line !== "" && !line.includes(": warning: "));
    // Every import-owned file carries the document's sha256; the user's files are not listed.
    expect(lines).toEqual([
      "mcp-gen: mcp.yaml: stale",
      "mcp-gen: src/upstream/operations.gen.ts: stale",
      "mcp-gen: src/upstream/request.gen.ts: stale",
      "mcp-gen: src/upstream/handlers.gen.ts: stale",
      "mcp-gen: 4 imported file(s) out of date; run the same `mcp-gen import openapi` without --check (the command is in each file's Regenerate line)",
    ]);
    expect(snapshot()).toEqual(before);
    // Importing again brings it up to date.
    expect(importHere("-q").status).toBe(0);
    expect(readFileSync(join(project, "mcp.yaml"), "utf8")).toContain("title: List the pets");
    expect(importHere("--check").status).toBe(0);
  });

  it("tells when the options would write another project: missing files, and files no longer written", () => {
    const catalog = importHere("--tools", "catalog", "--check");
    expect(catalog.status).toBe(1);
    expect(catalog.stderr).toContain("src/upstream/catalog.gen.ts: missing\n");
    expect(catalog.stderr).toContain("src/upstream/validators.gen.ts: missing\n");
    expect(existsSync(join(project, "src", "upstream", "catalog.gen.ts"))).toBe(false);
    // The banner records the options: the same command with --check is up to date.
    expect(importHere("--tools", "catalog", "-q").status).toBe(0);
    expect(readFileSync(join(project, "mcp.yaml"), "utf8")).toContain(
      "# Regenerate: npx mcp-gen import openapi ../petstore.yaml --tools catalog\n",
    );
    expect(importHere("--tools", "catalog", "--check").status).toBe(0);
    // Back to one tool per operation: the catalog's files are reported, then deleted by the import.
    const back = importHere("--check");
    expect(back.status).toBe(1);
    expect(back.stderr).toContain("src/upstream/catalog.gen.ts: no longer generated\n");
    expect(importHere("-q").status).toBe(0);
    expect(existsSync(join(project, "src", "upstream", "catalog.gen.ts"))).toBe(false);
    expect(existsSync(join(project, "src", "upstream", "validators.gen.ts"))).toBe(false);
    expect(importHere("--check").status).toBe(0);
  });
});
