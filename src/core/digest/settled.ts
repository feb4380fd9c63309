import type { DeadLetter } from "../deadletters/record";
import type { DigestRecords } from "./records";

/** One queued envelope after the stages: its records, or why it is set aside. */
export interface Settled {
  records: DigestRecords;
  /** Set when processing threw: the envelope becomes a dead letter and its records are not written. */
  failure: string | null;
  letter: Omit<DeadLetter, "reason">;
}
