export const SESSION_COOKIE = "telltale_session";
/** The pending sign-in between the password and the second factor (src/core/twofactor/challenge.ts). */
export const CHALLENGE_COOKIE = "telltale_2fa";
