import { describe, expect, it } from "vitest";
import { encodePayload } from "../storage/payload";
import { storedEventPayload } from "./event-payload";

describe("storedEventPayload", () => {
  const event = { event_id: "a".repeat(32), timestamp: 1, message: "x".repeat(2000), tags: [["level", "error"]] };

  it("reads an event stored compressed", () => {
    expect(storedEventPayload({ data: encodePayload(JSON.stringify(event)) })).toEqual(event);
  });

  it("reads an event stored as text from before compression", () => {
    expect(storedEventPayload({ data: JSON.stringify(event) })).toEqual(event);
  });
});
