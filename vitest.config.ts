import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // A private, fresh cache for the whole run: tests never touch the user's ~/.cache/mcp-gen.
    globalSetup: ["test/support/private-cache.ts"],
    // Fails a test during which a MaxListenersExceededWarning (a listener leak) was raised.
    setupFiles: ["test/support/no-listener-leaks.ts"],
    // Need nginx (and redis-server); run by `npm run test:scale-out` (and .ci/run, which installs them).
    // test/.tmp holds the projects tests make: an init project has node:test files of its own.
    exclude: [
      "test/e2e/scale-out.test.ts",
      "test/e2e/tasks-scale-out.test.ts",
      "test/e2e/deploy-nginx.test.ts",
      // Needs the nested package test/openapi-corpora; run by `npm run proof:openapi`.
      "test/import/prism-github.test.ts",
      "**/node_modules/**",
      "test/.tmp/**",
      // Projects the import tests write: their own test/server.test.ts runs under node:test via their npm test.
      "test/**/.out/**",
    ],
    // Generation of five protocol revisions, tsc compiles and real SDK peers take seconds, not milliseconds.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Two cores: run files in parallel, but not so many that child processes starve.
    maxWorkers: 2,
  },
});
