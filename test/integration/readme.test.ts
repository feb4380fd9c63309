import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SETTINGS } from "../../src/config/settings";

const readme = readFileSync(join(import.meta.dirname, "..", "..", "README.md"), "utf8");

describe("the README", () => {
  it.each(Object.entries(SETTINGS))("documents the setting %s with its default and description", (name, setting) => {
    const row = readme.split("\n").find((line) => line.startsWith(`| \`${name}\` |`));
    expect(row, `README.md has no table row for ${name}`).toBeDefined();
    expect(row).toContain(setting.default);
    expect(row, `README.md's row for ${name} says something other than src/config/settings.ts`).toContain(setting.doc);
  });

  it("shows the two set-up commands", () => {
    expect(readme).toContain("npm ci && npm start");
    expect(readme).toContain("npm test");
  });
});
