import { TelltaleError } from "../errors";
import { type LimitName } from "./limits";

/**
 * Why an envelope was rejected. The framing reasons follow Relay's `EnvelopeError`
 * (docs/protocol.md#envelope-format); the size reasons are Relay's 413 "Overflow" (docs/protocol.md#status-codes, #size-limits).
 */
export type EnvelopeErrorReason =
  | "invalid_envelope_header"
  | "invalid_item_header"
  | "missing_newline"
  | "unexpected_eof"
  | "internal_item_type"
  | "too_large"
  | "too_many_items";

export interface EnvelopeErrorDetails {
  /** The limit that was crossed (`too_large`, `too_many_items`). */
  readonly limit?: LimitName;
  /** The item type in question, when the error is about one item. */
  readonly itemType?: string;
  /** Byte offset in the (decompressed) envelope where the problem was found. */
  readonly offset: number;
}

/**
 * The one error the parser throws. `message` is written for the SDK developer reading the
 * `X-Sentry-Error` header: it names the item, the limit and what to change.
 */
export class EnvelopeError extends TelltaleError {
  readonly limit: LimitName | undefined;
  readonly itemType: string | undefined;
  readonly offset: number;

  constructor(
    readonly reason: EnvelopeErrorReason,
    message: string,
    details: EnvelopeErrorDetails,
  ) {
    super(isOverflow(reason) ? "too_large" : "invalid_input", message);
    this.name = "EnvelopeError";
    this.limit = details.limit;
    this.itemType = details.itemType;
    this.offset = details.offset;
  }
}

function isOverflow(reason: EnvelopeErrorReason): boolean {
  return reason === "too_large" || reason === "too_many_items";
}

export function isEnvelopeError(e: unknown): e is EnvelopeError {
  return e instanceof EnvelopeError;
}

/** Size and count overflows are 413 (Relay's current mapping); every other malformed envelope is 400. */
export function statusOf(error: EnvelopeError): 400 | 413 {
  return isOverflow(error.reason) ? 413 : 400;
}
