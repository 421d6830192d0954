import { defineConfig } from "vitest/config";

// The tests that need nginx: the scale-out ones (three server instances behind nginx; the
// tasks one needs redis-server too) and the deployment guide's reverse proxy. .ci/run installs
// both programs; the default run (vitest.config.ts) excludes these files.
export default defineConfig({
  test: {
    include: ["test/e2e/scale-out.test.ts", "test/e2e/tasks-scale-out.test.ts", "test/e2e/deploy-nginx.test.ts"],
    // A private, fresh cache for the whole run: tests never touch the user's ~/.cache/mcp-gen.
    globalSetup: ["test/support/private-cache.ts"],
    // Fails a test during which a MaxListenersExceededWarning (a listener leak) was raised.
    setupFiles: ["test/support/no-listener-leaks.ts"],
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
