import { defineConfig } from "vitest/config";

// Issue 30's proof on real API descriptions, which need the nested package test/openapi-corpora
// (`npm ci --prefix test/openapi-corpora`): GitHub's REST description through Prism. Run by
// `npm run proof:openapi` (and .ci/run); the default run (vitest.config.ts) excludes these files.
export default defineConfig({
  test: {
    include: ["test/import/prism-github.test.ts"],
    // A private, fresh cache for the whole run: tests never touch the user's ~/.cache/mcp-gen.
    globalSetup: ["test/support/private-cache.ts"],
    setupFiles: ["test/support/no-listener-leaks.ts"],
    // Importing, generating and compiling a GitHub sample, and Prism reading GitHub's 13 MB document.
    testTimeout: 300_000,
    hookTimeout: 900_000,
  },
});
