/**
 * Alert notifications to a generic webhook, Slack or Discord (decision 0018): the body for the
 * channel, the headers (a generic webhook's are signed with the rule's secret), one POST through
 * the WebhookPoster port, and the attempt recorded with the answer's status, the start of its
 * body and its duration. A 2xx answer is sent; a refused address, or a 4xx other than 408 and
 * 429, fails at once (sending the same request again would get the same answer); anything else
 * is tried again as email is, with the same `Telltale-Hook-Id`.
 */
import type { Ctx } from "../context";
import type { NotificationRecord } from "../ports/alerts";
import type { NotificationStatus } from "../ports/delivery";
import { discordMessage, slackMessage } from "./chat-payloads";
import { hookHeaders, legacyWebhookBody, type AlertFacts } from "./web-payloads";

/** Records an attempt; `status` is the notification's state after it (`pending`: to be tried again). */
export type Recorder = (
  status: NotificationStatus,
  error: string | null,
  extra?: { messageId?: string | null; statusCode?: number | null; response?: string | null; durationMs?: number | null },
) => Promise<void>;

export const NO_WEBHOOKS = "not sent: this process sends no webhooks";

/** Whether an answer says the same request will never succeed. */
export function isFinalAnswer(status: number): boolean {
  return status >= 400 && status < 500 && status !== 408 && status !== 429;
}

export function webRequest(n: NotificationRecord, f: AlertFacts, secret: string, now: number) {
  if (n.channel === "webhook") {
    const body = legacyWebhookBody(f);
    return { url: n.target, headers: hookHeaders(secret, body, n.id, now), body };
  }
  const body = JSON.stringify(n.channel === "slack" ? slackMessage(f) : discordMessage(f));
  return {
    url: n.target,
    headers: { "content-type": "application/json", "user-agent": "Telltale-Webhooks/1", "telltale-hook-id": n.id },
    body,
  };
}

export async function sendWeb(
  ctx: Ctx,
  n: NotificationRecord,
  facts: AlertFacts,
  lastTry: boolean,
  record: Recorder,
  result: { sent: number; failed: number; notSent: number },
): Promise<void> {
  if (!ctx.webhooks) {
    result.notSent++;
    return record("not_sent", NO_WEBHOOKS);
  }
  if (n.channel === "webhook" && facts.ruleSecret === null) {
    result.notSent++;
    return record("not_sent", "not sent: the rule was deleted, and its signing secret with it");
  }
  const answer = await ctx.webhooks.post(webRequest(n, facts, facts.ruleSecret ?? "", ctx.now()));
  const extra = { statusCode: answer.status, response: answer.response, durationMs: answer.durationMs };
  if (answer.status !== null && answer.status >= 200 && answer.status < 300) {
    result.sent++;
    return record("sent", null, extra);
  }
  result.failed++;
  const error = answer.error ?? `answered ${answer.status ?? "nothing"}`;
  const final = answer.refused || (answer.status !== null && isFinalAnswer(answer.status)) || lastTry;
  return record(final ? "failed" : "pending", error.slice(0, 1000), extra);
}
