import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Generation of five protocol revisions, tsc compiles and real SDK peers take seconds, not milliseconds.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Two cores: run files in parallel, but not so many that child processes starve.
    maxWorkers: 2,
  },
});
