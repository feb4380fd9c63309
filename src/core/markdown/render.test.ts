import { describe, expect, it } from "vitest";
import { renderCommentMarkdown as render } from "./render";

describe("renderCommentMarkdown", () => {
  it("renders emphasis, lists and inline code", () => {
    const html = render("**bold** and _it_\n\n- one\n- `two`");
    expect(html).toContain("<strong>bold</strong>");
    expect(html).toContain("<em>it</em>");
    expect(html).toContain("<li><code>two</code></li>");
  });

  it("escapes a raw <script> element instead of passing it through", () => {
    const html = render("<script>alert(1)</script>");
    expect(html).not.toContain("<script");
    expect(html).toContain("&lt;script&gt;");
  });

  it("escapes <img onerror> so no element carries an event handler", () => {
    const html = render('<img src=x onerror="alert(1)">');
    expect(html).not.toMatch(/<img/i);
    expect(html).toContain("&lt;img");
  });

  it("drops a javascript: link and keeps its text", () => {
    const html = render("[x](javascript:alert(1))");
    expect(html).not.toMatch(/href/i);
    expect(html).toContain("[x](javascript:alert(1))");
  });

  it("drops data: and relative links", () => {
    expect(render("[x](data:text/html,<script>alert(1)</script>)")).not.toMatch(/href/i);
    expect(render("[x](data:image/png;base64,AAAA)")).not.toMatch(/href/i);
    expect(render("[x](/settings)")).not.toMatch(/href/i);
    expect(render("[x](JaVaScRiPt:alert(1))")).not.toMatch(/href/i);
  });

  it("keeps http, https and mailto links with rel=nofollow noopener noreferrer", () => {
    const html = render("[a](https://example.com/a) [b](http://example.com) [c](mailto:x@example.com)");
    expect(html).toContain('<a href="https://example.com/a" rel="nofollow noopener noreferrer">a</a>');
    expect(html).toContain('<a href="http://example.com" rel="nofollow noopener noreferrer">b</a>');
    expect(html).toContain('<a href="mailto:x@example.com" rel="nofollow noopener noreferrer">c</a>');
  });

  it("linkifies bare URLs and autolinks, with the same rel", () => {
    expect(render("see https://example.com/x")).toContain('<a href="https://example.com/x" rel="nofollow noopener noreferrer">');
    expect(render("<https://example.com/y>")).toContain('<a href="https://example.com/y" rel="nofollow noopener noreferrer">');
  });

  it("does not render images, so a comment cannot make readers fetch a URL", () => {
    const html = render("![t](https://example.com/track.png)");
    expect(html).not.toMatch(/<img/i);
  });

  it("escapes HTML inside fenced code blocks", () => {
    const html = render("```js\nif (a < b) { x('<b>') }\n```");
    expect(html).toContain('<pre><code class="language-js">');
    expect(html).toContain("if (a &lt; b) { x('&lt;b&gt;') }");
  });

  it("renders a 10,000-character comment whole", () => {
    const text = "word ".repeat(2000);
    expect(render(text)).toBe(`<p>${text.trimEnd()}</p>\n`);
  });
});
