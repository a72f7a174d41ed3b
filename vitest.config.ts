import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores here: keep workers to the core count so image-heavy suites do not thrash.
    maxWorkers: 2,
  },
});
