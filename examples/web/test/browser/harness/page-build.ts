/**
 * Builds the chat page once for the browser tests: only when
 * `dist/page/index.html` is missing or older than a page source. Test files
 * run in parallel processes, so a lock directory makes one of them build
 * while the others wait and then find the build fresh.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { PAGE_DIST_DIR, REPOSITORY_DIR, TEST_RESULTS_DIR, WEB_EXAMPLE_DIR } from "./paths.js";

/** The sources whose change makes the built page stale (files or directories under `examples/web/`). */
export const PAGE_SOURCES: readonly string[] = ["src/page", "src/protocol", "vite.config.ts", "index.html", "package.json"];

const LOCK_DIR = path.join(TEST_RESULTS_DIR, ".page-build.lock");
/** A lock older than this was left by a killed run. */
const STALE_LOCK_MS = 10 * 60_000;
const BUILD_TIMEOUT_MS = 5 * 60_000;

/** Why the page needs a build, or undefined when `dist/page/index.html` is newer than every source. */
export function pageBuildReason(): string | undefined {
  const built = path.join(PAGE_DIST_DIR, "index.html");
  if (!existsSync(built)) return `${built} is missing`;
  const builtAt = statSync(built).mtimeMs;
  for (const source of PAGE_SOURCES) {
    const newer = findNewerThan(path.join(WEB_EXAMPLE_DIR, source), builtAt);
    if (newer) return `${path.relative(WEB_EXAMPLE_DIR, newer)} changed after the last build`;
  }
  return undefined;
}

/**
 * Makes sure the built page is current, building it with vite when not.
 *
 * @example
 * beforeAll(() => ensurePageBuilt(), 300_000);
 */
export async function ensurePageBuilt(): Promise<void> {
  if (!pageBuildReason()) return;
  mkdirSync(TEST_RESULTS_DIR, { recursive: true });
  await acquireLock();
  try {
    // Another test file may have built it while this one waited for the lock.
    const reason = pageBuildReason();
    if (reason) await buildPage(reason);
  } finally {
    rmSync(LOCK_DIR, { recursive: true, force: true });
  }
}

async function buildPage(reason: string): Promise<void> {
  const vite = path.join(path.dirname(createRequire(path.join(WEB_EXAMPLE_DIR, "package.json")).resolve("vite/package.json")), "bin", "vite.js");
  const config = path.join(WEB_EXAMPLE_DIR, "vite.config.ts");
  await new Promise<void>((resolve, reject) => {
    execFile(
      process.execPath,
      [vite, "build", "--config", config, "--logLevel", "warn"],
      { cwd: REPOSITORY_DIR, timeout: BUILD_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) {
          reject(
            new Error(
              `building the chat page failed (${reason}): ${error.message}\n${stdout}\n${stderr}\nRun \`pnpm exec vite build --config examples/web/vite.config.ts\` to see the error.`,
            ),
          );
        } else {
          resolve();
        }
      },
    );
  });
  if (!existsSync(path.join(PAGE_DIST_DIR, "index.html"))) {
    throw new Error(`vite built the page but ${path.join(PAGE_DIST_DIR, "index.html")} is missing: check build.outDir in examples/web/vite.config.ts.`);
  }
}

async function acquireLock(): Promise<void> {
  const deadline = Date.now() + BUILD_TIMEOUT_MS + 60_000;
  for (;;) {
    try {
      mkdirSync(LOCK_DIR);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const age = lockAge();
    if (age !== undefined && age > STALE_LOCK_MS) rmSync(LOCK_DIR, { recursive: true, force: true });
    if (Date.now() > deadline) throw new Error(`another test process held ${LOCK_DIR} too long; delete it if no test is running.`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function lockAge(): number | undefined {
  try {
    return Date.now() - statSync(LOCK_DIR).mtimeMs;
  } catch {
    return undefined;
  }
}

/** The first file under `target` modified after `time`, if any. */
function findNewerThan(target: string, time: number): string | undefined {
  if (!existsSync(target)) return undefined;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs > time ? target : undefined;
  for (const entry of readdirSync(target, { withFileTypes: true })) {
    if (entry.name === "node_modules") continue;
    const found = findNewerThan(path.join(target, entry.name), time);
    if (found) return found;
  }
  return undefined;
}
