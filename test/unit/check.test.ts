// `mcp-gen --check` against the checked-in example, through the real CLI.
import { readFileSync, writeFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, tempProject } from "../support/generate.js";
import { repoRoot } from "../support/paths.js";

const example = join(repoRoot, "examples", "weather");

describe("mcp-gen --check", () => {
  it("exits 0 on the checked-in weather example", () => {
    const run = runCli(["examples/weather/mcp.yaml", "--check"]);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/6 file\(s\) up to date/);
  });

  it("exits 0 on the checked-in everything example", () => {
    const run = runCli(["examples/everything/mcp.yaml", "--check"]);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/6 file\(s\) up to date/);
  });

  it("exits 0 on the checked-in notes example (OAuth-protected)", () => {
    const run = runCli(["examples/notes/mcp.yaml", "--check"]);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/6 file\(s\) up to date/);
  });

  it("exits 1 and names the stale files after the manifest changes, writing nothing", () => {
    const dir = tempProject({}, example);
    const manifest = join(dir, "mcp.yaml");
    writeFileSync(manifest, readFileSync(manifest, "utf8").replace("description: Forecast for a city", "description: Forecast for any city"));
    const before = readFileSync(join(dir, "src", "mcp", "server.gen.ts"), "utf8");
    const run = runCli(["generate", "mcp.yaml", "--check"], dir);
    expect(run.status).toBe(1);
    // Only the list payloads and doc comments change: server and client code, and the index is untouched.
    expect(run.stderr.split("\n").filter(Boolean)).toEqual([
      "mcp-gen: src/mcp/server.gen.ts: stale",
      "mcp-gen: src/mcp/client.gen.ts: stale",
      "mcp-gen: 2 generated file(s) out of date; run `mcp-gen generate mcp.yaml`",
    ]);
    expect(readFileSync(join(dir, "src", "mcp", "server.gen.ts"), "utf8")).toBe(before);

    const generate = runCli(["generate", "mcp.yaml"], dir);
    expect(generate.status).toBe(0);
    expect(generate.stdout).toContain("wrote server.gen.ts, client.gen.ts");
    expect(runCli(["mcp.yaml", "--check"], dir).status).toBe(0);

    // The remembered run answers the next --check quickly, but never hides a hand edit.
    expect(runCli(["mcp.yaml", "--check"], dir).status).toBe(0);
    writeFileSync(join(dir, "src", "mcp", "types.gen.ts"), `${readFileSync(join(dir, "src", "mcp", "types.gen.ts"), "utf8")}// edited\n`);
    const edited = runCli(["mcp.yaml", "--check"], dir);
    expect(edited.status).toBe(1);
    expect(edited.stderr).toContain("mcp-gen: src/mcp/types.gen.ts: stale");
  });

  it("reports missing files", () => {
    const dir = tempProject({}, example);
    const out = join(dir, "src", "mcp", "index.ts");
    expect(existsSync(out)).toBe(true);
    writeFileSync(out, "");
    const run = runCli(["mcp.yaml", "--check"], dir);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("mcp-gen: src/mcp/index.ts: stale");
  });

  it("usage errors exit 2", () => {
    const run = runCli(["generate", "--bogus"]);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^mcp-gen: Unknown argument/);
  });
});
