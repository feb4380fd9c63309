// The DSN the SDKs are given while the corpus is captured. Its public key (32 hex digits,
// like Telltale's) and project id are replaced per target at send time (bench/template.mjs).
export const PLACEHOLDER_KEY = "feedfacecafebeef0123456789abcdef";
export const PLACEHOLDER_PROJECT = "424242";
