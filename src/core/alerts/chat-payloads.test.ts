import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { DISCORD, discordMessage, fit, SLACK, slackMessage } from "./chat-payloads";
import { hookHeaders, legacyWebhookBody, MAX_WEBHOOK_EVENT_BYTES, type AlertFacts } from "./web-payloads";

const facts = (over: Partial<AlertFacts> = {}): AlertFacts => ({
  issueId: 7,
  shortNumber: 3,
  title: "TypeError: x is undefined",
  culprit: "src/app.js in outer",
  level: "error",
  firstSeen: Date.UTC(2026, 10, 25, 18),
  lastSeen: Date.UTC(2026, 10, 25, 19),
  timesSeen: 12,
  userCount: 4,
  projectSlug: "web",
  projectName: "Web",
  orgSlug: "acme",
  ruleName: "Regressions",
  ruleSecret: "s3cret",
  kind: "regressed",
  shortId: "WEB-3",
  url: "https://errors.example.com/orgs/acme/issues/7/",
  event: null,
  frames: ["TypeError: x is undefined", "at inner (src/util.js:20:4)"],
  ...over,
});

type Json = Record<string, unknown>;
const huge = (n: number) => "<@everyone & *bold* ```".repeat(Math.ceil(n / 23));

describe("Slack and Discord alert messages", () => {
  it("fits text to a limit after escaping, never splitting an escape", () => {
    expect(fit("a<b", 10, (s) => s.replaceAll("<", "&lt;"))).toBe("a&lt;b");
    expect(fit("<<<<", 6, (s) => s.replaceAll("<", "&lt;"))).toBe("&lt;…");
    expect(fit("😀😀😀", 3)).toBe("😀…");
  });

  it("gives Slack a text fallback and blocks with the title, culprit, counts, stack and link", () => {
    const m = slackMessage(facts()) as { text: string; blocks: Json[] };
    expect(m.text).toBe("Regression in web: TypeError: x is undefined (https://errors.example.com/orgs/acme/issues/7/)");
    expect(JSON.stringify(m.blocks)).toContain("src/app.js in outer");
    expect(JSON.stringify(m.blocks)).toContain("Events: 12 · Users: 4");
    expect(JSON.stringify(m.blocks)).toContain("at inner (src/util.js:20:4)");
    expect(m.blocks.at(-1)).toEqual({
      type: "actions",
      elements: [{ type: "button", text: { type: "plain_text", text: "Open the issue" }, url: facts().url }],
    });
  });

  it("keeps Slack within its limits and escapes event text, however long", () => {
    const m = slackMessage(facts({ title: huge(10_000), culprit: huge(5000), frames: [huge(9000)] })) as { text: string; blocks: Json[] };
    expect(m.text.length).toBeLessThanOrEqual(SLACK.text);
    const header = m.blocks[0] as { text: { text: string } };
    expect(header.text.text.length).toBeLessThanOrEqual(SLACK.header);
    for (const b of m.blocks.slice(1, -1)) {
      const text = ((b as { text?: { text: string } }).text ?? (b as { elements: { text: string }[] }).elements[0]!).text;
      expect(text.length).toBeLessThanOrEqual(SLACK.section);
      expect(text).not.toMatch(/<|>/);
    }
    // The stack block stays one code block: the event's own fences are broken up.
    const stack = (m.blocks[3] as { text: { text: string } }).text.text;
    expect(stack.startsWith("```") && stack.endsWith("```")).toBe(true);
    expect(stack.slice(3, -3)).not.toContain("```");
  });

  it("keeps Discord's content to 2,000 characters, the embed title to 256 and its description to 4,096, pinging nobody", () => {
    const m = discordMessage(facts({ title: huge(10_000), culprit: huge(5000), frames: [huge(9000)], ruleName: huge(3000) })) as {
      content: string;
      embeds: { title: string; description: string; footer: { text: string }; fields: { value: string }[] }[];
      allowed_mentions: unknown;
    };
    expect(m.content.length).toBeLessThanOrEqual(DISCORD.content);
    expect(m.embeds[0]!.title.length).toBeLessThanOrEqual(DISCORD.title);
    expect(m.embeds[0]!.description.length).toBeLessThanOrEqual(DISCORD.description);
    const e = m.embeds[0]!;
    expect(
      e.title.length + e.description.length + e.footer.text.length + e.fields.reduce((n, f) => n + f.value.length + 6, 0),
    ).toBeLessThan(6000);
    expect(m.allowed_mentions).toEqual({ parse: [] });
    expect(m.content).toContain("\\*bold\\*");
  });

  it("says what happened in Discord's content and links the embed to the issue", () => {
    const m = discordMessage(facts({ kind: "created" })) as { content: string; embeds: Json[] };
    expect(m.content).toBe("**New issue** in web: TypeError: x is undefined");
    expect(m.embeds[0]).toMatchObject({ title: "WEB-3 · TypeError: x is undefined", url: facts().url });
    expect(String(m.embeds[0]!.description)).toContain("```\nTypeError: x is undefined\nat inner (src/util.js:20:4)\n```");
  });
});

describe("the generic webhook", () => {
  it("posts the legacy webhook plugin's fields, signed over the timestamp and the body", () => {
    const body = legacyWebhookBody(facts({ event: { event_id: "a".repeat(32), level: "error", platform: "node" } as AlertFacts["event"] }));
    expect(JSON.parse(body)).toMatchObject({
      id: "7",
      project: "web",
      project_name: "Web",
      project_slug: "web",
      level: "error",
      culprit: "src/app.js in outer",
      message: "TypeError: x is undefined",
      url: facts().url,
      triggering_rules: ["Regressions"],
      event: { event_id: "a".repeat(32), id: "a".repeat(32), platform: "node" },
    });
    const headers = hookHeaders("s3cret", body, "issue-change-9.rule-1.webhook-ab", Date.UTC(2026, 10, 27, 9) + 999);
    expect(headers["sentry-hook-timestamp"]).toBe(String(Date.UTC(2026, 10, 27, 9) / 1000));
    expect(headers["sentry-hook-resource"]).toBe("event_alert");
    expect(headers["telltale-hook-id"]).toBe("issue-change-9.rule-1.webhook-ab");
    const expected = createHmac("sha256", "s3cret").update(`${headers["sentry-hook-timestamp"]}.${body}`).digest("hex");
    expect(headers["sentry-hook-signature"]).toBe(expected);
    expect(hookHeaders("other", body, "x", 0)["sentry-hook-signature"]).not.toBe(expected);
  });

  it("sends an event past 256 KiB as its summary", () => {
    const event = {
      event_id: "b".repeat(32),
      level: "error",
      extra: { blob: "x".repeat(MAX_WEBHOOK_EVENT_BYTES) },
    } as unknown as AlertFacts["event"];
    const parsed = JSON.parse(legacyWebhookBody(facts({ event }))) as { event: Json };
    expect(parsed.event).toMatchObject({ event_id: "b".repeat(32), truncated: true, title: "TypeError: x is undefined" });
    expect(parsed.event.extra).toBeUndefined();
  });
});
