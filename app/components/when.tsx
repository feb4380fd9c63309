import { isoText } from "@/src/core/time-text";
import { ago, exactUtc } from "../lib/dates";

/** A past moment as "3d ago", the exact UTC time on hover and in `dateTime` for machines. */
export function When({ ms }: { ms: number }) {
  return (
    <time dateTime={isoText(ms)} title={exactUtc(ms)}>
      {ago(ms)}
    </time>
  );
}
