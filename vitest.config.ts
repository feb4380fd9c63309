import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// The app's `@/` imports (tsconfig paths), so tests can load server actions and loaders.
const alias = { "@": fileURLToPath(new URL(".", import.meta.url)) };

/**
 * End-to-end files that time the server itself (stop within 3 s, survive SIGKILL, slow
 * clients, the digest's threads): they run alone, after the rest, one at a time.
 */
const SERIAL_E2E = [
  "test/e2e/lifecycle.test.ts",
  "test/e2e/durability.test.ts",
  "test/e2e/slow-clients-server.test.ts",
  "test/e2e/settle-thread.test.ts",
  "test/e2e/digest-worker.test.ts",
  "test/e2e/alerts-two-processes.test.ts",
];

const E2E = {
  testTimeout: 60_000,
  hookTimeout: 120_000,
  // A browser, a built server and its child processes share two cores with the rest (decision 0025): a
  // test that fails once is run once more and reported as flaky (vitest lists the retry),
  // so a timing race shows without sinking the whole run; one that fails twice fails.
  retry: 1,
};

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
          include: ["src/**/*.test.ts", "app/**/*.test.ts", "test/integration/**/*.test.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.test.ts"],
          exclude: SERIAL_E2E,
          ...E2E,
        },
      },
      {
        test: {
          name: "e2e-serial",
          include: SERIAL_E2E,
          ...E2E,
          maxWorkers: 1,
          fileParallelism: false,
        },
      },
    ],
  },
});
