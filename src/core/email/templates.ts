// Placeholder with the agreed signature; replaced by the account branch's templates at merge.
const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
export function renderEmail(input: {
  subject: string;
  heading: string;
  paragraphs: string[];
  action?: { label: string; url: string };
  footer?: string;
}): { subject: string; text: string; html: string } {
  const text = [
    input.heading,
    "",
    ...input.paragraphs,
    ...(input.action ? ["", `${input.action.label}: ${input.action.url}`] : []),
    ...(input.footer ? ["", input.footer] : []),
  ].join("\n");
  const html = `<h1>${esc(input.heading)}</h1>${input.paragraphs.map((p) => `<p>${esc(p)}</p>`).join("")}${input.action ? `<p><a href="${esc(input.action.url)}">${esc(input.action.label)}</a></p>` : ""}`;
  return { subject: input.subject, text, html };
}
