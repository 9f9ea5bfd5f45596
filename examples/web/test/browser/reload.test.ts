/**
 * Reloading the page mid-turn: the gateway replays the conversation, so the
 * reloaded page shows the same cards and the output from before the reload,
 * nothing twice, and the live output goes on.
 */
import { describe, expect, it } from "vitest";
import { PAGE_TEST_IDS } from "../../src/protocol/page-test-ids.js";
import { BROWSER_TEST_TIMEOUT_MS, useChromium, withExampleSession } from "./harness/browser-suite.js";
import {
  byTestId,
  readTexts,
  readToolCards,
  saveScreenshot,
  sendMessage,
  waitForShellOutputLines,
  waitForToolCard,
  waitForTurnStatus,
} from "./harness/chat-page.js";
import { chromiumAvailability } from "./harness/chromium.js";

const availability = chromiumAvailability();

describe.skipIf(availability.skip)("web example in Chromium: reload mid-turn", { timeout: BROWSER_TEST_TIMEOUT_MS }, () => {
  const browser = useChromium();

  it("replays everything after a reload, without duplicates, and keeps streaming", async () => {
    await withExampleSession(browser(), "reload", async (session) => {
      const { page } = session;
      const prompt = "start the long job";
      await sendMessage(page, prompt);
      const beforeLines = await waitForShellOutputLines(page, 4);
      // Each streamed line is distinct ("line N of 120"), so a line shown twice would be a replay duplicate.
      expect(new Set(beforeLines).size).toBe(beforeLines.length);
      const beforeCards = (await readToolCards(page)).map((card) => `${card.toolName}:${card.callId}`);
      expect(beforeCards[0]).toMatch(/^Bash:/);
      const beforeAssistant = await readTexts(page, PAGE_TEST_IDS.assistantMessage);
      expect(beforeAssistant.length).toBeGreaterThan(0);

      await page.reload();

      // After the replay: the user message once, the same cards in the same order, the earlier output.
      await waitForToolCard(page, "the Bash card again after the reload", (card) => `${card.toolName}:${card.callId}` === beforeCards[0]);
      const replayedLines = await waitForShellOutputLines(page, beforeLines.length);
      expect(replayedLines.slice(0, beforeLines.length)).toEqual(beforeLines);
      expect(new Set(replayedLines).size).toBe(replayedLines.length);
      expect(await readTexts(page, PAGE_TEST_IDS.userMessage)).toEqual([expect.stringContaining(prompt)]);
      const afterCards = (await readToolCards(page)).map((card) => `${card.toolName}:${card.callId}`);
      expect(afterCards.slice(0, beforeCards.length)).toEqual(beforeCards);
      expect(new Set(afterCards).size).toBe(afterCards.length);
      // The reloaded page's socket got the events numbered without gaps from where it asked to start.
      const welcomes = session.received.flatMap((message, index) => (message.type === "welcome" ? [index] : []));
      expect(welcomes.length).toBe(2);
      const replayed = session.received.slice(welcomes[1]).flatMap((message) => (message.type === "event" ? [message.seq] : []));
      expect(replayed.length).toBeGreaterThan(0);
      expect(replayed).toEqual(replayed.map((_, index) => replayed[0]! + index));
      const afterAssistant = await readTexts(page, PAGE_TEST_IDS.assistantMessage);
      expect(afterAssistant.slice(0, beforeAssistant.length)).toEqual(beforeAssistant);
      expect(await waitForTurnStatus(page, "running")).toBe("running");

      // Live output continues on the reloaded page, in order and without duplicates.
      const liveLines = await waitForShellOutputLines(page, replayedLines.length + 2);
      expect(new Set(liveLines).size).toBe(liveLines.length);
      const numbers = liveLines.slice(1).map((line) => Number(/^line (\d+) of 120$/.exec(line)?.[1]));
      expect(numbers).toEqual(numbers.map((_, index) => index + 1));
      await saveScreenshot(page, "reload");

      // The reloaded page can stop the turn it did not start.
      await byTestId(page, PAGE_TEST_IDS.stopButton).click();
      expect(await waitForTurnStatus(page, "aborted", "answered", "model-error", "max-turns")).toBe("aborted");
    });
  });
});
