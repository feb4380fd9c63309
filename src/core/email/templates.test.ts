import { describe, expect, it } from "vitest";
import { escapeHtml, renderEmail } from "./templates";

const HOSTILE = `<script>alert("x")</script> & 'quotes'`;

describe("renderEmail", () => {
  const email = renderEmail({
    subject: "Reset your password",
    heading: "Password reset",
    paragraphs: ["Someone asked to reset the password of ada@example.com.", "The link works once, for an hour."],
    action: { label: "Choose a new password", url: "https://telltale.example/reset-password/abc" },
    footer: "Telltale at telltale.example",
  });

  it("writes a plain-text part with every paragraph and the link on its own line", () => {
    expect(email.text).toBe(
      [
        "Password reset",
        "",
        "Someone asked to reset the password of ada@example.com.",
        "",
        "The link works once, for an hour.",
        "",
        "Choose a new password:",
        "https://telltale.example/reset-password/abc",
        "",
        "--",
        "Telltale at telltale.example",
      ].join("\n"),
    );
    expect(email.text).not.toMatch(/<[a-z]/);
  });

  it("writes an HTML part with inline styles, the heading, paragraphs and a button", () => {
    expect(email.subject).toBe("Reset your password");
    expect(email.html).toMatch(/^<!doctype html>/);
    expect(email.html).toContain('<h1 style="');
    expect(email.html).toContain(">Password reset</h1>");
    expect(email.html).toContain(">The link works once, for an hour.</p>");
    expect(email.html).toContain('<a href="https://telltale.example/reset-password/abc" style="');
    expect(email.html).not.toContain("<style");
  });

  it("escapes every interpolated value in the HTML part and leaves the text part as typed", () => {
    const hostile = renderEmail({
      subject: HOSTILE,
      heading: HOSTILE,
      paragraphs: [HOSTILE],
      action: { label: HOSTILE, url: `https://x.example/?a=1&b="><script>` },
      footer: HOSTILE,
    });
    expect(hostile.html).not.toContain("<script>");
    expect(hostile.html).not.toContain(`b="><`);
    const escaped = "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quotes&#39;";
    // title, heading, paragraph, button label, footer
    expect(hostile.html.split(escaped).length - 1).toBe(5);
    expect(hostile.html).toContain('href="https://x.example/?a=1&amp;b=&quot;&gt;&lt;script&gt;"');
    expect(hostile.text).toContain(HOSTILE);
    expect(hostile.subject).toBe(HOSTILE);
  });

  it("makes no button of a link that is not http or https", () => {
    const bad = renderEmail({ subject: "s", heading: "h", paragraphs: [], action: { label: "Go", url: "javascript:alert(1)" } });
    expect(bad.html).toContain('<a href="#"');
    expect(bad.html).not.toContain('href="javascript:');
  });

  it("leaves out the button and footer when there are none", () => {
    const plain = renderEmail({ subject: "s", heading: "Hello", paragraphs: ["One."] });
    expect(plain.html).not.toContain("<a ");
    expect(plain.text).toBe("Hello\n\nOne.");
  });
});

describe("escapeHtml", () => {
  it("escapes the five characters that matter in text and attributes", () => {
    expect(escapeHtml(`&<>"'`)).toBe("&amp;&lt;&gt;&quot;&#39;");
  });
});
