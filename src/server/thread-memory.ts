/**
 * How large a worker thread's young generation may grow, in MiB. Left to V8, each isolate's
 * grows to three 16 MiB semi-spaces when it allocates fast (the UI worker's while Next.js
 * loads), and stays that large: under load the main thread held 32 MiB of young generation with
 * 9 MiB of it in use. Six MiB (2 MiB semi-spaces) means more scavenges, each with less to visit.
 * The UI and settle threads have it. The digest thread keeps V8's default: with 6 MiB it drained
 * a backlog ~12 % slower (decision 0032).
 *
 * The main thread's isolate exists before any of our code runs: its limit is the
 * `--max-semi-space-size=2` on the command line of `npm start` and of the `telltale` command.
 */
export const YOUNG_GENERATION_MB = 6;

/** The `resourceLimits` of a worker thread that sets no old-generation limit of its own. */
export const WORKER_LIMITS = { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB } as const;
