import { describe, expect, it } from "vitest";
import { issueAlertEmail } from "../email/templates";
import { stackExcerpt } from "./stack-excerpt";

const event = {
  exception: {
    values: [
      {
        type: "TypeError",
        value: "x is <undefined>",
        stacktrace: {
          frames: [
            { filename: "node_modules/lib/index.js", function: "lib", lineno: 1, in_app: false },
            { filename: "src/app.js", function: "outer", lineno: 10, colno: 2, in_app: true },
            { filename: "src/util.js", function: "inner", lineno: 20, colno: 4, in_app: true },
            { filename: "node_modules/lib/run.js", function: "run", lineno: 5, in_app: false },
          ],
        },
      },
    ],
  },
};

describe("the stack excerpt of an alert email", () => {
  it("lists the top exception's in-app frames, newest first, under its type and value", () => {
    expect(stackExcerpt(JSON.stringify(event))).toEqual([
      "TypeError: x is <undefined>",
      "at inner (src/util.js:20:4)",
      "at outer (src/app.js:10:2)",
    ]);
  });

  it("falls back to the newest frames without in-app ones, and to nothing without an event", () => {
    const frames = event.exception.values[0]!.stacktrace.frames.map((f) => ({ ...f, in_app: false }));
    const lines = stackExcerpt(JSON.stringify({ exception: { values: [{ type: "E", stacktrace: { frames } }] } }), 2);
    expect(lines).toEqual(["E", "at run (node_modules/lib/run.js:5)", "at inner (src/util.js:20:4)"]);
    expect(stackExcerpt(null)).toEqual([]);
    expect(stackExcerpt("not json")).toEqual([]);
  });

  it("is escaped in the HTML part, like every event text of the email", () => {
    const email = issueAlertEmail({
      kind: "created",
      projectSlug: "web",
      orgSlug: "acme",
      shortId: "WEB-1",
      title: "<img src=x onerror=alert(1)>",
      culprit: "a & b",
      level: "error",
      firstSeen: Date.UTC(2026, 10, 25, 18, 3, 12),
      lastSeen: Date.UTC(2026, 10, 25, 18, 3, 12),
      timesSeen: 1,
      frames: stackExcerpt(JSON.stringify(event)),
      url: "https://errors.example.com/orgs/acme/issues/1/",
      ruleName: "<b>rule</b>",
    });
    expect(email.subject).toBe("[web] New issue: <img src=x onerror=alert(1)>");
    expect(email.html).not.toMatch(/<img|<b>|x is <undefined>/);
    expect(email.html).toContain("&lt;img src=x onerror=alert(1)&gt;");
    expect(email.html).toContain("x is &lt;undefined&gt;");
    expect(email.text).toContain("First seen: 2026-11-25 18:03:12 UTC");
    expect(email.text).toContain("    at inner (src/util.js:20:4)");
  });
});
