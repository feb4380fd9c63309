/**
 * Noise Telltale never reports about itself (PRODUCT.md fact 8): cross-origin scripts'
 * "Script error." and the benign "ResizeObserver loop" notices. The same defaults are
 * inbound filters for every project.
 */
export const IGNORE_ERRORS: RegExp[] = [
  /^Script error\.?$/,
  /ResizeObserver loop (limit exceeded|completed with undelivered notifications)/,
];
