/**
 * How the page renders what a person reads: a Bash card whose session ended
 * says so, a failed Edit shows its error and no diff, the assistant's
 * Markdown is rendered without letting the model's HTML or script links
 * into the page, and all of it fits a phone's width.
 */
import { SAMPLE_BUGGY_FILE } from "@agent-tools/example-cli/demo/sample-project";
import { describe, expect, it } from "vitest";
import { PAGE_TEST_IDS } from "../../src/protocol/page-test-ids.js";
import { BROWSER_TEST_TIMEOUT_MS, useChromium, withExampleSession } from "./harness/browser-suite.js";
import { PAGE_TIMEOUT_MS, byTestId, readToolCards, saveScreenshot, sendMessage, shownText, toolCardOf, waitForTurnStatus } from "./harness/chat-page.js";
import { chromiumAvailability } from "./harness/chromium.js";
import { readOverflow } from "./harness/page-geometry.js";

const availability = chromiumAvailability();

async function runTurn(page: import("playwright-core").Page, text: string, turn: number): Promise<void> {
  await sendMessage(page, text);
  await expect.poll(() => byTestId(page, PAGE_TEST_IDS.userMessage).count(), { timeout: PAGE_TIMEOUT_MS }).toBe(turn);
  expect(await waitForTurnStatus(page, "answered", "aborted", "model-error", "max-turns")).toBe("answered");
}

describe.skipIf(availability.skip)("web example in Chromium: rendering", { timeout: BROWSER_TEST_TIMEOUT_MS }, () => {
  const browser = useChromium();

  it("a finished Bash session's card drops 'running'; a failed Edit shows its error, not a diff", async () => {
    await withExampleSession(browser(), "cards", async (session) => {
      const { page } = session;
      await runTurn(page, "fix the discount bug", 1);
      const bash = (await readToolCards(page)).find((card) => card.toolName === "Bash")!;
      const facts = byTestId(toolCardOf(page, bash.callId), PAGE_TEST_IDS.toolResult);
      // The Bash call itself returned while the tests still ran; ProcessWait saw them complete.
      expect(await facts.getAttribute("data-shell-status")).toBe("completed");
      expect(await shownText(facts)).not.toMatch(/running/);
      expect(await shownText(facts)).toContain("exit 0");

      await runTurn(page, "now a broken edit please", 2);
      const edit = (await readToolCards(page)).filter((card) => card.toolName === "Edit").at(-1)!;
      expect(edit.status).toBe("error");
      const editCard = toolCardOf(page, edit.callId);
      expect(await byTestId(editCard, PAGE_TEST_IDS.editDiff).count()).toBe(0);
      const error = byTestId(editCard, PAGE_TEST_IDS.toolResult);
      expect(await error.getAttribute("data-error")).toBe("true");
      expect(await shownText(error)).toMatch(/^error: /);
      expect(await shownText(error)).toMatch(/not found|no match|could not find/i);
      await editCard.scrollIntoViewIfNeeded();
      await saveScreenshot(page, "cards");
      // The file was not touched by the failed Edit (the fix of turn 1 is still there).
      expect(session.workspace.read(SAMPLE_BUGGY_FILE)).toContain("(amount * percent) / 100");
    });
  });

  it("renders Markdown, and the model's raw HTML and javascript: links stay inert text", async () => {
    await withExampleSession(browser(), "markdown", async (session) => {
      const { page } = session;
      const dialogs: string[] = [];
      page.on("dialog", (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
      await runTurn(page, "show me markdown", 1);
      const markdown = byTestId(page, PAGE_TEST_IDS.assistantMarkdown).last();
      // Rendered: a heading, both lists, a code block, inline code, a working link.
      expect(await markdown.locator("h2").count()).toBe(1);
      expect(await markdown.locator("ul > li").count()).toBe(3);
      expect(await markdown.locator("ol > li").count()).toBe(2);
      expect(await shownText(markdown.locator("pre > code"))).toContain("return amount - (amount * percent) / 100;");
      expect(await shownText(markdown.locator("strong").first())).toBe("bold");
      const safe = markdown.locator("a", { hasText: "safe link" });
      expect(await safe.getAttribute("href")).toBe("https://example.org/docs");
      expect(await safe.getAttribute("target")).toBe("_blank");
      expect(await safe.getAttribute("rel")).toBe("noopener noreferrer");
      // Only that link is a link: the javascript: one has no href anywhere.
      const hrefs = await markdown.locator("a").evaluateAll((links) => links.map((link) => link.getAttribute("href")));
      expect(hrefs.filter((href) => href !== null)).toEqual(["https://example.org/docs"]);
      expect(await shownText(markdown)).toContain("script link");
      // Raw HTML is shown as text, and none of it became an element or ran.
      const text = await shownText(markdown);
      expect(text).toContain('<img src=x onerror="window.__xss=1">');
      expect(text).toContain("<script>window.__xss=2</script>");
      expect(await markdown.locator("img, script, b, [onerror], [onclick]").count()).toBe(0);
      expect(await page.locator("img, [onerror], [onclick]").count()).toBe(0);
      await markdown.getByText("script link").click();
      expect(await page.evaluate(() => (window as { __xss?: unknown }).__xss)).toBeUndefined();
      expect(dialogs).toEqual([]);
      expect(page.context().pages()).toHaveLength(1);
      await saveScreenshot(page, "markdown");
    });
  });

  it("fits a 390 px phone: no sideways scroll of the page, cards and code scroll inside, the input is usable", async () => {
    await withExampleSession(browser(), "phone", async (session) => {
      const { page } = session;
      await page.setViewportSize({ width: 390, height: 844 });
      await runTurn(page, "fix the discount bug", 1);
      await runTurn(page, "markdown", 2);
      await runTurn(page, "broken edit", 3);
      const overflow = await readOverflow(page);
      expect(overflow.sticking, "elements outside the 390 px window").toEqual([]);
      expect(overflow.scrollWidth).toBeLessThanOrEqual(overflow.viewport);
      // The code block is narrower than the window and scrolls sideways inside itself.
      const pre = byTestId(page, PAGE_TEST_IDS.assistantMarkdown).locator("pre").first();
      const box = await pre.evaluate((element) => ({ client: element.clientWidth, scroll: element.scrollWidth }));
      expect(box.scroll).toBeGreaterThan(box.client);
      expect(box.client).toBeLessThan(390);
      // The input and the send button are on screen and work.
      const input = byTestId(page, PAGE_TEST_IDS.chatInput);
      const inputBox = (await input.boundingBox())!;
      expect(inputBox.width).toBeGreaterThan(150);
      expect(inputBox.x + inputBox.width).toBeLessThanOrEqual(390);
      const send = (await byTestId(page, PAGE_TEST_IDS.sendButton).boundingBox())!;
      expect(send.x + send.width).toBeLessThanOrEqual(390);
      await runTurn(page, "hello", 4);
      await saveScreenshot(page, "phone");
    });
  });
});
