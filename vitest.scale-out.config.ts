import { defineConfig } from "vitest/config";

// The scale-out tests alone: three server instances behind nginx (needs nginx, and
// redis-server for the tasks one, which .ci/run installs; excluded from the default run in
// vitest.config.ts).
export default defineConfig({
  test: {
    include: ["test/e2e/scale-out.test.ts", "test/e2e/tasks-scale-out.test.ts"],
    // A private, fresh cache for the whole run: tests never touch the user's ~/.cache/mcp-gen.
    globalSetup: ["test/support/private-cache.ts"],
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
