// Waiting in the extension host: the suites poll VS Code's state (diagnostics, lenses, processes) until it holds.

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The first value of `probe` that is neither undefined nor false, polled every 100 ms. Generous by default: CI
 * machines are shared, and a loaded 2-core machine makes the extension host slow to answer. On time-out the error
 * names `what`, and `state()` when given (what the editor shows at that moment).
 */
export async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 60_000, state?: () => string): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}${state ? `; ${state()}` : ""}`);
    await sleep(100);
  }
}
