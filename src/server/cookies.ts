export const SESSION_COOKIE = "telltale_session";
/** The pending sign-in between the password and the second factor (src/core/twofactor/challenge.ts). */
export const CHALLENGE_COOKIE = "telltale_2fa";

/** The sealed state of a single sign-on between leaving for the provider and its callback (src/core/sso/sign-in.ts). */
export const SSO_COOKIE = "telltale_sso";
/** Why the last single sign-on failed, for the sign-in page to say once (one minute). */
export const SSO_ERROR_COOKIE = "telltale_sso_error";
