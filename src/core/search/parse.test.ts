import { describe, expect, it } from "vitest";
import { withoutBlowUp } from "../../../test/support/blow-up";
import type { ParseResult, Term } from "./ast";
import { parseIssueQuery } from "./parse";

function terms(text: string): Term[] {
  const r = parseIssueQuery(text);
  if (!r.ok) throw new Error(`expected ${JSON.stringify(text)} to parse, got: ${r.error.message}`);
  return r.query.terms;
}

function one(text: string): Term {
  const t = terms(text);
  expect(t).toHaveLength(1);
  return t[0]!;
}

function failure(text: string): { message: string; position: number } {
  const r: ParseResult = parseIssueQuery(text);
  if (r.ok) throw new Error(`expected ${JSON.stringify(text)} to be refused, got ${JSON.stringify(r.query)}`);
  return r.error;
}

describe("parseIssueQuery: valid queries", () => {
  it("reads an empty or blank query as no terms", () => {
    expect(terms("")).toEqual([]);
    expect(terms("   \t\n ")).toEqual([]);
  });

  it("reads Sentry's documented example into five AND-ed terms", () => {
    expect(terms('is:resolved user.username:"Jane Doe" server:web-8 example error')).toEqual([
      { type: "is", negated: false, value: "resolved" },
      { type: "tag", negated: false, key: "user.username", values: ["Jane Doe"] },
      { type: "tag", negated: false, key: "server", values: ["web-8"] },
      { type: "text", negated: false, value: "example" },
      { type: "text", negated: false, value: "error" },
    ]);
  });

  it("reads every is: value, case-insensitively, and its negation", () => {
    for (const v of [
      "unresolved",
      "resolved",
      "ignored",
      "archived",
      "assigned",
      "unassigned",
      "bookmarked",
      "regressed",
      "new",
      "ongoing",
      "escalating",
    ]) {
      expect(one(`is:${v}`)).toEqual({ type: "is", negated: false, value: v });
    }
    expect(one("is:Unresolved")).toEqual({ type: "is", negated: false, value: "unresolved" });
    expect(one("!is:resolved")).toEqual({ type: "is", negated: true, value: "resolved" });
  });

  it("reads has: and !has: on tags, including a tag named like a property", () => {
    expect(one("has:user.email")).toEqual({ type: "has", negated: false, key: "user.email" });
    expect(one("!has:release")).toEqual({ type: "has", negated: true, key: "release" });
    expect(one("has:level")).toEqual({ type: "has", negated: false, key: "level" });
    expect(one("has:tags[assigned]")).toEqual({ type: "has", negated: false, key: "assigned" });
    expect(one('has:"my tag"')).toEqual({ type: "has", negated: false, key: "my tag" });
  });

  it("reads level as the issue's level, one value or a list, lower-cased", () => {
    expect(one("level:error")).toEqual({ type: "level", negated: false, values: ["error"] });
    expect(one("level:[fatal, ERROR]")).toEqual({ type: "level", negated: false, values: ["fatal", "error"] });
    expect(one("!level:info")).toEqual({ type: "level", negated: true, values: ["info"] });
  });

  it("reads release, environment, user, browser and os keys as tags", () => {
    expect(
      terms('release:1.2.0 environment:production user.email:jane@example.com user.id:42 browser.name:Chrome os.name:"Mac OS X"'),
    ).toEqual([
      { type: "tag", negated: false, key: "release", values: ["1.2.0"] },
      { type: "tag", negated: false, key: "environment", values: ["production"] },
      { type: "tag", negated: false, key: "user.email", values: ["jane@example.com"] },
      { type: "tag", negated: false, key: "user.id", values: ["42"] },
      { type: "tag", negated: false, key: "browser.name", values: ["Chrome"] },
      { type: "tag", negated: false, key: "os.name", values: ["Mac OS X"] },
    ]);
  });

  it("treats any other key as a tag, and tags[key] as a tag even when key is a property", () => {
    expect(one("server:web-8")).toEqual({ type: "tag", negated: false, key: "server", values: ["web-8"] });
    expect(one("tags[level]:error")).toEqual({ type: "tag", negated: false, key: "level", values: ["error"] });
    expect(one("tags[is]:x")).toEqual({ type: "tag", negated: false, key: "is", values: ["x"] });
    expect(one("tags[my@tag]:x")).toEqual({ type: "tag", negated: false, key: "my@tag", values: ["x"] });
  });

  it("keeps wildcards as globs and escapes as glob escapes", () => {
    expect(one("release:1.2.*")).toEqual({ type: "tag", negated: false, key: "release", values: ["1.2.*"] });
    expect(one("release:1.0\\*")).toEqual({ type: "tag", negated: false, key: "release", values: ["1.0\\*"] });
    expect(one("path:C:\\dir\\\\x")).toEqual({ type: "tag", negated: false, key: "path", values: ["C:\\\\dir\\\\x"] });
    expect(one("url:*100%_done*")).toEqual({ type: "tag", negated: false, key: "url", values: ["*100%_done*"] });
  });

  it("reads quoted values with escaped quotes and backslashes", () => {
    expect(one('message:"say \\"hi\\""')).toEqual({ type: "text", negated: false, value: 'say "hi"' });
    expect(one('key:"two words"')).toEqual({ type: "tag", negated: false, key: "key", values: ["two words"] });
    expect(one('key:"ends with \\\\"')).toEqual({ type: "tag", negated: false, key: "key", values: ["ends with \\\\"] });
    expect(one('key:"a:b [c]"')).toEqual({ type: "tag", negated: false, key: "key", values: ["a:b [c]"] });
  });

  it("reads lists with quoted items, spaces around commas and wildcards", () => {
    expect(one('release:[ 12.0 ,13.0, "a b", 1.*]')).toEqual({
      type: "tag",
      negated: false,
      key: "release",
      values: ["12.0", "13.0", "a b", "1.*"],
    });
    expect(one("!environment:[staging,dev]")).toEqual({ type: "tag", negated: true, key: "environment", values: ["staging", "dev"] });
  });

  it("reads counts with operators and Sentry's k/m/b multipliers", () => {
    expect(one("times_seen:>10")).toEqual({ type: "number", negated: false, field: "times_seen", op: ">", value: 10 });
    expect(one("timesSeen:10")).toEqual({ type: "number", negated: false, field: "times_seen", op: "=", value: 10 });
    expect(one("times_seen:=10")).toEqual({ type: "number", negated: false, field: "times_seen", op: "=", value: 10 });
    expect(one("user_count:>=5")).toEqual({ type: "number", negated: false, field: "user_count", op: ">=", value: 5 });
    expect(one("userCount:<3")).toEqual({ type: "number", negated: false, field: "user_count", op: "<", value: 3 });
    expect(one("times_seen:<=1.5k")).toEqual({ type: "number", negated: false, field: "times_seen", op: "<=", value: 1500 });
    expect(one("times_seen:2M")).toEqual({ type: "number", negated: false, field: "times_seen", op: "=", value: 2_000_000 });
    expect(one("!times_seen:>10")).toMatchObject({ negated: true, op: ">", value: 10 });
  });

  it("reads relative times like Sentry's age: -24h is recent, +7d is older", () => {
    expect(one("firstSeen:-24h")).toEqual({
      type: "date",
      negated: false,
      field: "firstSeen",
      value: { kind: "relative", sign: "-", amount: 24, unit: "h" },
    });
    expect(one("age:-24h")).toEqual(one("firstSeen:-24h"));
    expect(one("first_seen:-30m")).toMatchObject({ field: "firstSeen", value: { amount: 30, unit: "m" } });
    expect(one("lastSeen:+7d")).toEqual({
      type: "date",
      negated: false,
      field: "lastSeen",
      value: { kind: "relative", sign: "+", amount: 7, unit: "d" },
    });
    expect(one("last_seen:-2w")).toMatchObject({ field: "lastSeen", value: { sign: "-", amount: 2, unit: "w" } });
  });

  it("reads absolute ISO dates and date-times, with operators and zones, as UTC milliseconds", () => {
    expect(one("firstSeen:>2024-05-01")).toEqual({
      type: "date",
      negated: false,
      field: "firstSeen",
      value: { kind: "absolute", op: ">", ms: Date.UTC(2024, 4, 1), precision: "day" },
    });
    expect(one("lastSeen:<=2024-05-01T10:00:00Z")).toMatchObject({ value: { op: "<=", ms: Date.UTC(2024, 4, 1, 10), precision: "time" } });
    expect(one("lastSeen:2024-05-01T12:00:00+02:00")).toMatchObject({
      value: { op: "=", ms: Date.UTC(2024, 4, 1, 10), precision: "time" },
    });
    expect(one("lastSeen:2024-05-01T10:00")).toMatchObject({ value: { ms: Date.UTC(2024, 4, 1, 10) } });
    expect(one("lastSeen:2024-05-01T10:00:00.123456Z")).toMatchObject({ value: { ms: Date.UTC(2024, 4, 1, 10, 0, 0, 123) } });
    expect(one("lastSeen:2024-02-29")).toMatchObject({ value: { ms: Date.UTC(2024, 1, 29) } });
  });

  it("reads assignees and bookmarks: me, none, emails (lower-cased), lists", () => {
    expect(one("assigned:me")).toEqual({ type: "assigned", negated: false, values: [{ kind: "me" }] });
    expect(one("assigned:none")).toEqual({ type: "assigned", negated: false, values: [{ kind: "none" }] });
    // Sentry's syntax for a team.
    expect(one("assigned:#Backend")).toEqual({ type: "assigned", negated: false, values: [{ kind: "team", slug: "backend" }] });
    expect(one("assigned_to:Jane@Example.com")).toEqual({
      type: "assigned",
      negated: false,
      values: [{ kind: "email", email: "jane@example.com" }],
    });
    expect(one("!assigned:[me, none]")).toEqual({ type: "assigned", negated: true, values: [{ kind: "me" }, { kind: "none" }] });
    expect(one("bookmarks:me")).toEqual({ type: "bookmarks", negated: false, values: [{ kind: "me" }] });
    expect(one("bookmarks:bob@example.com")).toEqual({
      type: "bookmarks",
      negated: false,
      values: [{ kind: "email", email: "bob@example.com" }],
    });
  });

  it("reads firstRelease and title as issue fields, message as free text", () => {
    expect(one("firstRelease:1.0.*")).toEqual({ type: "field", negated: false, field: "firstRelease", values: ["1.0.*"] });
    expect(one("first-release:1.0")).toEqual({ type: "field", negated: false, field: "firstRelease", values: ["1.0"] });
    expect(one("first_release:1.0")).toMatchObject({ field: "firstRelease" });
    expect(one('title:"TypeError*"')).toEqual({ type: "field", negated: false, field: "title", values: ["TypeError*"] });
    expect(one('message:"not defined"')).toEqual({ type: "text", negated: false, value: "not defined" });
    expect(one("!message:timeout")).toEqual({ type: "text", negated: true, value: "timeout" });
  });

  it("reads free words and quoted phrases, each its own term, with ! to exclude", () => {
    expect(terms('TypeError "cannot read" !timeout Type*Error')).toEqual([
      { type: "text", negated: false, value: "TypeError" },
      { type: "text", negated: false, value: "cannot read" },
      { type: "text", negated: true, value: "timeout" },
      { type: "text", negated: false, value: "Type*Error" },
    ]);
    expect(one("foo(bar)")).toEqual({ type: "text", negated: false, value: "foo(bar)" });
    expect(one('"TypeError: x"')).toEqual({ type: "text", negated: false, value: "TypeError: x" });
    expect(one("or")).toEqual({ type: "text", negated: false, value: "or" });
    expect(one('"OR"')).toEqual({ type: "text", negated: false, value: "OR" });
  });

  it("keeps colons after the first in a value (URLs need no quotes)", () => {
    expect(one("url:https://example.com/a?b=c")).toEqual({
      type: "tag",
      negated: false,
      key: "url",
      values: ["https://example.com/a?b=c"],
    });
  });

  it("reads Unicode keys' values and separates terms on any whitespace", () => {
    expect(terms('title:"Ошибка ✓"\u00a0日本語\u3000🔥\tlevel:error')).toEqual([
      { type: "field", negated: false, field: "title", values: ["Ошибка ✓"] },
      { type: "text", negated: false, value: "日本語" },
      { type: "text", negated: false, value: "🔥" },
      { type: "level", negated: false, values: ["error"] },
    ]);
  });

  it("accepts exactly 50 terms and 2,000 characters", () => {
    expect(terms(Array.from({ length: 50 }, (_, i) => `w${i}`).join(" "))).toHaveLength(50);
    expect(terms(`message:${"a".repeat(1992)}`)).toHaveLength(1);
  });
});

describe("parseIssueQuery: invalid queries get a message and a position", () => {
  it.each([
    [
      "is:nope",
      3,
      'Unknown status "nope" in is:nope — use unresolved, resolved, ignored, archived, assigned, unassigned, bookmarked, regressed, new, ongoing or escalating',
    ],
    ["level:", 6, 'Missing value after "level:"'],
    ["is:unresolved level: error", 20, 'Missing value after "level:"'],
    ["TypeError: boom", 10, 'Missing value after "TypeError:" — write TypeError:value, or put text that contains a colon in quotes'],
    ['title:"Cannot read', 6, 'Unterminated quote at position 6 — close it with " (write \\" for a quote inside)'],
    ['level:error "unfinished \\"', 12, 'Unterminated quote at position 12 — close it with " (write \\" for a quote inside)'],
    ['release:"1.0"x', 13, 'Unexpected "x" after the closing quote at position 13 — put a space between terms'],
    ["level:critical", 6, 'Unknown level "critical" in level:critical — use fatal, error, warning, info or debug'],
    ["issue.priority:urgent", 15, 'Unknown priority "urgent" in issue.priority:urgent — use high, medium or low'],
    ["level:[error, err*]", 14, 'Unknown level "err*" in level:err* — use fatal, error, warning, info or debug'],
    [
      "times_seen:>ten",
      11,
      'Invalid number ">ten" in times_seen:>ten — use a whole number with an optional >, >=, < or <=, like times_seen:>10',
    ],
    [
      "times_seen:1.5",
      11,
      'Invalid number "1.5" in times_seen:1.5 — use a whole number with an optional >, >=, < or <=, like times_seen:>10',
    ],
    [
      "times_seen:!=5",
      11,
      'Invalid number "!=5" in times_seen:!=5 — use a whole number with an optional >, >=, < or <=, like times_seen:>10',
    ],
    ["times_seen:99999999999999999999", 11, expect.stringContaining("Invalid number")],
    [
      "firstSeen:>-24h",
      10,
      "A relative time takes no operator: use firstSeen:-24h (in the last 24 hours) or firstSeen:+24h (more than 24 hours ago)",
    ],
    ["firstSeen:yesterday", 10, expect.stringMatching(/^Invalid date "yesterday" in firstSeen:yesterday — use a relative time like -24h/)],
    ["age:-24y", 4, expect.stringContaining('Invalid date "-24y"')],
    ["firstSeen:2024-02-30", 10, expect.stringContaining("Invalid date")],
    ["lastSeen:2023-02-29", 9, expect.stringContaining("Invalid date")],
    ["lastSeen:2024-05-01T24:00:00Z", 9, expect.stringContaining("Invalid date")],
    ["lastSeen:1969-12-31", 9, expect.stringContaining("Invalid date")],
    ["assigned:bob", 9, 'Unknown assignee "bob" in assigned:bob — use me, none, a #team or a member\'s email'],
    ["assigned:my_teams", 9, "Name one team in assigned:my_teams, like #backend — or use me, none, a #team or a member's email"],
    ["bookmarks:#backend", 10, "Teams are not supported in bookmarks:#backend — use me or a member's email"],
    ["bookmarks:none", 10, 'Unknown user "none" in bookmarks:none — use me or a member\'s email'],
    ["release:[]", 8, 'Empty list after "release:" — put at least one value between the brackets'],
    ["release:[a,,b]", 11, "Empty value in the list at position 11 — remove the extra comma"],
    ["release:[a, ]", 12, "Empty value in the list at position 12 — remove the extra comma"],
    ["release:[a, b", 8, "Unclosed list at position 8 — end it with ], or put a value that starts with [ in quotes"],
    ["release:[a b]", 11, 'Expected "," or "]" at position 11 — separate list values with commas'],
    ["release:[a]x", 11, 'Unexpected "x" after the list at position 11 — put a space between terms'],
    ['release:["a"b]', 12, 'Unexpected "b" after the closing quote at position 12 — separate list values with commas'],
    ['release:""', 8, 'Empty value after "release:" — to find issues without this tag, use !has:release'],
    ['level:""', 6, 'Empty value after "level:"'],
    ['tags[is]:""', 9, 'Empty value after "tags[is]:" — to find issues without this tag, use !has:tags[is]'],
    ['tags[level]:""', 12, 'Empty value after "tags[level]:" — to find issues without this tag, use !has:level'],
    ["is:[resolved, ignored]", 4, "is: takes a single value, not a list — like is:unresolved"],
    ["times_seen:[1, 2]", 12, "times_seen: takes a single value, not a list — like times_seen:>10"],
    ["has:times_seen", 4, "has:times_seen is not supported — has: checks that an issue has a tag, like has:user.email or has:release"],
    [
      "has:assigned",
      4,
      "has:assigned is not supported — has: checks that an issue has a tag, like has:user.email or has:release; use is:assigned or is:unassigned",
    ],
    ["has:user.*", 4, "has: takes a tag name without wildcards, like has:user.email"],
    [
      "TypeError OR ReferenceError",
      10,
      'OR is not supported in issue search: all terms must match. To search for the word itself, quote it: "OR"',
    ],
    ["a AND b", 2, 'AND is not supported in issue search: all terms must match. To search for the word itself, quote it: "AND"'],
    ["level:error ! foo", 12, 'A lone "!" at position 12 negates nothing — put it right before a term, like !level:info'],
    ["!", 0, 'A lone "!" at position 0 negates nothing — put it right before a term, like !level:info'],
    ['foo ""', 4, "Empty quotes at position 4 — put the text to search for between them"],
    ["foo\u0000bar", 3, "The query contains a control character (U+0000) at position 3 — remove it"],
    ["level:error\u001b[31m", 11, "The query contains a control character (U+001B) at position 11 — remove it"],
  ])("refuses %j", (text, position, message) => {
    expect(failure(text)).toEqual({ position, message });
  });

  it("refuses more than 2,000 characters, pointing at the limit", () => {
    expect(failure(`message:${"a".repeat(1993)}`)).toEqual({
      position: 2000,
      message: "The query is 2001 characters long; the limit is 2000 — remove some terms",
    });
  });

  it("refuses a 51st term, pointing at it", () => {
    const text = Array.from({ length: 51 }, (_, i) => `w${i}`).join(" ");
    expect(failure(text)).toEqual({
      position: text.lastIndexOf("w50"),
      message: "The query has more than 50 terms — remove some, or match several values of one key with key:[a, b]",
    });
  });

  it("takes other limits when given", () => {
    expect(parseIssueQuery("a b c", { maxLength: 2000, maxTerms: 2 })).toMatchObject({ ok: false, error: { position: 4 } });
    expect(parseIssueQuery("abcdef", { maxLength: 5, maxTerms: 50 })).toMatchObject({ ok: false, error: { position: 5 } });
  });
});

describe("parseIssueQuery: hostile input", () => {
  // A hand-written scanner: a rescan per quote, escape or bracket would show as a blow-up.
  const fast = (text: string) => withoutBlowUp(() => parseIssueQuery(text));

  it("refuses 100,000 characters at once, without reading them", () => {
    expect(fast("a".repeat(100_000))).toMatchObject({ ok: false, error: { position: 2000 } });
    expect(fast('"'.repeat(100_000))).toMatchObject({ ok: false, error: { position: 2000 } });
  });

  it("handles runs of quotes, escapes, brackets and colons within the limit", () => {
    expect(fast('"'.repeat(2000))).toMatchObject({
      ok: false,
      error: { position: 2, message: expect.stringContaining("after the closing quote") },
    });
    expect(fast(`"${'\\"'.repeat(999)}`)).toMatchObject({
      ok: false,
      error: { position: 0, message: expect.stringContaining("Unterminated quote") },
    });
    expect(fast(`k:"${'\\"'.repeat(990)}"`)).toMatchObject({ ok: true, query: { terms: [{ values: ['"'.repeat(990)] }] } });
    expect(fast(`k:${"[".repeat(1990)}`)).toMatchObject({ ok: false, error: { position: 2 } });
    expect(fast("a:".repeat(1000))).toMatchObject({ ok: true, query: { terms: [{ type: "tag", key: "a", values: ["a:".repeat(999)] }] } });
    expect(fast("\\".repeat(2000))).toMatchObject({ ok: true, query: { terms: [{ type: "text", value: "\\".repeat(2000) }] } });
    expect(fast("!".repeat(2000))).toMatchObject({
      ok: true,
      query: { terms: [{ type: "text", negated: true, value: "!".repeat(1999) }] },
    });
    expect(fast(`tags[${"x".repeat(1990)}`)).toMatchObject({ ok: true });
  });

  it("counts terms, not characters, against the term limit", () => {
    expect(fast("a ".repeat(1000))).toMatchObject({ ok: false, error: { position: 100 } });
  });

  it("keeps lone surrogates, combining marks and right-to-left text as ordinary characters", () => {
    expect(terms("\ud800 e\u0301 \u202eabc")).toEqual([
      { type: "text", negated: false, value: "\ud800" },
      { type: "text", negated: false, value: "e\u0301" },
      { type: "text", negated: false, value: "\u202eabc" },
    ]);
  });
});

describe("Sentry's issue keys beyond tags", () => {
  it("reads error.type: and error.value: as the issue's own fields, and issue.priority: as levels", () => {
    expect(parseIssueQuery('error.type:TypeError error.value:"not defined*" !issue.priority:[high, low]')).toEqual({
      ok: true,
      query: {
        terms: [
          { type: "field", negated: false, field: "error.type", values: ["TypeError"] },
          { type: "field", negated: false, field: "error.value", values: ["not defined*"] },
          { type: "level", negated: true, values: ["fatal", "error", "info", "debug"] },
        ],
      },
    });
  });
});
