/**
 * The alert sender (docs/decisions/0017-alert-delivery.md): claims due notifications (one sender
 * each, `FOR UPDATE SKIP LOCKED` on PostgreSQL, with a lease so a sender that dies lets another
 * take them up), sends each through the Mailer port with a `Message-ID` made from the
 * notification's id (a resend after a crash between sending and recording is recognisably the
 * same message), and records every attempt. A failure is tried again after 1 min · 2^(n-1), up
 * to MAX_TRIES; without an SMTP server the notification is recorded as not sent, once. Webhook,
 * Slack and Discord notifications go through ./send-web.ts (decision 0018).
 */
import type { Ctx } from "../context";
import { issueAlertEmail } from "../email/templates";
import { shortId } from "../issues/queries";
import type { NotificationRecord } from "../ports/alerts";
import type { DeliveryQueue, DeliveryState } from "../ports/delivery";
import { decodePayload } from "../storage/payload";
import { sendWeb, type Recorder } from "./send-web";
import { stackExcerpt, storedEvent } from "./stack-excerpt";
import type { AlertFacts } from "./web-payloads";
import { isWorkflowKind } from "../workflow/consumer";
import { workflowEmailFor } from "../workflow/email";

export const MAX_TRIES = 8;
export const FIRST_RETRY_MS = 60_000;
/** Longer than one SMTP exchange may take (src/server/mailer.ts, 30 s per step). */
export const CLAIM_LEASE_MS = 5 * 60_000;
export const SEND_BATCH = 20;
export const NO_SMTP = "not sent: no SMTP server configured";

/** When a notification that failed its `attempt`-th try is tried again. */
export function retryAt(now: number, attempt: number): number {
  return now + FIRST_RETRY_MS * 2 ** (attempt - 1);
}

/** The Message-ID of a notification's email, on the host of TELLTALE_URL (RFC 5322 §3.6.4). */
export function alertMessageId(notificationId: string, publicUrl: string): string {
  return `<alert.${notificationId}@${new URL(publicUrl).hostname}>`;
}

export interface SendResult {
  sent: number;
  failed: number;
  notSent: number;
}

async function sendOne(ctx: Ctx, n: NotificationRecord, result: SendResult): Promise<void> {
  const now = ctx.now();
  const attempt = n.attempts + 1;
  const record: Recorder = (status, error, extra = {}) =>
    ctx.alerts.recordAttempt(
      {
        notificationId: n.id,
        attempt,
        status: status === "pending" ? "failed" : status,
        error,
        at: now,
        statusCode: extra.statusCode ?? null,
        response: extra.response ?? null,
        durationMs: extra.durationMs ?? null,
      },
      {
        status,
        nextAttemptAt: status === "pending" ? retryAt(now, attempt) : now,
        messageId: extra.messageId ?? null,
        sentAt: status === "sent" ? now : null,
      },
    );
  if (n.channel === "email" && !ctx.mailer) {
    result.notSent++;
    return record("not_sent", NO_SMTP);
  }
  const facts = await ctx.alerts.emailFacts(n);
  if (!facts) {
    result.notSent++;
    return record("not_sent", "not sent: the issue no longer exists");
  }
  // Workflow emails (assigned, comments, resolutions) share these rows and this sender (decision 0021).
  const workflow = isWorkflowKind(n.changeKind) ? await workflowEmailFor(ctx, n, facts) : null;
  const latest = workflow ? null : await ctx.telemetry.issueEventAt(n.issueId, "latest");
  const json = latest ? decodePayload(latest.data) : null;
  const alert: AlertFacts = {
    ...facts,
    kind: n.changeKind,
    shortId: shortId({ slug: facts.projectSlug }, { short_number: facts.shortNumber }),
    url: `${ctx.publicUrl.replace(/\/$/, "")}/orgs/${encodeURIComponent(facts.orgSlug)}/issues/${facts.issueId}/`,
    event: storedEvent(json),
    frames: stackExcerpt(json),
  };
  if (!workflow && n.channel !== "email") return sendWeb(ctx, n, alert, attempt >= MAX_TRIES, record, result);
  const email = workflow ?? issueAlertEmail(alert);
  const messageId = alertMessageId(n.id, ctx.publicUrl);
  try {
    await ctx.mailer!.send({ ...email, to: n.target, messageId });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    result.failed++;
    return record(attempt >= MAX_TRIES ? "failed" : "pending", message.slice(0, 1000));
  }
  result.sent++;
  return record("sent", null, { messageId });
}

/** Claims what is due on `queue` and sends each, batch after batch until nothing is (issue and metric alerts alike). */
export async function sendDue<N extends { id: string; createdAt: number }>(
  ctx: Ctx,
  queue: DeliveryQueue<N>,
  batch: number,
  send: (n: N & DeliveryState) => Promise<void>,
): Promise<void> {
  for (;;) {
    const now = ctx.now();
    if (!(await queue.anyDue(now))) return;
    const due = await queue.claimDue(now, batch, CLAIM_LEASE_MS);
    for (const n of due) await send(n);
    if (due.length < batch) return;
  }
}

/** Sends what is due now, batch after batch until nothing is; answers what happened. */
export async function sendDueNotifications(ctx: Ctx, batch = SEND_BATCH): Promise<SendResult> {
  const result: SendResult = { sent: 0, failed: 0, notSent: 0 };
  await sendDue(ctx, ctx.alerts, batch, (n) => sendOne(ctx, n, result));
  return result;
}
