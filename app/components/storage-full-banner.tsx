import { storageFullNotice, storageFullStatsNote } from "@/src/core/ingest/storage-full";
import { runtime } from "../lib/app-runtime";

/**
 * Issue 38: while ingest finds the disk full it answers 503 and logs once per interval; this
 * tells administrators in the UI too. Renders nothing while storage is writable.
 */
export function StorageFullBanner({ className }: { className?: string }) {
  const notice = storageFullNotice(runtime().storageFull?.() ?? null, Date.now());
  if (!notice) return null;
  return (
    <div className={className}>
      <p className="warning" role="alert" data-testid="storage-full">
        {notice}
      </p>
    </div>
  );
}

/** The Stats page's line about it, for everyone who reads the page: it explains a gap in the chart. */
export function StorageFullStatsNote() {
  const note = storageFullStatsNote(runtime().storageFull?.() ?? null, Date.now());
  if (!note) return null;
  return (
    <p className="muted" data-testid="storage-full-stats">
      {note}
    </p>
  );
}
