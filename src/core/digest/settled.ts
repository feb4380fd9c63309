import type { DeadLetter } from "../deadletters/record";
import type { DigestRecords } from "./records";

/** One queued envelope after the stages: its records, or why it is set aside. */
export interface Settled {
  records: DigestRecords;
  /** Set when processing threw: the envelope becomes a dead letter and its records are not written. */
  failure: string | null;
  letter: Omit<DeadLetter, "reason">;
  /** How many times the envelope was deferred before this digest. */
  deferrals: number;
  /**
   * Set when an event of the envelope is still being enriched: nothing of it is written now;
   * the envelope is kept (digest_deferred) and digested again a little later.
   */
  deferred?: boolean;
}
