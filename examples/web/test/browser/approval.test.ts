/**
 * Approval from the page: the demo's Write asks first. Approving runs the
 * call (the file appears in the workspace); denying shows the refusal on the
 * card and leaves the workspace as it was.
 */
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { PAGE_TEST_IDS } from "../../src/protocol/page-test-ids.js";
import { BROWSER_TEST_TIMEOUT_MS, useChromium, withExampleSession } from "./harness/browser-suite.js";
import { byTestId, readTexts, saveScreenshot, sendMessage, shownText, waitForToolCard, waitForTurnStatus } from "./harness/chat-page.js";
import { chromiumAvailability } from "./harness/chromium.js";

/** The file the demo's "approve" flow writes (relative to the workspace). */
const NOTE_FILE = "approved-note.txt";

const availability = chromiumAvailability();

/** Sends the "approve" prompt and waits for the approval prompt of the Write; returns it. */
async function askForTheWrite(page: Page): Promise<void> {
  await sendMessage(page, "please approve a note");
  const prompt = byTestId(page, PAGE_TEST_IDS.approvalPrompt);
  await prompt.waitFor({ state: "visible" });
  const text = await shownText(prompt);
  expect(text).toContain("Write");
  expect(text).toContain(NOTE_FILE);
}

describe.skipIf(availability.skip)("web example in Chromium: approval", { timeout: BROWSER_TEST_TIMEOUT_MS }, () => {
  const browser = useChromium();

  it("runs the call after the user approves it", async () => {
    await withExampleSession(browser(), "approval-approve", async (session) => {
      const { page, workspace } = session;
      await askForTheWrite(page);
      // Nothing is written while the question is open.
      expect(existsSync(path.join(workspace.workdir, NOTE_FILE))).toBe(false);
      await saveScreenshot(page, "approval-prompt");

      await byTestId(page, PAGE_TEST_IDS.approveButton).click();
      await byTestId(page, PAGE_TEST_IDS.approvalPrompt).waitFor({ state: "detached" });
      expect(await waitForTurnStatus(page, "answered", "aborted", "model-error", "max-turns")).toBe("answered");
      const card = await waitForToolCard(page, "the Write card", (candidate) => candidate.toolName === "Write");
      expect(card.status).toBe("done");
      expect(workspace.read(NOTE_FILE)).toContain("Written after the user approved it");
      expect((await readTexts(page, PAGE_TEST_IDS.assistantMessage)).at(-1)).toContain(`You approved it: I wrote ${NOTE_FILE}`);
      await saveScreenshot(page, "approval-approved");
    });
  });

  it("shows the refusal and changes nothing when the user denies", async () => {
    await withExampleSession(browser(), "approval-deny", async (session) => {
      const { page, workspace } = session;
      const filesBefore = listFiles(workspace.workdir);
      await askForTheWrite(page);

      await byTestId(page, PAGE_TEST_IDS.denyButton).click();
      await byTestId(page, PAGE_TEST_IDS.approvalPrompt).waitFor({ state: "detached" });
      expect(await waitForTurnStatus(page, "answered", "aborted", "model-error", "max-turns")).toBe("answered");
      const card = await waitForToolCard(page, "the Write card", (candidate) => candidate.toolName === "Write");
      expect(card.status).toBe("error");
      expect(card.text).toMatch(/declined/i);
      expect((await readTexts(page, PAGE_TEST_IDS.assistantMessage)).at(-1)).toContain("The Write was not done");
      expect(existsSync(path.join(workspace.workdir, NOTE_FILE))).toBe(false);
      expect(listFiles(workspace.workdir)).toEqual(filesBefore);
      await saveScreenshot(page, "approval-denied");
    });
  });
});

/** Every file under `directory`, relative and sorted. */
function listFiles(directory: string): string[] {
  return (readdirSync(directory, { recursive: true, withFileTypes: true }) as import("node:fs").Dirent[])
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(directory, path.join(entry.parentPath, entry.name)))
    .sort();
}
