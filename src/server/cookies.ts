export const SESSION_COOKIE = "telltale_session";
