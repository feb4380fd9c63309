import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// The app's `@/` imports (tsconfig paths), so tests can load server actions and loaders.
const alias = { "@": fileURLToPath(new URL(".", import.meta.url)) };

export default defineConfig({
  test: {
    // Two files at a time on two cores (vitest's default leaves one core idle), of either project.
    maxWorkers: 2,
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          include: ["src/**/*.test.ts", "app/**/*.test.ts", "test/integration/**/*.test.ts", "test/contracts/**/*.test.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.test.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // Each file starts a server and a browser, and mostly waits on them: run beside the unit
          // files and each other (two at a time, the global maxWorkers) rather than one by one
          // after them, which left a core idle for two thirds of the run (docs/benchmarks.md).
          // A browser, a built server and its child processes share two cores with the rest (decision 0025): a
          // test that fails once is run once more and reported as flaky (vitest lists the retry),
          // so a timing race shows without sinking the whole run; one that fails twice fails.
          retry: 1,
        },
      },
    ],
  },
});
