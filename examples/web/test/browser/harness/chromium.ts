/**
 * Launching the machine's Debian Chromium for the browser tests. Nothing is
 * ever downloaded: playwright-core drives `/usr/bin/chromium`, which
 * `scripts/setup.sh` installs.
 */
import { existsSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";

/** Where Debian's `chromium` package puts the browser. */
export const CHROMIUM_PATH = "/usr/bin/chromium";

/** Flags for a quiet headless run in a container (no sandbox, no GPU, no background traffic). */
export const CHROMIUM_ARGS: readonly string[] = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Whether the browser tests run here, and why not when they do not. */
export interface ChromiumAvailability {
  /** True when the suite must be skipped (no browser, not in CI). */
  skip: boolean;
  /** Shown when skipping. */
  reason?: string;
}

/**
 * Decides whether the browser tests run: they are skipped only when the
 * browser is absent on a developer machine. In CI (`CI=true`) a missing
 * browser is a failure, because setup installs it; the launch then fails with
 * a message that says so.
 *
 * @example
 * const availability = chromiumAvailability();
 * describe.skipIf(availability.skip)("web example in Chromium", () => { ... });
 */
export function chromiumAvailability(environment: NodeJS.ProcessEnv = process.env, executablePath: string = CHROMIUM_PATH): ChromiumAvailability {
  if (existsSync(executablePath)) return { skip: false };
  if (isCi(environment)) return { skip: false };
  const reason = `browser tests skipped: ${executablePath} is missing (run scripts/setup.sh as root, or apt-get install chromium)`;
  console.warn(reason);
  return { skip: true, reason };
}

/**
 * Launches headless Chromium from {@link CHROMIUM_PATH}.
 *
 * @throws Error naming the setup step when the browser is not installed.
 */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium is not installed at ${CHROMIUM_PATH}: run scripts/setup.sh as root (it installs Debian's chromium), then rerun the browser tests.`,
    );
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: [...CHROMIUM_ARGS] });
}

function isCi(environment: NodeJS.ProcessEnv): boolean {
  const value = environment.CI?.toLowerCase();
  return value !== undefined && value !== "" && value !== "0" && value !== "false";
}
