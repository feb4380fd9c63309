/**
 * How far a guide was checked on this machine, said on its page:
 * - `run`: the snippet, run as written with a DSN filled in, delivers an event
 *   (test/integration/snippets.test.ts: browser in Chromium, Node, Python;
 *   test/integration/guide-go.test.ts: Go; test/e2e/guide-nextjs.test.ts: Next.js, built and
 *   served with a client and a server error);
 * - `no`: install and init follow the SDK's documentation, but that SDK cannot run here
 *   (test/integration/raven-ruby.test.ts drives only Ruby's legacy Raven client, not the guide's sentry-ruby).
 */
export type Verified = "run" | "no";

/** A set-up guide with a project's DSN filled in, one per platform (platforms.ts `setup`). */
export interface Snippet {
  /** Path below `/setup/` (a catch-all segment: `javascript/nextjs` has two parts). */
  path: string;
  title: string;
  install: string;
  files: { name: string; code: string }[];
  verified: Verified;
  /**
   * The SDK release the tests ran, when it is older than the one the install line fetches (only
   * Debian's packages are reachable where Telltale is tested); the snippet then keeps to API both share.
   */
  verifiedWith?: string;
  /** What the tests do check when the guide itself cannot be run here, said under the badge. */
  note?: string;
  /** The SDK's own set-up page, for what a snippet leaves out. */
  docs: string;
}
