/**
 * One email layout for every message Telltale sends: a plain-text part and an HTML part with
 * inline styles (mail clients drop <style> blocks and external sheets). Every interpolated value
 * is HTML-escaped in the HTML part; the text part is plain text and needs none.
 */
export interface EmailContent {
  subject: string;
  heading: string;
  paragraphs: string[];
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
  const { subject, heading, paragraphs, action, footer } = content;
  const text = [
    heading,
    "",
    ...paragraphs.flatMap((p) => [p, ""]),
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
    button,
    footer ? `<p style="margin:24px 0 0;font-size:12px;color:#6b7280">${escapeHtml(footer)}</p>` : "",
    "</div></body></html>",
  ].join("\n");
  return { subject, text, html };
}
