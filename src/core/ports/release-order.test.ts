import { describe, expect, it } from "vitest";
import { FirstSeenCache } from "./release-order";

describe("FirstSeenCache", () => {
  it("keeps at most its limit, dropping the least recently used", () => {
    const cache = new FirstSeenCache(2);
    cache.set("a", { at: 1, id: 1 });
    cache.set("b", { at: 2, id: 2 });
    cache.get("a");
    cache.set("c", { at: 3, id: 3 });
    expect(cache.size).toBe(2);
    expect(cache.get("b")).toBeUndefined();
    expect(cache.get("a")?.at).toBe(1);
    expect(cache.get("c")?.at).toBe(3);
  });
});
