import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Every reference in the code must be one a reader of a fresh clone can follow (CONTRIBUTING.md,
 * "Text in the code"): a public URL or a doc inside the repository. The protocol notes the code once
 * cited live outside the repository; their facts are in docs/protocol.md now.
 */
const ROOT = join(import.meta.dirname, "../..");
const SCANNED = [
  "src",
  "app",
  "test",
  "bench",
  "scripts",
  "bin",
  "docs",
  "README.md",
  "next.config.ts",
  "instrumentation.ts",
  "instrumentation-client.ts",
];
const SKIPPED = new Set(["node_modules", ".next", "dist", "data", "fixtures"]);
const TEXT = /\.(ts|tsx|mjs|cjs|js|md|json|css)$/;

/** Files outside the repository that comments used to cite. Built from parts so this file does not match itself. */
const OUTSIDE = [
  new RegExp(["reference", "§"].join(" "), "i"),
  new RegExp(["toolchain", "md"].join("\\.")),
  new RegExp(["sentry-protocol", "md"].join("\\.")),
  new RegExp(["", "work", "shared", ""].join("/")),
];

/** `docs/protocol.md#a` and the `, #b` anchors that follow it in one citation. */
const PROTOCOL_CITATION = /docs\/protocol\.md#([a-z0-9-]+)((?:, #[a-z0-9-]+)*)/g;

export interface BadCitation {
  line: number;
  text: string;
  why: string;
}

/** GitHub's anchor for a heading: lowercase, punctuation dropped, spaces to hyphens. */
export function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replace(/ /g, "-");
}

export function anchorsOf(markdown: string): Set<string> {
  return new Set([...markdown.matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchorOf(m[1] ?? "")));
}

/** Citations in `text` a clone cannot follow: a file outside the repository, or a protocol section that does not exist. */
export function badCitations(text: string, anchors: Set<string>): BadCitation[] {
  const bad: BadCitation[] = [];
  text.split("\n").forEach((line, i) => {
    for (const pattern of OUTSIDE) {
      if (pattern.test(line)) bad.push({ line: i + 1, text: line.trim(), why: "cites a file outside the repository" });
    }
    for (const m of line.matchAll(PROTOCOL_CITATION)) {
      const cited = [m[1] ?? "", ...(m[2] ?? "").split(", #").filter(Boolean)];
      for (const anchor of cited) {
        if (!anchors.has(anchor)) bad.push({ line: i + 1, text: line.trim(), why: `docs/protocol.md has no section #${anchor}` });
      }
    }
  });
  return bad;
}

function* files(path: string): Generator<string> {
  const full = join(ROOT, path);
  let entries;
  try {
    entries = readdirSync(full, { withFileTypes: true });
  } catch {
    if (TEXT.test(path)) yield full; // a file, not a directory
    return;
  }
  for (const entry of entries) {
    if (SKIPPED.has(entry.name)) continue;
    const child = join(path, entry.name);
    if (entry.isDirectory()) yield* files(child);
    else if (TEXT.test(entry.name)) yield join(ROOT, child);
  }
}

describe("citations", () => {
  const anchors = anchorsOf(readFileSync(join(ROOT, "docs/protocol.md"), "utf8"));

  it("finds a comment citing a file outside the repository", () => {
    const outside = ["/** Follows ", "reference", " §1.1. */"].join("");
    expect(badCitations(outside, anchors)).toEqual([{ line: 1, text: outside, why: "cites a file outside the repository" }]);
    expect(badCitations(["// measured here (", "toolchain", ".md)"].join(""), anchors)).toHaveLength(1);
  });

  it("finds a citation of a protocol section that does not exist, also after a comma", () => {
    expect(badCitations("// see docs/protocol.md#envelope-format", anchors)).toEqual([]);
    expect(badCitations("// see docs/protocol.md#no-such-section", anchors)).toHaveLength(1);
    expect(badCitations("// see docs/protocol.md#envelope-format, #nowhere", anchors).map((b) => b.why)).toEqual([
      "docs/protocol.md has no section #nowhere",
    ]);
  });

  it("derives anchors the way GitHub does", () => {
    expect(anchorOf("What real SDKs send")).toBe("what-real-sdks-send");
    expect(anchorOf("Content encoding")).toBe("content-encoding");
  });

  it("leaves no reference in the repository that a fresh clone cannot follow", () => {
    const found: string[] = [];
    const self = join(ROOT, "test/integration/citations.test.ts"); // its samples are bad on purpose
    for (const path of SCANNED.flatMap((p) => [...files(p)]).filter((p) => p !== self)) {
      for (const bad of badCitations(readFileSync(path, "utf8"), anchors))
        found.push(`${relative(ROOT, path)}:${bad.line}: ${bad.why}: ${bad.text}`);
    }
    expect(found).toEqual([]);
  });
});
