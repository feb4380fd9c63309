/** Polls until `probe` returns a value (not undefined/null/false), or fails after `ms`. */
export async function waitFor<T>(probe: () => Promise<T | undefined | null | false>, ms = 15_000, what = "condition"): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== null && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
