import { describe, expect, it } from "vitest";
import { explainQueryError } from "./explain";
import { parseIssueQuery } from "./parse";

const explain = (text: string) => {
  const r = parseIssueQuery(text);
  if (r.ok) throw new Error(`expected ${text} to be invalid`);
  return explainQueryError(text, r.error);
};

describe("explainQueryError", () => {
  it("names the term holding the error and keeps the parser's advice", () => {
    const e = explain('is:unresolved release:"1.0"x');
    expect(e.token).toBe('release:"1.0"x');
    expect(e.message).toBe('In “release:"1.0"x”: Unexpected "x" after the closing quote at position 27 — put a space between terms');
  });

  it("does not name the term twice when the parser's message already quotes it", () => {
    const e = explain("is:unresolved level:loud");
    expect(e.token).toBe("level:loud");
    expect(e.message).not.toMatch(/^In /);
    expect(e.message).toContain("level:loud");
  });

  it("splits the query at the position so the UI can mark the offending character", () => {
    const e = explain('release:"1.0"x');
    expect(e).toMatchObject({ position: 13, before: 'release:"1.0"', at: "x", after: "", token: 'release:"1.0"x' });
  });

  it("marks the end of the query when the problem is a missing closing quote", () => {
    const e = explain('title:"Cannot read');
    expect(e.position).toBe(6);
    expect(e.token).toBe('title:"Cannot');
    expect(e.before + e.at + e.after).toBe('title:"Cannot read');
  });

  it("refuses a bare OR and says so about that word", () => {
    const e = explain("level:error OR level:fatal");
    expect(e.token).toBe("OR");
    expect(e.at).toBe("O");
  });

  it("clamps a position past the end and then names no term", () => {
    const e = explainQueryError("abc ", { message: "Something is missing", position: 99 });
    expect(e).toMatchObject({ position: 4, token: "", at: "", message: "Something is missing" });
  });
});
