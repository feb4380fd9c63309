/**
 * Workflow emails: an issue assigned to you, a comment on an issue you take
 * part in, its resolution. Every value comes from people or events and is escaped by
 * `renderEmail`; a comment is cut to `COMMENT_EMAIL_CHARS`.
 */
import { emailTime, renderEmail, type EmailIssue, type RenderedEmail } from "./templates";

export const COMMENT_EMAIL_CHARS = 4000;
/** Lines of a comment shown, at most. */
export const COMMENT_EMAIL_LINES = 60;

export interface WorkflowEmailInput extends EmailIssue {
  kind: "assigned" | "commented" | "resolved";
  /** What the change carried (the comment's text, the assigned team, the release). */
  data: Record<string, unknown>;
  /** The name (or email) of who made the change; null for Telltale itself. */
  actor: string | null;
  /** The account page, where preferences are set. */
  preferencesUrl: string;
}

const text = (value: unknown): string | null => (typeof value === "string" && value.length > 0 ? value : null);

function commentLines(value: unknown): string[] {
  const body = text(value) ?? "";
  const cut = body.length > COMMENT_EMAIL_CHARS ? `${body.slice(0, COMMENT_EMAIL_CHARS)}…` : body;
  const lines = cut.split(/\r?\n/);
  return lines.length > COMMENT_EMAIL_LINES ? [...lines.slice(0, COMMENT_EMAIL_LINES), "…"] : lines;
}

function resolvedHow(data: Record<string, unknown>): string {
  if (data.mode === "next_release") return " in the next release";
  const release = text(data.release);
  return release ? ` in release ${release}` : "";
}

export function workflowEmail(w: WorkflowEmailInput): RenderedEmail {
  const who = w.actor ?? "Telltale";
  const team = text(w.data.team_slug);
  const facts = [
    { label: "Issue", value: w.shortId },
    ...(w.culprit ? [{ label: "Culprit", value: w.culprit }] : []),
    { label: "Level", value: w.level },
    { label: "Events", value: String(w.timesSeen) },
    { label: "Last seen", value: emailTime(w.lastSeen) },
  ];
  const choose = `Choose which emails you get on your account page: ${w.preferencesUrl}`;
  const base = { paragraphs: [w.title], details: facts, action: { label: "Open the issue", url: w.url } };
  if (w.kind === "assigned")
    return renderEmail({
      ...base,
      subject: `[${w.projectSlug}] Assigned to ${team ? `your team #${team}` : "you"}: ${w.title}`.slice(0, 250),
      heading: `${who} assigned ${w.shortId} to ${team ? `your team #${team}` : "you"}`,
      footer: `You get this because the issue was assigned to ${team ? "a team you are in" : "you"}. ${choose}`,
    });
  if (w.kind === "commented")
    return renderEmail({
      ...base,
      subject: `[${w.projectSlug}] New comment on ${w.shortId}: ${w.title}`.slice(0, 250),
      heading: `${who} commented on ${w.shortId}`,
      code: { title: `${who} wrote`, lines: commentLines(w.data.text) },
      footer: `You get this because you take part in this issue (assigned to it, commented on it or bookmarked it). ${choose}`,
    });
  return renderEmail({
    ...base,
    subject: `[${w.projectSlug}] Resolved: ${w.title}`.slice(0, 250),
    heading: `${who} resolved ${w.shortId}${resolvedHow(w.data)}`,
    footer: `You get this because you take part in this issue (assigned to it, commented on it or bookmarked it). ${choose}`,
  });
}
