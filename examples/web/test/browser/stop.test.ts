/**
 * The stop button: the demo's long command streams a line a second into the
 * shell cards; stop ends the turn as aborted and the command's whole process
 * tree is gone.
 */
import { describe, expect, it } from "vitest";
import { PAGE_TEST_IDS } from "../../src/protocol/page-test-ids.js";
import { BROWSER_TEST_TIMEOUT_MS, useChromium, withExampleSession } from "./harness/browser-suite.js";
import {
  byTestId,
  readShellOutputLines,
  readToolCards,
  saveScreenshot,
  sendMessage,
  toolCardOf,
  waitForShellOutputLines,
  waitForTurnStatus,
} from "./harness/chat-page.js";
import { chromiumAvailability } from "./harness/chromium.js";
import { findWorkspaceProcesses, isProcessAlive } from "./harness/processes.js";
import { waitUntil } from "./harness/wait-until.js";

const availability = chromiumAvailability();

describe.skipIf(availability.skip)("web example in Chromium: stop", { timeout: BROWSER_TEST_TIMEOUT_MS }, () => {
  const browser = useChromium();

  it("stops a streaming Bash session and kills its process tree", async () => {
    await withExampleSession(browser(), "stop", async (session) => {
      const { page, workspace } = session;
      await sendMessage(page, "run the long job");
      // The command prints its shell's pid, then "line N of 120" once a second.
      const before = await waitForShellOutputLines(page, 3);
      const shellPid = Number(/^pid (\d+)$/.exec(before[0] ?? "")?.[1]);
      expect(shellPid, `the first output line names the shell's pid: ${before[0]}`).toBeGreaterThan(1);
      expect(before.slice(1, 3)).toEqual(["line 1 of 120", "line 2 of 120"]);
      expect(await waitForTurnStatus(page, "running")).toBe("running");

      // The command's processes (the shell and its sleep) run in this test's own workspace.
      const processes = findWorkspaceProcesses(workspace.workdir);
      expect(processes.map((process) => process.pid)).toContain(shellPid);
      await saveScreenshot(page, "stop-running");

      await byTestId(page, PAGE_TEST_IDS.stopButton).click();
      expect(await waitForTurnStatus(page, "aborted", "answered", "model-error", "max-turns")).toBe("aborted");
      const cards = await readToolCards(page);
      expect(cards[0]?.toolName).toBe("Bash");
      // No card still runs; the call that was following the session when stop came shows the session as
      // cancelled (either the call itself was cancelled, or it returned the killed session's status).
      expect(cards.filter((card) => card.status === "running")).toEqual([]);
      const last = cards.at(-1)!;
      const shellStatus = await toolCardOf(page, last.callId).locator(`[data-testid="${PAGE_TEST_IDS.toolResult}"]`).getAttribute("data-shell-status");
      expect(
        last.status === "cancelled" || shellStatus === "cancelled" || shellStatus === "killed",
        `last card ${last.toolName} ${last.status}, session ${shellStatus}`,
      ).toBe(true);

      // Every process of the tree ends (zombies count as ended).
      await waitUntil("the long command's process tree to end", () => processes.every((process) => !isProcessAlive(process.pid)));
      expect(findWorkspaceProcesses(workspace.workdir)).toEqual([]);
      // What streamed before the stop is still shown.
      const after = await readShellOutputLines(page);
      expect(after.slice(0, before.length)).toEqual(before);
      await saveScreenshot(page, "stop");
    });
  });
});
