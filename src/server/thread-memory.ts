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

/**
 * glibc malloc's settings for the server process, which only its environment at start can give:
 * `npm start`, `npm run telltale` and the `telltale` command set them (decision 0033).
 * - Two arenas instead of up to sixteen on two cores: each thread that allocates otherwise gets
 *   one of its own, and each keeps what it once held.
 * - Blocks of 128 KiB and more (a digest batch's bodies, decoded request bodies) are mapped and
 *   given back as soon as they are freed. Left alone, glibc raises this threshold to the largest
 *   block freed so far (up to 32 MiB) and lets a heap keep twice that unused.
 * - The top of a heap is given back once 256 KiB of it are free.
 * In whole bench runs the peak RSS fell from 497 to 443–444 MB, with no slower accept or digest.
 */
export const MALLOC_ENV = {
  MALLOC_ARENA_MAX: "2",
  MALLOC_MMAP_THRESHOLD_: "131072",
  MALLOC_TRIM_THRESHOLD_: "262144",
} as const;

/** The `resourceLimits` of a worker thread that sets no old-generation limit of its own. */
export const WORKER_LIMITS = { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB } as const;
