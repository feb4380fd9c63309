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
    // The core stays framework-free and never reads the environment (STYLE.md).
    files: ["src/core/**/*.ts"],
    rules: {
      "no-restricted-imports": ["error", { patterns: ["next", "next/*", "react", "react-dom", "@sentry/*"] }],
      "no-restricted-properties": ["error", { object: "process", property: "env", message: "read settings through src/config" }],
    },
  },
  {
    // The digest's stages and the ports say what storage must do, never how (decision 0009).
    // batch.ts, the driver that runs the transaction, still wires the Kysely writer in; the
    // rule widens to the rest of src/core as each part moves behind a port.
    files: ["src/core/digest/**/*.ts", "src/core/ports/**/*.ts"],
    ignores: ["src/core/digest/batch.ts"],
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
