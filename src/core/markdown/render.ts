import MarkdownIt from "markdown-it";

/**
 * The one renderer whose output the UI may insert as HTML (issue comments).
 * Safety rests on three settings, each tested in render.test.ts:
 * - `html: false`: raw HTML in a comment is escaped, never passed through;
 * - a link allow-list (http, https, mailto) on top of markdown-it's own validateLink,
 *   which already refuses javascript:, vbscript:, file: and most data: URLs;
 * - every link gets rel="nofollow noopener noreferrer" so a comment cannot lend
 *   this server's reputation to a link or reach back into the opener window.
 * See https://github.com/markdown-it/markdown-it/blob/master/docs/security.md
 */

const SAFE_LINK = /^(https?:|mailto:)/i;

const md = new MarkdownIt({ html: false, linkify: true, typographer: false });

const markdownItValidate = md.validateLink.bind(md);
// Relative and fragment links have no scheme; comments have no use for them, and
// refusing them keeps the rule simple: an absolute http(s) or mailto URL, or plain text.
md.validateLink = (url: string) => markdownItValidate(url) && SAFE_LINK.test(url.trim());

// Images would let a comment make every reader's browser fetch a third-party URL.
md.disable("image");

const defaultLinkOpen = md.renderer.rules.link_open;
md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  tokens[idx]?.attrSet("rel", "nofollow noopener noreferrer");
  return defaultLinkOpen ? defaultLinkOpen(tokens, idx, options, env, self) : self.renderToken(tokens, idx, options);
};

/** Renders a comment's Markdown to sanitized HTML. */
export function renderCommentMarkdown(text: string): string {
  return md.render(text);
}
