import js from "@eslint/js";
import tseslint from "typescript-eslint";

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
    // The core stays framework-free and never reads the environment (CONTRIBUTING.md).
    files: ["src/core/**/*.ts"],
    rules: {
      "no-restricted-imports": ["error", { patterns: ["next", "next/*", "react", "react-dom", "@sentry/*"] }],
      "no-restricted-properties": ["error", { object: "process", property: "env", message: "read settings through src/config" }],
    },
  },
  {
    // The core says what it needs from storage through ports (src/core/ports); the Kysely side
    // lives in src/db (decision 0009). Type-only imports count too: `Ctx` carries ports, not
    // handles. Tests beside the code may seed rows through src/db.
    files: ["src/core/**/*.ts"],
    ignores: ["src/core/**/*.test.ts"],
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
    // Pages and API routes reach data through core and its ports, never the query layer. The one
    // module that opens the store and builds the context is the exception.
    files: ["app/**/*.ts", "app/**/*.tsx", "src/server/api/**/*.ts"],
    ignores: ["app/lib/app-runtime.ts", "src/server/api/**/*.test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["kysely", "kysely/*", "**/db", "**/db/*"],
              message: "read and write through core (src/core) and its ports; the Kysely side lives in src/db",
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
