/**
 * Polling for a condition with a deadline: how the browser tests wait for
 * things outside the page (files, processes). The pause between checks only
 * paces the polling; the condition is what lets a test go on.
 */

/** Options of {@link waitUntil}. */
export interface WaitUntilOptions {
  /** Give up after this long; default 60 s. */
  timeoutMs?: number;
  /** Pause between checks; default 100 ms. */
  intervalMs?: number;
}

/**
 * Calls `check` until it returns a value other than `undefined`/`false`, and
 * returns that value.
 *
 * @throws Error with `description` (and the last check error) on timeout.
 * @example
 * await waitUntil("the fixed file on disk", () => readFileSync(file, "utf8").includes("percent) / 100") || undefined);
 */
export async function waitUntil<T>(
  description: string,
  check: () => T | false | undefined | Promise<T | false | undefined>,
  options: WaitUntilOptions = {},
): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
      lastError = undefined;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      const cause = lastError instanceof Error ? ` (last check failed: ${lastError.message})` : "";
      throw new Error(`timed out waiting for ${description}${cause}`);
    }
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 100));
  }
}
