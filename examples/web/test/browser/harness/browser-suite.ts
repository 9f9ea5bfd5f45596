/**
 * The set-up every browser test file shares: the page built once, one
 * Chromium per file, and a session per test that leaves a screenshot and the
 * page's errors behind when the test fails.
 */
import { rmSync } from "node:fs";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { saveScreenshot } from "./chat-page.js";
import { launchChromium } from "./chromium.js";
import { type ExampleSession, type ExampleSessionOptions, openExampleSession } from "./example-session.js";
import { ensurePageBuilt } from "./page-build.js";
import { SCREENSHOTS_DIR } from "./paths.js";

/**
 * A browser test's own limit: generous, because five files may run at once
 * on two cores, each with a browser, an example and real test runs. Each wait
 * inside has its own shorter limit that names what it waited for.
 */
export const BROWSER_TEST_TIMEOUT_MS = 5 * 60_000;

/** Building the page (cold vite build) plus launching Chromium on a loaded machine. */
const SUITE_SETUP_TIMEOUT_MS = 6 * 60_000;

/**
 * Registers `beforeAll`/`afterAll` hooks that build the page when stale and
 * launch one Chromium for the file; returns a getter for that browser.
 *
 * @example
 * const browser = useChromium();
 * it("...", () => withExampleSession(browser(), "name", async (session) => { ... }));
 */
export function useChromium(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    await ensurePageBuilt();
    browser = await launchChromium();
  }, SUITE_SETUP_TIMEOUT_MS);
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error("Chromium is not running: the suite's beforeAll failed (see its error above).");
    return browser;
  };
}

/**
 * Runs `body` with a fresh {@link ExampleSession} and closes it afterwards.
 * When `body` fails, a screenshot `<name>-failure.png` is saved and the
 * page's own errors are added to the failure message.
 */
export async function withExampleSession(
  browser: Browser,
  name: string,
  body: (session: ExampleSession) => Promise<void>,
  options?: ExampleSessionOptions,
): Promise<void> {
  // A failure screenshot of an earlier run would mislead whoever looks at this run's results.
  rmSync(path.join(SCREENSHOTS_DIR, `${name}-failure.png`), { force: true });
  const session = await openExampleSession(browser, options);
  try {
    await body(session);
  } catch (error) {
    await saveScreenshot(session.page, `${name}-failure`).catch(() => undefined);
    if (error instanceof Error && session.pageErrors.length > 0) {
      error.message += `\nThe page reported:\n${session.pageErrors.join("\n")}`;
    }
    throw error;
  } finally {
    await session.close();
  }
}
