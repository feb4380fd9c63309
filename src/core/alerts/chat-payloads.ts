/**
 * Alerts as Slack and Discord incoming-webhook messages (decision 0018). Every value is event
 * text: escaped for each one's markup, and cut to each one's limits so the message is never
 * refused for its length. Slack (https://api.slack.com/reference/block-kit/blocks): a `text`
 * fallback for notifications plus blocks, a header of at most 150 characters and sections of
 * at most 3,000. Discord (https://discord.com/developers/docs/resources/webhook#execute-webhook,
 * https://discord.com/developers/docs/resources/message#embed-object-embed-limits): `content` at
 * most 2,000 characters, an embed title at most 256 and description at most 4,096, no mentions.
 */
import type { AlertFacts } from "./web-payloads";

export const SLACK = { text: 3000, header: 150, section: 3000 } as const;
export const DISCORD = { content: 2000, title: 256, description: 4096, fieldValue: 1024, footer: 2048 } as const;

const KIND_WORDS: Record<string, string> = {
  created: "New issue",
  regressed: "Regression",
  escalating: "Escalating issue",
  test: "Test of an alert rule",
};
const what = (kind: string) => KIND_WORDS[kind] ?? "Issue alert";

/** `text` cut to at most `max` characters once `escape`d, ending in "…" when cut; never splits an escape or a code point. */
export function fit(text: string, max: number, escape: (s: string) => string = (s) => s): string {
  const whole = escape(text);
  if (whole.length <= max) return whole;
  const chars = [...text];
  let [lo, hi] = [0, chars.length];
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (escape(chars.slice(0, mid).join("")).length + 1 <= max) lo = mid;
    else hi = mid - 1;
  }
  return escape(chars.slice(0, lo).join("")) + "…";
}

/** Slack's three control characters (https://api.slack.com/reference/surfaces/formatting#escaping): no links or mentions from event text. */
const slackEscape = (s: string) => s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
/** Discord markdown, mentions aside (allowed_mentions turns those off): escaped with a backslash. */
const discordEscape = (s: string) => s.replace(/[\\*_~`|>#[\]()-]/g, "\\$&");
/** Inside a code block only its fence can break out. */
const fenceSafe = (s: string) => s.replaceAll("```", "`\u200b``");

function counts(f: AlertFacts): string {
  return `Level: ${f.level} · Events: ${f.timesSeen} · Users: ${f.userCount}`;
}

export function slackMessage(f: AlertFacts): Record<string, unknown> {
  const lead = `${what(f.kind)} in ${f.projectSlug}`;
  const blocks: Record<string, unknown>[] = [
    { type: "header", text: { type: "plain_text", text: fit(f.title || "(no title)", SLACK.header), emoji: false } },
    {
      type: "section",
      text: { type: "mrkdwn", text: fit(`*${lead}* · ${f.shortId}\n${f.culprit}`, SLACK.section, slackEscape) },
    },
    { type: "context", elements: [{ type: "mrkdwn", text: fit(counts(f), SLACK.section, slackEscape) }] },
  ];
  if (f.frames.length)
    blocks.push({
      type: "section",
      text: { type: "mrkdwn", text: "```" + fit(fenceSafe(f.frames.join("\n")), SLACK.section - 6, slackEscape) + "```" },
    });
  blocks.push({
    type: "actions",
    elements: [{ type: "button", text: { type: "plain_text", text: "Open the issue" }, url: f.url.slice(0, 3000) }],
  });
  return { text: fit(`${lead}: ${f.title} (${f.url})`, SLACK.text, slackEscape), blocks, unfurl_links: false };
}

export function discordMessage(f: AlertFacts): Record<string, unknown> {
  const stack = f.frames.length ? "```\n" + fit(fenceSafe(f.frames.join("\n")), DISCORD.description - 200) + "\n```" : "";
  const culprit = fit(f.culprit, 190, discordEscape);
  const lead = `**${what(f.kind)}** in ${discordEscape(f.projectSlug)}: `;
  return {
    content: lead + fit(f.title, DISCORD.content - lead.length, discordEscape),
    embeds: [
      {
        title: fit(`${f.shortId} · ${f.title || "(no title)"}`, DISCORD.title),
        url: f.url,
        description: [culprit, stack].filter(Boolean).join("\n"),
        color: f.kind === "regressed" || f.kind === "escalating" ? 0xd97706 : 0xdc2626,
        fields: [
          { name: "Level", value: fit(f.level, DISCORD.fieldValue), inline: true },
          { name: "Events", value: String(f.timesSeen), inline: true },
          { name: "Users", value: String(f.userCount), inline: true },
        ],
        footer: { text: fit(`Rule: ${f.ruleName ?? "(deleted)"} · ${f.orgSlug}/${f.projectSlug}`, 256) },
      },
    ],
    // Event text may say @everyone: Discord must not ping anyone for it.
    allowed_mentions: { parse: [] },
  };
}
