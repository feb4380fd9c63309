import { describe, expect, it } from "vitest";
import { formatBytes } from "./bytes";
import { contextValue } from "./context-values";

describe("context values as a person reads them", () => {
  it("writes byte counts in binary units", () => {
    expect(formatBytes(0)).toBe("0 B");
    expect(formatBytes(1023)).toBe("1023 B");
    expect(formatBytes(1536)).toBe("1.5 KiB");
    expect(formatBytes(25_276_502_016)).toBe("23.5 GiB");
    expect(formatBytes(2 ** 60)).toBe("1024.0 PiB");
  });

  it("formats the memory and time fields of device and app contexts, keeping what was sent", () => {
    // What @sentry/node 11 sends (its Context integration).
    expect(contextValue("device", "device", "memory_size", 25_276_502_016)).toEqual({ text: "23.5 GiB", sent: "25276502016" });
    expect(contextValue("device", undefined, "free_memory", "1048576")).toEqual({ text: "1.0 MiB", sent: "1048576" });
    expect(contextValue("app", "app", "app_memory", 97_923_072)).toEqual({ text: "93.4 MiB", sent: "97923072" });
    expect(contextValue("app", "app", "free_memory", 24_370_778_112)?.text).toBe("22.7 GiB");
    expect(contextValue("device", "device", "boot_time", "2026-11-28T15:27:02.035Z")).toEqual({
      text: "2026-11-28 15:27 UTC",
      sent: "2026-11-28T15:27:02.035Z",
    });
    expect(contextValue("app", "app", "app_start_time", 1_795_880_000)?.text).toBe("2026-11-28 15:33 UTC");
  });

  it("goes by the context's type, so a device context stored under another name is still one", () => {
    expect(contextValue("phone", "device", "memory_size", 2048)?.text).toBe("2.0 KiB");
    expect(contextValue("device", "custom", "memory_size", 2048)).toBeUndefined();
  });

  it("leaves other fields, and values that are not what the docs say, as they came", () => {
    expect(contextValue("device", "device", "processor_count", 2)).toBeUndefined();
    expect(contextValue("os", "os", "memory_size", 2048)).toBeUndefined();
    for (const odd of [-1, 1.5, "12 GB", "", null, { a: 1 }, Number.NaN, 2 ** 64, "99999999999999999999"]) {
      expect(contextValue("device", "device", "memory_size", odd)).toBeUndefined();
    }
    for (const odd of ["yesterday", "2026-13-45T99:99", -5, 1e15, "", "<script>"]) {
      expect(contextValue("device", "device", "boot_time", odd)).toBeUndefined();
    }
  });
});
