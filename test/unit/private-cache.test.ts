// The test run's cache is private (test/support/private-cache.ts), never the user's.
import { existsSync, readdirSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { schemaCacheDir } from "../../generator/load/protocol.js";
import { runCli, tempProject } from "../support/generate.js";
import { repoRoot } from "../support/paths.js";

describe("the test run's cache", () => {
  it("is a private temporary folder, in this process and in the CLIs tests spawn", () => {
    const home = process.env.XDG_CACHE_HOME;
    expect(home).toBeDefined();
    expect(home).toBe(process.env.MCP_GEN_TEST_CACHE_HOME);
    expect(home!.startsWith(join(tmpdir(), "mcp-gen-test-cache-"))).toBe(true);
    expect(schemaCacheDir()).toBe(join(home!, "mcp-gen", "schemas"));
    expect(schemaCacheDir().startsWith(join(homedir(), ".cache"))).toBe(false);

    // A spawned CLI records its run in the private cache.
    const dir = tempProject({}, join(repoRoot, "examples", "weather"));
    const run = runCli(["generate", "mcp.yaml", "-q"], dir, { MCP_GEN_NO_CACHE: "" });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    const runs = join(home!, "mcp-gen", "runs");
    expect(existsSync(runs) && readdirSync(runs).length).toBeGreaterThan(0);
  });
});
