/**
 * The one clock bound a unit test may keep: a guard against catastrophic work on hostile input
 * (exponential backtracking, a rescan per character). A guarded call normally takes from under a
 * millisecond to a few hundred on a loaded machine; the bound sits well above that and far below
 * what a quadratic or exponential walk over the same 100 KB would take, so load never trips it
 * while a blow-up does. How fast the code runs is measured in bench/, not here.
 */
export const BLOW_UP_MS = 5_000;

/** Runs `work` and returns its value, or throws if it took longer than BLOW_UP_MS. */
export function withoutBlowUp<T>(work: () => T): T {
  const started = performance.now();
  const value = work();
  const ms = performance.now() - started;
  if (ms > BLOW_UP_MS) throw new Error(`took ${Math.round(ms)} ms, far beyond any normal run: the work grows faster than its input`);
  return value;
}
