/**
 * How long a dead letter keeps its raw body, and so can be retried: a week to notice it, fix
 * the cause and retry. The body is the envelope as received, unscrubbed (retry must replay it),
 * so past this retention empties it (src/core/retention/run.ts); the dead letter stays listed
 * with its scrubbed excerpt until retention deletes it with the events
 * (docs/decisions/0038-no-secrets-at-rest-in-queue-and-dead-letters.md).
 */
export const DEAD_LETTER_RETRY_DAYS = 7;

/** Whether a dead letter of this body can still be retried (its body was not emptied). */
export const retryable = (body: Uint8Array): boolean => body.length > 0;
