import { describe, expect, it } from "vitest";
import type { IssueQuery } from "./ast";
import { formatIssueQuery, parseIssueQuery } from "./parse";

function parsed(text: string): IssueQuery {
  const r = parseIssueQuery(text);
  if (!r.ok) throw new Error(`expected ${JSON.stringify(text)} to parse, got: ${r.error.message}`);
  return r.query;
}

const canonical = (text: string) => formatIssueQuery(parsed(text));

describe("formatIssueQuery", () => {
  it.each([
    ["is:unresolved level:error", "is:unresolved level:error"],
    ["  is:unresolved \t  TypeError  ", "is:unresolved TypeError"],
    ["age:-24h", "firstSeen:-24h"],
    ["first_seen:-0030m last_seen:+7d", "firstSeen:-30m lastSeen:+7d"],
    ["timesSeen:=10 userCount:>=5", "times_seen:10 user_count:>=5"],
    ["times_seen:>1.5k", "times_seen:>1500"],
    ['release:[ a ,"b c" ]', 'release:[a, "b c"]'],
    ["release:[only]", "release:only"],
    ["level:[ERROR, Fatal]", "level:[error, fatal]"],
    ['key:"plain"', "key:plain"],
    ['"single"', "single"],
    ['message:"a b"', '"a b"'],
    ["!message:x", "!x"],
    ['"TypeError: x"', '"TypeError: x"'],
    ['"!bang"', '"!bang"'],
    ['"OR"', '"OR"'],
    ['"[object Object]"', '"[object Object]"'],
    ['k:"[x]"', 'k:"[x]"'],
    ['k:["a,b", "c]"]', 'k:["a,b", "c]"]'],
    ['k:"say \\"hi\\""', 'k:"say \\"hi\\""'],
    ["lastSeen:2024-05-01T12:00:00+02:00", "lastSeen:2024-05-01T10:00:00.000Z"],
    ["firstSeen:>=2024-05-01", "firstSeen:>=2024-05-01"],
    ["firstSeen:=2024-05-01", "firstSeen:2024-05-01"],
    ["tags[level]:x tags[custom]:y", "tags[level]:x custom:y"],
    ["tags[a@b]:x", "tags[a@b]:x"],
    ["has:tags[assigned] has:tags[x] has:level", "has:tags[assigned] has:x has:level"],
    ['has:"my tag"', 'has:"my tag"'],
    ["assigned:[Me, NONE, A@B.C] bookmarks:me", "assigned:[me, none, a@b.c] bookmarks:me"],
    ["assigned_to:me bookmarked_by:me first-release:1.0", "assigned:me bookmarks:me firstRelease:1.0"],
    ["release:1.0\\* release:1.*", "release:1.0\\* release:1.*"],
    ["path:C:\\dir", "path:C:\\\\dir"],
    [
      "!is:resolved !has:release !level:info !assigned:me !times_seen:>10 !firstSeen:-1d !release:1.*",
      "!is:resolved !has:release !level:info !assigned:me !times_seen:>10 !firstSeen:-1d !release:1.*",
    ],
    ['title:"Ошибка ✓" 日本語', 'title:"Ошибка ✓" 日本語'],
  ])("prints %j as %j", (text, expected) => {
    expect(canonical(text)).toBe(expected);
    // The canonical text parses to the same query, and is its own canonical form.
    expect(parsed(expected)).toEqual(parsed(text));
    expect(canonical(expected)).toBe(expected);
  });

  it("prints an empty query as an empty string", () => {
    expect(formatIssueQuery({ terms: [] })).toBe("");
  });

  it("round-trips every query that parses, for random input built from the syntax's own characters", () => {
    // A small deterministic generator (mulberry32): the same cases on every run.
    let seed = 0x5eed;
    const random = () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const pieces = [
      "is:",
      "has:",
      "level:",
      "release:",
      "tags[",
      "]",
      "[",
      ",",
      ":",
      "!",
      '"',
      "\\",
      "*",
      " ",
      "\t",
      "a",
      "b",
      "é",
      "🔥",
      "%",
      "_",
      "-24h",
      "+7d",
      ">",
      ">=",
      "10",
      "2024-05-01",
      "T10:00:00Z",
      "me",
      "none",
      "x@y.z",
      "error",
      "unresolved",
      "times_seen:",
      "firstSeen:",
      "assigned:",
      "bookmarks:",
      "title:",
      "message:",
      "OR",
    ];
    let parsedCount = 0;
    for (let n = 0; n < 5000; n++) {
      let text = "";
      const length = Math.floor(random() * 12);
      for (let i = 0; i < length; i++) text += pieces[Math.floor(random() * pieces.length)];
      const r = parseIssueQuery(text);
      if (!r.ok) {
        expect(r.error.position).toBeGreaterThanOrEqual(0);
        expect(r.error.position).toBeLessThanOrEqual(text.length);
        expect(r.error.message.length).toBeGreaterThan(0);
        continue;
      }
      parsedCount++;
      const printed = formatIssueQuery(r.query);
      const again = parseIssueQuery(printed);
      expect(again, `${JSON.stringify(text)} printed as ${JSON.stringify(printed)}`).toEqual({ ok: true, query: r.query });
      expect(formatIssueQuery(r.query)).toBe(printed);
    }
    // The generator must exercise the success path, not only the errors.
    expect(parsedCount).toBeGreaterThan(1000);
  });
});
