/**
 * The scripted demo in a real browser: a person asks for the fix and watches
 * the plan, the search, the edit with its diff, the test run streaming and
 * the final answer; the file on disk ends up fixed.
 */
import { SAMPLE_BUGGY_FILE, SAMPLE_BUGGY_LINE, SAMPLE_FIXED_LINE, readSampleFixState, runSampleTests } from "@agent-tools/example-cli/demo/sample-project";
import { describe, expect, it } from "vitest";
import { PAGE_TEST_IDS } from "../../src/protocol/page-test-ids.js";
import { BROWSER_TEST_TIMEOUT_MS, useChromium, withExampleSession } from "./harness/browser-suite.js";
import {
  PAGE_TIMEOUT_MS,
  byTestId,
  readTaskItems,
  readTexts,
  readToolCards,
  saveScreenshot,
  sendMessage,
  shownText,
  toolCardOf,
  waitForTurnStatus,
} from "./harness/chat-page.js";
import { chromiumAvailability } from "./harness/chromium.js";
import { conversationEvents } from "./harness/example-session.js";

const availability = chromiumAvailability();

describe.skipIf(availability.skip)("web example in Chromium: the scripted fix", { timeout: BROWSER_TEST_TIMEOUT_MS }, () => {
  const browser = useChromium();

  it("shows the whole fix session and fixes the file on disk", async () => {
    await withExampleSession(browser(), "demo-fix", async (session) => {
      const { page, workspace } = session;
      const prompt = "Please fix the discount bug in the cart";
      await sendMessage(page, prompt);

      // The user's own message is shown at once, the turn runs, then ends answered.
      await expect.poll(() => readTexts(page, PAGE_TEST_IDS.userMessage), { timeout: PAGE_TIMEOUT_MS }).toEqual([expect.stringContaining(prompt)]);
      expect(await waitForTurnStatus(page, "answered", "aborted", "model-error", "max-turns")).toBe("answered");

      // Tool cards in the order the model asked for them, every one finished.
      const cards = await readToolCards(page);
      const names = cards.map((card) => card.toolName);
      expect(names.filter((name) => name !== "TaskUpdate")).toEqual(expect.arrayContaining(["TaskCreate", "Glob", "Grep", "Read", "Edit", "Bash"]));
      const order = ["TaskCreate", "TaskCreate", "TaskCreate", "Glob", "Grep", "Read", "Edit", "Bash"];
      expect(isSubsequence(order, names), `cards in order ${order.join(", ")}; the page shows ${names.join(", ")}`).toBe(true);
      expect(cards.filter((card) => card.status !== "done").map((card) => `${card.toolName} ${card.status}`)).toEqual([]);
      expect(new Set(cards.map((card) => card.callId)).size).toBe(cards.length);

      // The Edit card: the removed and the added line, and how the edit matched (LF old_string on a CRLF file).
      const edit = cards.find((card) => card.toolName === "Edit")!;
      const editCard = toolCardOf(page, edit.callId);
      const diff = await shownText(byTestId(editCard, PAGE_TEST_IDS.editDiff));
      expect(diffLines(diff, "-")).toEqual(expect.arrayContaining([expect.stringContaining(SAMPLE_BUGGY_LINE)]));
      expect(diffLines(diff, "+")).toEqual(expect.arrayContaining([expect.stringContaining(SAMPLE_FIXED_LINE)]));
      expect(await shownText(byTestId(editCard, PAGE_TEST_IDS.editStrategy))).toMatch(/line[- ]endings/i);

      // The task list: the three planned tasks, all completed at the end.
      const taskList = byTestId(page, PAGE_TEST_IDS.taskList).last();
      const tasks = await readTaskItems(taskList);
      expect(tasks.map((task) => task.text)).toEqual([
        expect.stringContaining("Find the discount bug"),
        expect.stringContaining("Fix applyDiscount"),
        expect.stringContaining("Run the tests"),
      ]);
      expect(tasks.map((task) => task.status)).toEqual(["completed", "completed", "completed"]);

      // The test run: Bash started it as a session; its output (streamed, then followed by ProcessWait) shows the passing tests.
      const shellCards = cards.filter((card) => card.toolName === "Bash" || card.toolName === "ProcessWait");
      const shellOutput = (await Promise.all(shellCards.map((card) => byTestId(toolCardOf(page, card.callId), PAGE_TEST_IDS.toolOutput).allInnerTexts())))
        .flat()
        .join("\n");
      expect(shellOutput).toMatch(/pass 7\b/);
      expect(shellOutput).toMatch(/fail 0/);
      const events = conversationEvents(session.received);
      const bashStart = events.find((event) => event.type === "tool-start" && event.toolName === "Bash");
      const streamed = events.filter((event) => event.type === "tool-output" && (event.toolName === "Bash" || event.toolName === "ProcessWait"));
      expect(bashStart, "a Bash tool-start event").toBeDefined();
      expect(streamed.length, "Bash output arrives as tool-output events while it runs").toBeGreaterThan(0);

      // Assistant text streamed in pieces, and the final answer on the page.
      const deltas = events.filter((event) => event.type === "model-text-delta");
      expect(deltas.length).toBeGreaterThan(5);
      const assistant = await readTexts(page, PAGE_TEST_IDS.assistantMessage);
      expect(assistant.join("\n")).toContain("plan the work");
      expect(assistant.at(-1)).toContain(`Fixed the discount bug in ${SAMPLE_BUGGY_FILE}`);

      // On disk: fixed, CRLF kept, and the sample's own tests pass.
      expect(readSampleFixState(workspace.workdir)).toEqual({ fixed: true, crlfKept: true });
      const tests = runSampleTests(workspace.workdir);
      expect(tests.passed, tests.summary).toBe(true);

      await saveScreenshot(page, "demo-fix");
    });
  });
});

/** Whether `wanted` appears in `names` in this order (other names may be between). */
function isSubsequence(wanted: readonly string[], names: readonly string[]): boolean {
  let index = 0;
  for (const name of names) if (name === wanted[index]) index += 1;
  return index === wanted.length;
}

/** The lines of a rendered diff that start with `sign` (after optional spaces), without it. */
function diffLines(diff: string, sign: "+" | "-"): string[] {
  return diff
    .split("\n")
    .map((line) => line.trimStart())
    .filter((line) => line.startsWith(sign) && !line.startsWith(sign.repeat(3)))
    .map((line) => line.slice(1));
}
