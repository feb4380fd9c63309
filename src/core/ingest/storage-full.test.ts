import { describe, expect, it } from "vitest";
import {
  STORAGE_FULL_LOG_MS,
  STORAGE_FULL_STALE_MS,
  StorageFullWatch,
  storageFullNotice,
  storageFullStatsNote,
  type StorageFullState,
} from "./storage-full";

function watched() {
  const lines: { level: string; message: string; fields: Record<string, number> }[] = [];
  const published: (StorageFullState | null)[] = [];
  const watch = new StorageFullWatch(
    (state) => published.push(state),
    (level, message, fields) => lines.push({ level, message, fields }),
  );
  return { watch, lines, published };
}

describe("StorageFullWatch", () => {
  it("logs and publishes once per interval however many requests are refused", () => {
    const { watch, lines, published } = watched();
    for (let t = 0; t < STORAGE_FULL_LOG_MS; t += 1) watch.full(1000 + t);
    expect(lines).toHaveLength(1);
    watch.full(1000 + STORAGE_FULL_LOG_MS);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatchObject({ level: "error", fields: { refused: STORAGE_FULL_LOG_MS } });
    expect(published).toHaveLength(2);
    expect(watch.current()).toEqual({ since: 1000, lastAt: 1000 + STORAGE_FULL_LOG_MS, refused: STORAGE_FULL_LOG_MS + 1 });
  });

  it("says once that storage is writable again, and only if it was full", () => {
    const { watch, lines, published } = watched();
    watch.writable(5);
    expect(lines).toEqual([]);
    watch.full(10);
    watch.writable(20);
    watch.writable(30);
    expect(lines.map((l) => l.level)).toEqual(["error", "info"]);
    expect(published.at(-1)).toBeNull();
    expect(watch.current()).toBeNull();
  });
});

describe("storageFullNotice", () => {
  const state = { since: 0, lastAt: 1000, refused: 3 };
  it("tells administrators while the condition is fresh", () => {
    expect(storageFullNotice(state, 2000)).toMatch(/^The server's storage is full: ingest answers 503 \(3 requests refused so far\)/);
    expect(storageFullNotice({ ...state, refused: 1 }, 2000)).toContain("(1 request refused");
  });
  it("says nothing when writable or when the report is stale", () => {
    expect(storageFullNotice(null, 2000)).toBeNull();
    expect(storageFullNotice(state, 1000 + STORAGE_FULL_STALE_MS + 1)).toBeNull();
    expect(storageFullStatsNote(state, 1000 + STORAGE_FULL_STALE_MS + 1)).toBeNull();
  });
  it("tells the Stats page's readers what the chart lacks", () => {
    expect(storageFullStatsNote(state, 2000)).toMatch(/^Storage is full: 3 requests were answered 503/);
  });
});
