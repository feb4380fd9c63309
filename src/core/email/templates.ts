import { isoOrUndefined, isoText } from "../time-text";

/**
 * One email layout for every message Telltale sends: a plain-text part and an HTML part with
 * inline styles (mail clients drop <style> blocks and external sheets). Every interpolated value
 * is HTML-escaped in the HTML part; the text part is plain text and needs none.
 */
export interface EmailContent {
  subject: string;
  heading: string;
  paragraphs: string[];
  /** Label and value lines after the paragraphs (a table in HTML). */
  details?: { label: string; value: string }[];
  /** Preformatted lines (a stack excerpt): monospace in HTML, indented in text. */
  code?: { title: string; lines: string[] };
  /** A button in HTML, a bare link on its own line in text. */
  action?: { label: string; url: string };
  footer?: string;
}

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

/** Only http(s) links become buttons: a `javascript:` URL would be escaped but still clickable. */
function safeUrl(url: string): string {
  return /^https?:\/\//i.test(url) ? url : "#";
}

const FONT = "font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Helvetica,Arial,sans-serif";

export function renderEmail(content: EmailContent): RenderedEmail {
  const { subject, heading, paragraphs, details = [], code, action, footer } = content;
  const text = [
    heading,
    "",
    ...paragraphs.flatMap((p) => [p, ""]),
    ...(details.length ? [...details.map((d) => `${d.label}: ${d.value}`), ""] : []),
    ...(code ? [`${code.title}:`, ...code.lines.map((l) => `    ${l}`), ""] : []),
    ...(action ? [`${action.label}:`, action.url, ""] : []),
    ...(footer ? ["--", footer] : []),
  ]
    .join("\n")
    .trimEnd();
  const button = action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(safeUrl(action.url))}" style="background:#4f46e5;color:#ffffff;padding:10px 18px;border-radius:6px;text-decoration:none;display:inline-block;font-weight:600">${escapeHtml(action.label)}</a></p>` +
      `<p style="margin:0 0 16px;font-size:13px;color:#6b7280">Or open this link: <span style="word-break:break-all">${escapeHtml(action.url)}</span></p>`
    : "";
  const html = [
    "<!doctype html>",
    `<html><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>`,
    `<body style="margin:0;padding:24px;background:#f3f4f6;${FONT};color:#111827">`,
    `<div style="max-width:560px;margin:0 auto;background:#ffffff;border:1px solid #e5e7eb;border-radius:8px;padding:24px">`,
    `<h1 style="margin:0 0 16px;font-size:20px">${escapeHtml(heading)}</h1>`,
    ...paragraphs.map((p) => `<p style="margin:0 0 12px;line-height:1.5">${escapeHtml(p)}</p>`),
    details.length
      ? `<table style="border-collapse:collapse;margin:0 0 16px;font-size:14px">${details
          .map(
            (d) =>
              `<tr><td style="padding:2px 12px 2px 0;color:#6b7280;vertical-align:top">${escapeHtml(d.label)}</td><td style="padding:2px 0;word-break:break-word">${escapeHtml(d.value)}</td></tr>`,
          )
          .join("")}</table>`
      : "",
    code
      ? `<p style="margin:0 0 4px;font-size:13px;color:#6b7280">${escapeHtml(code.title)}</p>` +
        `<pre style="margin:0 0 16px;padding:12px;background:#f9fafb;border:1px solid #e5e7eb;border-radius:6px;font-size:12px;line-height:1.5;white-space:pre-wrap;word-break:break-all">${code.lines.map(escapeHtml).join("\n")}</pre>`
      : "",
    button,
    footer ? `<p style="margin:24px 0 0;font-size:12px;color:#6b7280">${escapeHtml(footer)}</p>` : "",
    "</div></body></html>",
  ].join("\n");
  return { subject, text, html };
}

/** The issue an email is about, as every issue email names it; values are escaped by `renderEmail`. */
export interface EmailIssue {
  projectSlug: string;
  orgSlug: string;
  shortId: string;
  title: string;
  culprit: string;
  level: string;
  lastSeen: number;
  timesSeen: number;
  /** The issue's page. */
  url: string;
}

/** What an issue alert says; every value is event text, escaped by `renderEmail`. */
export interface IssueAlertInput extends EmailIssue {
  kind: "created" | "regressed" | "escalating" | string;
  firstSeen: number;
  /** The newest event's top in-app frames, newest first, already one line each. */
  frames: string[];
  ruleName: string | null;
}

const KIND_WORDS: Record<string, string> = { created: "New issue", regressed: "Regression", escalating: "Escalating issue" };

/** A time for a reader of email, in UTC to the second: "2026-11-25 18:03:12 UTC". */
export function emailTime(ms: number): string {
  const iso = isoOrUndefined(ms);
  return iso === undefined ? isoText(ms) : `${iso.slice(0, 19).replace("T", " ")} UTC`;
}

/** The email an issue alert rule sends: `[project] New issue: title`, the issue's facts, a stack excerpt and a link. */
export function issueAlertEmail(a: IssueAlertInput): RenderedEmail {
  const what = KIND_WORDS[a.kind] ?? "Issue alert";
  return renderEmail({
    subject: `[${a.projectSlug}] ${what}: ${a.title}`.slice(0, 250),
    heading: `${what} in ${a.projectSlug}`,
    paragraphs: [a.title],
    details: [
      { label: "Issue", value: a.shortId },
      ...(a.culprit ? [{ label: "Culprit", value: a.culprit }] : []),
      { label: "Level", value: a.level },
      { label: "Events", value: String(a.timesSeen) },
      { label: "First seen", value: emailTime(a.firstSeen) },
      { label: "Last seen", value: emailTime(a.lastSeen) },
    ],
    ...(a.frames.length ? { code: { title: "Stack (newest in-app frames first)", lines: a.frames } } : {}),
    action: { label: "Open the issue", url: a.url },
    footer:
      `Sent by the alert rule "${a.ruleName ?? "(deleted)"}" of project ${a.projectSlug} in ${a.orgSlug}. ` +
      "Issue owners are not supported yet: rules that email issue owners email the project's members.",
  });
}
