/**
 * One error hierarchy for the core. Transports (HTTP front, web API, server actions, CLI)
 * map `code` to their own vocabulary in one place each; the core never knows about status codes.
 */
export type ErrorCode = "invalid_input" | "not_found" | "conflict" | "unauthenticated" | "forbidden" | "throttled" | "too_large";

export class TelltaleError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: { retryAfterSeconds?: number; fields?: Record<string, string>; twoFactorRequired?: boolean } = {},
  ) {
    super(message);
    this.name = "TelltaleError";
  }
}

/** `fields` names each invalid input field with its message, so a form can show them all at once. */
export const invalidInput = (message: string, fields?: Record<string, string>) =>
  new TelltaleError("invalid_input", message, fields ? { fields } : {});
export const notFound = (message: string) => new TelltaleError("not_found", message);
export const conflict = (message: string) => new TelltaleError("conflict", message);
export const unauthenticated = (message: string) => new TelltaleError("unauthenticated", message);
/** `twoFactorRequired`: refused only for want of two-factor sign-in, which pages send the user to set up. */
export const forbidden = (message: string, details: { twoFactorRequired?: boolean } = {}) =>
  new TelltaleError("forbidden", message, details);
export const throttled = (message: string, retryAfterSeconds: number) => new TelltaleError("throttled", message, { retryAfterSeconds });

export function isTelltaleError(e: unknown): e is TelltaleError {
  return e instanceof TelltaleError;
}
