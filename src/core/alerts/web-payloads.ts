/**
 * What an alert posts to a generic webhook (decision 0018): the JSON of Sentry's legacy webhook
 * plugin (https://docs.sentry.io/organization/integrations/integration-platform/webhooks/ lists the
 * `Sentry-Hook-*` headers; the body's fields are the plugin's: `id`, `project`, `project_name`,
 * `project_slug`, `logger`, `level`, `culprit`, `message`, `url`, `triggering_rules`, `event`),
 * so receivers written for Sentry read it unchanged, signed with the rule's secret.
 */
import { createHmac } from "node:crypto";
import type { NormalizedEvent } from "../normalize/types";
import type { AlertEmailFacts } from "../ports/alerts";

/** A larger event is sent as its summary: receivers (and their proxies) refuse bodies of a megabyte. */
export const MAX_WEBHOOK_EVENT_BYTES = 256 * 1024;
export const HOOK_RESOURCE = "event_alert";

export interface AlertFacts extends AlertEmailFacts {
  kind: string;
  shortId: string;
  /** The issue's page on TELLTALE_URL. */
  url: string;
  /** The newest event as stored (normalized), null when it is gone. */
  event: NormalizedEvent | null;
  /** The stack excerpt of ./stack-excerpt.ts. */
  frames: string[];
}

function eventForWebhook(event: NormalizedEvent | null, facts: AlertFacts): Record<string, unknown> | null {
  if (!event) return null;
  if (Buffer.byteLength(JSON.stringify(event)) <= MAX_WEBHOOK_EVENT_BYTES) return { ...event, id: event.event_id };
  const { event_id, timestamp, level, platform, environment, release, tags } = event;
  return { event_id, id: event_id, timestamp, level, platform, environment, release, tags, title: facts.title, truncated: true };
}

export function legacyWebhookBody(f: AlertFacts): string {
  return JSON.stringify({
    id: String(f.issueId),
    project: f.projectSlug,
    project_name: f.projectName,
    project_slug: f.projectSlug,
    logger: f.event?.logger ?? null,
    level: f.level,
    culprit: f.culprit,
    message: f.title,
    url: f.url,
    triggering_rules: f.ruleName === null ? [] : [f.ruleName],
    event: eventForWebhook(f.event, f),
  });
}

/** `Sentry-Hook-Signature`: HMAC-SHA256, hex, over `<timestamp>.<body>` with the rule's secret (the timestamp is signed so a captured request cannot be replayed later). */
export function hookSignature(secret: string, timestamp: string, body: string): string {
  return createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex");
}

/** The headers of a webhook: its resource, when it was signed (Unix seconds), the signature and the notification's stable id. */
export function hookHeaders(secret: string, body: string, notificationId: string, nowMs: number): Record<string, string> {
  const timestamp = String(Math.floor(nowMs / 1000));
  return {
    "content-type": "application/json",
    "user-agent": "Telltale-Webhooks/1",
    "sentry-hook-resource": HOOK_RESOURCE,
    "sentry-hook-timestamp": timestamp,
    "sentry-hook-signature": hookSignature(secret, timestamp, body),
    "telltale-hook-id": notificationId,
  };
}
