import { describe, expect, it } from "vitest";
import { deadLetterExcerpt, EXCERPT_CHARS } from "./excerpt";

const excerpt = (text: string, options = {}) => deadLetterExcerpt(Buffer.from(text), options);

describe("deadLetterExcerpt", () => {
  it("filters values under sensitive JSON keys and secrets in free text", () => {
    const text = excerpt('{"password":"hunter2","user":"ann","note":"card 4111 1111 1111 1111, Authorization: Bearer abc.def.ghi"}');
    expect(text).toContain('"password":"[Filtered]"');
    expect(text).toContain('"user":"ann"');
    expect(text).not.toContain("hunter2");
    expect(text).not.toContain("4111 1111 1111 1111");
    expect(text).not.toContain("abc.def.ghi");
  });

  it("applies the project's extra sensitive fields", () => {
    expect(excerpt('{"ssn":"123-45-6789"}', { extraSensitiveFields: ["ssn"] })).not.toContain("123-45-6789");
  });

  it("keeps at most 4 KB, scrubbed before the cut so a secret across it is still found", () => {
    const card = "4111 1111 1111 1111";
    const text = excerpt(`${"x".repeat(EXCERPT_CHARS - 8)} ${card} ${"y".repeat(10_000)}`);
    expect(text.length).toBeLessThanOrEqual(EXCERPT_CHARS);
    expect(text).not.toContain("4111 1111");
  });

  it("is storable whatever the bytes: no NUL, no lone surrogate, broken UTF-8 replaced", () => {
    const text = deadLetterExcerpt(Buffer.concat([Buffer.from('{"a":"\u0000"}'), Buffer.from([0xff, 0xfe, 0xed, 0xa0, 0x80])]));
    expect(text).not.toMatch(/[\0\ud800-\udfff]/);
  });
});
