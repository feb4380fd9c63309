import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// The app's `@/` imports (tsconfig paths), so tests can load server actions and loaders.
const alias = { "@": fileURLToPath(new URL(".", import.meta.url)) };

export default defineConfig({
  test: {
    // Two at a time on two cores (vitest's default leaves one core idle): a unit or integration
    // file beside another, or beside the one end-to-end file that may run at a time.
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
          // Each file starts a server and a browser: two at a time fit two cores.
          maxWorkers: 1,
          fileParallelism: false,
          // A browser, a built server and its child processes share two cores with the rest (decision 0025): a
          // test that fails once is run once more and reported as flaky (vitest lists the retry),
          // so a timing race shows without sinking the whole run; one that fails twice fails.
          retry: 1,
        },
      },
    ],
  },
});
