import { describe, expect, it } from "vitest";
import { ITEM_CATEGORIES, MAX_CONTAINER_ITEMS, itemQuantities } from "./categories";
import { readItemHeader } from "./headers";
import { ITEM_TYPES } from "./item-types";

function header(raw: Record<string, unknown>) {
  const result = readItemHeader(raw);
  if (!result.ok) throw new Error(result.problem);
  return result.value;
}

describe("itemQuantities", () => {
  it.each([
    [{ type: "event" }, 100, [{ category: "error", quantity: 1 }]],
    [{ type: "transaction" }, 100, [{ category: "transaction", quantity: 1 }]],
    [
      { type: "attachment" },
      5000,
      [
        { category: "attachment", quantity: 5000 },
        { category: "attachment_item", quantity: 1 },
      ],
    ],
    [
      { type: "attachment", length: 0 },
      0,
      [
        { category: "attachment", quantity: 1 },
        { category: "attachment_item", quantity: 1 },
      ],
    ],
    [{ type: "session" }, 100, [{ category: "session", quantity: 1 }]],
    [{ type: "sessions" }, 100, [{ category: "session", quantity: 1 }]],
    [{ type: "user_report" }, 100, [{ category: "feedback", quantity: 1 }]],
    [{ type: "feedback" }, 100, [{ category: "feedback", quantity: 1 }]],
    [{ type: "check_in" }, 100, [{ category: "monitor", quantity: 1 }]],
    [{ type: "replay_event" }, 100, [{ category: "replay", quantity: 1 }]],
    [{ type: "replay_recording" }, 100, [{ category: "replay", quantity: 1 }]],
    [{ type: "replay_video" }, 100, [{ category: "replay", quantity: 1 }]],
    [{ type: "span", item_count: 7 }, 100, [{ category: "span", quantity: 7 }]],
    [{ type: "span" }, 100, [{ category: "span", quantity: 1 }]],
    // An item_count is the client's word: bounded by what the bytes hold, then by MAX_CONTAINER_ITEMS.
    [{ type: "span", item_count: 1_000_000_000 }, 100, [{ category: "span", quantity: 33 }]],
    [{ type: "span", item_count: 1_000_000_000 }, 1_000_000, [{ category: "span", quantity: MAX_CONTAINER_ITEMS }]],
    [{ type: "profile", item_count: 1_000_000_000 }, 100, [{ category: "profile", quantity: 1 }]],
    [{ type: "event", item_count: 5 }, 100, [{ category: "error", quantity: 1 }]],
    [
      { type: "log", item_count: 3 },
      900,
      [
        { category: "log_item", quantity: 3 },
        { category: "log_byte", quantity: 900 },
      ],
    ],
    [{ type: "trace_metric", item_count: 4 }, 100, [{ category: "trace_metric", quantity: 4 }]],
    [{ type: "security" }, 100, [{ category: "security", quantity: 1 }]],
    [{ type: "raw_security" }, 100, [{ category: "security", quantity: 1 }]],
    [{ type: "profile" }, 100, [{ category: "profile", quantity: 1 }]],
    [{ type: "profile_chunk", platform: "python" }, 100, [{ category: "profile_chunk", quantity: 1 }]],
    [{ type: "profile_chunk", platform: "javascript" }, 100, [{ category: "profile_chunk_ui", quantity: 1 }]],
    [{ type: "client_report" }, 100, []],
    [{ type: "statsd" }, 100, []],
    [{ type: "form_data" }, 100, []],
    [{ type: "something_new" }, 100, []],
  ])("counts %j of %i bytes as %j", (raw, bytes, expected) => {
    expect(itemQuantities(header(raw), bytes)).toEqual(expected);
  });

  it("has a category entry for every known item type", () => {
    expect(Object.keys(ITEM_CATEGORIES).sort()).toEqual([...ITEM_TYPES].sort());
  });
});
