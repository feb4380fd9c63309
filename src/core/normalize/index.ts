/** Event normalization and server-side scrubbing: the digest step's first stage. */
export { normalizeEvent, type NormalizeOptions, type NormalizeResult } from "./normalize-event";
export { scrubEvent, DEFAULT_SCRUB_OPTIONS, type ScrubOptions } from "./scrub";
export { BAG, BAGS, MAX_CHARS, MAX_COUNT, TIME, FILTERED } from "./limits";
export type * from "./types";
