import { deflateRawSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { decodePayload, encodePayload } from "./payload";

/** An error event shaped as the Node SDK sends it after normalization, with a stack of `frames` frames. */
function nodeEvent(frames: number): string {
  return JSON.stringify({
    event_id: "39017ac8d40447429d0c478b53d1393c",
    type: "event",
    timestamp: 1795475602.382,
    platform: "node",
    level: "error",
    release: "shop@2.4.0",
    environment: "production",
    exception: {
      values: [
        {
          type: "TypeError",
          value: "Cannot read properties of undefined (reading 'total')",
          mechanism: { type: "generic", handled: true },
          stacktrace: {
            frames: Array.from({ length: frames }, (_, i) => ({
              filename: `/srv/app/src/orders/step-${i}.js`,
              abs_path: `/srv/app/src/orders/step-${i}.js`,
              function: `step${i}`,
              lineno: 10 + i,
              colno: 7,
              in_app: true,
              context_line: `  return next${i}(order.lines[${i}].total);`,
              pre_context: ["", "function run(order) {", "  const x = 1;"],
              post_context: ["}", ""],
            })),
          },
        },
      ],
    },
    contexts: {
      trace: { trace_id: "b1fc1e7b25d14f32b581166e6ad3d5d2", span_id: "a8422ee6bca6f2b7" },
      runtime: { name: "node", version: "v20.20.2" },
    },
  });
}

describe("stored payloads", () => {
  it("round-trips JSON text, including non-ASCII and escapes", () => {
    for (const text of ["{}", nodeEvent(3), JSON.stringify({ message: 'naïve ☃ \u0000 \ud83d\ude00 \\ "' })]) {
      expect(decodePayload(encodePayload(text))).toBe(text);
    }
  });

  it("marks its format in the first byte, which JSON text never starts with", () => {
    expect(encodePayload("{}")[0]).toBe(0x01);
  });

  it("reads payloads stored before compression: text (SQLite) and its UTF-8 bytes (PostgreSQL bytea)", () => {
    const text = nodeEvent(2);
    expect(decodePayload(text)).toBe(text);
    expect(decodePayload(Buffer.from(text, "utf8"))).toBe(text);
    expect(decodePayload(new Uint8Array(Buffer.from(text, "utf8")))).toBe(text);
  });

  it("stores an error event in a fraction of its size, the dictionary beating plain deflate", () => {
    for (const frames of [3, 20, 60]) {
      const text = nodeEvent(frames);
      const stored = encodePayload(text).length;
      expect(stored).toBeLessThan(Buffer.byteLength(text) / 3);
      expect(stored).toBeLessThan(deflateRawSync(text, { level: 6 }).length);
    }
  });

  it("fails loudly on a corrupt compressed payload instead of returning garbage", () => {
    const stored = encodePayload(nodeEvent(5));
    const corrupt = Buffer.concat([stored.subarray(0, 40), Buffer.alloc(20, 0xff)]);
    expect(() => decodePayload(corrupt)).toThrow();
  });
});
