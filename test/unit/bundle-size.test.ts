// The bench's minimal stdio server (bench/servers/minimal/mcp-gen.ts: two tools, protocol
// 2026-07-28 and 2025-11-25) bundled the way the bench measures it: within the targets of
// bench/FINDINGS.md, and without the runtime parts its manifest does not use (generated
// code passes optional features in only when the manifest needs them).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { afterAll, describe, expect, it } from "vitest";
import { bundleSize } from "../../bench/lib/bundle.js";
import { repoRoot } from "../support/paths.js";

const entry = join(repoRoot, "bench", "servers", "minimal", "mcp-gen.ts");
const outDir = mkdtempSync(join(tmpdir(), "mcp-gen-bundle-"));
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

describe("the minimal stdio server's bundle", () => {
  it("is at most 25 KB minified and 8.5 KB gzipped", async () => {
    const size = await bundleSize(entry, join(outDir, "minimal.min.mjs"));
    expect(size.minified).toBeLessThanOrEqual(25 * 1024);
    // 8 KB until the start-up check for missing handlers (mcp/handler-paths.js, ~0.2 KB gzipped) joined.
    expect(size.gzipped).toBeLessThanOrEqual(8.5 * 1024);
  });

  it("leaves out what its manifest does not use", async () => {
    const result = await build({
      entryPoints: [entry],
      bundle: true,
      platform: "node",
      format: "esm",
      write: false,
      metafile: true,
      logLevel: "error",
    });
    const bundled = Object.entries(Object.values(result.metafile.outputs)[0]!.inputs)
      .filter(([, input]) => input.bytesInOutput > 0)
      .map(([path]) => path.replace(/^.*runtime\/(dist\/)?/, ""));
    // Server-to-client requests (no `asks:`), batches (no 2025-03-26), signals (not asked
    // for), completion, resources, prompts and subscriptions (none declared).
    for (const module of [
      "jsonrpc/requesting-peer.js",
      "jsonrpc/batches.js",
      "transport/signals.js",
      "mcp/input.js",
      "mcp/client-requests.js",
      "mcp/completion.js",
      "mcp/reads.js",
      "mcp/subscriptions.js",
    ]) {
      expect(bundled).not.toContain(module);
    }
    expect(bundled).toContain("mcp/server.js");
  });
});
