import { deflateRawSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { Compressor } from "zstd-napi";
import { decodePayload, DICTIONARY_V1, encodePayload } from "./payload";

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

  it("writes the bytes zstd-napi's Compressor makes with the same level, checksum and dictionary, whatever the payloads before it", () => {
    const reference = new Compressor();
    reference.setParameters({ compressionLevel: 1, checksumFlag: true });
    reference.loadDictionary(DICTIONARY_V1);
    // Small, large, past the kept scratch buffers (300 KB of text), then small again.
    const texts = ["{}", nodeEvent(40), JSON.stringify({ big: "x".repeat(300_000), tail: "naïve ☃ \ud83d\ude00" }), nodeEvent(2), "{}"];
    const encoded = texts.map((t) => encodePayload(t));
    for (const [i, t] of texts.entries()) {
      expect(encoded[i]!.equals(Buffer.concat([Buffer.from([0x02]), reference.compress(Buffer.from(t, "utf8"))]))).toBe(true);
    }
    // Each result is its own memory: the payloads after it leave it intact.
    expect(encoded.map((e) => decodePayload(e))).toEqual(texts);
  });

  it("marks its format in the first byte, which JSON text never starts with", () => {
    expect(encodePayload("{}")[0]).toBe(0x02);
  });

  it("reads payloads deflated before zstd (format 0x01), written by the encoder of decision 0013", () => {
    // Made by that encoder (raw deflate, level 2, DICTIONARY_V1); rows like it stay in databases.
    const text =
      '{"event_id":"39017ac8d40447429d0c478b53d1393c","type":"event","platform":"node","level":"error","message":"naïve ☃ payment failed","exception":{"values":[{"type":"TypeError","value":"Cannot read properties of undefined (reading \'total\')"}]}}';
    const stored = Buffer.from(
      "01437186b1a581a17962b2458a89818989b98991658a41b289b94592a9718aa1b1a531285ed09c89e41a681b04dd1d88ca322ff1f0fab2548547339a150a122b416e51484bcc0445321d1262497e49628eba26a85d540b00",
      "hex",
    );
    expect(decodePayload(stored)).toBe(text);
    expect(decodePayload(new Uint8Array(stored))).toBe(text);
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
    // One flipped bit inside the frame: the frame's checksum catches what decoding alone may not.
    for (const at of [20, Math.floor(stored.length / 2), stored.length - 6]) {
      const flipped = Buffer.from(stored);
      flipped[at] = (flipped[at] ?? 0) ^ 0x04;
      expect(() => decodePayload(flipped)).toThrow();
    }
  });

  it("keeps one compressor per thread: many payloads in a row each round-trip on their own", () => {
    const texts = Array.from({ length: 50 }, (_, i) => nodeEvent(1 + (i % 7)).replace("TypeError", `TypeError${i}`));
    const stored = texts.map(encodePayload);
    expect(stored.map(decodePayload)).toEqual(texts);
  });
});
