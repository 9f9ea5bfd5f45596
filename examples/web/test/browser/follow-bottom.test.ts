/**
 * Following the conversation: after every turn of a long session (new
 * entries, long Markdown answers, 60 lines of Bash output, a failed Edit),
 * the window is scrolled to the bottom and the newest entry is in view
 * above the composer; a reader who scrolled up is brought down again when
 * they send a message.
 */
import { describe, expect, it } from "vitest";
import { PAGE_TEST_IDS } from "../../src/protocol/page-test-ids.js";
import { BROWSER_TEST_TIMEOUT_MS, useChromium, withExampleSession } from "./harness/browser-suite.js";
import { PAGE_TIMEOUT_MS, byTestId, readTexts, saveScreenshot, sendMessage, waitForTurnStatus } from "./harness/chat-page.js";
import { chromiumAvailability } from "./harness/chromium.js";
import { readScrollGeometry } from "./harness/page-geometry.js";

const availability = chromiumAvailability();

/** Nine turns of different shapes; each ends with an assistant answer. */
const TURNS = ["burst", "markdown", "hello", "broken edit", "burst", "markdown", "what can you do", "burst", "markdown"];

describe.skipIf(availability.skip)("web example in Chromium: following the newest message", { timeout: BROWSER_TEST_TIMEOUT_MS }, () => {
  const browser = useChromium();

  it("is scrolled to the bottom with the newest entry in view after each of nine turns", async () => {
    await withExampleSession(browser(), "follow-bottom", async (session) => {
      const { page } = session;
      await page.setViewportSize({ width: 1000, height: 600 });
      const failures: string[] = [];
      for (const [index, text] of TURNS.entries()) {
        await sendMessage(page, text);
        await expect.poll(async () => (await readTexts(page, PAGE_TEST_IDS.userMessage)).length, { timeout: PAGE_TIMEOUT_MS }).toBe(index + 1);
        expect(await waitForTurnStatus(page, "answered", "aborted", "model-error", "max-turns")).toBe("answered");
        await byTestId(page, PAGE_TEST_IDS.assistantMessage).last().and(page.locator('[data-done="true"]')).waitFor({ timeout: PAGE_TIMEOUT_MS });
        const geometry = await readScrollGeometry(page);
        const atBottom = geometry.scrollY >= geometry.bottomY - 2;
        const lastInView = geometry.lastBottom <= geometry.composerTop + 1 && geometry.lastBottom > 0;
        if (!atBottom || !lastInView) failures.push(`turn ${index + 1} (${text}): ${JSON.stringify(geometry)}`);
      }
      await saveScreenshot(page, "follow-bottom");
      expect(failures, "turns after which the page was not at the bottom").toEqual([]);
      // The page is long enough that following mattered.
      const geometry = await readScrollGeometry(page);
      expect(geometry.bottomY).toBeGreaterThan(geometry.innerHeight * 5);
    });
  });

  it("follows again when a reader who scrolled up sends a message", async () => {
    await withExampleSession(browser(), "follow-bottom-reader", async (session) => {
      const { page } = session;
      await page.setViewportSize({ width: 1000, height: 600 });
      for (const text of ["burst", "markdown"]) {
        await sendMessage(page, text);
        await expect
          .poll(() => readTexts(page, PAGE_TEST_IDS.assistantMessage).then((texts) => texts.join("\n")), { timeout: PAGE_TIMEOUT_MS })
          .toMatch(text === "burst" ? /burst is done/ : /Raw HTML stays text/);
        await waitForTurnStatus(page, "answered");
      }
      // The reader scrolls to the top, then sends another message.
      await page.mouse.move(500, 300);
      await page.mouse.wheel(0, -100_000);
      await expect.poll(() => page.evaluate(() => window.scrollY), { timeout: PAGE_TIMEOUT_MS }).toBe(0);
      await sendMessage(page, "burst");
      await waitForTurnStatus(page, "running", "answered");
      await waitForTurnStatus(page, "answered");
      const afterSend = await readScrollGeometry(page);
      // Sending is asking to see the answer: the page follows even though the reader had scrolled up.
      expect(afterSend.scrollY).toBeGreaterThanOrEqual(afterSend.bottomY - 2);
    });
  });
});
