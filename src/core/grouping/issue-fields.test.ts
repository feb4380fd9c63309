import { describe, expect, it } from "vitest";
import { deriveIssueFields } from "./issue-fields";
import { appFrame, errorEvent, exception, libFrame, makeEvent, messageEvent } from "./test-events";

describe("deriveIssueFields", () => {
  it("titles an error 'Type: value' with the first line of the value, and fills metadata from the crashing in-app frame", () => {
    const event = errorEvent("KeyError", "'gold'\nmore detail", [
      appFrame("outer"),
      appFrame("price_for", { module: "billing", filename: "billing.py" }),
      libFrame("get"),
    ]);
    expect(deriveIssueFields(event)).toEqual({
      type: "error",
      title: "KeyError: 'gold'",
      culprit: "billing in price_for",
      level: "error",
      metadata: { type: "KeyError", value: "'gold'\nmore detail", filename: "billing.py", function: "price_for" },
    });
  });

  it("uses the newest exception of a chain", () => {
    const event = makeEvent({ exception: { values: [exception("KeyError", "inner"), exception("RuntimeError", "outer")] } });
    expect(deriveIssueFields(event).title).toBe("RuntimeError: outer");
  });

  it("titles a message event with its message", () => {
    const fields = deriveIssueFields(messageEvent("User 42 not found\nsecond line"));
    expect(fields).toMatchObject({
      type: "default",
      title: "User 42 not found",
      culprit: "",
      level: "info",
      metadata: { title: "User 42 not found" },
    });
  });

  it("treats a JS message's synthetic, typeless exception as a message", () => {
    const event = messageEvent("Invoice 1 could not be loaded", {
      exception: {
        values: [
          exception(undefined, "Invoice 1 could not be loaded", [appFrame("report")], { mechanism: { type: "generic", synthetic: true } }),
        ],
      },
    });
    expect(deriveIssueFields(event)).toMatchObject({ type: "default", title: "Invoice 1 could not be loaded" });
  });

  it("prefers the SDK's culprit, then the transaction, then the frame (as Sentry does)", () => {
    const frames = [appFrame("handler", { module: "app.views" })];
    expect(deriveIssueFields(errorEvent("E", "x", frames)).culprit).toBe("app.views in handler");
    expect(deriveIssueFields(errorEvent("E", "x", frames, { transaction: "GET /users/:id" })).culprit).toBe("GET /users/:id");
    expect(deriveIssueFields(errorEvent("E", "x", frames, { transaction: "t", culprit: "sdk culprit" })).culprit).toBe("sdk culprit");
    const js = errorEvent("E", "x", [{ filename: "/static/app.js", function: "?", in_app: true }], { platform: "javascript" });
    expect(deriveIssueFields(js)).toMatchObject({ culprit: "/static/app.js", metadata: { filename: "/static/app.js" } });
  });

  it("takes a fingerprint rule's title", () => {
    const fields = deriveIssueFields(errorEvent("TimeoutError", "x"), { title: "Timeout in fetch_rows" });
    expect(fields.title).toBe("Timeout in fetch_rows");
    expect(fields.metadata.title).toBe("Timeout in fetch_rows");
  });

  it("bounds every field", () => {
    const long = "y".repeat(5000);
    const fields = deriveIssueFields(errorEvent("E".repeat(600), long, [appFrame("f".repeat(600), { module: "m".repeat(600) })]));
    expect(fields.title.length).toBeLessThanOrEqual(256);
    expect(fields.culprit.length).toBeLessThanOrEqual(200);
    expect(fields.metadata.value!.length).toBeLessThanOrEqual(1024);
    expect(fields.metadata.type!.length).toBeLessThanOrEqual(256);
    expect(fields.metadata.function!.length).toBeLessThanOrEqual(256);
  });

  it("says <unlabeled event> when there is nothing to show", () => {
    expect(deriveIssueFields(makeEvent()).title).toBe("<unlabeled event>");
  });
});
