import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { requestBaseUrl } from "./request-origin";

const req = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;

describe("requestBaseUrl", () => {
  it("answers the host the client called, over http, when no proxy says otherwise", () => {
    expect(requestBaseUrl(req({ host: "127.0.0.1:4123" }), "http://localhost:8000")).toBe("http://127.0.0.1:4123");
  });

  it("believes the scheme and host Telltale's front forwarded", () => {
    const forwarded = { host: "localhost", "x-forwarded-host": "errors.internal:8443", "x-forwarded-proto": "https" };
    expect(requestBaseUrl(req(forwarded), "http://localhost:8000")).toBe("https://errors.internal:8443");
  });

  it("answers the public URL, with its https scheme, when the client called the public host", () => {
    const viaTls = { host: "errors.example.com", "x-forwarded-host": "errors.example.com", "x-forwarded-proto": "http" };
    expect(requestBaseUrl(req(viaTls), "https://errors.example.com")).toBe("https://errors.example.com");
  });

  it("takes the first of a proxy chain's values and falls back to the public URL for a missing or odd host", () => {
    expect(requestBaseUrl(req({ "x-forwarded-host": "a.test, b.test", "x-forwarded-proto": "https, http" }), "http://x")).toBe(
      "https://a.test",
    );
    expect(requestBaseUrl(req({}), "http://localhost:8000")).toBe("http://localhost:8000");
    expect(requestBaseUrl(req({ host: "evil.test/path?x" }), "http://localhost:8000")).toBe("http://localhost:8000");
  });
});
