import { buildSync } from "esbuild";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LocalMapResolver, MAX_SCOPE_SOURCE } from "./resolver";

const SOURCE = `export function chargeCard(card) {
  if (card.length < 4) {
    throw new Error("declined");
  }
  return card.slice(-4);
}
globalThis.pay = (c) => chargeCard(c);
`;

describe("the map resolver", () => {
  let work = "";
  let minified = "";
  let map = "";
  /** Line and column (1-based) of the `throw` in the minified file. */
  let at = { line: 1, column: 1 };

  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), "telltale-resolver-"));
    writeFileSync(join(work, "card.js"), SOURCE);
    buildSync({
      entryPoints: [join(work, "card.js")],
      bundle: true,
      minify: true,
      sourcemap: true,
      outfile: join(work, "out.js"),
      logLevel: "silent",
    });
    minified = readFileSync(join(work, "out.js"), "utf8");
    map = readFileSync(join(work, "out.js.map"), "utf8");
    const lines = minified.split("\n");
    const line = lines.findIndex((l) => l.includes("throw"));
    at = { line: line + 1, column: lines[line]!.indexOf("throw") + 1 };
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it("asks for the texts it does not hold, then answers from what it decoded without them", () => {
    const resolver = new LocalMapResolver();
    const bare = { map: { key: "7" }, minified: { key: "8" }, positions: [at] };
    expect(resolver.resolveNow(bare)).toEqual({ need: ["map", "minified"] });
    const first = resolver.resolveNow({ map: { key: "7", text: map }, minified: { key: "8", text: minified }, positions: [at] });
    expect(first).toEqual({
      positions: [
        {
          source: expect.stringMatching(/card\.js$/),
          line: 3,
          column: 4,
          name: "chargeCard",
          context: {
            pre: ["export function chargeCard(card) {", "  if (card.length < 4) {"],
            line: '    throw new Error("declined");',
            post: expect.arrayContaining(["  }"]),
          },
        },
      ],
    });
    expect(resolver.resolveNow(bare)).toEqual(first);
    // Another minified file of the same map: only its text is asked for.
    expect(resolver.resolveNow({ ...bare, minified: { key: "9" } })).toEqual({ need: ["minified"] });
  });

  it("says when a map does not parse, and that a position maps nowhere", () => {
    const resolver = new LocalMapResolver();
    const broken = resolver.resolveNow({ map: { key: "1", text: "{not json" }, minified: null, positions: [at] });
    expect(broken).toEqual({ invalidMap: expect.stringMatching(/JSON|Unexpected|Expected/) });
    const far = resolver.resolveNow({ map: { key: "2", text: map }, minified: null, positions: [{ line: 999, column: 1 }] });
    expect(far).toEqual({ positions: [{ unmapped: true }] });
  });

  it("does not parse minified files past MAX_SCOPE_SOURCE for names: the map's name at the position is used", () => {
    const resolver = new LocalMapResolver();
    const huge = minified + "\n//" + " ".repeat(MAX_SCOPE_SOURCE);
    const answer = resolver.resolveNow({ map: { key: "3", text: map }, minified: { key: "4", text: huge }, positions: [at] });
    expect(answer).toMatchObject({ positions: [{ line: 3 }] });
    // esbuild names nothing at a `throw`: without the function's scope there is no name.
    expect(answer).toMatchObject({ positions: [{ name: null }] });
  });
});
