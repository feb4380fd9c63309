import { readFileSync } from "node:fs";
import { URL } from "node:url";
import js from "@eslint/js";
import tseslint from "typescript-eslint";

/**
 * Files of src/core that still import Kysely or src/db (see the rule below): a list that only
 * ever gets shorter, checked by test/integration/core-imports.test.ts.
 */
const CORE_FILES_STILL_ON_KYSELY = JSON.parse(readFileSync(new URL("./src/core/still-on-kysely.json", import.meta.url), "utf8"));

export default tseslint.config(
  { ignores: ["node_modules/", ".next/", "dist/", "data/", "next-env.d.ts", "coverage/", ".bench/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.ts", "**/*.tsx"],
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
    },
  },
  {
    // The core stays framework-free and never reads the environment (STYLE.md).
    files: ["src/core/**/*.ts"],
    rules: {
      "no-restricted-imports": ["error", { patterns: ["next", "next/*", "react", "react-dom", "@sentry/*"] }],
      "no-restricted-properties": ["error", { object: "process", property: "env", message: "read settings through src/config" }],
    },
  },
  {
    // The core says what it needs from storage through ports (src/core/ports); the Kysely side
    // lives in src/db (issue 11, decision 0009). A ratchet: the files listed in
    // CORE_FILES_STILL_ON_KYSELY predate the rule and leave the list as they move behind a
    // port; no file may join it.
    files: ["src/core/**/*.ts"],
    ignores: CORE_FILES_STILL_ON_KYSELY,
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: ["next", "next/*", "react", "react-dom", "@sentry/*"], message: "the core stays framework-free" },
            {
              group: ["kysely", "kysely/*", "**/db", "**/db/*"],
              message: "storage goes through a port (src/core/ports); its Kysely side lives in src/db",
            },
          ],
        },
      ],
    },
  },
  {
    // Pages and API routes reach data through core, never the query layer (issue 39). The one
    // module that opens the store and builds the context is the exception. The storage row types
    // User, Organization, Project and ProjectKey are still imported by name until core has its
    // own domain types; nothing else of src/db, and nothing of Kysely.
    files: ["app/**/*.ts", "app/**/*.tsx", "src/server/api/**/*.ts"],
    ignores: ["app/lib/app-runtime.ts", "src/server/api/**/*.test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["kysely", "kysely/*", "**/db/*", "!**/db/schema"],
              message: "read and write through core (src/core) and its ports; the Kysely side lives in src/db",
            },
            {
              group: ["**/db/schema"],
              allowImportNames: ["User", "Organization", "Project", "ProjectKey"],
              message: "only the row types still waiting for core domain types come from src/db/schema",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["src/**/*.ts", "app/**/*.ts", "app/**/*.tsx"],
    ignores: ["src/config/**"],
    rules: {
      "no-restricted-properties": ["error", { object: "process", property: "env", message: "read settings through src/config" }],
    },
  },
  {
    files: ["scripts/**/*.mjs", "scripts/**/*.cjs", "bin/**/*.mjs", "test/fixtures/**/*.mjs"],
    languageOptions: {
      globals: {
        process: "readonly",
        console: "readonly",
        require: "readonly",
        setTimeout: "readonly",
        Buffer: "readonly",
        URL: "readonly",
        window: "readonly",
      },
    },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
);
