// Tests never read or write the user's cache (~/.cache/mcp-gen or $XDG_CACHE_HOME): the
// whole run gets a fresh private cache folder, removed afterwards. Set here, in vitest's
// global setup, before any worker starts, so every test file, every in-process generate()
// and every CLI a test spawns (they inherit process.env) uses it.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export default function privateCache(): () => void {
  const dir = mkdtempSync(join(tmpdir(), "mcp-gen-test-cache-"));
  process.env.XDG_CACHE_HOME = dir;
  process.env.MCP_GEN_TEST_CACHE_HOME = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
